"""Stjernen's prover: with :mod:`.storage`, the only source of ``lost`` (see the
package's docstring)."""

from __future__ import annotations

import time
from collections.abc import Callable

from .moves import play, sound_auto, sound_steps, undo
from .relax import RelaxCache
from .state import WON, State

RELAX = True
"""Whether provers leave out positions the relaxed game proves lost (unless
told otherwise): a setting to compare with (``bench/stjernen.py --set
prover:RELAX=False``)."""
TT_ENTRY_BYTES = 120
"""Rough memory of one entry of the prover's table (an int in a set)."""


class Prover:
    """Depth-first search over the sound move lists with a table of the positions
    entered: resumable (:meth:`run` again continues), so it can share the budget.

    ``status`` is ``"won"`` (``line`` holds the win), ``"lost"`` (every position
    reachable was searched, or proved lost by the relaxed game) or ``None`` (not
    finished).

    With ``relax`` (by default :data:`RELAX`) a position the relaxed game proves lost
    (:mod:`.relax`) is not searched on: it has no win, so leaving it out
    cannot hide one. It is asked at the root and after each deal or collect
    (a call costs about 3 ms, and after each card move it would slow the
    search fivefold)."""

    def __init__(self, root: State, max_entries: int, relax: bool | None = None) -> None:
        self.st = root.copy()
        self.max_entries = max_entries
        self.relax = RelaxCache() if (RELAX if relax is None else relax) else None
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
        elif self.relax is not None and self.relax.lost(self.st):
            self.status = "lost"
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
            if self.relax is not None and steps[k] < 0 and self.relax.lost(st):
                undo(st, done)
                continue
            stack.append((sound_steps(st), 0, done))
            ticks += 1
            if ticks & 255 == 0 and (clock() > deadline or len(seen) > self.max_entries):
                break
        return self.status
