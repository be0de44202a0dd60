"""Penguin's solver: its compact state agrees with the rules core, and its answers hold."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import from_text, new_game
from termsolitaire.solver import Budget, solve
from termsolitaire.solver import penguin as P
from termsolitaire.solver.penguin import PenguinState

from .helpers import autoplay_matches, check_same, side_by_side

PROPS = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))


@PROPS
@given(st.data())
def test_state_agrees_with_the_rules_core_over_random_play(data):
    side_by_side(data, "penguin", P, PenguinState, steps=60)


@PROPS
@given(st.data())
def test_play_adds_only_legal_safe_moves_and_unplay_undoes_them(data):
    g = new_game("penguin", data.draw(st.integers(0, 2**32)))
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(rng.randrange(40)):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    state = PenguinState.from_game(g)
    check_same(g, state, P)
    autoplay_matches(g, state, P)


def test_the_key_ignores_which_column_and_which_cell():
    g = new_game("penguin", 5)
    text = g.to_text()
    lines = text.splitlines()
    t1 = next(i for i, ln in enumerate(lines) if ln.startswith("t1:"))
    t2 = t1 + 1
    swapped = lines.copy()
    swapped[t1] = "t1:" + lines[t2].split(":", 1)[1]
    swapped[t2] = "t2:" + lines[t1].split(":", 1)[1]
    other = from_text("\n".join(swapped))
    assert PenguinState.from_game(other).key() == PenguinState.from_game(g).key()
    g.play(next(m for m in g.legal_moves() if m.dst.startswith("c")))
    assert PenguinState.from_game(g).key() != PenguinState.from_game(other).key()


@pytest.mark.parametrize("deal", [1, 5, 8, 12, 15, 39, 49])
def test_sample_deals_are_solved_and_the_line_wins_in_the_rules_core(deal):
    """(15, 39 and 49 are deals Freecell Solver wins that an unsound pruning
    once called lost.)"""
    game = new_game("penguin", deal)
    result = solve(game, Budget(seconds=20))
    assert result.verdict == "won"
    g = game.copy()
    for m in result.moves:
        g.play(m)
    assert g.is_won and result.best == 52


def test_a_deal_without_a_win_is_proved_lost():
    """Deal 194 (Freecell Solver agrees: no solution)."""
    assert solve(new_game("penguin", 194), Budget(seconds=60)).verdict == "lost"
