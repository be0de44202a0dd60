"""Napoleon: proving a deal lost with room counted for a few cards only.

:mod:`.capacity`'s relaxed game counts the room on the hosts for every card, and
is too wide to search near the start of a deal. :func:`partial_lost` keeps its
rules only for a chosen set ``C`` of cards (:func:`blockers`: the cards above
the next card each suit needs, and their hosts and twins) and plays every other
card as :mod:`.relax` does, at once and for good. Deals 44 and 105 are proved
lost this way at the start in about 25,000 relaxed positions.

**The relaxed game.** Piles are taken down from their tops; *reached*: a card
whose place has been laid bare (it is on top of what is left of its pile, or
has left it). A card of ``C`` leaves its place by going home or by being
*parked*, each a choice of the search, and only as :mod:`.capacity` allows:

- parking needs room: the parked ``C`` twins of its pair may not outnumber its
  *free* hosts (a host of ``C`` is free when reached and not home, any other
  host when reached);
- a card of ``C`` moves (leaves its place or goes home) only if its parked
  ``C`` guests fit on its twin: none, or one and the twin is free.

Every other card leaves its place as soon as it can go home or one of its hosts
is reached (home or not), and goes home as soon as it is reached and its suit
is one below it. A king that is not at the bottom of its pile leaves it only
for an empty pile of its own (a choice); a ``C`` card whose guests are all home
goes home as soon as its suit allows.

**Why it is sound.** Map a real line onto it as in :mod:`.capacity`: a card of
``C`` leaves its place when it first moves, goes home when it does. The two
rules hold for the ``C`` cards of a real line (a host holds one card, and is
on top when it arrives; a card that moves is on top), and counting fewer
parked cards (only those of ``C``) or more free hosts (the others, even home)
only loosens them. The moves made at once never hurt: the other cards are
counted nowhere, so moving them only lays more cards bare and advances their
suit's foundation, which stops at the first ``C`` card not home; and a ``C``
card whose guests are all home is no use as a host. So every real win is a
relaxed win, and a relaxed game without one proves the position lost.

The relaxed game only goes forward (a pile's pointer only falls, a foundation
only rises), so its positions form a DAG and a relaxed position whose search
finished without a win is lost for good: :class:`Partial` keeps them, and
meets each at most once.
"""

from __future__ import annotations

from .cards import GUESTS, HOME, HOSTS, PILES, RANK, SUIT, TWIN

RelaxedKey = tuple[tuple[int, ...], tuple[int, ...], int, int]


class _Out(Exception):
    """The search ran past its node budget."""


def blockers(
    piles: list[bytes], found: list[int], loc: bytearray, idx: bytearray, depth: int = 1
) -> set[int]:
    """The cards above the next card each suit needs, and ``depth`` times over
    their hosts and twins."""
    cards: set[int] = set()
    for s in range(4):
        if found[s] < 13:
            c = s * 13 + found[s]
            cards.update(piles[loc[c]][idx[c] + 1 :])
    for _ in range(depth):
        cards |= {h for c in cards for h in HOSTS[c]} | {TWIN[c] for c in cards if RANK[c] < 13}
    return cards


class Partial:
    """The relaxed game of the module notes from one position, for one set of
    cards."""

    def __init__(
        self,
        piles: list[bytes],
        found: list[int],
        loc: bytearray,
        idx: bytearray,
        cards: set[int] | frozenset[int],
    ) -> None:
        self.piles, self.found = list(piles), list(found)
        self.loc, self.idx = bytes(loc), bytes(idx)
        self.inc = bytes(c in cards for c in range(52))
        self.lost_keys: set[RelaxedKey] = set()
        self._left = 0

    def lost(self, nodes: int) -> bool | None:
        """``True``: proved lost; ``False``: the relaxed game has a win (nothing
        proved); ``None``: ``nodes`` relaxed positions were not enough."""
        ptr = [len(p) - 1 for p in self.piles]
        self._left = nodes
        try:
            return not self._win(ptr, list(self.found), ptr.count(-1), 0)
        except _Out:
            return None

    def _win(self, ptr: list[int], home: list[int], empty: int, kings: int) -> bool:
        piles, loc, idx, inc = self.piles, self.loc, self.idx, self.inc

        def reached(c: int) -> bool:
            i = loc[c]
            return i != HOME and idx[c] >= ptr[i]

        def gone(c: int) -> bool:
            return home[SUIT[c]] >= RANK[c]

        def free(c: int) -> bool:
            return reached(c) and not (inc[c] and gone(c))

        def parked(c: int) -> bool:
            i = loc[c]
            return bool(inc[c]) and i != HOME and idx[c] > ptr[i] and not gone(c)

        def may_move(x: int) -> bool:
            n = parked(GUESTS[x][0]) + parked(GUESTS[x][1]) if RANK[x] > 1 else 0
            return n == 0 or (n == 1 and free(TWIN[x]))

        def spent(x: int) -> bool:
            return RANK[x] == 1 or (gone(GUESTS[x][0]) and gone(GUESTS[x][1]))

        changed = True
        while changed:
            changed = False
            for i in range(PILES):
                while ptr[i] >= 0:
                    x = piles[i][ptr[i]]
                    s, r = SUIT[x], RANK[x]
                    if inc[x]:
                        if home[s] != r - 1 or not spent(x):
                            break
                        home[s] = r
                    elif home[s] >= r - 1:
                        home[s] = max(home[s], r)
                    elif r == 13 or not (reached(HOSTS[x][0]) or reached(HOSTS[x][1])):
                        break
                    ptr[i] -= 1
                    empty += ptr[i] < 0
                    changed = True
            for s in range(4):
                while home[s] < 13:
                    c = s * 13 + home[s]
                    if not (parked(c) and spent(c) if inc[c] else reached(c)):
                        break
                    home[s] += 1
                    empty += home[s] == 13 and kings >> s & 1
                    changed = True
        if home == [13, 13, 13, 13]:
            return True
        key = (tuple(ptr), tuple(home), empty, kings)
        if key in self.lost_keys:
            return False
        self._left -= 1
        if self._left < 0:
            raise _Out
        for i in range(PILES):
            t = ptr[i]
            if t < 0:
                continue
            x = piles[i][t]
            s, r = SUIT[x], RANK[x]
            if inc[x] and not may_move(x):
                continue
            after = ptr.copy()
            after[i] = t - 1
            if r == 13:
                if (
                    t > 0
                    and empty
                    and self._win(after.copy(), home.copy(), empty - 1, kings | 1 << s)
                ):
                    return True
                if inc[x] and home[s] == 12:
                    up = home.copy()
                    up[s] = 13
                    if self._win(after.copy(), up, empty + (t == 0), kings):
                        return True
                continue
            if not inc[x]:
                continue
            now_empty = empty + (t == 0)
            if home[s] == r - 1:
                up = home.copy()
                up[s] = r
                if self._win(after.copy(), up, now_empty, kings):
                    return True
            room = free(HOSTS[x][0]) + free(HOSTS[x][1])
            if 1 + parked(TWIN[x]) <= room and self._win(after, home.copy(), now_empty, kings):
                return True
        for s in range(4):
            x = s * 13 + home[s]
            if home[s] < 13 and parked(x) and may_move(x):
                up = home.copy()
                up[s] += 1
                if self._win(ptr.copy(), up, empty + (up[s] == 13 and kings >> s & 1), kings):
                    return True
        self.lost_keys.add(key)
        return False


def partial_lost(
    piles: list[bytes],
    found: list[int],
    loc: bytearray,
    idx: bytearray,
    cards: set[int],
    nodes: int = 30_000,
) -> bool:
    """Whether the relaxed game of the module notes, with room counted for
    ``cards``, has no win (``True`` proves the position lost); ``False`` when
    it has one or ``nodes`` relaxed positions were not enough to tell."""
    return Partial(piles, found, loc, idx, cards).lost(nodes) is True
