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

from .helpers import autoplay_matches, brute_force, check_same, plain_search, side_by_side

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


@settings(PROPS, max_examples=200 if FULL else 15)
@given(st.integers(0, 2**32), st.integers(0, 10**6))
def test_agrees_with_brute_force_after_random_play(deal, seed):
    """Random play (mostly sending cards home) often ends in a position whose
    few reachable positions the rules core can list one by one: whenever that
    decides it, the solver gives the same answer (so its pruning never throws
    away a win, and its ``lost`` is a real one)."""
    g = new_game("penguin", deal)
    rng = random.Random(seed)
    for _ in range(60):
        moves = g.legal_moves()
        if not moves:
            break
        home = [m for m in moves if m.dst.startswith("f")]
        g.play(rng.choice(home) if home and rng.random() < 0.7 else rng.choice(moves))
    truth = brute_force(g, cap=3000)
    if truth is not None:
        assert solve(g, Budget(seconds=20)).verdict == truth, g.to_text()


@pytest.mark.parametrize("deal", [8, 13])
def test_never_lost_from_partway_along_a_winning_line(deal):
    game = new_game("penguin", deal)
    line = solve(game, Budget(seconds=20)).moves
    for k in (len(line) // 3, 2 * len(line) // 3):
        g = game.copy()
        for m in line[:k]:
            g.play(m)
        assert solve(g, Budget(seconds=20)).verdict == "won"


@settings(PROPS, max_examples=200 if FULL else 12)
@given(st.integers(0, 2**32), st.integers(0, 10**6))
def test_agrees_with_a_search_without_game_knowledge(deal, seed):
    """After random play, a search of every legal move (no automatic moves, no
    pruning, no dead-end test) often finishes on positions far bigger than
    brute force can take: the solver must agree with it whenever it does.
    (This is what caught cell rules that were each sound but not together.)"""
    g = new_game("penguin", deal)
    rng = random.Random(seed)
    for _ in range(30):
        moves = g.legal_moves()
        if not moves:
            break
        home = [m for m in moves if m.dst.startswith("f")]
        g.play(rng.choice(home) if home and rng.random() < 0.5 else rng.choice(moves))
    truth = plain_search(PenguinState.from_game(g), cap=20_000)
    if truth is not None:
        assert solve(g, Budget(seconds=20)).verdict == truth, g.to_text()


@pytest.mark.parametrize("deal", [5, 8, 13, 15])
def test_near_a_winning_line_agrees_with_a_search_without_game_knowledge(deal):
    """Positions partway along a found win, then a few random moves off it:
    mostly still winnable, and the search without game knowledge finishes on
    them; the solver must agree."""
    game = new_game("penguin", deal)
    line = solve(game, Budget(seconds=20)).moves
    rng = random.Random(deal)
    checked = 0
    for _ in range(6):
        g = game.copy()
        for m in line[: rng.randrange(len(line) // 3, len(line))]:
            g.play(m)
        for _ in range(rng.randrange(4)):
            if g.legal_moves():
                g.play(rng.choice(g.legal_moves()))
        truth = plain_search(PenguinState.from_game(g), cap=50_000)
        if truth is not None:
            checked += 1
            assert solve(g, Budget(seconds=20)).verdict == truth, g.to_text()
    assert checked
