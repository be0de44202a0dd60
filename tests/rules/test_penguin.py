"""Penguin (RULES.md section 2): every rule played once and refused once."""

from __future__ import annotations

import pytest

from termsolitaire.rules import from_text, info, new_game
from termsolitaire.rules.cards import SUITS, Card, pack
from termsolitaire.rules.deal import shuffled

from .helpers import played, refused

# Beak J (so T fills an empty column). Spades built J Q K; clubs' foundation
# waits for the fourth beak card J♣ on top of t7. t4 is empty.
MID = """\
game: penguin
beak: J
t1: 2S 3S 4S 5S 9H 2D AS
t2: TS 2H 5H 6H 5C 8S 7S 6S
t3: 7H 8H TH QH 4H 9S
t4: -
t5: AD 3D 4D 5D 2C TD 9D 8D
t6: 6D 7D QD KD 6C AH
t7: KC AC 3C 4C 7C 8C 9C TC QC JC
c1: KH
c2: 3H
c3: -
c4: -
c5: -
c6: -
c7: -
f1: JS QS KS
f2: JH
f3: JD
f4: -
"""


@pytest.fixture
def mid():
    return from_text(MID)


@pytest.mark.parametrize("deal", range(10))
def test_beak_from_the_deal(deal):
    g = new_game("penguin", deal=deal)
    fourth = shuffled(pack(), info("penguin").stream, deal)[0]
    assert g.beak == fourth.rank
    assert g.pile("t1")[0] == (fourth, True)  # at the very bottom of the first column
    for f, suit in zip(("f1", "f2", "f3", "f4"), SUITS, strict=True):
        expect = () if suit == fourth.suit else ((Card(fourth.rank, suit), True),)
        assert g.pile(f) == expect
    assert [len(g.pile(f"t{i}")) for i in range(1, 8)] == [7] * 7
    assert all(g.pile(f"c{i}") == () for i in range(1, 8))
    assert g.score == 3


def test_foundation_up_in_suit_wrapping_king_to_ace(mid):
    played(mid, "t1-f1")  # A♠ on K♠
    assert [str(c) for c, _ in mid.pile("f1")] == ["JS", "QS", "KS", "AS"]
    played(mid, "t1-c3")  # 2♦ and 9♥ out of the way
    played(mid, "t1-c4")
    refused(mid, "t1-f1", "Next on the ♠ foundation is the 2♠")  # 5♠
    assert mid.score == 6  # J Q K A of spades, the beak jacks of hearts and diamonds


def test_foundation_same_suit_only(mid):
    refused(mid, "t1-f2", "same suit only")


def test_fourth_beak_card_starts_the_last_foundation(mid):
    played(mid, "t7-f4")  # J♣
    played(mid, "t7-f4")  # Q♣


def test_empty_foundation_takes_only_the_beak_rank(mid):
    refused(mid, "t6-f4", "same suit only")
    mid_c = from_text(
        MID.replace("t7: KC AC 3C 4C 7C 8C 9C TC QC JC", "t7: KC AC 3C 4C 7C 8C 9C TC JC QC")
    )
    refused(mid_c, "t7-f4", "starts with the beak rank, J")


def test_column_down_in_suit(mid):
    played(mid, "t2-t3:3")  # 8♠ 7♠ 6♠ on 9♠
    assert [str(c) for c, _ in mid.pile("t3")][-4:] == ["9S", "8S", "7S", "6S"]


def test_column_wraps_ace_to_king(mid):
    played(mid, "c1-t6")  # K♥ on A♥
    assert mid.pile("c1") == ()


def test_column_other_suit_refused(mid):
    refused(mid, "t3-t5", "goes only on the T".replace("T", "10♠"))  # 9♠ on 8♦


def test_column_wrong_rank_refused(mid):
    refused(mid, "t2-t3", "6♠ goes only on the 7♠")
    refused(mid, "t2-t3:2", "7♠ (and the cards on it) goes only on the 8♠")


def test_any_tail_of_a_run_moves(mid):
    played(mid, "t2-c3")  # 6♠ to a cell
    played(mid, "t2-t3:2")  # 8♠ 7♠ (the rest of the run) on 9♠
    played(mid, "c3-t3")  # and 6♠ back on 7♠


def test_only_suit_sequences_move_together(mid):
    refused(mid, "t2-t3:4", "Only a suit sequence moves together")
    refused(mid, "t2-t3:9", "t2 has only 8 cards")


def test_empty_column_takes_beak_minus_one_with_its_run(mid):
    played(mid, "t5-t4:3")  # 10♦ 9♦ 8♦
    assert [str(c) for c, _ in mid.pile("t4")] == ["TD", "9D", "8D"]


def test_empty_column_refuses_other_ranks(mid):
    refused(mid, "t5-t4", "An empty column takes only a 10 (one below the beak J)")
    refused(mid, "c2-t4", "only a 10")


def test_card_to_empty_cell_each_cell_a_move(mid):
    moves = [str(m) for m in mid.legal_moves() if m.src == "t1" and m.dst.startswith("c")]
    assert moves == [f"t1-c{i}" for i in range(3, 8)]
    played(mid, "t1-c5")


def test_cell_holds_one_card(mid):
    refused(mid, "t1-c1", "Cell c1 is taken")
    refused(mid, "t2-c3:2", "A cell holds one card")


def test_cell_card_never_moves_to_another_cell(mid):
    refused(mid, "c1-c3", "cannot move to another cell")


def test_cell_card_to_foundation():
    g = from_text(
        MID.replace("c2: 3H", "c2: QH").replace("t3: 7H 8H TH QH 4H 9S", "t3: 7H 8H TH 3H 4H 9S")
    )
    played(g, "c2-f2")


def test_foundation_cards_never_move(mid):
    refused(mid, "f1-c3", "never move")


@pytest.mark.parametrize("move", ["deal", "collect", "turn t1"])
def test_no_stock_actions(mid, move):
    refused(mid, move, "Penguin has no")


def test_won():
    lines = ["game: penguin", "beak: J", "t1: TC"] + [f"t{i}: -" for i in range(2, 8)]
    lines += [f"c{i}: -" for i in range(1, 8)]
    for i, s in enumerate(SUITS, start=1):
        ranks = [(10 + k) % 13 + 1 for k in range(13 if s != "C" else 12)]
        lines.append(f"f{i}: " + " ".join(str(Card(r, s)) for r in ranks))
    g = from_text("\n".join(lines) + "\n")
    assert not g.is_won and g.score == 51
    played(g, "t1-f4")
    assert g.is_won and g.score == 52 and not g.is_stuck
