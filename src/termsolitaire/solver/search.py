"""The searches Napoleon and Penguin share, over canonical positions.

A game's compact state offers :class:`State`'s few methods. A search walks the
positions reachable from it, each once (a table of canonical keys), until it
finds a win or has seen them all. Having seen them all is a proof that the
position is lost, provided the state only leaves out moves that cannot matter
(symmetric duplicates, dominated moves, foundation moves that are safe to play
at once) and only calls a position dead when it is: each game module says why
its pruning is sound. Keys are exact (bytes), never hashes, so a collision
cannot turn an unseen position into a seen one and a deal into a false ``lost``.

Two searches, both resumable, and :func:`restarts` to run several by turns:

- :class:`DepthFirst` follows the state's move order; it needs little memory.
- :class:`BestFirst` always expands the waiting position with the best
  :meth:`State.rank`.

How long a search takes to find a win depends wildly on its move order or
ranking (a bad early choice can hide the win behind millions of positions), and
different orders fail on different deals; so :func:`restarts` gives turns to a
prover (which may run to the end) and to a stream of differently ordered
finders, each cut off after a while, and the first to finish answers for all;
:func:`answer` turns what it found into the player's :class:`~.base.Result`.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from termsolitaire.rules import Move

from .base import Budget, Result, Verdict

M = TypeVar("M")
"""A move as the rules core knows it (in the game's compact form)."""
C = TypeVar("C")
"""What the search plays at once (a move, or a few that belong together)."""

CHUNK = 256
"""Positions between two looks at the clock."""


class State(Protocol[M, C]):
    """What the searches need from a game's compact state."""

    def key(self) -> bytes:
        """The position up to symmetries the rules cannot tell apart."""
        ...

    def search_moves(self) -> list[C]:
        """The moves worth trying, the most promising **last** (it is popped first)."""
        ...

    def play(self, move: C) -> list[M]:
        """Play ``move`` and then the safe automatic moves; return all moves played."""
        ...

    def unplay(self, played: list[M]) -> None:
        """Take back what :meth:`play` returned."""
        ...

    def dead(self) -> bool:
        """Whether a quick test proves the position lost (the search goes no
        further from it)."""
        ...

    def won(self) -> bool: ...

    def progress(self) -> int:
        """Cards on the foundations."""
        ...

    def rank(self) -> int:
        """How far the position looks from a win (lower is better)."""
        ...

    def snapshot(self) -> Any:
        """An immutable copy of the position, for :meth:`restore` (each game its own type)."""
        ...

    def restore(self, snap: Any) -> None: ...


@dataclass
class Outcome(Generic[M]):
    """What a search found: ``line`` wins when ``verdict`` is ``won``;
    otherwise ``line`` reaches the most cards on the foundations."""

    verdict: Verdict
    line: list[M] = field(default_factory=list)
    positions: int = 0
    best: int = 0


class DepthFirst(Generic[M, C]):
    """Depth-first, in the state's move order; ``state`` is its own."""

    entry_bytes = 120
    """Estimated bytes per position seen (a ~60-byte key and the set's overhead)."""

    def __init__(self, state: State[M, C], prefix: list[M]) -> None:
        self.state = state
        self.prefix = prefix
        self.best = state.progress()
        self._best_line = list(prefix)
        self.seen = {state.key()}
        self.frames = [state.search_moves()]
        self.path: list[list[M]] = []
        self.line: list[M] = []

    @property
    def size(self) -> int:
        return len(self.seen)

    def best_line(self) -> list[M]:
        return self._best_line

    def release(self) -> None:
        """Drop the tables (the best line found so far stays)."""
        self.seen = set()
        self.frames = []

    def run(self, positions: int) -> Verdict | None:
        """Search on for about ``positions`` new positions: ``won`` (see
        :attr:`line`), ``lost``, or ``None`` when there is more to do."""
        state, seen, frames, path = self.state, self.seen, self.frames, self.path
        key, play, unplay, moves = state.key, state.play, state.unplay, state.search_moves
        add, dead, progress = seen.add, state.dead, state.progress
        if state.won():
            self.line = list(self.prefix)
            return "won"
        stop = len(seen) + positions
        while frames:
            todo = frames[-1]
            if not todo:
                frames.pop()
                if path:
                    unplay(path.pop())
                continue
            played = play(todo.pop())
            k = key()
            if k in seen:
                unplay(played)
                continue
            add(k)
            if dead():
                unplay(played)
                continue
            path.append(played)
            if state.won():
                self.line = self.prefix + [m for p in path for m in p]
                self.best = progress()
                return "won"
            score = progress()
            if score > self.best:
                self.best = score
                self._best_line = self.prefix + [m for p in path for m in p]
            frames.append(moves())
            if len(seen) >= stop:
                return None
        return "lost"


class BestFirst(Generic[M, C]):
    """Best-first by :meth:`State.rank`; ``state`` is its own."""

    entry_bytes = 400
    """Estimated bytes per position seen (its key, its parent link and, while it
    waits, its snapshot)."""

    def __init__(self, state: State[M, C], prefix: list[M], seed: int | None = None) -> None:
        self.state = state
        self.prefix = prefix
        self.best = state.progress()
        root = state.key()
        self.best_key = root
        self.parents: dict[bytes, tuple[bytes, tuple[M, ...]] | None] = {root: None}
        self.heap: list[tuple[int, float, bytes, object]] = [
            (state.rank(), 0.0, root, state.snapshot())
        ]
        self.pushed = 0
        self.tie = random.Random(seed).random if seed is not None else None
        """Breaks ties between positions ranked alike at random (else: first come)."""
        self.line: list[M] = []
        self._kept: list[M] | None = None

    @property
    def size(self) -> int:
        return len(self.parents)

    def _line(self, k: bytes) -> list[M]:
        steps: list[tuple[M, ...]] = []
        link = self.parents[k]
        while link is not None:
            k, played = link
            steps.append(played)
            link = self.parents[k]
        return self.prefix + [m for played in reversed(steps) for m in played]

    def best_line(self) -> list[M]:
        if self._kept is None:
            return self._line(self.best_key)
        return self._kept

    def release(self) -> None:
        """Drop the tables (the best line found so far stays)."""
        self._kept = self.best_line()
        self.parents = {}
        self.heap = []

    def run(self, positions: int) -> Verdict | None:
        """As :meth:`DepthFirst.run`."""
        state, parents, heap = self.state, self.parents, self.heap
        key, play, unplay, moves = state.key, state.play, state.unplay, state.search_moves
        dead, progress, rank, snapshot = state.dead, state.progress, state.rank, state.snapshot
        if state.won() and len(parents) == 1:
            self.line = list(self.prefix)
            return "won"
        stop = len(parents) + positions
        while heap:
            _, _, here, snap = heapq.heappop(heap)
            state.restore(snap)
            if dead():  # tested here rather than when pushed: most never come up
                continue
            for m in moves():
                played = play(m)
                k = key()
                if k not in parents:
                    parents[k] = (here, tuple(played))
                    if state.won():
                        self.line = self._line(k)
                        self.best = progress()
                        return "won"
                    score = progress()
                    if score > self.best:
                        self.best, self.best_key = score, k
                    self.pushed += 1
                    tie = self.tie() if self.tie else self.pushed
                    heapq.heappush(heap, (rank(), tie, k, snapshot()))
                unplay(played)
            if len(parents) >= stop:
                return None
        return "lost"


Search = DepthFirst[M, C] | BestFirst[M, C]


class Finder(Protocol[M]):
    """What :func:`restarts` needs of a finder: :class:`DepthFirst`,
    :class:`BestFirst`, or a game's own search with their ``run``."""

    entry_bytes: int
    best: int
    line: list[M]

    @property
    def size(self) -> int: ...

    def run(self, positions: int) -> Verdict | None: ...

    def best_line(self) -> list[M]: ...

    def release(self) -> None: ...


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..., the
    restart lengths that waste least when run times are heavy-tailed."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def restarts(
    prover: Search[M, C],
    finders: Iterator[Finder[M]],
    budget: Budget,
    share: float = 0.2,
    base: int | Callable[[int], int] = 300,
) -> Outcome[M]:
    """Alternate turns between ``prover``, which may run to the end and so prove
    a position lost, and ``finders``: a stream of differently ordered searches,
    each given ``base`` times the next term of :func:`luby` positions to find a
    win before the next one takes its place. The prover gets ``share`` of the
    time (``base`` may instead be a function of the finder's number, 1 for the
    first, that gives its positions outright). Any search that finishes
    answers (a finder that has seen everything has proved a loss too). When
    time runs out, or the prover's table would outgrow the memory budget (then
    it stops and only finders go on), the answer is ``unknown`` with the line
    that brought most cards home."""
    clock = budget.clock
    deadline = budget.deadline()
    limit = budget.memory_mb << 20
    best, best_line = prover.best, list[M]()
    retired = 0
    n = 1
    finder: Finder[M] | None = next(finders, None)
    cut = base(n) if callable(base) else base * luby(n)
    proving = True
    turn = 0.02

    def positions() -> int:
        return retired + prover.size + (finder.size if finder is not None else 0)

    while (proving or finder is not None) and clock() < deadline:
        if proving:
            verdict = _turn(prover, clock, min(deadline, clock() + 2 * share * turn), 0)
            if verdict is not None:
                return Outcome(verdict, prover.line, positions(), prover.best)
        if finder is not None:
            end = min(deadline, clock() + 2 * (1 - share) * turn)
            verdict = _turn(finder, clock, end, cut)
            if verdict is not None:
                return Outcome(verdict, finder.line, positions(), finder.best)
            if finder.size >= cut:
                if finder.best > best:
                    best, best_line = finder.best, finder.best_line()
                retired += finder.size
                finder.release()
                n += 1
                finder = next(finders, None)
                cut = base(n) if callable(base) else base * luby(n)
        if proving and prover.size * prover.entry_bytes > limit:
            retired += prover.size
            prover.release()
            proving = False
        turn = min(turn * 1.5, 0.25)
    for s in (prover, finder):
        if s is not None and s.best > best:
            best, best_line = s.best, s.best_line()
    return Outcome("unknown", best_line or prover.best_line(), positions(), best)


def _turn(s: Finder[M], clock: Callable[[], float], end: float, cutoff: int) -> Verdict | None:
    """Run ``s`` until it answers, ``clock()`` reaches ``end`` or (if ``cutoff``)
    it has seen ``cutoff`` positions."""
    while True:
        verdict = s.run(CHUNK)
        if verdict is not None:
            return verdict
        if clock() >= end or (cutoff and s.size >= cutoff):
            return None


class Exact(Protocol[M]):
    """What :func:`shorten` needs: atomic moves on a state and its exact position."""

    def legal_moves(self) -> list[M]: ...

    def apply(self, move: M) -> None: ...

    def revert(self, move: M) -> None: ...

    def exact(self) -> bytes:
        """The position itself, piles in place (no symmetry)."""
        ...


def shorten(state: Exact[M], line: list[M]) -> list[M]:
    """``line`` (a winning line from ``state``) without its detours: from each
    position on it, jump to the latest later one that one legal move reaches.
    The searches find lines that wander (a depth-first line tries its way
    forward); the player stepping through a solution should not have to.
    ``state`` is left as it was."""
    keys = [state.exact()]
    for m in line:
        state.apply(m)
        keys.append(state.exact())
    for m in reversed(line):
        state.revert(m)
    last = {k: i for i, k in enumerate(keys)}
    out: list[M] = []
    i = last[keys[0]]  # (if the line comes back to its start, from there)
    while i < len(line):
        best, move = i + 1, line[i]
        for m in state.legal_moves():
            state.apply(m)
            j = last.get(state.exact(), -1)
            state.revert(m)
            if j > best:
                best, move = j, m
        state.apply(move)
        out.append(move)
        i = best
    for m in reversed(out):
        state.revert(m)
    return out


def answer(
    out: Outcome[M],
    exact: Callable[[], Exact[M]],
    to_move: Callable[[M], Move],
    budget: Budget,
    start: float,
) -> Result:
    """What a solve over a game's compact states answers for ``out``: its line
    in the rules core's moves, a winning one first without its detours
    (:func:`shorten` on ``exact()``, a fresh state of the position searched,
    made only for a win), and the seconds since ``start`` on ``budget``'s
    clock, the shortening included. Napoleon's and Penguin's solvers end
    here, so both give their lines alike."""
    line = out.line
    if out.verdict == "won":
        line = shorten(exact(), line)
    return Result(
        verdict=out.verdict,
        moves=tuple(to_move(m) for m in line),
        seconds=budget.clock() - start,
        positions=out.positions,
        best=out.best,
    )
