"""Stjernen's relaxed game (solver/stjernen/relax.py): it says ``lost`` only where
the exhaustive prover, searching every move, finds no win either, and the
prover that leaves out the positions it proves lost reaches the same answers.

Issue 34, acceptance 2 and 4: every proof of loss is checked against the
exhaustive search on positions small enough for it to finish.
"""

from __future__ import annotations

import itertools
import os
import random
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import from_text, new_game, parse_move_list
from termsolitaire.solver import Budget, solve
from termsolitaire.solver.stjernen import Prover
from termsolitaire.solver.stjernen.relax import (
    Relaxation,
    RelaxCache,
    _suit_options,
    relaxed_lost,
)
from termsolitaire.solver.stjernen.state import State, to_move

from .test_stjernen import DEAL_9_WIN

FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))
RANKS_DOWN = "KQJT98765432A"
SUITS = "SHDC"


def _foundations(rng: random.Random, lowest: int) -> tuple[list[str], list[str]]:
    """Each foundation between ``lowest`` and 26 cards, as position text, and the
    cards not home, shuffled."""
    heights = [rng.randint(lowest, 26) for _ in range(4)]
    rest: list[str] = []
    fnd = []
    for s, h in enumerate(heights):
        run = [r + SUITS[s] for r in RANKS_DOWN] * 2
        fnd.append(" ".join(run[:h]) or "-")
        rest += run[h:]
    rng.shuffle(rest)
    return fnd, rest


def _text(
    rnd: int,
    inner: list[list[str]],
    outer: list[list[str]],
    fnd: list[str],
    ups: list[list[str]],
    stock: list[str],
) -> str:
    """The position text of a Stjernen position with an empty centre."""
    lines = ["game: stjernen", f"round: {rnd}", "c: -"]
    lines += [f"i{k + 1}: {' '.join(p) or '-'}" for k, p in enumerate(inner)]
    lines += [f"o{k + 1}: {' '.join(p) or '-'}" for k, p in enumerate(outer)]
    lines += [f"f{k + 1}: {f}" for k, f in enumerate(fnd)]
    lines += [f"u{k + 1}: {' '.join(p) or '-'}" for k, p in enumerate(ups)]
    lines += [f"stock: {' '.join(c.lower() for c in stock) or '-'}"]
    return "\n".join(lines)


def _endgame(rng: random.Random, lowest: int = 14) -> str:
    """A late position: each foundation between ``lowest`` and 26 cards, the
    cards not home mostly in the inner ring (so they block one another), a few
    alone on outer positions or in the stock; round 5 or 6."""
    fnd, rest = _foundations(rng, lowest)
    inner: list[list[str]] = [[] for _ in range(4)]
    outer: list[list[str]] = [[] for _ in range(4)]
    stock: list[str] = []
    for c in rest:
        x = rng.random()
        open_piles = [p for p in inner if len(p) < 8]
        if x < 0.9 and open_piles:
            rng.choice(open_piles).append(c)
        elif x < 0.95 and not outer[k := rng.randrange(4)]:
            outer[k].append(c)
        else:
            stock.append(c)
    return _text(rng.choice([5, 6]), inner, outer, fnd, [[] for _ in range(6)], stock)


def _exhaustive(state: State, relax: bool, seconds: float = 3.0) -> Prover:
    prover = Prover(state, 10**6, relax=relax)
    prover.run(time.process_time() + seconds, time.process_time)
    return prover


# Two positions the relaxed game proves lost at once, where the exhaustive
# prover needs thousands of positions to agree.
LOST_4608 = """
game: stjernen
round: 5
c: -
i1: JD 9C AS KC 2S 8S 7S 8D
i2: 3C 5D 4C 8C 9S JC 9D TC
i3: 5S QD 3S 7C TD KD TS JS
i4: 4S 6C AC KS 6S 2D 5C AD
o1: QS
o2: 4D
o3: QC
o4: -
f1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
f2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
f3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
f4: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
u1: -
u2: -
u3: -
u4: -
u5: -
u6: -
stock: 6d 7d 3d 2c ah
"""
LOST_27024 = """
game: stjernen
round: 6
c: -
i1: JH 4C 2D 5H 5D 6H 2H AH
i2: 3D 4H 7D 8H 2C 7C AC TC
i3: 6C 9C KC 3S TH 9H 4D AS
i4: 8D AD QC 8C 3H JC 5C 2S
o1: -
o2: -
o3: 6D
o4: -
f1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KS QS JS TS 9S 8S 7S 6S 5S 4S
f2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH KH QH
f3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD KD QD JD TD 9D
f4: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
u1: -
u2: -
u3: -
u4: -
u5: -
u6: -
stock: 7h 3c
"""


@pytest.mark.parametrize("text", [LOST_4608, LOST_27024])
def test_a_relaxed_proof_agrees_with_the_exhaustive_search(text):
    """The relaxed game proves the position lost without a search of the real
    game; the exhaustive prover, searching every move, finds no win either;
    and the solver answers ``lost`` at once."""
    state = State.from_game(from_text(text))
    assert relaxed_lost(state)
    plain = _exhaustive(state, relax=False, seconds=20)
    assert plain.status == "lost" and plain.positions > 1000
    result = solve(from_text(text), Budget(seconds=5))
    assert result.verdict == "lost" and result.seconds < 1


@settings(
    deadline=None,
    max_examples=300 if FULL else 10,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rng=st.randoms(use_true_random=False), lowest=st.integers(13, 18))
def test_the_relaxed_game_never_says_lost_where_the_search_finds_a_win(rng, lowest):
    """On late positions where the exhaustive search finishes: the relaxation
    says lost only if the search finds no win, and the prover that leaves out
    what the relaxation proves lost gives the same verdict (and a win that
    replays)."""
    text = _endgame(rng, lowest)
    game = from_text(text)
    state = State.from_game(game)
    plain = _exhaustive(state, relax=False, seconds=1)
    assume(plain.status is not None)
    if relaxed_lost(state):
        assert plain.status == "lost", text
    pruned = _exhaustive(state, relax=True, seconds=5)
    # It may run out of time (the relaxation costs time at each deal), never
    # contradict the exhaustive search.
    assert pruned.status in (plain.status, None), text
    if pruned.status == "won":
        g = game.copy()
        for m in pruned.line:
            g.play(to_move(m))
        assert g.is_won


def test_never_lost_along_a_known_win():
    """Every position of a winning line of deal 9 (a fresh deal) is winnable:
    the relaxed game never calls one lost."""
    game = new_game("stjernen", deal=9)
    cache = RelaxCache()
    for move in parse_move_list(DEAL_9_WIN):
        assert not cache.lost(State.from_game(game)), game.to_text()
        game.play(move)
    assert game.is_won


@pytest.mark.parametrize("deal", [1, 1040])
def test_fresh_deals_are_relaxed_wins(deal):
    """What the measurements found (docs/journal/solver-stjernen.md): on a fresh deal the relaxed
    game empties the inner ring, so it proves nothing there (and the relaxed
    foundations stop where deal 1040's real lines stop: 11 cards)."""
    relax = Relaxation(State.from_game(new_game("stjernen", deal=deal)))
    assert relax.lost() is False
    if deal == 1040:
        assert sum(relax.heights(relax.remaining(tuple(len(p) for p in relax.piles)))) == 11


def _fewest_runs(must: list[int], can: list[int], c0: int) -> int | None:
    """Brute force: the fewest runs not starting at the ace, over every coverage."""
    best = None
    choices = [range(m, c + 1) for m, c in zip(must[1:], can[1:], strict=True)]
    for cover in itertools.product(*choices):
        prev, starts = c0, 0
        for c in cover:
            starts += max(0, c - prev)
            prev = c
        best = starts if best is None else min(best, starts)
    return best


@settings(deadline=None, max_examples=300 if FULL else 60)
@given(data=st.data())
def test_laying_out_a_suit_in_runs_keeps_runs_open_rightly(data):
    """The greedy layout (keep as many runs open as allowed) needs exactly as
    few runs as trying every layout. Seven ranks keep the brute force small."""
    can = data.draw(st.lists(st.integers(0, 2), min_size=7, max_size=7))
    must = [data.draw(st.integers(0, c)) for c in can]
    must += [0] * 6
    can += [0] * 6
    got = dict(_suit_options(must, can)) if any(must) else {must[0]: 0}
    for c0 in range(must[0], can[0] + 1):
        want = _fewest_runs(must, can, c0)
        if any(must):
            assert got.get(c0) == want
