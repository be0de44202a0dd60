"""Napoleon's solver: a compact state, and searches that can prove a deal lost.

The state (:mod:`.state`): sixteen piles as ``bytes`` of card codes (0-51, as
:attr:`termsolitaire.rules.Card.code`: suit index × 13 + rank − 1), bottom to
top, the top rank of each foundation, and where each card lies. A move is
``(src, dst)``, pile indices 0-15 for ``p1``-``p16`` and 16-19 for
``f1``-``f4``, the order of the rules core's ``pile_names``.

A card's *hosts* are the two cards it may be put on (one rank higher, the other
colour); its *guests* the two that may be put on it. A card is *settled* when
it lies on a host, or is a king at the bottom of a pile; moves never unsettle a
card, so a card that is not settled still lies where it was dealt, and the
only moves that can be taken back are *sideways* moves: a settled card to its
other host. Game knowledge that keeps the search small, and why each piece is
sound:

- **The piles are interchangeable.** They sit in a circle but the rules never
  look at where: a position is the multiset of its piles (the key sorts them),
  and a king goes to one empty pile only (any other gives the same position).
- **A king at the bottom of its pile is home.** Moving it to an empty pile
  gives the same position again: never tried.
- **Safe foundation moves** are played at once (Horne's rule, as in Freecell):
  a card may go home when both its guests are home (it can never hold
  anything again), or when its guests could follow it home at once and so
  could theirs: both other-colour foundations have reached two below it and
  the other same-colour one three below. Any winning line from before the
  move still wins after it, sending those guests home instead of onto the card.
- **Sideways moves only as part of the move they serve.** Every move tried is
  a *target* (a card home, a card not settled onto a host, a king into an
  empty pile) together with the sideways moves that uncover its card and its
  destination (:meth:`NapoleonState.search_moves`); when the destination
  could sit on either of its own hosts, once for each. A sideways move in any
  line can be put off until the move that needs it, so no win is lost, and
  the search no longer walks through every arrangement of the settled cards.
  When both hosts of a card are uncovered only one is tried: the card can
  step across to the other later.
- **A relaxed game proves positions lost** (:func:`relaxed_lost`): if not even
  a game where uncovered cards stay free for good can bring every card home,
  the real one cannot. This cuts off most dead ends long before the search
  would have exhausted them.
- **At the start, room for the cards in the way** (:func:`blocked`,
  :mod:`.partial`): a relaxed game that counts the room on the hosts for the
  cards lying on each suit's next card (and their hosts and twins) and plays
  the others freely proves some deals lost before any search (deals 44, 105).
- **The capacity game from the deal** (:class:`.capacity.Capacity`): room
  counted for every card. A few random dives find a relaxed win at once on
  most deals (nothing to prove); on the others it takes most of the time
  (:class:`Proofs`) and proves some lost (deals 25, 887).

The time goes to a depth-first prover and a stream of restarted finders
(:func:`termsolitaire.solver.search.restarts`, :func:`finders`).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from dataclasses import replace
from typing import cast

from termsolitaire.rules import Game, Move

from ..base import BenchRun, Budget, Result, SolverInfo, Verdict
from ..search import BestFirst, DepthFirst, Finder, answer, luby, restarts
from .capacity import DIVING, Capacity
from .cards import NAMES, Compound, NapoleonMove, Weights
from .partial import Partial, blockers
from .relax import relaxed_lost
from .state import NapoleonState

__all__ = ["NAMES", "SOLVER", "NapoleonState", "relaxed_lost", "solve", "to_move"]


def to_move(move: NapoleonMove) -> Move:
    return Move.transfer(NAMES[move[0]], NAMES[move[1]])


STRATEGIES: tuple[Weights, ...] = ((3, 2, 1), (3, 1, 1), (3, 2, 3), (10, 2, 1), (3, 2, 0))
""":meth:`NapoleonState.rank` weights of the first best-first searches tried:
each wins quickly on deals where the others flounder."""


DEPTH_FIRST = 0.6
"""The share of the random finders that are depth-first (the others best-first)."""
SHUFFLED = 1000
"""The depth-first finders' ``spread``: wider than any two scores of
:meth:`NapoleonState.search_moves` lie apart, so their moves come in a random
order. A depth-first search that does not always send a card home first
wins, within a few hundred positions, deals the scored orders lose themselves
in (issue 34, napoleon10)."""


BASE = 300
"""A finder's positions: ``BASE × luby(n)``, ``n`` counted separately for
:class:`Dives` and the others (:func:`finders`)."""
DIVES = 3
"""One :class:`Dives` after every ``DIVES`` random finders of the others."""
PROVER_SHARE = 0.1
"""The prover's share of the time (:func:`restarts`); the finders and their
dives take the rest (0.2 before the dives, napoleon11)."""
DIVE = 64
""":class:`Dives`' positions per depth-first search."""


class Dives:
    """Many short depth-first searches in a random order, one after another
    (each :data:`DIVE` positions, seeded in turn from ``seed``), counted as one
    finder: some deals are won only on lines a random order takes at once and
    a longer search, lost in its first choices, never comes back to. A dive
    that sees every position has proved the position lost, like any finder."""

    entry_bytes = DepthFirst.entry_bytes

    def __init__(
        self, state: NapoleonState, prefix: list[NapoleonMove], seed: int, length: int = DIVE
    ) -> None:
        self.state = state
        self.prefix = prefix
        self.rng = random.Random(seed)
        self.length = length
        self.used = 0
        self.dive: DepthFirst[NapoleonMove, Compound] | None = None
        self.best = state.progress()
        self._best_line = list(prefix)
        self.line: list[NapoleonMove] = []

    @property
    def size(self) -> int:
        return self.used + (self.dive.size if self.dive is not None else 0)

    def best_line(self) -> list[NapoleonMove]:
        return self._best_line

    def release(self) -> None:
        self.used = self.size
        self.dive = None

    def run(self, positions: int) -> Verdict | None:
        stop = self.size + positions
        while self.size < stop:
            dive = self.dive
            if dive is None:
                mine = self.state.copy(jitter=self.rng.randrange(1 << 30), spread=SHUFFLED)
                dive = self.dive = DepthFirst(mine, self.prefix)
            verdict = dive.run(max(1, min(self.length - dive.size, stop - self.size)))
            if dive.best > self.best:
                self.best, self._best_line = dive.best, dive.best_line()
            if verdict is not None:
                self.line = dive.line
                return verdict
            if dive.size >= self.length:
                self.used += dive.size
                self.dive = None
        return None


def finders(
    state: NapoleonState, first: list[NapoleonMove], cutoffs: list[int] | None = None
) -> Iterator[Finder[NapoleonMove]]:
    """The searches that take turns looking for a win (:func:`restarts`): the
    best-first ones of :data:`STRATEGIES`, then, endlessly, best-first ones with
    random weights and depth-first ones with their moves in a random order
    (:data:`DEPTH_FIRST`, :data:`SHUFFLED`), seeded from the position so that a
    deal always gets the same answer; after every :data:`DIVES` of those, one
    :class:`Dives`. Each finder's positions are appended to ``cutoffs``:
    ``300 × luby(m)`` for the ``m``-th of the others (as when there were no
    dives), ``300 × luby(j)`` for the ``j``-th :class:`Dives`."""
    cut = cutoffs if cutoffs is not None else []
    m = 0
    for weights in STRATEGIES:
        m += 1
        cut.append(BASE * luby(m))
        yield BestFirst(state.copy(weights), first)
    seed = zlib.crc32(state.key())
    rng = random.Random(seed)
    dives = random.Random(seed ^ 2)
    j = 0
    while True:
        m += 1
        cut.append(BASE * luby(m))
        if rng.random() < DEPTH_FIRST:
            yield DepthFirst(state.copy(jitter=rng.randrange(1 << 30), spread=SHUFFLED), first)
        else:
            weights = (rng.randint(2, 10), rng.randint(0, 3), rng.randint(0, 3))
            yield BestFirst(state.copy(weights), first, seed=rng.randrange(1 << 30))
        if (m - len(STRATEGIES)) % DIVES == 0:
            j += 1
            cut.append(BASE * luby(j))
            yield Dives(state, first, dives.randrange(1 << 30))


ROOM_AT_START = ((1, 35_000), (2, 10_000))
"""The :mod:`.partial` proofs tried at the start: (``depth`` of
:func:`blockers`, relaxed positions), at most about 1.5 s in all."""


def blocked(state: NapoleonState) -> bool:
    """Whether :mod:`.partial`'s relaxed game, with room counted for the cards
    in the way of each suit's next card (and their hosts and twins), proves
    the position lost, within :data:`ROOM_AT_START`'s relaxed positions."""
    args = state.piles, state.found, state.loc, state.idx
    return any(Partial(*args, blockers(*args, d)).lost(n) is True for d, n in ROOM_AT_START)


CAPACITY_SHARE = 0.8
"""The share of the time of :class:`Proofs` (the depth-first prover and the
capacity game together) on a deal whose capacity game the first dives leave
open; the prover keeps about :data:`PROVER_SHARE` of it (:data:`RATIO`)."""
RATIO = 40
"""Relaxed positions of the capacity game per position of the prover in
:class:`Proofs`: a relaxed position costs about a sixth of a real one, so the
capacity game gets about seven parts of the time in eight."""
CAPACITY_BYTES = 100
"""Estimated bytes per relaxed position in :class:`Capacity`'s table."""


class Proofs:
    """The depth-first prover and :class:`~.capacity.Capacity`'s search for a
    proof, taking turns (:data:`RATIO`), as one prover for :func:`restarts`:
    ``lost`` when either proves it. When the capacity game finds a relaxed win
    (nothing to prove there) or outgrows its share of the memory, ``run``
    answers ``unknown`` at once, so that :func:`solve` goes on with the prover
    alone at its usual share of the time."""

    entry_bytes = DepthFirst.entry_bytes

    def __init__(
        self, prover: DepthFirst[NapoleonMove, Compound], capacity: Capacity, memory: int
    ) -> None:
        self.prover = prover
        self.capacity = capacity
        self.memory = memory
        self.line: list[NapoleonMove] = []

    @property
    def best(self) -> int:
        return self.prover.best

    @property
    def size(self) -> int:
        return self.prover.size

    def best_line(self) -> list[NapoleonMove]:
        return self.prover.best_line()

    def release(self) -> None:
        self.prover.release()
        self.capacity.lost = set()

    def run(self, positions: int) -> Verdict | None:
        verdict = self.prover.run(positions)
        if verdict is not None:
            self.line = self.prover.line
            return verdict
        cap = self.capacity
        if cap.step(positions * RATIO):
            self.line = []
            return "lost"
        if cap.verdict is not None or len(cap.lost) * CAPACITY_BYTES > self.memory:
            self.line = self.prover.best_line()
            return "unknown"
        return None


def solve(game: Game, budget: Budget) -> Result:
    """Search from ``game``'s position: ``won`` with a line, ``lost`` (proved) or ``unknown``."""
    start = budget.clock()
    state = NapoleonState.from_game(game)
    first = state.autoplay()
    if state.dead() or blocked(state):
        return Result("lost", seconds=budget.clock() - start, positions=1, best=state.progress())
    seed = zlib.crc32(state.key())
    capacity = Capacity(state.piles, state.found, state.loc, state.idx, seed)
    if capacity.step(DIVING):
        return Result("lost", seconds=budget.clock() - start, positions=1, best=state.progress())
    # The prover's order does not change what it proves (a search that sees
    # every position sees the same ones in any order), only how soon it wins.
    prover = DepthFirst(state.copy(jitter=seed ^ 1, spread=SHUFFLED), first)
    cutoffs: list[int] = []
    searches = finders(state, first, cutoffs)
    positions = 0
    out = None
    if capacity.verdict is None:
        # The capacity game has no relaxed win at hand: it may prove the deal
        # lost (issue 34, napoleon13), and takes most of the time until it
        # proves it or finds a relaxed win after all.
        left = replace(budget, seconds=budget.seconds - (budget.clock() - start))
        memory = (budget.memory_mb << 20) // 4
        proofs = Proofs(prover, capacity, memory)
        # (:func:`restarts` asks of its prover only what :class:`Proofs` has.)
        as_prover = cast("DepthFirst[NapoleonMove, Compound]", proofs)
        out = restarts(
            as_prover, searches, left, share=CAPACITY_SHARE, base=lambda n: cutoffs[n - 1]
        )
        positions = out.positions
        capacity.lost = set()
    # (A prover :func:`restarts` released for memory would say ``lost``.)
    if out is None or (
        out.verdict == "unknown" and prover.seen and budget.clock() - start < budget.seconds
    ):
        left = replace(budget, seconds=budget.seconds - (budget.clock() - start))
        done = len(cutoffs)
        more = restarts(
            prover, searches, left, share=PROVER_SHARE, base=lambda n: cutoffs[done + n - 1]
        )
        if out is not None and out.best > more.best:
            more = replace(more, line=out.line, best=out.best)
        out = replace(more, positions=positions + more.positions)
    return answer(out, lambda: NapoleonState.from_game(game), to_move, budget, start)


SOLVER = SolverInfo(solve, bench=(BenchRun("napoleon", deals="1-1000"),))
"""Napoleon's solver: the benchmark takes deals 1-1000, 10 s each."""
