"""The search Napoleon and Penguin share: depth-first over canonical positions.

A game's compact state offers :class:`State`'s few methods; :func:`depth_first`
walks every position reachable from it, each once (a set of canonical keys
serves as the transposition table), until it finds a win or has seen them all.
Having seen them all is a proof that the position is lost, provided the state
only leaves out moves that cannot matter (symmetric duplicates, dominated
moves, foundation moves that are safe to play at once): each game module says
why its pruning is sound.

Keys are exact (bytes), never hashes, so a collision cannot turn an unseen
position into a seen one and a deal into a false ``lost``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from .base import Verdict

M = TypeVar("M")

CHECK_EVERY = 512
"""Positions between two looks at the clock and the memory estimate."""

ENTRY_BYTES = 120
"""Estimated bytes per transposition-table entry (a ~60-byte key plus the set's
own overhead), to keep the search within its memory budget."""


class State(Protocol[M]):
    """What the search needs from a game's compact state."""

    def key(self) -> bytes:
        """The position up to symmetries the rules cannot tell apart."""
        ...

    def search_moves(self) -> list[M]:
        """The moves worth trying, the most promising **last** (it is popped first)."""
        ...

    def play(self, move: M) -> list[M]:
        """Play ``move`` and then the safe automatic moves; return all moves played."""
        ...

    def unplay(self, played: list[M]) -> None:
        """Take back what :meth:`play` returned."""
        ...

    def won(self) -> bool: ...

    def progress(self) -> int:
        """Cards on the foundations."""
        ...


@dataclass
class Outcome(Generic[M]):
    """What :func:`depth_first` found: ``line`` wins when ``verdict`` is ``won``;
    otherwise ``best_line`` reaches the most cards on the foundations."""

    verdict: Verdict
    line: list[M] = field(default_factory=list)
    positions: int = 0
    best: int = 0
    best_line: list[M] = field(default_factory=list)


def depth_first(
    state: State[M], deadline: float, memory_mb: int, start: list[M] | None = None
) -> Outcome[M]:
    """Search from ``state`` (left as it was found) until a win, the end of the
    reachable positions (``lost``), ``deadline`` (``time.monotonic()``) or the
    memory budget (``unknown``). ``start`` holds moves already played to reach
    ``state`` (its automatic moves), put in front of every line returned."""
    prefix = list(start or [])
    best = state.progress()
    best_line = list(prefix)
    if state.won():
        return Outcome("won", prefix, 1, best, prefix)
    seen = {state.key()}
    max_entries = memory_mb * 1024 * 1024 // ENTRY_BYTES
    frames = [state.search_moves()]
    path: list[list[M]] = []
    check = CHECK_EVERY
    key, play, unplay, moves = state.key, state.play, state.unplay, state.search_moves
    add = seen.add
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
        path.append(played)
        if state.won():
            line = prefix + [m for p in path for m in p]
            best = state.progress()
            for p in reversed(path):
                unplay(p)
            return Outcome("won", line, len(seen), best, line)
        score = state.progress()
        if score > best:
            best = score
            best_line = prefix + [m for p in path for m in p]
        frames.append(moves())
        check -= 1
        if not check:
            check = CHECK_EVERY
            if time.monotonic() > deadline or len(seen) > max_entries:
                for p in reversed(path):
                    unplay(p)
                return Outcome("unknown", [], len(seen), best, best_line)
    return Outcome("lost", [], len(seen), best, best_line)
