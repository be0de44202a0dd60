"""The rows a pile draws: fanning, compressing, and what a click on a row takes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.rules import Card
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.fan import fan_rows, stack_rows

LOOK = CardLook(width=5)


def run(top: int, length: int, suit: str = "S") -> list[tuple[Card, bool]]:
    """A same-suit run from rank ``top`` down, ``length`` cards, face up."""
    return [(Card((top - 1 - i) % 13 + 1, suit), True) for i in range(length)]


def test_roomy_pile_shows_every_card_and_a_whole_top_card() -> None:
    pile = [(Card(3, "H"), False), *run(13, 4)]
    rows = fan_rows(pile, 20, LOOK)
    assert [r.kind for r in rows] == ["back", "edge", "edge", "edge", "edge", "middle", "bottom"]
    assert rows[-1].text == "└10♠┘"


def test_face_down_cards_fold_into_one_counted_row_first() -> None:
    pile = [(Card(r, "H"), False) for r in range(1, 7)] + run(9, 3)
    rows = fan_rows(pile, 7, LOOK)
    assert rows[0].kind == "back" and "6" in rows[0].text
    assert [r.card for r in rows if r.kind == "edge"] == [c for c, _ in pile[6:]]


def test_long_sequence_folds_its_middle_but_shows_both_ends() -> None:
    pile = [(Card(5, "D"), True), *run(13, 13)]
    links = (False, False, *[True] * 12)  # the rules say K♠ to A♠ is one sequence
    rows = fan_rows(pile, 8, LOOK, links=links)
    shown = [r.card.label for r in rows if r.card is not None]
    assert shown[0] == "5♦" and "K♠" in shown and shown[-1] == "A♠"
    assert any(r.kind == "more" and r.text.strip().startswith("⋮") for r in rows)
    assert len(rows) <= 8


def test_the_top_card_is_whole_again_when_a_fold_leaves_room() -> None:
    """A fold saves a whole run's rows at once: the top card shrank to its edge
    first, and stayed an edge with rows to spare (a 4-suit match at 80×24 showed
    a pile's top 4♦ as "┌4♦─┐" above three empty rows)."""
    pile = [(Card(5, "D"), True), *run(13, 13)]
    links = (False, False, *[True] * 12)
    rows = fan_rows(pile, 8, LOOK, links=links)
    assert [r.kind for r in rows] == ["edge", "edge", "more", "edge", "edge", "middle", "bottom"]
    assert rows[-1].text == "└─A♠┘"


def test_only_what_the_rules_link_folds() -> None:
    """Without links (say a Spider pile whose A lies on a K: no run there), the
    pile is cut from the bottom instead of folding a sequence that is not one."""
    pile = [(Card(5, "D"), True), *run(13, 13)]
    rows = fan_rows(pile, 8, LOOK)
    assert not any(r.text.strip().startswith("⋮") for r in rows)
    assert rows[0].text.strip(" ·").startswith("+")


def test_click_counts_go_from_the_top() -> None:
    pile = run(13, 3)
    rows = fan_rows(pile, 10, LOOK)
    assert [r.count for r in rows] == [3, 2, 1, 1, 1]


def test_empty_and_stack_rows() -> None:
    assert [r.kind for r in fan_rows((), 5, LOOK, "A♦")] == ["empty"] * 3
    assert "A♦" in fan_rows((), 5, LOOK, "A♦")[1].text
    stock = [(Card(1, "S"), False)] * 20
    assert "2" in stack_rows(stock, LOOK, badge="2")[1].text


@given(
    st.lists(st.tuples(st.integers(1, 13), st.sampled_from("SHDC"), st.booleans()), max_size=40),
    st.integers(4, 30),
)
def test_rows_fit_the_height_and_keep_the_width(
    cards: list[tuple[int, str, bool]], height: int
) -> None:
    pile = [(Card(r, s), up) for r, s, up in cards]
    rows = fan_rows(pile, height, LOOK)
    assert len(rows) <= max(height, 3)
    assert all(len(r.text) == LOOK.width for r in rows)
    if pile and pile[-1][1]:
        assert any(r.card == pile[-1][0] for r in rows)  # the top card always shows
