"""What every game's solver shares: the budget, the result, the replay check,
and the declaration (:class:`SolverInfo`) by which a game's solver package
states its facts once."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
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


def replayed(game: Game, moves: Sequence[Move]) -> Game | None:
    """``moves`` played from ``game``'s position through the rules core, on a
    copy: the position they reach, or ``None`` if one of them is illegal."""
    g = game.copy()
    try:
        for m in moves:
            g.play(m)
    except IllegalMove:
        return None
    return g


def verify(game: Game, moves: Sequence[Move]) -> bool:
    """Whether ``moves`` played from ``game``'s position (on a copy) win the game."""
    end = replayed(game, moves)
    return end is not None and end.is_won


def board(game: Game) -> str:
    """The cards and their places: position text without the lines that do not
    depend on them alone (Spider's score and move count, the deal number).
    Plans (:mod:`.plan`) and shorter lines (:mod:`.shorten`) compare positions
    by it."""
    return "\n".join(
        ln for ln in game.to_text().splitlines() if not ln.startswith(("score:", "moves:", "deal:"))
    )


def position_key(game: Game) -> Hashable:
    """What :func:`board` tells apart, for positions of one game (the same
    game, variant and deal, as along one line), as a key: equal exactly when
    their boards are equal (tests/solver/test_shorten_cost.py checks it on
    lines of all four games), at a third of the cost (no text). The rules
    core's own position key, which its stuck detection compares: the one it
    keeps for the position after each move (``_line``), read, not made again."""
    line = game._line
    return line[-1] if line else game._key()


KNOWN_NOTES: dict[Verdict, str] = {
    "won": "winnable with the cards known (the solver sees the face-down cards and the stock)",
    "lost": "no winning line, even with the cards known",
    "unknown": "cannot tell yet, even with the cards known",
}
"""The note on every answer of a solver that reads cards the player cannot see
(:attr:`SolverInfo.full_knowledge`)."""


@dataclass(frozen=True, slots=True)
class BenchRun:
    """One row of ``bench/solver.py`` for a game: a variant on a range of deals."""

    label: str
    variant: tuple[tuple[str, int], ...] = ()
    deals: str = "1-200"
    """The deals the acceptance run takes, ``A-B``."""
    seconds: float = 10.0
    """The budget per deal."""
    per_deal: int = 1
    """Processes one deal's search uses (:attr:`Budget.jobs`); the benchmark
    runs that many fewer deals at a time."""


@dataclass(frozen=True, slots=True)
class SolverInfo:
    """What a game's solver declares about itself, once: the ``SOLVER`` of its
    package ``termsolitaire.solver.<game name>``. :func:`termsolitaire.solver.solve`,
    ``has_solver``, winnable-only deals, the command line, the screens' "cards
    home" and the benchmark all derive what they need from it; a registered
    game whose package is missing, or declares no ``SOLVER``, has no solver."""

    solve: Callable[[Game, Budget], Result]
    """The search: ``solve(game, budget)``, ``game`` one of this game's."""
    home: tuple[str, ...] = ()
    """The piles whose cards :attr:`Result.best` counts as home; empty: those
    the game's ``score`` counts (its foundations)."""
    full_knowledge: bool = False
    """Whether the search reads cards the player cannot see (face-down cards);
    its answers then carry :data:`KNOWN_NOTES`."""
    book: tuple[int, ...] = ()
    """Deal numbers winnable-only draws from (empty: any random number)."""
    winnable_seconds: float = 2.0
    """The budget winnable-only gives each deal it tries."""
    bench: tuple[BenchRun, ...] = ()
    """The benchmark's rows for this game."""
