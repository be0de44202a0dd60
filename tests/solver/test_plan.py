"""A kept winning line: hints follow it, undo along it, and leaving it is noticed."""

from __future__ import annotations

from termsolitaire.rules import new_game
from termsolitaire.solver import Plan, solve


def test_following_the_hint_wins_and_never_repeats_a_position():
    for name, deal in (("napoleon", 13), ("penguin", 5)):
        g = new_game(name, deal)
        plan = Plan.of(g, solve(g, 20).moves)
        seen = {g.to_text()}
        while not g.is_won:
            g.play(plan.next(g))
            assert g.to_text() not in seen
            seen.add(g.to_text())
        assert plan.next(g) is None and plan.remaining(g) == ()


def test_undo_along_the_line_keeps_it_and_leaving_it_is_noticed():
    g = new_game("penguin", 5)
    plan = Plan.of(g, solve(g, 20).moves)
    for m in plan.moves[:3]:
        g.play(m)
    g.undo()
    assert plan.remaining(g) == plan.moves[2:]
    other = next(m for m in g.legal_moves() if m != plan.moves[2])
    g.play(other)
    assert plan.remaining(g) is None and plan.next(g) is None
