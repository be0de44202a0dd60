"""The Spider solver, with full knowledge: it sees every face-down card and the stock.

``solve(game, budget)`` works on a compact copy of the position
(:mod:`.state`). First finders (:class:`~.search.BestFirst`, one per weight
set of :data:`PORTFOLIO`, taking turns of :data:`SLICE` positions) look for a
win with Spider knowledge; if one runs out of positions to try without one (it
leaves rarely useful moves out, so that proves nothing), :func:`~.search.prove`
searches every move and, when it too runs out, proves the position lost. So
``lost`` is only ever said after an exhaustive search; a budget that runs out
says ``unknown``.

Because the solver reads the cards a player cannot see, every answer is
worded "with the cards known" (:data:`~termsolitaire.solver.base.KNOWN_NOTES`,
added by :func:`termsolitaire.solver.solve` as :data:`SOLVER` declares); a match
never shows it.
"""

from __future__ import annotations

import time

from termsolitaire.rules import Game
from termsolitaire.rules.spider import Spider

from ..base import BenchRun, Budget, Result, SolverInfo, Verdict
from .search import BYTES_PER_POSITION, PLAIN, BestFirst, Outcome, Weights, prove
from .state import RUN, SpiderMove, SpiderState, to_move

PORTFOLIO: tuple[Weights, ...] = (
    PLAIN._replace(lateral=False, square=1, nat=3),
    PLAIN._replace(lateral=False, square=1),
)
"""The finders' weights with 2 and 4 suits: they take turns (:func:`solve`).
With one suit, one finder with :data:`PLAIN` weights, which wins every deal
of 1-200 alone."""
SLICE = 2000
"""The positions a finder searches before the next one takes its turn."""


def solve(game: Game, budget: Budget) -> Result:
    """Search ``game`` (a :class:`Spider`) within ``budget``; see the module docstring."""
    if not isinstance(game, Spider):
        raise TypeError(f"the Spider solver cannot solve {game.title}")
    clock = getattr(budget, "clock", time.monotonic)  # a CPU-time budget counts CPU time
    start = clock()
    deadline = start + budget.seconds
    max_positions = budget.memory_mb * (1 << 20) // BYTES_PER_POSITION
    portfolio = PORTFOLIO if game.variant.get("suits", 1) > 1 else (PLAIN,)
    share = max_positions // len(portfolio)
    finders = [BestFirst(SpiderState.from_game(game), deadline, share, clock, w) for w in portfolio]
    outcome: Outcome | None = None
    line: list[SpiderMove] = []
    live = finders[:]
    while live and outcome is None:
        for finder in live[:]:
            outcome = finder.advance(finder.positions + SLICE)
            if outcome == "unknown" and clock() <= deadline:  # its share of the memory is used up
                live.remove(finder)
                finder.release()
                outcome = None
            elif outcome is not None:
                line = finder.line
                break
    positions = sum(f.positions for f in finders)
    best_runs, best_line = -1, []
    for finder in live:
        finder.release()
    for finder in finders:
        runs = _runs_in(game, finder.best_line)
        if runs > best_runs:
            best_runs, best_line = runs, finder.best_line
    verdict: Verdict = "won" if outcome == "won" else "unknown"
    if outcome == "exhausted":
        proof, line, seen = prove(SpiderState.from_game(game), deadline, max_positions, clock)
        positions += seen
        if proof == "won" or proof == "lost":
            verdict = proof
    if verdict != "won":
        line = best_line
    return Result(
        verdict=verdict,
        moves=tuple(to_move(m) for m in line),
        seconds=clock() - start,
        positions=positions,
        best=RUN * 8 if verdict == "won" else RUN * (len(game.pile("done")) // RUN + best_runs),
    )


def _runs_in(game: Spider, line: list[tuple[int, int, int]]) -> int:
    """How many runs ``line`` completes from ``game``'s position."""
    state = SpiderState.from_game(game)
    before = len(state.done)
    for m in line:
        state.make(m)
    return len(state.done) - before


SOLVER = SolverInfo(
    solve,
    home=("done",),
    full_knowledge=True,
    bench=tuple(BenchRun(f"spider{n}", (("suits", n),)) for n in (1, 2, 4)),
)
"""Spider's solver: cards home are those in completed runs; it reads the
face-down cards; the benchmark takes each variant on deals 1-200, 10 s each."""
