"""Stjernen: proving positions lost with a relaxed game (issue 34).

If not even an easier game can bring every card home, the real one cannot.
The easier game here (:func:`relaxed_lost`) keeps only what binds a fresh
deal: the inner ring, which is taken down from the top, and the storage its
cards must wait in until their turn (four outer runs and the centre). Every
card of the stock and the upturned piles is free at any time, cards in
storage are free at any time, and cards may jump from one storage run to
another; nothing but the inner ring's order, the foundations' order and the
room in storage is left.

Why the relaxed game is a true superset of the real one, so that "no relaxed
win" proves "no real win":

- *Where cards can be.* The inner ring and the upturned piles never receive a
  card from the player; the stock only gets the upturned piles back. So at any
  moment every card that has left the inner ring (or was in the outer ring or
  the centre when the search began) and is not home lies in the outer ring or
  the centre: in at most four runs (same suit, ranks consecutive upwards) on
  the outer positions and one run from the ace up in the centre.
- *What the relaxed game remembers.* Only how many cards each inner pile still
  holds (``d``, at most 11**4 states) and how high each foundation is. A
  foundation of a suit takes its next card whenever a copy of it is neither in
  the inner ring nor home (it is in the stock, an upturned pile or storage,
  all free here). In the real game that copy is somewhere too, and has to be
  free, so the relaxed foundations are never lower than the real ones (each
  suit climbs on its own, so the relaxed heights depend on ``d`` only and are
  the highest the real game could reach with that inner ring).
- *The room in storage.* An inner pile may give up its top card only if,
  afterwards, the cards that must be in storage fit in it
  (:func:`_combine`). "Must be": of each card, the copies that have left the
  inner ring since the start or were in storage then, less the copies of it
  put home since (counted with the relaxed heights, which are at least the
  real ones, so this is never more than the real game holds there). "Fit":
  those copies can be laid out as at most five runs of consecutive ranks,
  one suit each, at most four of them not starting from the ace (the centre
  starts from an ace), using for the ranks between only copies that are not
  in the inner ring and were not home at the start. The real storage at that
  moment is such a layout, so the relaxed game allows every real step.

So every real line maps onto a relaxed line with the same inner ring at every
step and foundations at least as high; a real win ends with every inner pile
empty, and then every relaxed foundation is full: a relaxed win. The search
walks the inner ring's states (at most 14,641) once each.
"""

from __future__ import annotations

from .state import CENTRE, FULL, INNER, NEEDED, OUTER, State

STORAGE_RUNS = 5
"""The outer ring's four runs and the centre's one."""
ANY_START = 4
"""The runs that may start from any rank (the outer ring's)."""


def _turns_passed(code: int, height: int) -> int:
    """How many of ``code``'s two turns a foundation of its suit at ``height`` has had."""
    first = 12 - code % 13
    return (height > first) + (height > first + 13)


class Relaxation:
    """The relaxed game of the module's docstring, from one position."""

    def __init__(self, st: State) -> None:
        self.piles = [list(st.piles[i]) for i in INNER]
        self.root_heights = list(st.fcount)
        inner0 = [0] * 52
        for i in INNER:
            for c in st.piles[i]:
                inner0[c] += 1
        stored0 = [0] * 52
        for p in (*OUTER, CENTRE):
            for c in st.piles[p]:
                stored0[c] += 1
        # Copies home at the start stay home: never fillers.
        self.home0 = [_turns_passed(c, self.root_heights[c // 13]) for c in range(52)]
        self.origin = [stored0[c] + inner0[c] for c in range(52)]
        """Copies that are in storage or the inner ring at the start."""
        self._options: dict[tuple[object, ...], list[tuple[int, int]]] = {}
        self.states = 0

    def remaining(self, d: tuple[int, ...]) -> list[int]:
        """Copies of each card still in the inner ring with pile heights ``d``."""
        rem = [0] * 52
        for i in INNER:
            for c in self.piles[i][: d[i]]:
                rem[c] += 1
        return rem

    def height(self, s: int, rem: list[int]) -> int:
        """The relaxed foundation of suit ``s``: it climbs while its next card has
        a copy outside the inner ring that is not home."""
        h = self.root_heights[s]
        needed = NEEDED[s]
        while h < FULL and rem[needed[h]] + (h >= 13) <= 1:
            h += 1
        return h

    def heights(self, rem: list[int]) -> list[int]:
        return [self.height(s, rem) for s in range(4)]

    def options(self, s: int, h: int, rem: list[int]) -> list[tuple[int, int]]:
        """:func:`_suit_options` for suit ``s`` at height ``h`` (kept)."""
        lo = s * 13
        key = (s, h, *rem[lo : lo + 13])
        got = self._options.get(key)
        if got is None:
            must = []
            can = []
            for c in range(lo, lo + 13):
                r = rem[c]
                home_since = _turns_passed(c, h) - self.home0[c]
                out = self.origin[c] - r - home_since
                must.append(out if out > 0 else 0)
                can.append(2 - r - self.home0[c])
            got = self._options[key] = _suit_options(must, can)
        return got

    def fits(self, rem: list[int], heights: list[int]) -> bool:
        """Whether the cards that must be in storage fit in it (:func:`_combine`)."""
        return _combine([self.options(s, heights[s], rem) for s in range(4)])

    def lost(self, max_states: int = 20_000) -> bool | None:
        """True if no relaxed line empties the inner ring (the position is lost),
        False if one does, None if ``max_states`` ran out first.

        Whether an inner ring's state may be reached at all depends on that
        state alone (its foundations and what must be in storage follow from
        it), so the walk checks each state when it takes it off the stack; the
        piles whose top card goes home at once are tried first."""
        d0 = tuple(len(p) for p in self.piles)
        seen: set[tuple[int, ...]] = set()
        stack = [d0]
        while stack:
            d = stack.pop()
            if d in seen:
                continue
            seen.add(d)
            if len(seen) > max_states:
                self.states = len(seen)
                return None
            rem = self.remaining(d)
            heights = self.heights(rem)
            if d != d0 and not self.fits(rem, heights):
                continue
            if not any(d):
                self.states = len(seen)
                return False
            wanted = {NEEDED[s][heights[s]] for s in range(4) if heights[s] < FULL}
            first: list[tuple[int, ...]] = []
            later: list[tuple[int, ...]] = []
            for i in INNER:
                if d[i]:
                    nd = (*d[:i], d[i] - 1, *d[i + 1 :])
                    if nd not in seen:
                        (first if self.piles[i][d[i] - 1] in wanted else later).append(nd)
            stack += later
            stack += first  # taken first: a card that goes home at once
        self.states = len(seen)
        return True


def _suit_options(must: list[int], can: list[int]) -> list[tuple[int, int]]:
    """The ways to lay out one suit's cards in runs: (runs from the ace, other
    runs), the fewest other runs for each count from the ace. ``must[r]`` copies
    of rank ``r`` (0 the ace) have to be in runs, at most ``can[r]`` may.

    For a given count from the ace the fewest starts come from keeping as many
    runs open as allowed, rank by rank (a run kept open costs nothing and
    saves at most the one start it would take to open it again later)."""
    if not any(must):
        return [(0, 0)]
    out: list[tuple[int, int]] = []
    for c0 in range(must[0], can[0] + 1):
        prev, starts = c0, 0
        for r in range(1, 13):
            c = prev if prev > must[r] else must[r]
            if c > can[r]:
                if must[r] > can[r]:
                    return out
                c = can[r]
            if c > prev:
                starts += c - prev
            prev = c
        out.append((c0, starts))
    return out


def _combine(options: list[list[tuple[int, int]]]) -> bool:
    """Whether every suit's cards can be laid out at once in at most
    :data:`STORAGE_RUNS` runs, at most :data:`ANY_START` of them not from the ace."""
    combos = [(0, 0)]
    for opts in options:
        if not opts:
            return False
        if len(opts) == 1 and opts[0] == (0, 0):
            continue
        combos = [
            (a + b, n + m)
            for a, n in combos
            for b, m in opts
            if a + b + n + m <= STORAGE_RUNS and n + m <= ANY_START
        ]
        if not combos:
            return False
    return True


def relaxed_lost(st: State, max_states: int = 20_000) -> bool:
    """Whether the relaxed game (the module's docstring) proves ``st`` lost."""
    return Relaxation(st).lost(max_states) is True


def relax_key(st: State) -> tuple[object, ...]:
    """What the relaxed game of ``st`` depends on: the inner ring, the cards in
    storage (not their places) and the foundations' heights. Positions alike in
    these (they differ in the stock, the upturned piles, the round, or where in
    storage a card lies) get the same answer."""
    p = st.piles
    stored = sorted((*p[4], *p[5], *p[6], *p[7], *p[CENTRE]))
    return (tuple(p[0]), tuple(p[1]), tuple(p[2]), tuple(p[3]), tuple(st.fcount), tuple(stored))


class RelaxCache:
    """:func:`relaxed_lost` with its answers kept by :func:`relax_key` (a bounded
    table: cleared when full)."""

    def __init__(self, max_entries: int = 200_000) -> None:
        self.table: dict[tuple[object, ...], bool] = {}
        self.max_entries = max_entries
        self.proved = 0

    def lost(self, st: State) -> bool:
        key = relax_key(st)
        got = self.table.get(key)
        if got is None:
            if len(self.table) >= self.max_entries:
                self.table.clear()
            got = self.table[key] = relaxed_lost(st)
        if got:
            self.proved += 1
        return got
