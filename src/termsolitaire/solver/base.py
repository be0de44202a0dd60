"""What every game's solver shares: the budget, the result, the replay check."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from termsolitaire.rules import Game, IllegalMove, Move

Verdict = Literal["won", "lost", "unknown"]
"""``won``: a winning line was found; ``lost``: the whole search space was
exhausted (a proof); ``unknown``: the budget ran out first. Never ``lost``
when unsure."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend: wall-clock seconds and memory (megabytes of
    transposition table and frontier, estimated by the search)."""

    seconds: float = 10.0
    memory_mb: int = 1024
    cpu: bool = False
    """Count the searching process's CPU time instead of the wall clock (for
    benchmarks on a machine shared with other work)."""
    jobs: int = 1
    """Processes one search may use at once (the Stjernen solver shares its
    beam with a second process when this is 2 or more; the others use one)."""

    def clock(self) -> float:
        """Now, on the clock this budget counts (seconds)."""
        return time.process_time() if self.cpu else time.monotonic()

    def deadline(self) -> float:
        """The :meth:`clock` value at which the search must stop."""
        return self.clock() + self.seconds


@dataclass(frozen=True, slots=True)
class Result:
    """The answer of a search from one position."""

    verdict: Verdict
    moves: tuple[Move, ...] = ()
    """``won``: the winning line from the position searched (deal, turn, collect
    included); otherwise the best line found, possibly empty."""
    seconds: float = 0.0
    positions: int = 0
    """Distinct positions the search looked at."""
    best: int = 0
    """Cards on the foundations (or in ``done``) at the end of the best line found."""
    notes: tuple[str, ...] = field(default=())
    """What the player should know about this answer ("with the cards known")."""


def verify(game: Game, moves: tuple[Move, ...] | list[Move]) -> bool:
    """Whether ``moves`` played from ``game``'s position (on a copy) win the game."""
    g = game.copy()
    try:
        for m in moves:
            g.play(m)
    except IllegalMove:
        return False
    return g.is_won
