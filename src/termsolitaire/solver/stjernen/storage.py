"""Stjernen: proving positions lost with the stock kept (issue 34).

:mod:`.relax` frees every card of the stock and the upturned piles, so a
foundation takes a stock card whenever it wants it and storage is cleared
at no cost. :class:`StockRelaxation` keeps exactly what that relaxation gives
away (the stock, the upturned piles and the round, dealt and collected as in
the real game) and loosens what it keeps: storage.

The relaxed state is the inner ring (how many cards each pile still holds),
the upturned piles, the stock, the round and the foundations' heights. What
is in storage (the outer ring and the centre) follows from it: every card
that is in none of those places and not home. The relaxed moves:

- an inner pile's top card or an upturned pile's top card goes *to storage*,
  if afterwards storage :func:`fits`;
- a card goes *home* from the top of an inner pile, from the top of an
  upturned pile or from anywhere in storage, when its foundation takes it
  next;
- deal and collect, as the rules say (the same rows, the same order).

Storage *fits* if its cards, and no others, can be laid out as at most five
runs (one suit each, ranks consecutive upwards), at most four of them not
from the ace (:func:`fits`). Every relaxed state met must fit.

Why it is a true superset of the real game, so that "no relaxed win" proves
"no real win": the real storage at any moment is four outer runs and one run
from the ace in the centre, holding exactly the cards the relaxed state
says, so every real position fits. Each real move is a relaxed move or none:
inner ring to its outer position (to storage), upturned pile to the centre
or an outer position (to storage), anything to a foundation (home; the real
card was free, the relaxed one may be anywhere in storage), storage to
storage (nothing changes), deal and collect (the same). So every real line
maps onto a relaxed line through the same states, and a real win is a
relaxed one.

No move is played at once: as "fits" is not kept by taking a card away (a
card from the middle of a run splits it), a card going home can hurt the
relaxed player, so the search tries every move.

The stock's order is what it keeps, and it must keep it in every round:
freeing it from any round on proves no fresh deal lost (docs/journal/solver-stjernen.md,
stjernen8). It proves positions late in a game lost that :mod:`.relax`
does not; on a fresh deal its search does not finish.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from .relax import ANY_START, STORAGE_RUNS
from .state import CENTRE, FULL, INNER, NEEDED, OUTER, ROUNDS, UP, State

RelaxedState = tuple[
    tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...], int, tuple[int, ...]
]
"""(inner pile heights, upturned piles, stock, round, foundation heights)."""


def fits(count: list[int]) -> bool:
    """Whether the storage ``count`` (copies of each card code) can be laid out,
    those cards and no others, as at most five runs, at most four of them not
    from the ace (the module's docstring).

    With no cards to fill the ranks between, a suit's layout is forced: every
    ace starts a run, and a rank with more copies than the rank below starts
    that many more (as :func:`.relax._suit_options` finds with nothing to
    fill)."""
    aces = starts = 0
    for lo in (0, 13, 26, 39):
        prev = count[lo]
        aces += prev
        for c in range(lo + 1, lo + 13):
            x = count[c]
            if x > prev:
                starts += x - prev
            prev = x
    return aces + starts <= STORAGE_RUNS and starts <= ANY_START


class StockRelaxation:
    """The relaxed game of the module's docstring, from one position.

    :meth:`lost` searches it depth-first with a table of the relaxed states
    seen."""

    def __init__(self, st: State) -> None:
        self.piles = [tuple(st.piles[i]) for i in INNER]
        self.root: RelaxedState = (
            tuple(len(p) for p in self.piles),
            tuple(tuple(st.piles[u]) for u in UP),
            tuple(st.stock),
            st.round,
            tuple(st.fcount),
        )
        self.storage0 = [0] * 52
        for p in (*OUTER, CENTRE):
            for c in st.piles[p]:
                self.storage0[c] += 1
        self.states = 0

    def lost(
        self,
        max_states: int = 100_000,
        deadline: float = math.inf,
        clock: Callable[[], float] = time.monotonic,
    ) -> bool | None:
        """True if no relaxed line brings every card home (the position is
        lost), False if one does, None if ``max_states`` or ``deadline`` on
        ``clock`` ran out first."""
        storage = list(self.storage0)
        root = self.root
        seen: set[RelaxedState] = set()
        stack: list[tuple[RelaxedState, list[int]]] = [(root, storage)]
        while stack:
            state, storage = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if len(seen) > max_states or (not len(seen) & 255 and clock() > deadline):
                self.states = len(seen)
                return None
            if min(state[4]) == FULL:
                self.states = len(seen)
                return False
            stack += self._children(state, storage)
        self.states = len(seen)
        return True

    def _children(
        self, state: RelaxedState, storage: list[int]
    ) -> list[tuple[RelaxedState, list[int]]]:
        """The relaxed states one move on that fit, the cards going home last
        (taken first)."""
        d, ups, stock, rnd, f = state
        later: list[tuple[RelaxedState, list[int]]] = []
        first: list[tuple[RelaxedState, list[int]]] = []
        if stock or rnd < ROUNDS:
            # Storage lists are shared between states: changed only for a
            # moment, and always put back.
            later.append((self._deal(state) if stock else self._collect(state), storage))
        for s in range(4):
            if f[s] < FULL:
                c = NEEDED[s][f[s]]
                if storage[c]:
                    storage[c] -= 1
                    if fits(storage):
                        fl = (*f[:s], f[s] + 1, *f[s + 1 :])
                        first.append(((d, ups, stock, rnd, fl), list(storage)))
                    storage[c] += 1
        wanted = {NEEDED[s][f[s]] for s in range(4) if f[s] < FULL}
        # The free cards of the inner ring and the upturned piles, with what is
        # left of their places once they go.
        tops: list[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]]] = []
        for k, p in enumerate(ups):
            if p:
                tops.append((p[-1], d, (*ups[:k], p[:-1], *ups[k + 1 :])))
        for i in INNER:
            if d[i]:
                tops.append((self.piles[i][d[i] - 1], (*d[:i], d[i] - 1, *d[i + 1 :]), ups))
        for c, nd, nups in tops:
            if c in wanted:
                s = c // 13
                fl = (*f[:s], f[s] + 1, *f[s + 1 :])
                first.append(((nd, nups, stock, rnd, fl), storage))
            storage[c] += 1
            if fits(storage):
                later.append(((nd, nups, stock, rnd, f), list(storage)))
            storage[c] -= 1
        return later + first

    @staticmethod
    def _deal(state: RelaxedState) -> RelaxedState:
        d, ups, stock, rnd, f = state
        new_ups = list(ups)
        stock_l = list(stock)
        for k in range(min(7 - rnd, len(UP))):
            if not stock_l:
                break
            new_ups[k] = (*new_ups[k], stock_l.pop())
        return d, tuple(new_ups), tuple(stock_l), rnd, f

    @staticmethod
    def _collect(state: RelaxedState) -> RelaxedState:
        d, ups, _, rnd, f = state
        gathered = [c for p in ups for c in p]
        gathered.reverse()
        return d, ((),) * len(UP), tuple(gathered), rnd + 1, f


def stock_lost(st: State, max_states: int = 100_000) -> bool:
    """Whether the stock-keeping relaxed game proves ``st`` lost."""
    return StockRelaxation(st).lost(max_states) is True
