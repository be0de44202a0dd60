"""The Spider solver, with full knowledge: it sees every face-down card and the stock.

``solve(game, budget)`` works on a compact copy of the position
(:mod:`.state`). First finders (:class:`~.search.BestFirst`, one per weight
set of :data:`PORTFOLIO`, taking turns of :data:`SLICE` positions) look for a
win with Spider knowledge; if one runs out of positions to try without one (it
leaves rarely useful moves out, so that proves nothing), :func:`~.search.prove`
searches every move and, when it too runs out, proves the position lost. So
``lost`` is only ever said after an exhaustive search; a budget that runs out
says ``unknown``. With 2 and 4 suits the finders restart (``BASE``); after
:data:`LATE` positions, restarts that turn a bared pile at once
(``Weights.turn``) take turns with the plain ones.

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
from ..search import luby
from .search import BYTES_PER_POSITION, PLAIN, BestFirst, Outcome, Weights, prove
from .state import RUN, SpiderMove, SpiderState, to_move

PORTFOLIO: tuple[Weights, ...] = (
    PLAIN._replace(lateral=False, square=1, nat=3),
    PLAIN._replace(lateral=False, square=1),
)
"""The finders' weights with 2 and 4 suits: the restarts take them in turn
(:func:`solve`). With one suit, one finder with :data:`PLAIN` weights, which
wins every deal of 1-200 alone."""
BASE = 10000
"""A restart's allowance: the ``n``-th finder searches ``BASE * luby(n)``
positions, then the next one starts afresh. A 4-suit win takes a finder
some 10-50 thousand positions: with 3000, most restarts were cut off before
any could win (deals 1-200 at 10 s of CPU: 194 won against 179)."""
LATE = 100_000
"""Positions the plain restarts search alone (some 2.5 s of CPU with 4 suits);
after them, restarts that turn at once (``Weights.turn``) take turns with the
plain ones, which go on in the same order as before. Turning at once wins
deals the plain finders do not (4-suit 59 and 146), but as the only finders
it lost a dozen others. 4 suits, deals 1-200 at 10 s of CPU: 196 won with
100 000, 194 with 200 000 (144 lost: the turning share was too small) and
without."""
NOISE = 4
"""Restarts after the first ones order positions the evaluation rates alike
at random (``Weights.noise``): the deals the plain orders do not win are
mostly lost on a plateau of such positions."""


def solve(game: Game, budget: Budget) -> Result:
    """Search ``game`` (a :class:`Spider`) within ``budget``; see the module docstring."""
    if not isinstance(game, Spider):
        raise TypeError(f"the Spider solver cannot solve {game.title}")
    clock = getattr(budget, "clock", time.monotonic)  # a CPU-time budget counts CPU time
    start = clock()
    deadline = start + budget.seconds
    max_positions = budget.memory_mb * (1 << 20) // BYTES_PER_POSITION
    root = SpiderState.from_game(game)
    seed = root.seed  # the same position, the same restarts, the same answer
    outcome: Outcome | None = None
    line: list[SpiderMove] = []
    positions = 0
    best_runs, best_line = -1, list[SpiderMove]()
    n = late = 0  # plain restarts, turning restarts
    turning = False
    while outcome is None and clock() <= deadline:
        if game.variant.get("suits", 1) == 1:
            weights, rng, allowance = PLAIN, None, max_positions
        else:
            turning = positions >= LATE and not turning  # past LATE, one of each in turn
            if turning:
                late += 1
                k, turn = late, True
            else:
                n += 1
                k, turn = n, False
            weights = PORTFOLIO[(k - 1) % len(PORTFOLIO)]._replace(turn=turn)
            rng = None if k <= len(PORTFOLIO) else seed + k
            weights = weights if rng is None else weights._replace(noise=NOISE)
            allowance = min(BASE * luby(k), max_positions)
        finder = BestFirst(root.copy(), deadline, allowance, clock, weights, rng)
        found = finder.advance(allowance)
        positions += finder.positions
        finder.release()
        runs = _runs_in(game, finder.best_line)
        if runs > best_runs:
            best_runs, best_line = runs, finder.best_line
        if found == "won" or found == "exhausted":
            outcome, line = found, finder.line
        elif allowance >= max_positions:
            break  # the memory budget is used up by one search
    verdict: Verdict = "won" if outcome == "won" else "unknown"
    if outcome == "exhausted":
        proof, line, seen = prove(root.copy(), deadline, max_positions, clock)
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
