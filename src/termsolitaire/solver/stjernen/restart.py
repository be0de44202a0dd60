"""Restarts along the best line (issue 34, stjernen10): an iterated beam.

A beam that does not win mostly stops at the same count whatever its width
(docs/solver.md): its line walks into a dead end. Instead of one beam from the
root for the whole budget, :func:`restarts` takes the best line found so far,
goes back to the start of a round on it, and runs a new adaptive beam from
there, with a perturbed order (``jitter``, a new seed each time). From a
later position fewer deals are left, so the same time buys a wider beam
where the line went wrong. A restart that gets further becomes the line the
next one starts from (one round before its stop); one that does not makes
the next start a round earlier.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .beams import PORTFOLIO, Pace, beam
from .layer import BeamConfig
from .pair import Helper
from .state import COLLECT, WON, State

RESTART_SHARE = 0.8
"""The share of the time left after the first beam that the first adaptive beam
(from the root) gets before the restarts take the rest; 0: no restarts. At
0.8 one process won 58 of deals 1-100 against 55 with none, at 0.5 52
(docs/solver.md, stjernen10): the root's beam needs most of the width."""
RESTART_JITTER = 300
"""The restarts' ``BeamConfig.jitter``."""
RESTART_BACK = 1
"""The first restart starts this many rounds before the round the line stops in."""


def round_starts(root: State, line: list[int]) -> list[tuple[int, int, State]]:
    """The positions on ``line`` (from ``root``) just after each collect: (round,
    moves played, the position), the root first."""
    st = root.copy()
    out = [(st.round, 0, st.copy())]
    for k, m in enumerate(line):
        st.make(m)
        if m == COLLECT:
            out.append((st.round, k + 1, st.copy()))
    return out


def restarts(
    root: State,
    best: int,
    line: list[int],
    deadline: float,
    clock: Callable[[], float],
    pace: Pace,
    helper: Helper | None,
    min_left: float,
    late_round: int,
) -> tuple[int, list[int], int]:
    """Restart beams along the best line until a win or less than ``min_left`` of
    time is left; return (best count, its line, positions seen)."""
    positions = 0
    back = RESTART_BACK
    seed = 0
    while best < WON and deadline - clock() >= min_left:
        starts = round_starts(root, line)
        stop = starts[-1][0]
        at = max(stop - back, starts[0][0])
        r, k, st = next(x for x in starts if x[0] == at)
        seed += 1
        cfg = dataclasses.replace(
            PORTFOLIO[0],
            adaptive=True,
            late_round=late_round if r < late_round else 0,
            jitter=RESTART_JITTER,
            seed=seed,
        )
        now = clock()
        # Half of what is left, the last restart all of it.
        end = deadline if deadline - now < 2 * min_left else now + (deadline - now) / 2
        score, moves, seen = beam(st, cfg, end, clock, pace, helper)
        positions += seen
        if score > best:
            best, line = score, line[:k] + moves
            back = RESTART_BACK
        elif at == starts[0][0]:
            back = RESTART_BACK
        else:
            back += 1
    return best, line, positions


__all__ = ["BeamConfig", "restarts", "round_starts"]
