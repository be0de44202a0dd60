"""The Stjernen solver: a beam search through the deals for good lines, and an
exhaustive search for proofs.

The stock's order is known, and dealing and collecting are moves, so the whole
future is fixed by the player's choices. Two searches share the budget:

- :class:`Prover`, a depth-first search over every legal move but the provably
  pointless ones (:func:`.moves.sound_steps`) with a table of the
  positions seen. When it runs out of positions without a win, the position is
  lost: with :mod:`.storage` (a relaxed game that keeps the stock, from which
  no relaxed line wins), the only way this solver says ``lost``. It does not
  search on from a position that a relaxed game proves lost (:mod:`.relax`:
  the inner ring, the foundations and the room in storage, the stock free),
  and asks it first of all at its root. On a fresh deal neither gets that far; from the middle of
  a game on they often do.
- :func:`beam`, the search that finds the lines. Time is counted in deals: for
  each deal of each round it keeps ``width`` positions, looks around each by a
  small best-first search over card moves and dig steps (foundation moves are
  played at once), and deals. The positions kept are the best (by
  :func:`.evaluation.evaluate`) of each class of progress in turn
  (:func:`.layer.progress`: cards home, inner piles left), not simply the best: the
  plain best are mostly variants of one or two positions, and the winning
  line often ranks well below them. Wins are made by round 4 or so, so the
  late rounds are searched narrowly and the time saved goes into a wider beam
  early on.

:func:`solve` runs a narrow beam of fixed width first (it wins the easy deals
at once, the same on every machine, and times the search), then beams whose
width is set deal by deal from the time left (:class:`Pace`), with the weights
of :data:`PORTFOLIO` in turn, until one wins or the time is up; the best line
of all is the answer. The first of these gets a share of the time
(:data:`.restart.RESTART_SHARE`), and restarts along its best line
(:mod:`.restart`) the rest. Before it, the first beam runs again under a king
plan (:func:`.restart.probe`: the kings of the inner ring take their suits'
first turns); if that gets as far or further, the adaptive beam and the
restarts follow the plan.

The modules: :mod:`.state` (the compact position), :mod:`.moves` (the steps
the searches try), :mod:`.evaluation` (the beam's score), :mod:`.layer` (the
look-around of a kept position, shared with the helper process), :mod:`.beams`
(the beam), :mod:`.schedule` (the beams in turn), :mod:`.second` (the second
process of two), :mod:`.pair` (the helper process that shares a beam's
layers instead), :mod:`.prover`, :mod:`.relax`
(its relaxed game), :mod:`.storage` (a relaxed game that keeps the stock,
for proofs late in a game) and :mod:`.book`
(the deals winnable-only draws from).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from termsolitaire.rules import Game

from ..base import BenchRun, Budget, Result, SolverInfo
from . import schedule
from .beams import FIRST_BEAM, PORTFOLIO, Pace, beam, deals_left
from .book import BOOK
from .layer import BeamConfig, beam_steps
from .moves import Step, auto
from .pair import Helper
from .prover import TT_ENTRY_BYTES, Prover
from .second import Second
from .state import WON, State, to_move
from .storage import StockRelaxation

MIN_BEAM = 0.1
"""Another beam starts only with at least this share of the budget left."""
PROVER_FIRST = 0.05
"""The prover's share of the budget before the beams (at most a second), for
positions from :data:`PROVER_ROUND` on."""
PROVER_ROUND = 3
"""The first round in which the prover gets its share before the beams. Before
it, four rounds of deals or more are still to come and the prover's
depth-first search does not finish (at 31 positions of rounds 1 and 2
along the first beam's lines of six deals it does not win, half a second
each, it finished none); it proves such positions lost only through the
relaxed game at its root, which it asks in any case. So its share went to
waste: a twentieth of the beams' time on every fresh deal."""
STOCK_FIRST = 0.25
"""The stock-keeping relaxed game's share of the budget before the beams, for
positions from :data:`STOCK_ROUND` on (:mod:`.storage`)."""
STOCK_ROUND = 5
"""The first round in which the stock-keeping relaxed game runs before the
beams. Earlier its search does not finish (on a fresh deal it gives up or
finds a relaxed win); in the last two rounds it proves lines lost that the
relaxation of :mod:`.relax` does not (deal 16 after 195 moves of the first
beam's line: 0.84 s of CPU)."""
PAIR_PORTFOLIO = False
"""With ``Budget.jobs`` above 1: if True, the second process runs a search of
its own by other paths (:mod:`.second`, :data:`.schedule.SECOND`) while this
one runs the schedule of one process, and the better line is the answer; if
False (the default), the second process shares each layer of this process's
beams (:mod:`.pair`), a beam about half as wide again. Estimated from its two
schedules run alone, the portfolio wins 144 of deals 1-200 where the shared
beams won 148, and 13 of the 66 one process loses where they won 16
(stjernen15, docs/journal/2026-12-05-stjernen15.md): kept as a switch, off."""
COLLECTOR_OFF = True
"""Turn Python's cyclic garbage collector off while :func:`solve` searches (and
in the pair's helper, :mod:`.pair`), on again after. The searches make
millions of short-lived tuples and lists and no reference cycles, so
reference counting frees all they drop; the collector only walks what is
alive, and with a wide beam (thousands of kept positions and their
snapshots) or the prover's table that is a lot: 15% of a compiled 10-second
solve's CPU time (perf, deal 84, stjernen14). False: the collector runs as
usual."""


@contextlib.contextmanager
def collector_off(off: bool = True) -> Iterator[None]:
    """With ``off``, no cyclic garbage collection inside the block (as it was
    after it); otherwise nothing."""
    was = gc.isenabled()
    if off:
        gc.disable()
    try:
        yield
    finally:
        if off and was:
            gc.enable()


def solve(game: Game, budget: Budget) -> Result:
    """Search ``game``'s position (left unchanged) within ``budget``.

    The prover first gets a twentieth of the time (enough for a position near
    its end; from round :data:`PROVER_ROUND` on, as before it does not
    finish). Then the first beam (narrow, so it answers the easy deals at
    once and measures what a layer costs), then adaptive beams of the
    portfolio, each spreading the time left over its deals (the first with a
    share of it, then restarts along its line, :mod:`.restart`), until one wins or
    only a tenth of the time is left; the stock-keeping relaxed game
    (:mod:`.storage`) gets half of what the beams leave, the prover the rest.
    From round :data:`STOCK_ROUND` on the relaxed game gets a quarter of the
    budget before the beams instead.
    With ``budget.jobs`` above 1 the beams share their layers with a second
    process (:mod:`.pair`), started at once so that it is ready when
    they begin (with :data:`PAIR_PORTFOLIO`: the second process searches the
    same position by other paths instead, :mod:`.second`).
    """
    with collector_off(COLLECTOR_OFF):
        return _solve(game, budget)


def _solve(game: Game, budget: Budget) -> Result:
    """:func:`solve` with the collector as :data:`COLLECTOR_OFF` says."""
    clock = budget.clock
    start = clock()
    deadline = start + budget.seconds
    root = State.from_game(game)
    helper = Helper(budget.cpu) if budget.jobs > 1 and not PAIR_PORTFOLIO else None
    second = (
        Second(root.snapshot(), budget.seconds, budget.cpu, MIN_BEAM * budget.seconds)
        if budget.jobs > 1 and PAIR_PORTFOLIO
        else None
    )
    try:
        best, line, positions, prover = _search(root, budget, start, deadline, helper)
        if second and best < WON and prover.status is None:
            got = second.receive(deadline - clock())
            if got is not None:
                positions += got[2]
                if got[0] > best:
                    best, line = got[0], got[1]
    finally:
        if helper:
            helper.close()
        if second:
            second.close()
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
    prover = Prover(root, budget.memory_mb * 1_000_000 // TT_ENTRY_BYTES)
    if root.round >= PROVER_ROUND:
        prover.run(start + min(1.0, budget.seconds * PROVER_FIRST), clock)
    # The stock-keeping relaxed game is searched once: before the beams from
    # STOCK_ROUND on (a search that ran out then would not finish in what
    # the beams leave), after them otherwise. A proof it finds is the
    # prover's verdict too: the position is lost.
    stock = StockRelaxation(root)
    stock_first = prover.status is None and root.round >= STOCK_ROUND
    if stock_first and stock.lost(deadline=clock() + budget.seconds * STOCK_FIRST, clock=clock):
        prover.status = "lost"
    best, positions = root.score, 0
    line: list[int] = []
    if prover.status is None:
        best, line, positions = schedule.run(
            root, best, deadline, clock, helper, MIN_BEAM * budget.seconds
        )
        if best < WON and not stock_first:
            now = clock()
            if stock.lost(deadline=now + (deadline - now) / 2, clock=clock):
                prover.status = "lost"
        if best < WON and prover.status is None:
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


SOLVER = SolverInfo(
    solve,
    book=BOOK,
    winnable_seconds=10.0,
    bench=(BenchRun("stjernen", per_deal=2),),
)
"""Stjernen's solver: winnable-only draws from :data:`.book.BOOK` with the 10 s
the first beam may need; the benchmark gives each deal both cores. (It reads
the stock's order, which a player has not seen, but has never worded its
answers "with the cards known": ``full_knowledge`` stays off as before.)"""


__all__ = [
    "FIRST_BEAM",
    "PORTFOLIO",
    "SOLVER",
    "WON",
    "BeamConfig",
    "Pace",
    "Prover",
    "Step",
    "beam",
    "beam_steps",
    "deals_left",
    "solve",
]
