"""Stjernen (RULES.md section 1): every rule played once and refused once, the six rounds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.rules import Card, IllegalMove, Move, from_json, from_text, info, new_game
from termsolitaire.rules.cards import pack
from termsolitaire.rules.deal import shuffled
from termsolitaire.rules.stjernen import INNER, OUTER, UPTURNED, Stjernen

from .helpers import all_cards, played, refused

PILES = Stjernen.pile_names
RANKS_DOWN = "KQJT98765432A"


def full(suit: str) -> str:
    """A finished foundation: K down to A of ``suit``, twice."""
    run = " ".join(r + suit for r in RANKS_DOWN)
    return f"{run} {run}"


SPADES_HEARTS = {"f1": full("S"), "f2": full("H")}
"""Two finished foundations: what is left is 26 diamonds and 26 clubs."""
ALL_BUT_CLUBS = {**SPADES_HEARTS, "f3": full("D")}


def position_text(round: int | str = 1, **piles: str) -> str:
    """Position text with the given piles (as written) and the other cards filling
    the piles not named: foundations with whole suits no named pile uses (only as
    many as needed, spades first), inner-ring piles ten each (in card order), the
    stock face down (up to 60 with the upturned piles), then outer positions one
    card each."""
    left = Counter(pack() + pack())
    for text in piles.values():
        for w in text.split():
            if w != "-":
                left[Card.parse(w)] -= 1
    assert all(v >= 0 for v in left.values()), "a card named too often"
    rest = sorted(left.elements(), key=lambda c: c.code)
    free = [n for n in PILES if n not in piles]
    up = sum(len(piles.get(u, "-").replace("-", "").split()) for u in UPTURNED)
    room = sum(10 for n in free if n in INNER) + sum(1 for n in free if n in OUTER)
    room += 60 - up if "stock" in free else 0
    values = {}
    for f in (n for n in free if n.startswith("f")):
        whole = [suit for suit in "SHDC" if sum(c.suit == suit for c in rest) == 26]
        if len(rest) <= room or not whole:
            break
        values[f] = full(whole[0])
        rest = [c for c in rest if c.suit != whole[0]]
    for name in (n for n in free if n in INNER):
        values[name], rest = " ".join(map(str, rest[:10])), rest[10:]
    if "stock" in free:
        values["stock"] = " ".join(str(c).lower() for c in rest[: 60 - up])
        rest = rest[60 - up :]
    for name in (n for n in free if n in OUTER):
        if rest:
            values[name], rest = str(rest[0]), rest[1:]
    assert not rest, f"nowhere to put {len(rest)} cards"
    lines = ["game: stjernen", f"round: {round}"]
    lines += [f"{n}: {piles.get(n) or values.get(n) or '-'}" for n in PILES]
    return "\n".join(lines) + "\n"


def position(round: int = 1, **piles: str) -> Stjernen:
    g = from_text(position_text(round, **piles))
    assert isinstance(g, Stjernen)
    return g


def cards(g: Stjernen, name: str) -> str:
    return " ".join(str(c) if up else str(c).lower() for c, up in g.pile(name)) or "-"


def legal(g: Stjernen) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ------------------------------------------------------------------ the deal

DEAL_1 = """\
game: stjernen
deal: 1
round: 1
c: -
i1: JH JC 7S 2C 8C JD KS QC JS 5C
i2: 3C 6C TS 7H TH JC AD 8H 9C 6D
i3: 6C 5S AH JH 4S 2S 6D KC 6H 6S
i4: 4S TC 5D 3S AS 5H KH 2D AS KD
o1: KC
o2: 7H
o3: 3D
o4: 4D
f1: -
f2: -
f3: -
f4: -
u1: -
u2: -
u3: -
u4: -
u5: -
u6: -
stock: 9d qd qc th td kh 4c 3s qd 8d 6h 5s ad 5c jd 4c kd 2h qh 9s 9h tc 2c 4h 9s 5h qs 4h 6s 2h \
8s ks 7d 7c 3h 3c 2d js 7d 9h 7c 3d 9c ac ah td ac 7s 2s 9d 8d 5d qh 8s 3h qs 8h 4d ts 8c
"""

DEAL_2 = """\
game: stjernen
deal: 2
round: 1
c: -
i1: 2H 6D 9C 5C 2D TS QC 7C QC JD
i2: 6D 3D 6C TD 6S KS QH KS JS 4D
i3: 4C 5H 7S 3C 8H AS QH 2H 3C KD
i4: 9D 6C AD 9S AD 2C 9H 8S 9D AC
o1: QD
o2: 6H
o3: 3H
o4: 8C
f1: -
f2: -
f3: -
f4: -
u1: -
u2: -
u3: -
u4: -
u5: -
u6: -
stock: 5s 9s jh 4d 4h 8d th 4s 5s 9c 7d 7c 2d 5d 8s kc tc kc kh jc tc 3h 3s jd 8c 2s jc qs ah kd \
7h 3s 8d 8h qs 5h qd 7s 5c as 2c 6s 4c jh kh ah 2s ts 6h 5d 7h th 7d td 4h js 9h 3d ac 4s
"""


@pytest.mark.parametrize(("deal", "text"), [(1, DEAL_1), (2, DEAL_2)])
def test_deals_are_pinned(deal, text):
    g = new_game("stjernen", deal=deal)
    assert g.to_text() == text.replace(" \\\n", " ")
    assert legal(g) == (
        {"o1-f1", "o1-f2", "o1-f3", "o1-f4", "o4-o3", "deal"} if deal == 1 else {"deal"}
    )


@pytest.mark.parametrize("deal", [0, 1, 5, 12345])
def test_deal_follows_the_documented_order(deal):
    order = shuffled(pack() + pack(), info("stjernen").stream, deal)
    g = new_game("stjernen", deal=deal)
    for k, name in enumerate(INNER):
        assert g.pile(name) == tuple((c, True) for c in order[k:40:4])
    for k, name in enumerate(OUTER):
        assert g.pile(name) == ((order[40 + k], True),)
    assert g.pile("stock") == tuple((c, False) for c in reversed(order[44:]))
    assert all(g.pile(n) == () for n in ("c", "f1", "f2", "f3", "f4", *UPTURNED))
    assert (g.round, g.row_width, g.score, g.history) == (1, 6, 0, ())
    g.play("deal")
    assert [g.pile(u)[0][0] for u in UPTURNED] == order[44:50]


def test_same_deal_same_position_and_deals_differ():
    assert new_game("stjernen", deal=9).to_text() == new_game("stjernen", deal=9).to_text()
    assert new_game("stjernen", deal=9).to_text() != new_game("stjernen", deal=10).to_text()


def test_the_api_example_reads_back_exactly():
    lines = [
        "game: stjernen",
        "round: 1",
        "c: -",
        "i1: AH 4C 3H TS 8C 7S 2S 9H KD KC",
        "i2: 2D QH JS 3C 3H 2H AS 5S 8D 5D",
        "i3: 4H 9S 8H AD 8S 9S 9H QS 7D 6D",
        "i4: QD 6C 5D 6C QC JS 7C JC 9C QC",
        "o1: 4S",
        "o2: JD",
        "o3: KS",
        "o4: JD",
        *(f"{n}: -" for n in ("f1", "f2", "f3", "f4", *UPTURNED)),
        "stock: jh ac 2c 6h ad 6s qh 8s 9d 7d 8c 3s kc 4h kd ts 3d th 7s tc 3c 5c 6h 8d 7h th "
        "5c qd 8h as 9c 6s 7c 2s 2c kh 7h td kh ks 4d 2d ac jc 5s 3s jh qs 5h 9d ah tc 5h 3d "
        "6d td 4c 4s 2h 4d",
    ]
    text = "\n".join(lines) + "\n"
    g = from_text(text)
    assert g.to_text() == text
    assert legal(g) == {"o3-f1", "o3-f2", "o3-f3", "o3-f4", "deal"}


# ---------------------------------------------------------------- the centre


def test_an_ace_starts_the_centre_and_it_builds_up_in_suit():
    g = position(c="-", o1="AH", u1="2H", u2="AS", u3="4H", u4="3D")
    refused(g, "u1-c", "Only an ace can start the centre pile")
    played(g, "o1-c")
    refused(g, "u2-c", "A♠ cannot go on A♥: suit must be followed")
    played(g, "u1-c")
    refused(g, "u3-c", "Next on the centre pile is the 3♥")
    refused(g, "u4-c", "3♦ cannot go on 2♥: suit must be followed")
    assert cards(g, "c") == "AH 2H"


def test_the_centre_stops_at_the_king():
    g = position(c="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS", u1="KS", u2="AS")
    played(g, "u1-c")
    refused(g, "u2-c", "The centre pile is complete up to the king")


def test_centre_cards_go_to_the_foundations_only_and_then_an_ace_starts_it_again():
    g = position(
        c="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", o1="-", o2="AH", u1="2S", f1="-", f2="-"
    )
    assert legal(g) >= {"c-f1", "c-f2", "c-f3", "c-f4"}
    refused(g, "c-o1", "The centre pile's cards go only to the foundations")
    for _ in range(13):
        played(g, "c-f2")
    assert cards(g, "f2") == " ".join(r + "S" for r in RANKS_DOWN)
    refused(g, "u1-c", "Only an ace can start the centre pile")
    played(g, "o2-c")
    assert cards(g, "c") == "AH"


def test_inner_ring_cards_do_not_go_to_the_centre():
    g = position(c="-", i2="AD")
    refused(g, "i2-c", "An inner-ring card goes only to its own outer position (o2)")


# ------------------------------------------------------------- the outer ring


def test_an_empty_outer_position_takes_any_card_from_where_the_table_allows():
    g = position(o1="-", o2="-", o3="9C", o4="-", u1="7D", i2="KD", i4="3C")
    assert {"u1-o1", "u1-o2", "u1-o4", "o3-o1", "o3-o2", "o3-o4", "i2-o2", "i4-o4"} <= legal(g)
    played(g, "u1-o1")
    played(g, "o3-o2")
    played(g, "i4-o4")
    refused(g, "i2-o2", "K♦ cannot go on 9♣: suit must be followed")
    assert (cards(g, "o1"), cards(g, "o2"), cards(g, "o3"), cards(g, "o4")) == (
        "7D",
        "9C",
        "-",
        "3C",
    )


def test_the_outer_ring_builds_up_in_suit_to_the_king():
    g = position(o1="4S", o2="QD", o3="KD", u1="5S", u2="5H", u3="7S", u4="KD", u5="AD")
    played(g, "u1-o1")
    refused(g, "u2-o1", "5♥ cannot go on 5♠: suit must be followed")
    refused(g, "u3-o1", "Next on o1 is the 6♠")
    played(g, "u4-o2")
    refused(g, "u5-o3", "o3 is complete up to the king")
    refused(g, "u5-o2", "o2 is complete up to the king")
    assert (cards(g, "o1"), cards(g, "o2")) == ("4S 5S", "QD KD")


def test_outer_cards_go_to_the_centre_other_outer_positions_and_foundations():
    g = position(c="AC", o1="2C", o2="KH", o3="QH", o4="-", f1="-")
    assert {"o1-c", "o1-o4", "o2-o4", "o2-f1", "o3-o4"} <= legal(g)
    played(g, "o1-c")
    played(g, "o2-f1")
    played(g, "o3-f1")
    assert (cards(g, "c"), cards(g, "f1"), cards(g, "o2"), cards(g, "o3")) == (
        "AC 2C",
        "KH QH",
        "-",
        "-",
    )


# ------------------------------------------------------------- the inner ring


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_an_inner_card_goes_only_to_its_own_outer_position(n):
    i, o = f"i{n}", f"o{n}"
    other = f"o{n % 4 + 1}"
    piles = {f"o{k}": "-" for k in range(1, 5)}
    piles.update({i: "7D 4D", o: "3D", "c": "-", "f1": "-"})
    g = position(**piles)
    own = f"An inner-ring card goes only to its own outer position ({o})"
    refused(g, f"{i}-{other}", own)
    played(g, f"{i}-{o}")
    assert (cards(g, i), cards(g, o)) == ("7D", "3D 4D")
    refused(g, f"{i}-{o}", "Next on " + o + " is the 5♦")
    refused(g, f"{i}-c", own)
    refused(g, f"{i}-f1", own)
    refused(g, f"{i}-u1", "Nothing is ever placed on an upturned pile")
    assert {m for m in legal(g) if m.startswith(i)} == set()


def test_an_inner_card_reaches_an_empty_outer_position_and_then_a_foundation():
    g = position(i1="5C KD", o1="-", f1="-", f2="-")
    refused(g, "i1-f1", "An inner-ring card goes only to its own outer position (o1)")
    played(g, "i1-o1")
    played(g, "o1-f2")
    assert (cards(g, "i1"), cards(g, "f2")) == ("5C", "KD")


def test_only_the_top_inner_card_is_free():
    g = position(i3="6D 5D 4D", o3="-")
    refused(g, "i3-o3:2", "One card at a time")
    played(g, "i3-o3")
    assert cards(g, "o3") == "4D"


# -------------------------------------------------------------- foundations


def test_a_king_starts_any_empty_foundation():
    g = position(f1="-", f2="-", f3="-", f4="-", u1="KS")
    assert {"u1-f1", "u1-f2", "u1-f3", "u1-f4"} <= legal(g)
    played(g, "u1-f3")
    assert cards(g, "f3") == "KS"


def test_only_a_king_of_a_suit_no_other_foundation_holds_starts_one():
    g = position(f1="-", f2="KH QH", u1="QS", u2="KH")
    refused(g, "u1-f1", "A king starts a foundation")
    refused(g, "u2-f1", "Another foundation already holds ♥")
    assert "u2-f1" not in legal(g) and "u2-f3" not in legal(g)


def test_a_foundation_builds_down_in_suit():
    g = position(f2="KH QH", u1="JH", u2="9H", u3="JC")
    refused(g, "u2-f2", "Next on the ♥ foundation is the J♥")
    refused(g, "u3-f2", "J♣ cannot go on the ♥ foundation: same suit only")
    played(g, "u1-f2")
    refused(g, "u2-f2", "Next on the ♥ foundation is the 10♥")


def test_the_second_king_goes_on_the_ace_and_down_to_the_second_ace():
    first = " ".join(r + "S" for r in RANKS_DOWN)
    g = position(f1=first + " KS QS JS TS 9S 8S 7S 6S 5S 4S 3S", u1="AS", u2="2S")
    refused(g, "u1-f1", "Next on the ♠ foundation is the 2♠")
    played(g, "u2-f1")
    played(g, "u1-f1")
    assert cards(g, "f1") == full("S") and len(g.pile("f1")) == 26

    g = position(f1=first, u1="QS", u2="KS")
    refused(g, "u1-f1", "Next on the ♠ foundation is the K♠")
    played(g, "u2-f1")
    played(g, "u1-f1")
    assert len(g.pile("f1")) == 15


def test_cards_on_foundations_never_move():
    g = position(f1="KD", o1="-", c="-")
    refused(g, "f1-o1", "Cards on the foundations never move")
    refused(g, "f1-f2", "Cards on the foundations never move")
    assert not any(m.startswith("f") for m in legal(g))


# ---------------------------------------------------- what never happens


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("u1-i1", "Nothing is ever placed on the inner ring"),
        ("o1-i1", "Nothing is ever placed on the inner ring"),
        ("c-i2", "Nothing is ever placed on the inner ring"),
        ("i1-i2", "Nothing is ever placed on the inner ring"),
        ("o1-u2", "Nothing is ever placed on an upturned pile"),
        ("u1-u2", "Nothing is ever placed on an upturned pile"),
        ("u1-o2:2", "One card at a time"),
        ("u1-f1:2", "One card at a time"),
        ("u3-o2", "u3 is empty"),
        ("stock-u1", "Cards leave the stock only by a deal"),
        ("u1-stock", "Nothing is placed on the stock"),
        ("turn u1", "Stjernen has no turn"),
        ("u1-u1", "A card cannot move onto its own pile"),
        ("u1-t1", "There is no pile 't1' in Stjernen"),
    ],
)
def test_refused_everywhere(move, reason):
    g = position(c="AD", o1="2C", o2="-", f1="-", u1="KS 2D", u2="3C")
    refused(g, move, reason)


def test_exact_legal_moves_of_a_position():
    g = position(
        **ALL_BUT_CLUBS,
        f4="KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC",
        c="-",
        i1="9C KC",
        i2="4C",
        i3="TC",
        i4="JC 7C",
        o1="-",
        o2="3C",
        o3="QC",
        o4="5C 6C",
        u1="AC",
        u2="8C 2C",
        stock="-",
    )
    assert sorted(legal(g)) == sorted(
        ["i1-o1", "i2-o2", "i4-o4", "u1-c", "u1-o1", "u2-o1", "o2-o1", "o3-o1", "o4-o1", "collect"]
    )
    for m in g.legal_moves():
        assert Move.parse(str(m)) == m and g.why_illegal(m) is None


# ---------------------------------------------------------------- the stock


def test_deal_turns_up_a_row_left_to_right_from_the_top_of_the_stock():
    g = position(**SPADES_HEARTS, stock="2c 3c 4c 5c 6c 7c 8c 9c")
    played(g, "deal")
    assert [cards(g, u) for u in UPTURNED] == ["9C", "8C", "7C", "6C", "5C", "4C"]
    assert cards(g, "stock") == "2c 3c"
    played(g, "deal")  # the stock runs out mid-row; the new row lies on the old one
    assert [cards(g, u) for u in UPTURNED] == ["9C 3C", "8C 2C", "7C", "6C", "5C", "4C"]
    assert (cards(g, "stock"), g.round) == ("-", 1)  # nothing is collected by itself
    refused(g, "deal", "The stock is empty: collect the upturned piles first")


def test_deal_uses_the_width_of_the_round():
    g = position(round=4, **SPADES_HEARTS, stock="2c 3c 4c 5c 6c 7c 8c 9c")
    assert g.row_width == 3
    played(g, "deal")
    assert [cards(g, u) for u in UPTURNED] == ["9C", "8C", "7C", "-", "-", "-"]
    played(g, "deal")
    assert [cards(g, u) for u in UPTURNED] == ["9C 6C", "8C 5C", "7C 4C", "-", "-", "-"]


def test_deal_refused_in_the_last_round_with_the_stock_empty():
    g = position(round=6, **SPADES_HEARTS, stock="-", c="AD 2D 3D 4D 5D 6D 7D 8D")
    refused(g, "deal", "The stock is empty and no round remains")


def test_collect_makes_the_stock_so_the_next_deal_starts_with_the_bottom_of_u1():
    g = position(**SPADES_HEARTS, stock="-", u1="2C 3C", u2="4C", u4="5C 6C 7C", u6="8C 9C")
    played(g, "collect")
    assert cards(g, "stock") == "9c 8c 7c 6c 5c 4c 3c 2c"
    assert all(cards(g, u) == "-" for u in UPTURNED)
    assert (g.round, g.row_width) == (2, 5)
    played(g, "deal")
    assert [cards(g, u) for u in UPTURNED] == ["2C", "3C", "4C", "5C", "6C", "-"]
    assert cards(g, "stock") == "9c 8c 7c"


def test_collect_refused_while_the_stock_has_cards():
    g = position(**SPADES_HEARTS, stock="2c", u1="3C")
    refused(g, "collect", "Collect only when the stock is empty")


def test_collect_with_no_upturned_cards_moves_on_to_the_next_round_until_the_sixth():
    g = position(**SPADES_HEARTS, stock="-", c="AD 2D 3D 4D 5D 6D 7D 8D")
    for rnd in range(2, 7):
        played(g, "collect")
        assert (g.round, cards(g, "stock")) == (rnd, "-")
    refused(g, "collect", "No collect after the sixth round")
    assert "round: 6\n" in g.to_text()


def _stock(g: Stjernen) -> list[Card]:
    return [c for c, _ in g.pile("stock")]


@pytest.mark.parametrize(("deal", "with_moves"), [(1, False), (2, False), (3, True), (4, True)])
def test_six_rounds_of_a_deal(deal, with_moves):
    """Deal until the stock is empty, collect, and so on; card moves in between
    (when ``with_moves``) change what is collected but not the order rule."""
    rng = random.Random(deal)
    g = new_game("stjernen", deal=deal)
    widths = []
    for rnd in range(1, 7):
        assert (g.round, g.row_width) == (rnd, 7 - rnd)
        widest = 0
        while _stock(g):
            stock = _stock(g)
            before = [len(g.pile(u)) for u in UPTURNED]
            played(g, "deal")
            grown = [len(g.pile(u)) - b for u, b in zip(UPTURNED, before, strict=True)]
            row = min(7 - rnd, len(stock))
            assert grown == [1] * row + [0] * (6 - row)
            assert [g.pile(u)[-1][0] for u in UPTURNED[:row]] == stock[::-1][:row]
            widest = max(widest, row)
            card_moves = [m for m in g.legal_moves() if m.kind == "move"]
            if with_moves and card_moves:
                g.play(rng.choice(card_moves))
        widths.append(widest)
        if rnd < 6:
            gathered = [c for u in UPTURNED for c, _ in g.pile(u)]
            played(g, "collect")
            assert _stock(g) == gathered[::-1]
            assert all(not up for _, up in g.pile("stock"))
            assert all(g.pile(u) == () for u in UPTURNED)
    assert widths == [6, 5, 4, 3, 2, 1]
    refused(g, "collect", "No collect after the sixth round")
    assert "collect" not in legal(g) and "deal" not in legal(g)


# -------------------------------------------------------------------- undo


def test_undo_and_redo_of_deal_and_collect_restore_exactly():
    g = position(**SPADES_HEARTS, stock="2c 3c 4c 5c 6c 7c 8c", u6="9C")
    texts = [g.to_text()]
    for move in ("deal", "deal", "collect", "deal"):
        played(g, move)
        texts.append(g.to_text())
    assert g.round == 2
    for text in reversed(texts[:-1]):
        g.undo()
        assert g.to_text() == text
    assert g.round == 1 and not g.can_undo
    for text in texts[1:]:
        g.redo()
        assert g.to_text() == text
    assert [str(m) for m in g.history] == ["deal", "deal", "collect", "deal"]


def test_undo_is_unlimited_back_to_the_deal():
    g = new_game("stjernen", deal=5)
    start = g.to_text()
    rng = random.Random(5)
    for _ in range(80):
        g.play(rng.choice(g.legal_moves()))
    while g.can_undo:
        g.undo()
    assert g.to_text() == start and len(g.redo_list) == 80
    with pytest.raises(IllegalMove, match="Nothing to undo"):
        g.undo()


# ---------------------------------------------------- winning, score, stuck


def test_won_when_all_104_cards_are_on_the_foundations():
    g = position(round=6, **ALL_BUT_CLUBS, f4=full("C")[:-3], u1="AC", stock="-",
                 i1="-", i2="-", i3="-", i4="-", o1="-", o2="-", o3="-", o4="-")  # fmt: skip
    assert g.score == 103 and not g.is_won
    assert legal(g) == {"u1-c", "u1-o1", "u1-o2", "u1-o3", "u1-o4", "u1-f4"}
    played(g, "u1-f4")
    assert (g.score, g.is_won, g.is_stuck, g.legal_moves()) == (104, True, False, [])


STUCK = dict(
    **ALL_BUT_CLUBS,
    f4="KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC",
    c="-",
    i1="KC AC 2C",
    i2="3C",
    i3="4C 6C",
    i4="8C QC TC",
    o1="5C",
    o2="7C",
    o3="9C",
    o4="JC",
    stock="-",
)


def test_stuck_when_no_card_moves_and_no_collect_remains():
    g = position(round=6, **STUCK)
    assert g.legal_moves() == [] and g.is_stuck and not g.is_won
    assert g.score == 91


def test_a_remaining_collect_is_progress_because_the_round_is_part_of_the_position():
    g = position(round=5, **STUCK)
    assert legal(g) == {"collect"} and not g.is_stuck
    before = g._key()
    played(g, "collect")
    assert g._key() != before and g.is_stuck


# --------------------------------------------------------------- from_text

# Line numbers: 1 game, 2 round, 3 c, 4-7 i1-i4, 8-11 o1-o4, 12-15 f1-f4, 16-21 u1-u6, 22 stock.
BAD = [
    ({"f1": "QS JS"}, "line 12: foundation f1 must go from a king down"),
    ({"f2": "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS QS"}, "line 13: foundation f2"),
    ({"f3": "KH QD"}, "line 14: foundation f3"),
    ({"f1": "KS", "f4": "KS QS"}, "line 15: f1 already holds ♠"),
    ({"c": "2S 3S"}, "line 3: the centre pile must start with an ace"),
    ({"c": "AS 3S"}, "line 3: the centre pile must go up by one in one suit"),
    ({"o1": "4S 5H"}, "line 8: outer position o1 must go up by one in one suit"),
    ({"o4": "QS KS AS"}, "line 11: outer position o4 must go up by one"),
    ({"i2": "AS AS 2S 2S 3S 3S 4S 4S 5S 5S 6S"}, "line 5: inner-ring pile i2 holds 11 cards"),
    ({"u1": "as"}, "line 16: face-down card 'as'"),
    ({"c": "as"}, "line 3: face-down card 'as'"),
    ({"stock": "2c 3C"}, "line 22: face-up card '3C'"),
]


@pytest.mark.parametrize(("piles", "message"), BAD)
def test_from_text_refuses_shapes_the_rules_do_not_allow(piles, message):
    with pytest.raises(ValueError, match=message):
        from_text(position_text(**piles))


@pytest.mark.parametrize("value", ["0", "7", "x", "", "1.0"])
def test_from_text_refuses_a_bad_round(value):
    text = position_text().replace("round: 1\n", f"round: {value}\n")
    with pytest.raises(ValueError, match="line 2: round must be 1 to 6"):
        from_text(text)


def test_from_text_refuses_upturned_piles_beyond_the_rounds_width():
    from_text(position_text(round=2, u5="3D"))
    with pytest.raises(ValueError, match="line 21: u6 must be empty in round 2"):
        from_text(position_text(round=2, u6="3D"))


def test_from_text_refuses_more_than_60_cards_in_the_stock_and_upturned_piles():
    deck = sorted(pack() + pack(), key=lambda c: c.code)
    from_text(position_text(stock=" ".join(str(c).lower() for c in deck[:60])))
    with pytest.raises(ValueError, match="line 22: the stock and upturned piles hold 61"):
        from_text(position_text(stock=" ".join(str(c).lower() for c in deck[:61])))


def test_from_text_refuses_a_missing_round_and_wrong_card_counts():
    with pytest.raises(ValueError, match="line 0: missing 'round'"):
        from_text(position_text().replace("round: 1\n", ""))
    with pytest.raises(ValueError, match="KD once too often"):
        from_text(DEAL_1.replace(" \\\n", " ").replace("o1: KC", "o1: KD"))


def test_good_positions_round_trip():
    for text in (
        position_text(round=3, c="AS 2S", f1=full("H"), f2="KD QD", u2="9C"),
        position_text(round=6, u1="2D 8D", stock="-", c="AC 2C 3C 4C 5C 6C", **SPADES_HEARTS),
    ):
        assert from_text(text).to_text() == text


# ---------------------------------------------------------------- properties


@given(deal=st.integers(0, 2**32), data=st.data())
def test_random_play_keeps_every_promise(deal, data):
    g = new_game("stjernen", deal=deal)
    deck = all_cards(g)
    texts = [g.to_text()]
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        moves = g.legal_moves()
        assert len(set(moves)) == len(moves)
        action = data.draw(st.integers(0, len(moves) + 1), label="action")
        if action >= len(moves):
            if action == len(moves) and g.can_undo:
                g.undo()
                texts.pop()
                assert g.to_text() == texts[-1]
            elif g.can_redo:
                g.redo()
                texts.append(g.to_text())
            continue
        m = moves[action]
        assert Move.parse(str(m)) == m
        g.play(m)
        texts.append(g.to_text())
        assert all_cards(g) == deck
    text = g.to_text()
    assert from_text(text).to_text() == text
    saved = g.to_json()
    again = from_json(saved)
    assert again.to_json() == saved and again.to_text() == text
    assert again.history == g.history and again.redo_list == g.redo_list
    replay = new_game("stjernen", deal=deal)
    for m in g.history:
        replay.play(m)
    assert replay.to_text() == text
    twin = g.copy()
    if twin.legal_moves():
        twin.play(twin.legal_moves()[-1])
    assert g.to_text() == text
