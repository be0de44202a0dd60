"""Spider (RULES.md section 3): every rule played and refused, the scoring table worked
by hand step by step, pinned deals, and the undo barriers under random play."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.rules import (
    Card,
    IllegalMove,
    Move,
    UndoForbidden,
    from_json,
    from_text,
    info,
    new_game,
)
from termsolitaire.rules.deal import shuffled
from termsolitaire.rules.spider import TABLEAU, Spider

# ------------------------------------------------------------------ helpers


def position(
    piles: dict[str, str], suits: int = 1, stock: str = "-", fill: str = "t10", **keys: int
) -> Spider:
    """A position from the piles that matter: the cards not given go to ``done`` as whole
    runs, and whatever is left lies face down on ``fill``."""
    rest = Counter(Spider(suits=suits)._deck())
    for text in [*piles.values(), stock]:
        rest -= Counter(Card.parse(w) for w in text.split() if w != "-")
    runs = []
    for s in "SHDC":
        run = Counter(Card(r, s) for r in range(1, 14))
        while run and not run - rest:
            rest -= run
            runs.append(s)
    left = " ".join(str(c).lower() for c in sorted(rest.elements(), key=lambda c: c.code))
    if left:
        assert fill not in piles
        piles = {**piles, fill: left}
    lines = [
        "game: spider",
        f"variant: suits={suits}",
        f"score: {keys.get('score', 0)}",
        f"moves: {keys.get('moves', 0)}",
        *(f"{t}: {piles.get(t, '-')}" for t in TABLEAU),
        f"stock: {stock}",
        f"done: {' '.join(runs) or '-'}",
    ]
    game = from_text("\n".join(lines))
    assert isinstance(game, Spider)
    return game


def refused(g: Spider, move: str, reason: str) -> None:
    """``move`` is refused with exactly ``reason`` and changes nothing."""
    before = g.to_text(), g.history, g.score, g.moves
    assert g.why_illegal(move) == reason
    with pytest.raises(IllegalMove) as e:
        g.play(move)
    assert e.value.reason == reason
    assert (g.to_text(), g.history, g.score, g.moves) == before


def undo_refused(g: Spider, reason: str) -> None:
    before = g.to_text(), g.history
    assert not g.can_undo
    with pytest.raises(UndoForbidden) as e:
        g.undo()
    assert e.value.reason == reason
    assert (g.to_text(), g.history) == before


def line(g: Spider, key: str) -> str:
    return next(v for k, _, v in (x.partition(": ") for x in g.to_text().splitlines()) if k == key)


def c(text: str) -> Card:
    return Card.parse(text)


# ------------------------------------------------------------- the deal

PINNED = {
    1: """game: spider
variant: suits=1
deal: 1
score: 0
moves: 0
t1: ks 2s 9s ts as JS
t2: 5s qs qs 5s 5s 9S
t3: qs 2s as 3s as 9S
t4: 2s 4s ts ks qs KS
t5: ks ks 7s 2s TS
t6: 8s 8s 8s qs 8S
t7: 6s js qs 6s 3S
t8: 5s 4s js 2s 4S
t9: 3s ts js 7s 8S
t10: 6s 6s 6s qs 3S
stock: ks 9s 5s as js 4s 5s 4s ts 2s 9s qs 3s 2s 3s 8s ts 7s 8s 7s 5s as 3s 7s 9s as 7s 6s \
7s js 6s as 9s js 4s 5s as 9s js ts 4s 2s 7s 6s 3s 4s ts ks ks 8s
done: -
""",
    2: """game: spider
variant: suits=2
deal: 1
score: 0
moves: 0
t1: ks 2s 9h ts as JH
t2: 5h qh qh 5h 5s 9H
t3: qs 2h ah 3s ah 9H
t4: 2s 4h th kh qs KH
t5: kh kh 7s 2h TS
t6: 8h 8h 8h qh 8S
t7: 6s js qs 6s 3H
t8: 5h 4h js 2h 4S
t9: 3h th jh 7s 8H
t10: 6h 6s 6h qh 3S
stock: ks 9h 5s ah js 4h 5s 4h th 2h 9s qs 3h 2s 3h 8s th 7h 8s 7s 5h as 3s 7h 9s ah 7s 6s \
7h js 6h as 9s jh 4s 5s as 9s jh ts 4s 2s 7h 6h 3s 4s ts ks ks 8s
done: -
""",
    4: """game: spider
variant: suits=4
deal: 1
score: 0
moves: 0
t1: kc 2h 9h ts as JS
t2: 5d qs qh 5h 5d 9S
t3: qc 2s ad 3h as 9C
t4: 2d 4h td ks qh KH
t5: kc kd 7h 2c TD
t6: 8c 8s 8d qd 8H
t7: 6c jd qs 6d 3D
t8: 5c 4d jc 2d 4S
t9: 3s ts jd 7s 8H
t10: 6h 6s 6c qc 3D
stock: kh 9d 5s ac jh 4s 5h 4c tc 2h 9h qd 3c 2s 3h 8s th 7d 8d 7c 5s ah 3s 7h 9c ah 7d 6h \
7c js 6d ad 9s jh 4h 5c ac 9d jc th 4d 2c 7s 6s 3c 4c tc ks kd 8c
done: -
""",
}


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_deal_1_is_pinned(suits: int) -> None:
    g = new_game("spider", deal=1, suits=suits)
    assert g.to_text() == PINNED[suits].replace("\\\n", "")
    assert from_text(g.to_text()).to_text() == g.to_text()


@pytest.mark.parametrize("suits", [1, 2, 4])
def test_deal_follows_the_documented_order(suits: int) -> None:
    """Cards 0-53 of the shuffle round by round, card 54 the top of the stock, to t1."""
    g = new_game("spider", deal=77, suits=suits)
    cards = shuffled(g._deck(), info("spider").stream, 77)
    for i, t in enumerate(TABLEAU):
        pile = g.pile(t)
        assert [card for card, _ in pile] == cards[i:54:10]
        assert [up for _, up in pile] == [False] * (len(pile) - 1) + [True]
        assert len(pile) == (6 if i < 4 else 5)
    assert g.pile("stock")[-1] == (cards[54], False)
    g.play("deal")
    assert [g.pile(t)[-1] for t in TABLEAU] == [(card, True) for card in cards[54:64]]
    assert len(g.pile("stock")) == 40


@pytest.mark.parametrize(
    ("suits", "per_card"),
    [(1, {"S": 8}), (2, {"S": 4, "H": 4}), (4, {"S": 2, "H": 2, "D": 2, "C": 2})],
)
def test_variants_card_counts(suits: int, per_card: dict[str, int]) -> None:
    g = new_game("spider", deal=3, suits=suits)
    have = Counter(card for name in g.pile_names for card, _ in g.pile(name))
    assert sum(have.values()) == 104
    assert have == Counter({Card(r, s): n for s, n in per_card.items() for r in range(1, 14)})
    assert g.variant == {"suits": suits}
    assert line(g, "variant") == f"suits={suits}"


def test_default_is_one_suit() -> None:
    g = new_game("spider", deal=5)
    assert g.variant == {"suits": 1} and g.score == 0 and g.moves == 0
    assert (line(g, "score"), line(g, "moves"), line(g, "done")) == ("0", "0", "-")


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ({"suits": 3}, "Spider is played with suits=1, 2 or 4, not 3"),
        ({"suits": True}, "Spider is played with suits=1, 2 or 4, not True"),
        ({"suits": "2"}, "Spider is played with suits=1, 2 or 4, not '2'"),
        ({"colours": 2}, "Spider has no variant 'colours'; it has suits=1, 2 or 4"),
    ],
)
def test_bad_variant_refused(variant: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game("spider", deal=1, **variant)


def test_bad_variant_in_text_refused() -> None:
    text = PINNED[2].replace("\\\n", "").replace("suits=2", "suits=3")
    with pytest.raises(ValueError, match=r"^line 2: Spider is played with suits=1, 2 or 4"):
        from_text(text)


# -------------------------------------------------------------- moving


def test_card_goes_on_one_rank_higher_of_any_suit() -> None:
    g = position({"t1": "8D", "t2": "9H", "t3": "9C"}, suits=4)
    assert {"t1-t2", "t1-t3"} <= {str(m) for m in g.legal_moves()}
    g.play("t1-t2")
    assert g.pile("t2") == ((c("9H"), True), (c("8D"), True))
    assert g.pile("t1") == ()


def test_card_on_wrong_rank_refused() -> None:
    g = position({"t1": "7S", "t2": "5H", "t3": "KS"}, suits=2)
    refused(g, "t1-t2", "7♠ goes on a card one rank higher (an 8), not on 5♥")
    refused(g, "t3-t2", "K♠ goes only on a pile that shows no face-up card")


def test_same_suit_run_moves_together_onto_any_suit() -> None:
    g = position({"t1": "9H 7S 6S 5S", "t2": "8C", "t3": "7D", "t4": "6C"}, suits=4)
    from_t1 = {str(m) for m in g.legal_moves() if m.src == "t1" and m.dst in ("t2", "t3", "t4")}
    assert from_t1 == {"t1-t2:3", "t1-t3:2", "t1-t4"}
    g.play("t1-t2:3")
    assert [card for card, _ in g.pile("t2")] == [c("8C"), c("7S"), c("6S"), c("5S")]
    assert g.pile("t1") == ((c("9H"), True),)


def test_mixed_run_refused() -> None:
    g = position({"t1": "7H 6S", "t2": "8H", "t3": "8S 6S 5S"}, suits=2)
    refused(g, "t1-t2:2", "Only a same-suit run moves together (each card one rank lower)")
    refused(g, "t3-t2:3", "Only a same-suit run moves together (each card one rank lower)")


def test_more_cards_than_face_up_refused() -> None:
    g = position({"t1": "8s 7S 6S", "t2": "9S", "t3": "-"})
    refused(g, "t1-t3:3", "t1 shows only 2 face-up cards")
    refused(g, "t2-t3:2", "t2 shows only 1 face-up card")


def test_run_deposited_on_face_down_only_pile() -> None:
    g = position({"t1": "9H 7S 6S", "t2": "qs js"}, suits=2)
    assert {"t1-t2", "t1-t2:2"} <= {str(m) for m in g.legal_moves()}
    g.play("t1-t2:2")
    assert line(g, "t2") == "qs js 7S 6S"
    assert g.score == -1 and g.moves == 1


def test_anything_goes_on_an_empty_pile() -> None:
    g = position({"t1": "KS", "t2": "5H 4H", "t3": "-"}, suits=2)
    assert {"t1-t3", "t2-t3", "t2-t3:2"} <= {str(m) for m in g.legal_moves()}
    g.play("t2-t3:2")
    assert line(g, "t3") == "5H 4H" and line(g, "t2") == "-"


def test_empty_or_face_down_source_refused() -> None:
    g = position({"t1": "-", "t2": "qs js", "t3": "-"})
    refused(g, "t1-t3", "t1 is empty")
    refused(g, "t2-t3", "t2 shows no face-up card (turn it first)")


def test_legal_moves_lists_every_count_and_destination() -> None:
    g = position({"t1": "-", "t2": "9S 8S 7S", "t3": "TH", "t4": "9H", "t5": "qs"}, suits=2)
    from_t2 = {str(m) for m in g.legal_moves() if m.src == "t2" and m.dst in TABLEAU[:5]}
    # t1 (empty) and t5 (face down only) take the run at every length
    expect = {"t2-t3:3", "t2-t4:2"} | {f"t2-{t}{k}" for t in ("t1", "t5") for k in ("", ":2", ":3")}
    assert from_t2 == expect
    assert "turn t5" in {str(m) for m in g.legal_moves()}
    assert "deal" not in {str(m) for m in g.legal_moves()}


def test_done_and_stock_never_take_part_in_moves() -> None:
    g = position({"t1": "AS", "t2": "KS"}, stock="ks qs js ts 9s 8s 7s 6s 5s 4s", fill="t9")
    refused(g, "done-t1", "Completed runs never move")
    refused(g, "stock-t1", "Stock cards are dealt (deal), not moved")
    refused(g, "t1-done", "Only a complete run K to A joins the completed runs, and by itself")
    refused(g, "t1-stock", "Nothing goes back to the stock")
    refused(g, "collect", "Spider has no collect: deal puts a card on every pile")
    refused(g, "t1-t1", "A card cannot move onto its own pile")
    refused(g, "t1-t11", "There is no pile 't11' in Spider")


# ------------------------------------------------------------- turning


def test_no_automatic_turn_after_a_move() -> None:
    g = position({"t1": "qh 9s 5S", "t2": "6H"}, suits=2)
    g.play("t1-t2")
    assert g.pile("t1") == ((c("QH"), False), (c("9S"), False))
    assert Move.turn("t1") in g.legal_moves()


def test_turn_a_face_down_only_pile() -> None:
    g = position({"t1": "qh 9s", "t2": "6H"}, suits=2)
    g.play("turn t1")
    assert line(g, "t1") == "qh 9S"
    assert (g.score, g.moves) == (2, 0)


def test_turn_refused() -> None:
    g = position({"t1": "qh 9S", "t2": "-", "t3": "6H"}, suits=2)
    refused(g, "turn t1", "t1 shows a face-up card: nothing to turn")
    refused(g, "turn t2", "t2 is empty: nothing to turn")
    refused(g, "turn stock", "Only the top card of a tableau pile can be turned")
    refused(g, "turn done", "Only the top card of a tableau pile can be turned")


# ------------------------------------------------------------- dealing

DEAL_TEXT = """game: spider
variant: suits=2
score: 0
moves: 0
t1: 9s 8s 7s 6s 5s 4s 3s 2s as
t2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
t3: 9h 8h 7h 6h 5h 4h 3h 2h ah
t4: -
t5: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
t6: -
t7: -
t8: -
t9: -
t10: -
stock: th ts jh js qh as qs kh ah ks
done: S S H H
"""


def test_deal_on_empty_and_face_down_piles_completes_runs_left_to_right() -> None:
    g = from_text(DEAL_TEXT)
    assert "deal" in {str(m) for m in g.legal_moves()}
    g.play("deal")
    tops = [line(g, t).split()[-1] if line(g, t) != "-" else "-" for t in TABLEAU]
    assert tops == ["KS", "-", "KH", "QS", "-", "QH", "JS", "JH", "TS", "TH"]
    assert line(g, "t1") == "9s 8s 7s 6s 5s 4s 3s 2s as KS"  # face-down cards stay down
    assert line(g, "done") == "S S H H H S"  # t2's run, then t5's
    assert (g.score, g.moves) == (52, 0)  # +26 twice; a deal is not a move
    refused(g, "deal", "The stock is empty: all five packets are dealt")


# ------------------------------------------------------- runs and undo


def test_completed_run_removed_at_once_and_restored_by_undo() -> None:
    g = position({"t1": "3S KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "t2": "AS"})
    text, runs = g.to_text(), g.runs
    g.play("t2-t1")
    assert line(g, "t1") == "3S" and line(g, "t2") == "-"
    assert g.runs == runs + 1 and line(g, "done").split() == ["S"] * (runs + 1)
    assert g.score == 2 + 26 - 1
    g.undo()
    assert g.to_text() == text.replace("score: 0", "score: -1").replace("moves: 0", "moves: 1")
    g.redo()
    assert line(g, "t1") == "3S" and (g.score, g.moves) == (-1 + 26 - 1, 2)


def test_undo_refused_after_a_deal_but_allowed_for_later_moves() -> None:
    g = new_game("spider", deal=1, suits=2)
    g.play("deal")
    undo_refused(g, "A deal cannot be taken back")
    move = next(m for m in g.legal_moves() if m.kind == "move")
    g.play(move)
    assert g.can_undo
    assert g.undo() == move
    undo_refused(g, "A deal cannot be taken back")


def test_undo_refused_after_a_turn_but_allowed_for_later_moves() -> None:
    g = position({"t1": "qh 9s 5S", "t2": "6H", "t3": "TH"}, suits=2)
    g.play("t1-t2")
    g.play("turn t1")
    undo_refused(g, "A turned card cannot be turned back")
    g.play("t1-t3")
    g.undo()
    assert line(g, "t1") == "qh 9S"
    undo_refused(g, "A turned card cannot be turned back")


def test_nothing_to_undo_or_redo() -> None:
    g = new_game("spider", deal=2)
    with pytest.raises(IllegalMove, match="Nothing to undo"):
        g.undo()
    with pytest.raises(IllegalMove, match="Nothing to redo"):
        g.redo()


# ------------------------------------------------------------- scoring

SCORE_TEXT = """game: spider
variant: suits=2
score: 0
moves: 0
t1: ah
t2: KH QH JH TH 9H 8H 7H
t3: 6H 5H 4H 3H 2H
t4: KS QS JS TS 9S 8S 7S
t5: 6S 5S 4S 3S 2S
t6: AS
t7: -
t8: -
t9: -
t10: -
stock: -
done: S S S H H H
"""

# action, score, moves after it, and why
SCORE_TABLE = [
    ("turn t1", 2, 0, "turn +2; not a move"),
    ("t5-t2:5", 1, 1, "6♠..2♠ on 7♥: another suit, no bonus; -1"),
    ("t2-t4:5", 10, 2, "five cards on 7♠, a new position: +10 -1"),
    ("undo", 0, 2, "the +10 goes, the -1 stays; the move still counts"),
    ("redo", -1, 3, "-1 again; position reached before: no bonus"),
    ("t4-t2:5", -2, 4, "back on 7♥: -1"),
    ("t2-t4:5", -3, 5, "on 7♠ again: reached before, no bonus; -1"),
    ("t3-t2:5", 6, 6, "6♥..2♥ on 7♥: +10 -1"),
    ("t1-t2", 33, 7, "A♥ on 2♥ +2, run of hearts removed +26, -1"),
    ("undo", 5, 7, "the run is back on t2; +28 goes, -1 stays"),
    ("redo", 30, 8, "the run goes again +26, no bonus, -1"),
    ("t6-t4", 157, 9, "A♠ on 2♠ +2, run +26, all 104 cards done +100, -1"),
]


def test_scripted_game_scores_every_row_of_the_table() -> None:
    g = from_text(SCORE_TEXT)
    assert (g.score, g.moves) == (0, 0)
    for action, score, moves, why in SCORE_TABLE:
        if action == "undo":
            g.undo()
        elif action == "redo":
            g.redo()
        else:
            g.play(action)
        assert (g.score, g.moves) == (score, moves), f"after {action} ({why})\n{g.to_text()}"
        assert (line(g, "score"), line(g, "moves")) == (str(score), str(moves))
        # the score and everything it depends on survive JSON and copy
        again = from_json(g.to_json())
        assert again.to_text() == g.to_text() and again.to_json() == g.to_json()
        assert g.copy().to_text() == g.to_text()
    assert g.is_won and not g.is_stuck and g.legal_moves() == []
    assert line(g, "done") == "S S S H H H H S"


def test_reached_positions_survive_copy_and_json() -> None:
    g = from_text(SCORE_TEXT)
    for action in ("t5-t2:5", "t2-t4:5", "t4-t2:5"):
        g.play(action)
    assert g.score == -1 + 10 - 1 - 1
    for other in (g.copy(), from_json(g.to_json())):
        other.play("t2-t4:5")
        assert other.score == g.score - 1  # no bonus: reached before
    assert g.score == 7 and g.history[-1] == Move.transfer("t4", "t2", 5)  # g left alone


def test_stuck_detection_changes_nothing() -> None:
    g = from_text(SCORE_TEXT)
    g.play("t5-t2:5")
    before = g.to_text(), set(g._reached)
    assert not g.is_stuck
    assert (g.to_text(), g._reached) == before
    g.play("t2-t4:5")
    assert g.score == -1 + 10 - 1


def test_score_and_moves_read_from_text() -> None:
    g = from_text(SCORE_TEXT.replace("score: 0", "score: -7").replace("moves: 0", "moves: 12"))
    assert (g.score, g.moves) == (-7, 12)
    g.play("turn t1")
    assert g.score == -5


# ------------------------------------------------------ reading text

PARSE_ERRORS = [
    ("stock: -", "stock: AS", "line 15: face-up card 'AS' in 'stock'"),
    ("t4: KS QS", "t4: KS qs", "line 8: face-down card 'qs' above a face-up card"),
    ("done: S S S H H H", "done: S S S H H D", "line 16: the 2-suit game has no diamonds"),
    ("done: S S S H H H", "done: S S S H H X", "line 16: 'X' is not a suit letter"),
    ("done: S S S H H H", "done: S S S S S H", "line 16: more than 4 completed runs of spades"),
    ("done: S S S H H H", "done: S S S H H", "line 0: cards missing"),
    ("done: S S S H H H", "done:", "line 16: done lists no runs"),
    ("score: 0", "score: x", "line 3: score must be a whole number"),
    ("moves: 0", "moves: -1", "line 4: moves must be a whole number >= 0"),
]


@pytest.mark.parametrize(("old", "new", "message"), PARSE_ERRORS)
def test_bad_position_text_refused(old: str, new: str, message: str) -> None:
    assert old in SCORE_TEXT
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(")):
        from_text(SCORE_TEXT.replace(old, new))


def test_stock_must_hold_whole_packets() -> None:
    text = DEAL_TEXT.replace("stock: th ts", "stock: ts").replace("t4: -", "t4: TH")
    with pytest.raises(ValueError, match=r"^line 15: the stock holds 9 cards"):
        from_text(text)


def test_complete_run_on_the_table_refused() -> None:
    bad = (
        SCORE_TEXT.replace("t1: ah", "t1: -")
        .replace("t3: 6H 5H 4H 3H 2H", "t3: -")
        .replace("t2: KH QH JH TH 9H 8H 7H", "t2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH")
    )
    with pytest.raises(ValueError, match=r"^line 6: t2 ends with a complete run"):
        from_text(bad)


def test_str_shows_done_as_suits() -> None:
    g = from_text(SCORE_TEXT)
    assert str(g).splitlines()[-1] == " done  ♠ ♠ ♠ ♥ ♥ ♥"


# -------------------------------------------------------- properties


def oracle(g: Spider) -> set[Move]:
    """Every legal action, straight from RULES.md, the slow way."""
    out: set[Move] = set()
    for src in TABLEAU:
        pile = g.pile(src)
        for k in range(1, len(pile) + 1):
            moving = pile[-k:]
            if not all(up for _, up in moving):
                break
            cards = [card for card, _ in moving]
            if any(a.suit != b.suit or a.rank != b.rank + 1 for a, b in pairwise(cards)):
                break
            for dst in TABLEAU:
                target = g.pile(dst)
                if dst != src and (
                    not target or not target[-1][1] or target[-1][0].rank == cards[0].rank + 1
                ):
                    out.add(Move.transfer(src, dst, k))
        if pile and not any(up for _, up in pile):
            out.add(Move.turn(src))
    if g.pile("stock"):
        out.add(Move.parse("deal"))
    return out


def face_down(g: Spider) -> int:
    return sum(not up for name in g.pile_names for _, up in g.pile(name))


@given(deal=st.integers(0, 2**32), suits=st.sampled_from([1, 2, 4]), data=st.data())
def test_random_play_never_undoes_past_a_barrier(
    deal: int, suits: int, data: st.DataObject
) -> None:
    g = new_game("spider", deal=deal, suits=suits)
    kept: tuple[Move, ...] = ()  # the history up to the last deal or turn: never undone
    for _ in range(data.draw(st.integers(0, 120))):
        down = face_down(g)
        stock = len(g.pile("stock"))
        action = data.draw(st.sampled_from(["play", "play", "play", "undo", "redo"]))
        if action == "undo" and g.history:
            before = g.to_text()
            if g.history[-1].kind in ("deal", "turn"):
                with pytest.raises(UndoForbidden):
                    g.undo()
                assert g.to_text() == before
            else:
                g.undo()
        elif action == "redo" and g.can_redo:
            g.redo()
        else:
            legal = g.legal_moves()
            assert len(legal) == len(set(legal)) and set(legal) == oracle(g)
            if not legal:
                break
            move = data.draw(st.sampled_from(legal))
            g.play(move)
            if move.kind != "move":
                kept = g.history
        assert g.history[: len(kept)] == kept
        # a position before a deal or a turn had more face-down cards and never comes back
        assert face_down(g) <= down and len(g.pile("stock")) <= stock
    assert from_json(g.to_json()).to_json() == g.to_json()
    assert from_text(g.to_text()).to_text() == g.to_text()


# ------------------------------------------- the score over undo and redo (issue 9)


def test_two_undos_in_a_row_keep_both_minus_ones():
    """1-suit deal 1: t2-t5 (+2 -1), t1-t2 (-1); undo, undo: the board is back at the
    start, t2-t5's +2 is gone, both -1s stay, and moves never goes down."""
    g = new_game("spider", deal=1, suits=1)
    g.play("t2-t5")
    g.play("t1-t2")
    assert (g.score, g.moves) == (0, 2)
    g.undo()
    assert (g.score, g.moves) == (0, 2)
    g.undo()
    assert (g.score, g.moves) == (-2, 2)
    g.redo()  # the position was reached before: -1, no bonus
    assert (g.score, g.moves) == (-3, 3)


def _earned(before: Spider, move: Move, after: Spider, fresh: bool) -> int:
    """What ``move`` earned, worked out from the two positions (RULES.md's table)."""
    points = 0
    if move.kind == "turn":
        points += 2
    if move.kind == "move" and fresh:
        dst = before.pile(move.dst)
        card = before.pile(move.src)[-move.count][0]
        if dst and dst[-1][1] and dst[-1][0].suit == card.suit and dst[-1][0].rank == card.rank + 1:
            points += 2 * move.count
    runs = after.runs - before.runs
    points += 26 * runs
    if runs and after.is_won:
        points += 100
    return points


@pytest.mark.parametrize("suits", [1, 2])
@given(data=st.data(), deal=st.integers(min_value=0, max_value=2**32))
def test_score_is_earned_points_on_the_line_minus_moves(suits, data, deal):
    """Random moves, undos and redos: ``moves`` never decreases and counts every move
    and redo played; ``score`` is the points earned by the actions on the current
    line (bonuses only for positions never reached before) minus ``moves``."""
    from .helpers import board_text

    g = new_game("spider", deal=deal, suits=suits)
    reached = {board_text(g)}
    earned: list[int] = []  # one entry per action on the current line
    played = 0
    last_moves = 0
    for _ in range(60):
        choices = ["move"] * 8 + ["undo"] * 3 * g.can_undo + ["redo"] * 2 * g.can_redo
        kind = data.draw(st.sampled_from(choices))
        if kind == "undo":
            g.undo()
            earned.pop()
        else:
            before = g.copy()
            if kind == "redo":
                move = g.redo_list[-1]
                g.redo()
            else:
                legal = g.legal_moves()
                if not legal:
                    break
                move = data.draw(st.sampled_from(legal))
                g.play(move)
            key = board_text(g)
            earned.append(_earned(before, move, g, key not in reached))
            reached.add(key)
            played += move.kind == "move"
        assert g.moves >= last_moves
        last_moves = g.moves
        assert g.moves == played
        assert g.score == sum(earned) - played, g.to_text()
