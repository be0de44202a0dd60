"""The beam search that finds Stjernen's lines (see the package's docstring).

Time is counted in deals: for each deal of each round :func:`beam` keeps
``width`` positions, looks around each (:func:`.layer.expand`) and deals. With
a :class:`.pair.Helper` every other kept position of a layer is looked around
in a second process at the same time.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter

from .evaluation import Weights, evaluate
from .layer import BeamConfig, Entry, beam_steps, expand, look_around, select
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
LARGEST = True
"""Read the layers to come (:func:`deals_left`) and the pools of :attr:`Pace.kept`
on the layer's kept position with the largest stock (before its look-around):
the round's layers go on while any kept position has a deal left, so the
largest stock is the count of them. False: on the layer's best position
found, which undercounts them (deal 1, stjernen22: at the end of round 4 the
best had no deal left while three more layers came, and the widths fell
1,077 -> 539 -> 232). Before either, the plan was read on whichever position
the look-arounds left in the beam's state, whose stock swings from layer to
layer (round 4 of deal 1: 1,091, 964, 963, 1,716, 1,546, 774)."""


def _stock_of(entry: tuple[object, int]) -> int:
    """The cards in the stock of a layer's entry (a snapshot and its node)."""
    return len(entry[0][1])  # type: ignore[index]


class _Lines:
    """The lines of a search as a tree: node ``k`` is reached from node
    ``parent[k]`` by ``moves[k]``. Keeps the best node seen."""

    def __init__(self, moves: tuple[int, ...], score: int) -> None:
        self.parent = [-1]
        self.moves = [moves]
        self.best_score = score
        self.best_node = 0

    def add(self, parent: int, moves: tuple[int, ...], score: int) -> int:
        node = len(self.parent)
        self.parent.append(parent)
        self.moves.append(moves)
        if score > self.best_score:
            self.best_score = score
            self.best_node = node
        return node

    def line(self, node: int) -> list[int]:
        out: list[int] = []
        while node >= 0:
            out[:0] = self.moves[node]
            node = self.parent[node]
        return out


@dataclass(slots=True)
class Pace:
    """What a beam's layers cost: seconds per kept position expanded, before the
    late rounds and in them, as a running average that follows the recent
    layers (a kept position costs less in a wider beam, where more of what its
    look-around finds was seen already). Shared by the beams of one
    :func:`solve`, so an adaptive beam knows its costs from its first layer on,
    and how many of a round's cards are left for the next (:attr:`kept`)."""

    early: float = 0.0
    late: float = 0.0
    kept: dict[int, float] = field(default_factory=dict)
    """For each round, the share of its pool (the cards in the stock and the
    upturned piles at its first layer) still there at the next round's first
    layer, both read as :data:`LARGEST` says, as the beams of this search met
    it (the mean of the last measure and those before it): the cards a round
    takes home are not dealt again in the next."""

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

    def round_kept(self, r: int, before: int, after: int) -> None:
        """Round ``r`` began with ``before`` cards in its pool and left ``after``."""
        if before <= 0:
            return
        share = after / before
        old = self.kept.get(r)
        self.kept[r] = share if old is None else (old + share) / 2


def pool(st: State) -> int:
    """The cards still to be dealt in this round or a later one: the stock and
    the upturned piles."""
    return len(st.stock) + sum(len(st.piles[u]) for u in UP)


def deals_left(
    st: State, late_round: int, kept: dict[int, float] | None = None, start: int = 0
) -> tuple[int, int]:
    """The layers still to come after ``st``'s, before round ``late_round`` and from
    it on: in this round one a deal of the stock; in each later round one after
    the collect and one a deal of its pool. Round ``r`` leaves
    ``kept[r]`` of its pool to the next (``start``: the cards in this round's
    pool at its first layer, 0 if not known), or the cards left now if fewer;
    a round not in ``kept`` (or without ``start``) deals every card left now
    again."""
    left = pool(st)
    base = start
    early = late = 0
    for r in range(st.round, ROUNDS + 1):
        if r == st.round:
            k = -(-len(st.stock) // (7 - r))
        else:
            share = kept.get(r - 1) if kept else None
            if share is not None and base:
                left = min(left, round(share * base))
            base = left
            k = 1 + -(-left // (7 - r))
        if late_round and r >= late_round:
            late += k
        else:
            early += k
    return early, late


def _adapt(st: State, cfg: BeamConfig, pace: Pace, left: float, start: int = 0) -> int:
    """The width that spends ``left`` seconds evenly on the early rounds' layers
    still to come after ``st``'s (:func:`deals_left`, with ``pace.kept`` and this
    round's pool ``start``), the late rounds keeping ``cfg.late_width`` each
    (up to four times that in the late rounds themselves, when time is left
    over)."""
    early, late = deals_left(st, cfg.late_round, pace.kept, start)
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
    ``helper`` (another process), every other kept position of a layer is
    looked around there, at the same time."""
    pace = pace if pace is not None else Pace()
    st = root.copy()
    done: list[tuple[int, int]] = []
    auto(st, done, cfg.weights.hold)
    lines = _Lines(tuple(m for m, _ in done), st.score)
    layers: dict[tuple[int, int], list[tuple[object, int]]] = {(st.round, 0): [(st.snapshot(), 0)]}
    keys = [(st.round, 0)]
    positions = 0
    # The pool of each round at its first layer (read as LARGEST says); the
    # root's round is measured for Pace.kept only from the round's start (no
    # upturned card yet), a later one always.
    starts: dict[int, int] = {}
    fresh = not any(st.piles[u] for u in UP)
    while keys and lines.best_score < WON and clock() < deadline:
        key = heapq.heappop(keys)
        layer = layers.pop(key)
        is_late = bool(cfg.late_round) and key[0] >= cfg.late_round
        began = clock()
        theirs = helper.send(layer[1::2], cfg, deadline - began) if helper else False
        found, seen = expand(st, layer[0::2] if theirs else layer, cfg, deadline, clock)
        positions += seen
        if theirs and helper:
            got = helper.receive(deadline - clock())
            if got is not None:
                ours = {x[5] for x in found}
                found.extend(x for x in got[0] if x[5] not in ours)
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
        if found and (cfg.adaptive or key[1] == 0):
            # The plan and the pools are read on a position of the layer chosen
            # as LARGEST says, not on whichever one the look-arounds left in st
            # (the positions of a layer differ in their stock).
            if LARGEST:
                st.restore(max(layer, key=_stock_of)[0])  # type: ignore[arg-type]
            else:
                st.restore(snaps[found[0][2]])  # type: ignore[arg-type]
                for m in found[0][3]:
                    st.make(m)
            if key[1] == 0:
                starts[key[0]] = pool(st)
                if key[0] - 1 in starts and (fresh or key[0] - 1 > root.round):
                    pace.round_kept(key[0] - 1, starts[key[0] - 1], starts[key[0]])
        if cfg.adaptive:
            width = _adapt(st, cfg, pace, (deadline - now) * SLACK, starts.get(key[0], 0))
        elif is_late:
            width = min(width, cfg.late_width)
        for _, _, node, moves, _, _ in select(found, cfg, width):
            st.restore(snaps[node])  # type: ignore[arg-type]
            for m in moves:
                st.make(m)
            kept = lines.add(node, moves, st.score)
            if st.stock:
                m, nk = DEAL, (key[0], key[1] + 1)
            elif st.round < ROUNDS:
                m, nk = COLLECT, (key[0] + 1, 0)
            else:
                if finished < 3 and clock() < deadline:
                    finished += 1
                    positions += _finish(st, cfg, lines, kept)
                continue
            done = [(m, st.make(m))]
            auto(st, done, cfg.weights.hold)
            child = lines.add(kept, tuple(x for x, _ in done), st.score)
            if nk not in layers:
                layers[nk] = []
                heapq.heappush(keys, nk)
            layers[nk].append((st.snapshot(), child))
    return lines.best_score, lines.line(lines.best_node), positions


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


def _finish(st: State, cfg: BeamConfig, lines: _Lines, node: int) -> int:
    """No deal or collect is left: a longer look-around for the most foundation
    cards; record the best in ``lines``; return the positions seen."""
    seen = {st.hash}
    found: list[Entry] = []
    look_around(st, cfg, seen, found, cfg.finish, node)
    best = max(found, key=itemgetter(1), default=None)
    if best and best[1] > lines.best_score:
        lines.add(node, best[3], best[1])
    return len(seen)
