"""The beam search that finds Stjernen's lines (see the package's docstring).

Time is counted in deals: for each deal of each round :func:`beam` keeps
``width`` positions, looks around each (:func:`.layer.expand`) and deals. With
a :class:`.pair.Helper` half of each layer's kept positions, whole families of
them (:func:`halves`), is looked around in a second process at the same time.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter

from .evaluation import Weights, evaluate
from .layer import (
    BeamConfig,
    Entry,
    Layers,
    Lines,
    advance,
    beam_steps,
    expand,
    look_around,
    select,
)
from .moves import auto
from .pair import Helper
from .state import COLLECT, DEAL, ROUNDS, UP, WON, State

PORTFOLIO = (
    BeamConfig(),
    BeamConfig(weights=Weights(horizon=250)),
    BeamConfig(weights=Weights(lam=60)),
    BeamConfig(weights=Weights(empty=600)),
    BeamConfig(ahead=3),
    BeamConfig(weights=Weights(occupied=200)),
    BeamConfig(weights=Weights(bottom=False)),
    BeamConfig(jitter=300, seed=1),
    BeamConfig(weights=Weights(next_round=True)),
)
"""The weights of the beams :func:`solve` runs after the first, in turn (their
widths set by the time left). Which deals a beam wins depends much on its
weights and width; with 10 s usually only the first one or two run. The last
reads the next round's order (``Weights.next_round``): as the first of them
it won no more deals than the plain weights, for an eighth more time a
position (docs/journal/solver-stjernen.md), so it waits for budgets that run many beams."""
FIRST_WIDTH = 10
"""The width of the first beam, which also times the search."""
LATE_ROUND = 5
"""From this round on, :func:`solve`'s beams keep only ``late_width`` positions."""
FIRST_BEAM = BeamConfig(width=FIRST_WIDTH, late_round=LATE_ROUND)
"""The beam :func:`solve` runs first. Its width is fixed, not set by the clock,
so a deal it wins is won on any machine: the winnable-only book
(:mod:`.book`) holds deals it wins, with the plain weights it was made with."""
SLACK = 0.9
"""An adaptive beam plans to spend this share of the time left (its estimate
of the cost of a layer is rough, and a beam cut off by the deadline loses the
rest of its line)."""
MAX_WIDTH = 2000
SPLIT_BY_ORIGIN = True
"""With a helper: split a layer between the two processes by the position each
kept position came from two deals back (the kept position of the last layer
whose look-around found it), a whole family to one side (:func:`halves`);
False: every other kept position to the helper. Positions of one family
reach many of the same positions again, and the two processes do not know
what the other has seen, so a family split in two is searched twice over."""


@dataclass(slots=True)
class Pace:
    """What a beam's layers cost: seconds per kept position expanded, before the
    late rounds and in them, as a running average that follows the recent
    layers (a kept position costs less in a wider beam, where more of what its
    look-around finds was seen already). Shared by the beams of one
    :func:`solve`, so an adaptive beam knows its costs from its first layer on."""

    early: float = 0.0
    late: float = 0.0

    def add(self, late: bool, seconds: float, kept: int) -> None:
        if not kept:
            return
        cost = seconds / kept
        if late:
            self.late = cost if not self.late else 0.7 * self.late + 0.3 * cost
        else:
            self.early = cost if not self.early else 0.7 * self.early + 0.3 * cost

    def cost(self, late: bool) -> float:
        """Seconds per kept position (the early cost stands in for the late one,
        and 1 ms for both, until measured)."""
        if late and self.late:
            return self.late
        return self.early or 0.001


def deals_left(st: State, late_round: int) -> tuple[int, int]:
    """The deals still to come, at most, before round ``late_round`` and from it
    on (every card in the stock and the upturned piles dealt again each round)."""
    pool = len(st.stock) + sum(len(st.piles[u]) for u in UP)
    early = late = 0
    for r in range(st.round, ROUNDS + 1):
        n = len(st.stock) if r == st.round else pool
        k = -(-n // (7 - r))
        if late_round and r >= late_round:
            late += k
        else:
            early += k
    return early, late


def _adapt(st: State, cfg: BeamConfig, pace: Pace, left: float) -> int:
    """The width that spends ``left`` seconds evenly on the early rounds' deals
    still to come, the late rounds keeping ``cfg.late_width`` each (up to four
    times that in the late rounds themselves, when time is left over)."""
    early, late = deals_left(st, cfg.late_round)
    if early == 0:
        width = int(left / max(late * pace.cost(True), 1e-9))
        return max(cfg.late_width, min(width, 4 * cfg.late_width))
    spare = left - late * cfg.late_width * pace.cost(True)
    width = int(spare / (early * pace.cost(False)))
    return max(cfg.late_width, min(width, MAX_WIDTH))


def beam(
    root: State,
    cfg: BeamConfig,
    deadline: float,
    clock: Callable[[], float] = time.monotonic,
    pace: Pace | None = None,
    helper: Helper | None = None,
) -> tuple[int, list[int], int]:
    """Search from ``root`` (unchanged) until a win, the end of the stock or
    ``deadline`` on ``clock``; return (best foundation count, its line, positions
    seen). ``pace``, if given, gets what the layers cost; with ``cfg.adaptive``
    each deal's width is set from it and the time left (:func:`_adapt`). With a
    ``helper`` (another process), half of each layer's kept positions (whole
    families, :func:`halves`) are looked around there, at the same time."""
    pace = pace if pace is not None else Pace()
    st = root.copy()
    done: list[tuple[int, int]] = []
    auto(st, done, cfg.weights.hold)
    lines = Lines(tuple(m for m, _ in done), st.score)
    layers: Layers = {(st.round, 0): [(st.snapshot(), 0)]}
    keys = [(st.round, 0)]
    positions = 0
    finished = 0

    def last(st: State, kept: int) -> None:
        """A kept position with no deal or collect left: the first three of a
        layer get a longer look-around."""
        nonlocal finished, positions
        if finished < 3 and clock() < deadline:
            finished += 1
            positions += _finish(st, cfg, lines, kept)

    while keys and lines.best_score < WON and clock() < deadline:
        key = heapq.heappop(keys)
        layer = layers.pop(key)
        is_late = bool(cfg.late_round) and key[0] >= cfg.late_round
        began = clock()
        mine, others = halves(layer, lines) if helper else (layer, [])
        theirs = helper.send(others, cfg, deadline - began) if helper else False
        found, seen = expand(st, mine if theirs else layer, cfg, deadline, clock)
        positions += len(seen)
        if theirs and helper:
            got = helper.receive(deadline - clock())
            if got is not None:
                found.extend(x for x in got[0] if x[5] not in seen)
                positions += got[1]
        found.sort(key=itemgetter(0), reverse=True)  # stable: ties keep their order
        snaps = dict((node, snap) for snap, node in layer)
        if cfg.peek:
            found = _peek(st, cfg, found, snaps)
        now = clock()
        pace.add(is_late, now - began, len(layer))
        best_f = max(found, key=itemgetter(1), default=None)
        if best_f and best_f[1] > lines.best_score:
            lines.add(best_f[2], best_f[3], best_f[1])
        finished = 0
        width = cfg.width
        if cfg.adaptive:
            width = _adapt(st, cfg, pace, (deadline - now) * SLACK)
        elif is_late:
            width = min(width, cfg.late_width)
        chosen = select(found, cfg, width)
        advance(st, chosen, snaps, lines, cfg.weights.hold, key, layers, keys, last)
    return lines.best_score, lines.line(lines.best_node), positions


def halves(
    layer: list[tuple[object, int]], lines: Lines
) -> tuple[list[tuple[object, int]], list[tuple[object, int]]]:
    """``layer`` in two for the two processes (:data:`SPLIT_BY_ORIGIN`): this
    process's half and the helper's."""
    if not SPLIT_BY_ORIGIN:
        return layer[0::2], layer[1::2]
    parent = lines.parent
    families: dict[int, list[tuple[object, int]]] = {}
    for item in layer:
        kept = parent[item[1]]
        origin = parent[kept] if kept >= 0 else -1
        family = families.get(origin)
        if family is None:
            families[origin] = [item]
        else:
            family.append(item)
    ours: list[tuple[object, int]] = []
    theirs: list[tuple[object, int]] = []
    for family in families.values():
        if len(ours) <= len(theirs):
            ours.extend(family)
        else:
            theirs.extend(family)
    return ours, theirs


def _peek(
    st: State,
    cfg: BeamConfig,
    found: list[Entry],
    snaps: dict[int, object],
) -> list[Entry]:
    """Score the best ``cfg.peek * cfg.width`` positions found again, one deal
    later: deal (or collect), then the best of one more step. A storage move
    that pays only after the next deal is seen for what it is."""
    top = found[: cfg.peek * cfg.width]
    out = []
    w = cfg.weights
    for score, f, node, moves, like, h in top:
        st.restore(snaps[node])  # type: ignore[arg-type]
        for m in moves:
            st.make(m)
        if st.stock:
            m = DEAL
        elif st.round < ROUNDS:
            m = COLLECT
        else:
            out.append((score, f, node, moves, like, h))
            continue
        done = [(m, st.make(m))]
        auto(st, done, cfg.weights.hold)
        best = evaluate(st, w)
        for _ in beam_steps(st, cfg):
            best = max(best, evaluate(st, w))
        out.append((best, f, node, moves, like, h))
    out.sort(key=lambda x: -x[0])
    return out


def _finish(st: State, cfg: BeamConfig, lines: Lines, node: int) -> int:
    """No deal or collect is left: a longer look-around for the most foundation
    cards; record the best in ``lines``; return the positions seen."""
    seen = {st.hash}
    found: list[Entry] = []
    look_around(st, cfg, seen, found, cfg.finish, node)
    best = max(found, key=itemgetter(1), default=None)
    if best and best[1] > lines.best_score:
        lines.add(node, best[3], best[1])
    return len(seen)
