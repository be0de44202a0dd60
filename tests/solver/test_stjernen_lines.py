"""The Stjernen beam's speed work changes no choice (issue 34, stjernen19).

A beam of fixed width keeps the same positions whatever its speed, so its
line, its foundation count and the positions it saw are a fingerprint of
every choice it made: these were recorded from main's code (7e1689d, pure
Python and compiled alike) before the beam was made faster. A change meant
only for speed must leave them as they are; one that changes a choice fails
here, and must then be measured as a change of the search, not of its speed.
The cases cover the plain weights, the digs three cards ahead and the next
round's order, a jittered beam (the restarts' noise reads the position's
hash), a beam kept by score alone, and a king plan."""

from __future__ import annotations

import hashlib
import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import BeamConfig, beam, beam_steps
from termsolitaire.solver.stjernen.evaluation import Weights
from termsolitaire.solver.stjernen.layer import Entry, expand, look_around, progress, select
from termsolitaire.solver.stjernen.state import DEAL, State

CASES = [
    (1, BeamConfig(width=10, late_round=5), 33, 31344, "354761449eaf88af"),
    (
        22,
        BeamConfig(width=10, late_round=5, ahead=3, weights=Weights(next_round=True)),
        31,
        11848,
        "469645937e2a7e36",
    ),
    (5, BeamConfig(width=12, jitter=300, seed=2), 40, 53551, "8c0476cdb89a2a6a"),
    (
        163,
        BeamConfig(width=10, diverse=False, weights=Weights(lam=60, bottom=False)),
        9,
        8244,
        "c5b4554a481ad21c",
    ),
    (
        163,
        BeamConfig(width=10, late_round=5, weights=Weights(hold=(0, 2))),
        9,
        14351,
        "e00a4997069974e0",
    ),
]


@pytest.mark.parametrize(("deal", "cfg", "home", "positions", "mark"), CASES)
def test_a_fixed_width_beam_makes_mains_choices(
    deal: int, cfg: BeamConfig, home: int, positions: int, mark: str
) -> None:
    root = State.from_game(new_game("stjernen", deal=deal))
    best, line, seen = beam(root, cfg, math.inf, time.process_time)
    assert (best, seen) == (home, positions)
    assert hashlib.sha256(repr((best, seen, line)).encode()).hexdigest()[:16] == mark


def _select_by_sort(found: list[Entry], width: int) -> list[Entry]:
    """:func:`select` as it was written first: (turn in its class, index) sorted."""
    count: dict[int, int] = {}
    turns: list[tuple[int, int]] = []
    for k, x in enumerate(found):
        n = count.get(x[4], 0)
        count[x[4]] = n + 1
        turns.append((n, k))
    turns.sort()
    return [found[k] for _, k in turns[:width]]


@settings(max_examples=200, deadline=None)
@given(
    classes=st.lists(st.integers(min_value=0, max_value=6), max_size=60),
    width=st.integers(min_value=0, max_value=70),
)
def test_select_takes_the_classes_turn_by_turn(classes: list[int], width: int) -> None:
    found: list[Entry] = [(-k, 0, 0, (), like, k) for k, like in enumerate(classes)]
    assert select(found, BeamConfig(), width) == _select_by_sort(found, width)


def step_on(state: State, cfg: BeamConfig, data: st.DataObject) -> bool:
    """Play one of the beam's steps from ``state`` (or the deal), drawn by
    ``data``; False where there is none."""
    steps = [tuple(m for m, _ in done) for done in beam_steps(state, cfg)]
    if state.stock:
        steps.append((DEAL,))
    if not steps:
        return False
    for m in data.draw(st.sampled_from(steps)):
        state.make(m)
    return True


@settings(max_examples=50, deadline=None)
@given(deal=st.integers(min_value=1, max_value=2**20), data=st.data())
def test_progress_classes_positions_as_its_parts_do(deal: int, data: st.DataObject) -> None:
    """The int :func:`progress` is made of the foundations' counts and the inner
    piles' heights, and each can be read back from it."""
    state = State.from_game(new_game("stjernen", deal=deal))
    cfg = BeamConfig()
    for _ in range(40):
        key = progress(state)
        parts = [key >> (7 * j) & 127 for j in range(8)]
        assert parts == [*state.fcount, *(len(state.piles[i]) for i in range(4))]
        if not step_on(state, cfg, data):
            return


LOOKS = [BeamConfig(), BeamConfig(ahead=3, weights=Weights(hold=(0, 2))), BeamConfig(dig_depth=0)]


@settings(max_examples=20, deadline=None)
@given(deal=st.integers(min_value=1, max_value=2**20), data=st.data())
def test_a_look_around_tries_the_steps_beam_steps_plays(deal: int, data: st.DataObject) -> None:
    """:func:`look_around` plays the beam's steps inline (for speed), as
    :func:`beam_steps` yields them: one expansion notes exactly the new positions
    ``beam_steps`` reaches, in its order, so the two cannot drift apart."""
    state = State.from_game(new_game("stjernen", deal=deal))
    for _ in range(30):
        for cfg in LOOKS:
            seen = {state.hash}
            played: list[tuple[tuple[int, ...], int]] = []
            for done in beam_steps(state, cfg):
                if state.hash not in seen:
                    seen.add(state.hash)
                    played.append((tuple(m for m, _ in done), state.hash))
            key = state.key()
            found: list[Entry] = []
            look_around(state, cfg, {state.hash}, found, 1, 7)
            assert state.key() == key  # left as it was
            assert [(x[3], x[5]) for x in found] == played
            assert all(x[2] == 7 for x in found)
        if not step_on(state, BeamConfig(), data):
            return


def test_expand_gives_the_set_of_the_positions_it_found() -> None:
    """The beam keeps the helper's positions it found itself out by this set
    (stjernen25): it must hold every position found, and nothing else."""
    root = State.from_game(new_game("stjernen", deal=5))
    st = root.copy()
    st.make(DEAL)
    cfg = BeamConfig(width=10)
    found, seen = expand(
        st, [(root.snapshot(), 0), (st.snapshot(), 1)], cfg, math.inf, time.monotonic
    )
    assert isinstance(seen, set)
    assert seen == {x[5] for x in found}
    assert len(found) == len(seen) > 2
