"""The beams of one Stjernen search, in turn (:func:`run`): the first beam, the
king-plan probe, the root's adaptive beam, the restarts along its line, then
the other weights of :data:`.beams.PORTFOLIO` while time is left.

:func:`run` takes an :class:`Order`: the plain one is the schedule of
:func:`termsolitaire.solver.stjernen.solve`; another is the schedule of its
second process (:mod:`.second`), which searches the same deal by other paths at
the same time, so that two processes are two searches, not one twice as wide.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from dataclasses import dataclass

# The module, not its names: its constants are read when a schedule runs (so
# bench/stjernen.py --set restart:NAME reaches them); "from . import restart"
# would import the package, which imports this module.
import termsolitaire.solver.stjernen.restart as restart

from .beams import FIRST_BEAM, LATE_ROUND, PORTFOLIO, Pace, beam
from .pair import Helper
from .state import WON, State


@dataclass(frozen=True, slots=True)
class Order:
    """Which paths a schedule takes after the first beam and the probe (their
    width is fixed, so both processes would find the same lines there)."""

    weights: int = 0
    """The root's adaptive beam's weights, an index into :data:`.beams.PORTFOLIO`
    (the later beams follow it in turn)."""
    restart_weights: tuple[int, ...] | None = None
    """The restarts' weights in turn (None: :data:`.restart.RESTART_WEIGHTS`)."""
    jitter: int = 0
    """The root's adaptive beam's ``BeamConfig.jitter`` (with ``seed``)."""
    seed: int = 0
    """The root beam's seed, and added to the restarts' seeds."""


PLAIN = Order()
"""The schedule of one process, the board's hint."""
SECOND = Order(weights=1, restart_weights=(1,), jitter=300, seed=100)
"""The second process's schedule (``solve`` with ``jobs`` 2): the root's beam
and its restarts with the weights that look further ahead (``horizon=250``,
which reach more cards where the plain ones stop early; as restarts alone they
won 62 of deals 1-100 against 63, docs/journal/solver-stjernen.md,
stjernen12), and another order among equals (``jitter``)."""


def run(
    root: State,
    best: int,
    deadline: float,
    clock: Callable[[], float],
    helper: Helper | None,
    min_left: float,
    order: Order = PLAIN,
) -> tuple[int, list[int], int]:
    """The beams from ``root`` until a win, or until less than ``min_left`` is left
    before ``deadline`` on ``clock``; return (best foundation count, its line,
    positions seen). ``best`` is the count at ``root``."""
    pace = Pace()
    hold: tuple[int, ...] = ()
    line: list[int] = []
    positions = 0
    followed = 0
    for k in itertools.count():
        if k == 0:
            cfg = FIRST_BEAM
        else:
            cfg = dataclasses.replace(
                PORTFOLIO[(k - 1 + order.weights) % len(PORTFOLIO)],
                adaptive=True,
                late_round=LATE_ROUND,
            )
            if k == 1 and order.jitter:
                cfg = dataclasses.replace(cfg, jitter=order.jitter, seed=order.seed)
        if k == 1:
            best, line, seen, hold = restart.probe(root, best, line, deadline, clock, pace, helper)
            positions += seen
            best, line, seen, followed = restart.probe_courses(
                root, best, line, hold, deadline, clock, helper
            )
            positions += seen
            if best == WON:
                break
            if followed:
                # The course probe's weights (restart.COURSE_PROBES) for the
                # root's beam and its restarts.
                cfg = dataclasses.replace(PORTFOLIO[followed], adaptive=True, late_round=LATE_ROUND)
            if hold:
                cfg = dataclasses.replace(cfg, weights=dataclasses.replace(cfg.weights, hold=hold))
        end = deadline
        if k == 1 and restart.RESTART_SHARE:
            end = clock() + (deadline - clock()) * restart.RESTART_SHARE
        score, moves, seen = beam(root, cfg, end, clock, pace, helper)
        positions += seen
        # The root's beam got no further than the first beam and the probe: a
        # first beam in a row that stalled (restart.STALL).
        stalled = int(score <= best)
        if score > best or not line:
            best, line = score, moves
        if k == 1 and restart.RESTART_SHARE and best < WON:
            best, line, seen = restart.restarts(
                root,
                best,
                line,
                deadline,
                clock,
                pace,
                helper,
                min_left,
                LATE_ROUND,
                hold,
                (followed,) if followed else order.restart_weights,
                order.seed,
                stalled,
                followed,
            )
            positions += seen
        if best == WON or deadline - clock() < min_left:
            break
    return best, line, positions


__all__ = ["PLAIN", "SECOND", "Order", "run"]
