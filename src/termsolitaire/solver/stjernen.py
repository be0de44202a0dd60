"""The Stjernen solver: a beam search through the deals for good lines, and an
exhaustive search for proofs.

The stock's order is known, and dealing and collecting are moves, so the whole
future is fixed by the player's choices. Two searches share the budget:

- :class:`Prover`, a depth-first search over every legal move but the provably
  pointless ones (:func:`.stjernen_moves.sound_steps`) with a table of the
  positions seen. When it runs out of positions without a win, the position is
  lost: the only way this solver says ``lost``. On a fresh deal it never gets
  that far; near the end of a game it often does.
- :func:`beam`, the search that finds the lines. Time is counted in deals: for
  each deal of each round it keeps ``width`` positions, looks around each by a
  small best-first search over card moves and dig steps (foundation moves are
  played at once), and deals. The positions kept are the best (by
  :func:`.stjernen_eval.evaluate`) of each class of progress in turn
  (:func:`_progress`: cards home, inner piles left), not simply the best: the
  plain best are mostly variants of one or two positions, and the winning
  line often ranks well below them. Wins are made by round 4 or so, so the
  late rounds are searched narrowly and the time saved goes into a wider beam
  early on.

:func:`solve` runs a narrow beam of fixed width first (it wins the easy deals
at once, the same on every machine, and times the search), then beams whose
width is set deal by deal from the time left (:class:`Pace`), with the weights
of :data:`PORTFOLIO` in turn, until one wins or the time is up; the best line
of all is the answer.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from termsolitaire.rules import Game

from .base import Budget, Result
from .stjernen_eval import Weights, evaluate
from .stjernen_moves import (
    Step,
    auto,
    dig,
    dig_reach,
    dig_size,
    dig_targets,
    play,
    search_steps,
    sound_auto,
    sound_steps,
    undo,
)
from .stjernen_pair import Helper
from .stjernen_state import COLLECT, DEAL, ROUNDS, UP, State, to_move

WON = 104
_TT_ENTRY_BYTES = 120
"""Rough memory of one entry of the prover's table (an int in a set)."""


@dataclass(frozen=True, slots=True)
class BeamConfig:
    """One beam of the portfolio."""

    width: int = 20
    """Positions kept per deal."""
    look: int = 30
    """Positions expanded by the best-first look-around of each kept position."""
    ahead: int = 2
    """Dig for the cards wanted within this many turns of each suit."""
    dig_depth: int = 6
    """Dig for cards at most this deep."""
    diverse: bool = True
    """Keep positions in turns by their progress (:func:`_progress`): the best
    of each, then the second best of each, and so on. Otherwise simply the
    best ``width``, which fills the beam with variants of a few positions that
    differ only in where the storage cards lie or which copy of a card was
    taken, and drops the different plans a win may need."""
    finish: int = 300
    """Expansions of the last look-around when no deal or collect is left."""
    peek: int = 0
    """If not 0: score the best ``peek * width`` positions again one deal later
    (:func:`_peek`) before keeping ``width`` of them."""
    late_round: int = 0
    """If not 0: from this round on keep at most ``late_width`` positions per
    deal. Wins are mostly made by round 4; a line stuck by then rarely gets
    much further, so the late rounds get little time and the early ones more."""
    late_width: int = 10
    adaptive: bool = False
    """Set each deal's width from the time left (:func:`_adapt`), ``width`` at
    most in the late rounds, instead of keeping ``width`` throughout."""
    jitter: int = 0
    """If not 0: add a random number up to this to each score (seeded by
    ``seed``), so beams with different seeds keep different positions."""
    seed: int = 0
    weights: Weights = field(default_factory=Weights)


PORTFOLIO = (
    BeamConfig(),
    BeamConfig(weights=Weights(horizon=250)),
    BeamConfig(weights=Weights(lam=60)),
    BeamConfig(weights=Weights(empty=600)),
    BeamConfig(ahead=3),
    BeamConfig(weights=Weights(occupied=200)),
    BeamConfig(weights=Weights(bottom=False)),
    BeamConfig(jitter=300, seed=1),
)
"""The weights of the beams :func:`solve` runs after the first, in turn (their
widths set by the time left). Which deals a beam wins depends much on its
weights and width; with 10 s usually only the first one or two run."""
FIRST_WIDTH = 10
"""The width of the first beam, which also times the search."""
LATE_ROUND = 5
"""From this round on, :func:`solve`'s beams keep only ``late_width`` positions."""
FIRST_BEAM = dataclasses.replace(PORTFOLIO[0], width=FIRST_WIDTH, late_round=LATE_ROUND)
"""The beam :func:`solve` runs first. Its width is fixed, not set by the clock,
so a deal it wins is won on any machine: the winnable-only book
(:mod:`.stjernen_book`) holds deals it wins."""
MIN_BEAM = 0.1
"""Another beam starts only with at least this share of the budget left."""
SLACK = 0.9
"""An adaptive beam plans to spend this share of the time left (its estimate
of the cost of a layer is rough, and a beam cut off by the deadline loses the
rest of its line)."""
PROVER_FIRST = 0.05
"""The prover's share of the budget before the beams (at most a second)."""
MAX_WIDTH = 2000


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


Found = list[tuple[int, int, tuple[int, ...], tuple[int, ...], int]]
"""Positions found: (score, foundation cards, moves that reach it, progress, hash)."""
Entry = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int]
"""A position found in a layer: (score, foundation cards, the node of the kept
position it was reached from, the moves from there, progress, hash)."""


def _progress(st: State) -> tuple[int, ...]:
    """How far a position has got: the cards on each foundation and those left
    in each inner pile. Positions alike in this differ in what the storage
    holds, where, and what is left in the upturned piles."""
    p = st.piles
    return (*st.fcount, len(p[0]), len(p[1]), len(p[2]), len(p[3]))


def _noise(h: int, cfg: BeamConfig) -> int:
    """A pseudo-random number in [0, jitter) fixed by the position and the seed."""
    return ((h ^ (cfg.seed * 0x9E3779B97F4A7C15)) * 0xBF58476D1CE4E5B9 >> 40) % cfg.jitter


def _look_around(st: State, cfg: BeamConfig, seen: set[int], found: Found, look: int) -> None:
    """Best-first search over card moves from ``st`` (left as it was): up to
    ``look`` expansions; every new position goes into ``found``."""
    w = cfg.weights
    heap: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    tick = 0
    for _ in range(look):
        if not heap:
            return
        _, _, path = heapq.heappop(heap)
        base = [(m, st.make(m)) for m in path]
        for done in beam_steps(st, cfg):
            if st.hash not in seen:
                seen.add(st.hash)
                moves = path + tuple([m for m, _ in done])
                score = evaluate(st, w)
                if cfg.jitter:
                    score += _noise(st.hash, cfg)
                like = _progress(st) if cfg.diverse else ()
                found.append((score, st.score, moves, like, st.hash))
                tick += 1
                heapq.heappush(heap, (-score, tick, moves))
        undo(st, base)


def beam_steps(st: State, cfg: BeamConfig) -> Iterator[list[tuple[int, int]]]:
    """Play each step the beam tries from ``st`` in turn, with the foundation
    moves after it, and yield what was played; the step is taken back when the
    caller asks for the next. The card moves of :func:`search_steps` come first,
    then the digs, each worked out and played in one go."""
    for step in search_steps(st):
        done: list[tuple[int, int]] = []
        play(st, step, done)
        auto(st, done)
        yield done
        undo(st, done)
    if cfg.dig_depth:
        reach: dict[int, int] = {}
        for p, k in dig_targets(st, cfg.ahead, cfg.dig_depth):
            r = reach.get(p)
            if r is None:
                r = reach[p] = dig_reach(st, p)
            if dig_size(st, p, k) > r:
                continue
            done = []
            if dig(st, p, k, done):
                auto(st, done)
                yield done
                undo(st, done)


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


def expand(
    st: State,
    layer: list[tuple[object, int]],
    cfg: BeamConfig,
    deadline: float,
    clock: Callable[[], float],
) -> tuple[list[Entry], int]:
    """Look around each kept position of ``layer`` (snapshot, node) in turn until
    ``deadline``; return every position found, each once, and how many
    positions were seen (``st`` is left anywhere)."""
    seen: set[int] = set()
    found: list[Entry] = []
    for snap, node in layer:
        st.restore(snap)  # type: ignore[arg-type]
        if st.hash in seen:
            continue
        seen.add(st.hash)
        like = _progress(st) if cfg.diverse else ()
        around: Found = [(evaluate(st, cfg.weights), st.score, (), like, st.hash)]
        _look_around(st, cfg, seen, around, cfg.look)
        found.extend((score, f, node, moves, like, h) for score, f, moves, like, h in around)
        if clock() > deadline:
            break
    return found, len(seen)


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
    auto(st, done)
    lines = _Lines(tuple(m for m, _ in done), st.score)
    layers: dict[tuple[int, int], list[tuple[object, int]]] = {(st.round, 0): [(st.snapshot(), 0)]}
    keys = [(st.round, 0)]
    positions = 0
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
        found.sort(key=lambda x: -x[0])
        snaps = dict((node, snap) for snap, node in layer)
        if cfg.peek:
            found = _peek(st, cfg, found, snaps)
        now = clock()
        pace.add(is_late, now - began, len(layer))
        best_f = max(found, key=lambda x: x[1], default=None)
        if best_f and best_f[1] > lines.best_score:
            lines.add(best_f[2], best_f[3], best_f[1])
        finished = 0
        width = cfg.width
        if cfg.adaptive:
            width = _adapt(st, cfg, pace, (deadline - now) * SLACK)
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
            auto(st, done)
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
        auto(st, done)
        best = evaluate(st, w)
        for _ in beam_steps(st, cfg):
            best = max(best, evaluate(st, w))
        out.append((best, f, node, moves, like, h))
    out.sort(key=lambda x: -x[0])
    return out


def select(found: list[Entry], cfg: BeamConfig, width: int) -> list[Entry]:
    """``width`` of ``found`` (sorted best first): with ``cfg.diverse`` the best
    of each progress first, then the second best of each, and so on; else the
    best ``width``."""
    if not cfg.diverse:
        return found[:width]
    count: dict[tuple[int, ...], int] = {}
    turns: list[tuple[int, int]] = []
    for k, x in enumerate(found):
        n = count.get(x[4], 0)
        count[x[4]] = n + 1
        turns.append((n, k))
    turns.sort()
    return [found[k] for _, k in turns[:width]]


def _finish(st: State, cfg: BeamConfig, lines: _Lines, node: int) -> int:
    """No deal or collect is left: a longer look-around for the most foundation
    cards; record the best in ``lines``; return the positions seen."""
    seen = {st.hash}
    found: Found = []
    _look_around(st, cfg, seen, found, cfg.finish)
    best = max(found, key=lambda x: x[1], default=None)
    if best and best[1] > lines.best_score:
        lines.add(node, best[2], best[1])
    return len(seen)


class Prover:
    """Depth-first search over the sound move lists with a table of the positions
    entered: resumable (:meth:`run` again continues), so it can share the budget.

    ``status`` is ``"won"`` (``line`` holds the win), ``"lost"`` (every position
    reachable was searched) or ``None`` (not finished)."""

    def __init__(self, root: State, max_entries: int) -> None:
        self.st = root.copy()
        self.max_entries = max_entries
        self.status: str | None = None
        self.line: list[int] = []
        self.seen: set[int] = set()
        done: list[tuple[int, int]] = []
        sound_auto(self.st, done)
        self.seen.add(self.st.hash)
        self._root_moves = [m for m, _ in done]
        if self.st.score == WON:
            self.status = "won"
            self.line = self._root_moves
        # Each frame: the steps to try, the next index, what the step into it did.
        self._stack: list[tuple[list[int], int, list[tuple[int, int]]]] = [
            (sound_steps(self.st), 0, done)
        ]

    @property
    def positions(self) -> int:
        return len(self.seen)

    def run(self, deadline: float, clock: Callable[[], float] = time.monotonic) -> str | None:
        """Search on until a verdict, ``deadline`` on ``clock`` or the table is full."""
        st, seen, stack = self.st, self.seen, self._stack
        ticks = 0
        while self.status is None:
            if not stack:
                self.status = "lost"
                break
            steps, k, record = stack[-1]
            if k == len(steps):
                stack.pop()
                if stack:
                    undo(st, record)
                continue
            stack[-1] = (steps, k + 1, record)
            done: list[tuple[int, int]] = []
            play(st, steps[k], done)
            sound_auto(st, done)
            if st.hash in seen:
                undo(st, done)
                continue
            seen.add(st.hash)
            if st.score == WON:
                self.status = "won"
                self.line = [m for _, _, rec in stack[1:] for m, _ in rec] + [m for m, _ in done]
                self.line = self._root_moves + self.line
                break
            stack.append((sound_steps(st), 0, done))
            ticks += 1
            if ticks & 255 == 0 and (clock() > deadline or len(seen) > self.max_entries):
                break
        return self.status


def solve(game: Game, budget: Budget) -> Result:
    """Search ``game``'s position (left unchanged) within ``budget``.

    The prover first gets a twentieth of the time (enough for a position near
    its end). Then the first beam (narrow, so it answers the easy deals at
    once and measures what a layer costs), then adaptive beams of the
    portfolio, each spreading the time left over its deals, until one wins or
    only a tenth of the time is left; the prover gets what is left over.
    With ``budget.jobs`` above 1 the beams share their layers with a second
    process (:mod:`.stjernen_pair`), started at once so that it is ready when
    they begin.
    """
    clock = budget.clock
    start = clock()
    deadline = start + budget.seconds
    root = State.from_game(game)
    helper = Helper(budget.cpu) if budget.jobs > 1 else None
    try:
        best, line, positions, prover = _search(root, budget, start, deadline, helper)
    finally:
        if helper:
            helper.close()
    seconds = clock() - start
    positions += prover.positions
    if prover.status == "won":
        line, best = prover.line, WON
    verdict = "won" if best == WON else prover.status or "unknown"
    if verdict == "lost":
        best, line = _best_of_proof(root, line, best)
    return Result(
        verdict,  # type: ignore[arg-type]
        tuple(to_move(m) for m in line),
        seconds=seconds,
        positions=positions,
        best=best,
    )


def _search(
    root: State, budget: Budget, start: float, deadline: float, helper: Helper | None
) -> tuple[int, list[int], int, Prover]:
    """:func:`solve`'s searches: (best foundation count, its line, positions, the prover)."""
    clock = budget.clock
    prover = Prover(root, budget.memory_mb * 1_000_000 // _TT_ENTRY_BYTES)
    prover.run(start + min(1.0, budget.seconds * PROVER_FIRST), clock)
    best, positions = root.score, 0
    line: list[int] = []
    if prover.status is None:
        pace = Pace()
        for k in itertools.count():
            if k == 0:
                cfg = FIRST_BEAM
            else:
                cfg = dataclasses.replace(
                    PORTFOLIO[(k - 1) % len(PORTFOLIO)],
                    adaptive=True,
                    late_round=LATE_ROUND,
                )
            score, moves, seen = beam(root, cfg, deadline, clock, pace, helper)
            positions += seen
            if score > best or not line:
                best, line = score, moves
            if best == WON or deadline - clock() < MIN_BEAM * budget.seconds:
                break
        if best < WON:
            prover.run(deadline, clock)
    return best, line, positions, prover


def _best_of_proof(root: State, line: list[int], best: int) -> tuple[int, list[int]]:
    """A lost position still gets a best line: the beam's, or a short greedy one."""
    if line:
        return best, line
    st = root.copy()
    done: list[tuple[int, int]] = []
    auto(st, done)
    return st.score, [m for m, _ in done]


__all__ = [
    "FIRST_BEAM",
    "PORTFOLIO",
    "BeamConfig",
    "Pace",
    "Prover",
    "Step",
    "beam",
    "beam_steps",
    "deals_left",
    "solve",
]
