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

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import BeamConfig, beam
from termsolitaire.solver.stjernen.evaluation import Weights
from termsolitaire.solver.stjernen.state import State

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
