"""Napoleon (RULES.md section 4): every rule played once and refused once."""

from __future__ import annotations

import pytest

from termsolitaire.rules import IllegalMove, from_text, info, new_game
from termsolitaire.rules.cards import Card, pack
from termsolitaire.rules.deal import shuffled
from termsolitaire.rules.napoleon import ROUNDS

from .helpers import played, refused

# Aces partly built (spades to 3, diamonds to 2); p2 and p3 empty.
MID = """\
game: napoleon
p1: KS QH
p2: -
p3: -
p4: 5D 4S
p5: JC TH 9S
p6: 9C 8H
p7: KD 3D
p8: 6H KH
p9: 2H 6C 7H
p10: 8C 7D 5S
p11: 3C 7C 8D QD JS 4H
p12: 7S JH 6D
p13: KC QC 9D TC
p14: 9H 2C 3H 4D
p15: 4C 5C 6S JD TD
p16: 8S TS QS 5H
f1: AS 2S 3S
f2: AH
f3: AD 2D
f4: AC
"""


@pytest.fixture
def mid():
    return from_text(MID)


def test_deal_puts_aces_out_and_deals_five_rounds_clockwise():
    g = new_game("napoleon", deal=7)
    for f, suit in zip(("f1", "f2", "f3", "f4"), "SHDC", strict=True):
        assert g.pile(f) == ((Card(1, suit), True),)
    order = shuffled([c for c in pack() if c.rank != 1], info("napoleon").stream, 7)
    expect: dict[int, list[Card]] = {p: [] for p in range(1, 17)}
    it = iter(order)
    for rnd in ROUNDS:
        for p in rnd:
            expect[p].append(next(it))
    for p in range(1, 17):
        assert [c for c, up in g.pile(f"p{p}")] == expect[p]
        assert all(up for _, up in g.pile(f"p{p}"))
    sizes = [len(g.pile(f"p{p}")) for p in range(1, 17)]
    assert sizes == [5, 2, 3, 2] * 4  # compass 5, between 2, diagonal 3
    assert ROUNDS[0] == (1, 5, 9, 13) and ROUNDS[1] == tuple(range(1, 17, 2))


def test_score_is_cards_on_foundations(mid):
    assert new_game("napoleon", deal=1).score == 4
    assert mid.score == 7


def test_alternate_colour_down_by_one(mid):
    played(mid, "p6-p5")  # 8♥ on 9♠
    assert [str(c) for c, _ in mid.pile("p5")][-2:] == ["9S", "8H"]


def test_same_colour_refused(mid):
    refused(mid, "p16-p12", "black card", "6♦")  # 5♥ on 6♦


def test_wrong_rank_refused(mid):
    refused(mid, "p10-p8", "one rank higher (a 6)", "K♥")  # 5♠ on K♥


def test_both_causes_are_said(mid):
    """5♥ on 8♥ breaks both rules: the refusal names both (issue 9.16)."""
    reason = refused(mid, "p16-p6")  # 5♥ on 8♥
    assert reason == "5♥ goes on a black card one rank higher (a 6), not on 8♥"


def test_foundation_up_in_suit(mid):
    played(mid, "p4-f1")  # 4♠ on 3♠
    played(mid, "p7-f3")  # 3♦ on 2♦
    played(mid, "p14-f3")  # 4♦ on 3♦
    assert mid.score == 10


def test_foundation_wrong_suit_refused(mid):
    refused(mid, "p4-f2", "same suit only")


def test_foundation_wrong_rank_refused(mid):
    refused(mid, "p10-f1", "Next on the A♠ foundation is the 4♠")


def test_king_to_empty_position(mid):
    played(mid, "p8-p2")
    assert [str(c) for c, _ in mid.pile("p2")] == ["KH"]


def test_only_king_on_empty_position(mid):
    refused(mid, "p6-p2", "Only a king can go on an empty position")


def test_one_card_at_a_time(mid):
    # 9♠ 8♥ would make a fine pair, but only one card moves.
    played(mid, "p6-p5")
    refused(mid, "p5-p2:2", "Only one card moves at a time")


def test_foundation_cards_never_move(mid):
    refused(mid, "f1-p2", "never move")


def test_empty_source_refused(mid):
    refused(mid, "p2-p3", "p2 is empty")


@pytest.mark.parametrize("move", ["deal", "collect", "turn p1"])
def test_no_stock_actions(mid, move):
    refused(mid, move, "Napoleon has no")


def test_unknown_pile_and_bad_text(mid):
    refused(mid, "p17-p1", "no pile 'p17'")
    refused(mid, "t1-t2", "no pile 't1'")
    refused(mid, "p1 p2", "Cannot read move")
    with pytest.raises(IllegalMove):
        mid.play("")


def _all_but_king_of_clubs() -> str:
    lines = ["game: napoleon", "p1: KC"] + [f"p{i}: -" for i in range(2, 17)]
    for f, s in zip(("f1", "f2", "f3", "f4"), "SHDC", strict=True):
        top = 12 if s == "C" else 13
        lines.append(f"{f}: " + " ".join(str(Card(r, s)) for r in range(1, top + 1)))
    return "\n".join(lines) + "\n"


def test_won_when_all_cards_on_aces():
    g = from_text(_all_but_king_of_clubs())
    assert not g.is_won
    played(g, "p1-f4")
    assert g.is_won and g.score == 52 and not g.is_stuck and g.legal_moves() == []


def _blocked(lone_king: bool) -> str:
    """Every top card black and no 2 or king on top: nothing fits anywhere, except
    (with ``lone_king``) K♣ alone on p1 beside the empty p2."""
    tops = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "3C", "4C", "5C", "6C"]
    unders = ["2S", "KS", "2C", "7C", "8C", "9C", "TC", "JC", "QC"]
    unders += [str(Card(r, s)) for s in "HD" for r in range(2, 14)]
    if lone_king:
        piles = {"p1": ["KC"], "p2": []}
    else:
        tops += ["7C", "8C"]
        unders = [u for u in unders if u not in ("7C", "8C")] + ["KC"]
        piles = {}
    free = [f"p{i}" for i in range(1, 17) if f"p{i}" not in piles]
    for p in free:
        piles[p] = []
    i = 0
    while unders:
        piles[free[i % len(free)]].append(unders.pop())
        i += 1
    for p, top in zip(free, tops, strict=True):
        piles[p].append(top)
    lines = ["game: napoleon"] + [f"p{i}: {' '.join(piles[f'p{i}']) or '-'}" for i in range(1, 17)]
    lines += ["f1: AS", "f2: AH", "f3: AD", "f4: AC"]
    return "\n".join(lines) + "\n"


def test_stuck_when_no_move_at_all():
    g = from_text(_blocked(lone_king=False))
    assert g.legal_moves() == [] and g.is_stuck


def test_stuck_when_every_move_goes_back_along_the_line():
    g = from_text(_blocked(lone_king=True))
    assert [str(m) for m in g.legal_moves()] == ["p1-p2"]
    assert not g.is_stuck  # the king's move reaches a new position
    g.play("p1-p2")
    assert [str(m) for m in g.legal_moves()] == ["p2-p1"]
    assert g.is_stuck  # going back only returns to the start position
    g.undo()
    assert not g.is_stuck


def test_undo_and_redo_are_unlimited(mid):
    start = mid.to_text()
    for m in ["p6-p5", "p4-f1", "p7-f3", "p14-f3", "p8-p2"]:
        played(mid, m)
    end = mid.to_text()
    while mid.can_undo:
        mid.undo()
    assert mid.to_text() == start
    with pytest.raises(IllegalMove, match="Nothing to undo"):
        mid.undo()
    while mid.can_redo:
        mid.redo()
    assert mid.to_text() == end
    with pytest.raises(IllegalMove, match="Nothing to redo"):
        mid.redo()
