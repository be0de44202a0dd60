"""Napoleon: a relaxed game that counts the room on the hosts.

:func:`termsolitaire.solver.napoleon.relax.relaxed_lost` lets a card that
leaves its pile rest for good, and lets a host take every guest, even after the
host has gone home. On the positions deep in a lost deal's search, where that
relaxation still finds a win, the real trouble is usually room: the two red
fives have only the two black sixes to wait on, and a six with a five on it can
neither move nor go home. :func:`capacity_lost` plays a relaxed game that keeps
exactly that much.

**The relaxed game.** Each pile is taken down from its top. A card leaves its
place by going home (its suit is one below it) or by being *parked* (it is then
somewhere off its pile, not home); a king that is not at the bottom of its pile
parks only in an empty pile, one pile each, as in the real game. A parked card
may go home at any time its suit allows. Where a card is parked is forgotten,
but two counts are kept for each pair of *twins* (the two cards of one rank and
colour) and their two hosts:

- parking a card needs room: the parked twins of its pair may not outnumber
  its hosts that are *free* (not home, and every card above them in the
  position's piles gone from its place);
- a card moves (leaves its place, or goes home) only if its own parked guests
  fit on its twin: none, or one and the twin is free.

**Why it is sound.** Map a real line onto it: a card leaves its place in the
relaxed game when it first moves in the real one, and goes home when it does.
In the real game a card off its place and not home lies on a host (or is a
king in a pile of its own); each host holds one card, and a host is on top
when that card arrives, so every card above its place has left. So the parked
twins of a pair lie on distinct free hosts, which is the first count; and a
card that moves is on top, so its parked guests lie on its twin, which is the
second. Every real move is allowed in the relaxed game, so a real win is a
relaxed win, and no relaxed win proves the position lost.

The relaxed game has choices (park a card now or later; send a host home now
or keep it for a guest), so it is searched, depth-first with a table of the
relaxed positions seen; moves that cannot hurt are made without a choice (a
card goes home when both its guests are home). The search stops after
``nodes`` relaxed positions and then proves nothing.
"""

from __future__ import annotations

from .cards import HOME, HOSTS, PILES, RANK, SAME_COLOUR, SUIT

TWIN = [SAME_COLOUR[SUIT[c]] * 13 + RANK[c] - 1 for c in range(52)]
"""The other card of the same rank and colour."""
GUESTS = [tuple(g for g in range(52) if c in HOSTS[g]) for c in range(52)]
"""The cards that may be put on each card (none on an ace)."""

NODES = 300
"""Relaxed positions :func:`capacity_lost` looks at before giving up (about
10 ms): deep in a lost deal's search most positions are proved in fewer."""


class _Out(Exception):
    """The search ran past its node budget."""


def capacity_lost(
    piles: list[bytes], found: list[int], loc: bytearray, idx: bytearray, nodes: int = NODES
) -> bool:
    """Whether the relaxed game of the module notes has no win from this
    position (``True`` proves the position lost); ``False`` when it has one or
    when ``nodes`` relaxed positions were not enough to tell."""
    search = _Search(piles, loc, idx, nodes)
    ptr = [len(p) - 1 for p in piles]
    try:
        return not search.win(ptr, list(found), ptr.count(-1), 0)
    except _Out:
        return False


class _Search:
    """The relaxed game's search: positions are the pile pointers (the top card
    still in its place, as in :mod:`.relax`), the foundations, the empty piles
    and the kings parked in piles of their own."""

    def __init__(self, piles: list[bytes], loc: bytearray, idx: bytearray, nodes: int) -> None:
        self.piles, self.loc, self.idx = piles, loc, idx
        self.seen: set[tuple[tuple[int, ...], tuple[int, ...], int, int]] = set()
        self.left = nodes

    def win(self, ptr: list[int], home: list[int], empty: int, kings: int) -> bool:
        piles, loc, idx = self.piles, self.loc, self.idx

        def gone(c: int) -> bool:  # home in the relaxed game
            return home[SUIT[c]] >= RANK[c]

        def free(c: int) -> bool:
            i = loc[c]
            return i != HOME and not gone(c) and idx[c] >= ptr[i]

        def parked(c: int) -> bool:
            i = loc[c]
            return i != HOME and not gone(c) and idx[c] > ptr[i]

        def may_move(x: int) -> bool:
            n = sum(parked(g) for g in GUESTS[x])
            return n == 0 or (n == 1 and free(TWIN[x]))

        def spent(x: int) -> bool:  # no guest will ever need it
            return all(gone(g) for g in GUESTS[x])

        # Moves that cannot hurt: a card whose guests are all home goes home.
        changed = True
        while changed:
            changed = False
            for i in range(PILES):
                while ptr[i] >= 0:
                    x = piles[i][ptr[i]]
                    if home[SUIT[x]] != RANK[x] - 1 or not spent(x):
                        break
                    home[SUIT[x]] += 1
                    ptr[i] -= 1
                    empty += ptr[i] < 0
                    changed = True
            for s in range(4):
                while home[s] < 13 and parked(s * 13 + home[s]) and spent(s * 13 + home[s]):
                    home[s] += 1
                    empty += home[s] == 13 and kings >> s & 1
                    changed = True
        if home == [13, 13, 13, 13]:
            return True
        key = (tuple(ptr), tuple(home), empty, kings)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.left -= 1
        if self.left < 0:
            raise _Out
        for i in range(PILES):
            t = ptr[i]
            if t < 0:
                continue
            x = piles[i][t]
            s, r = SUIT[x], RANK[x]
            if not may_move(x):
                continue
            after = ptr.copy()
            after[i] = t - 1
            now_empty = empty + (t == 0)
            if home[s] == r - 1:
                up = home.copy()
                up[s] = r
                if self.win(after, up, now_empty, kings):
                    return True
            if r == 13:
                if t > 0 and empty and self.win(after, home.copy(), empty - 1, kings | 1 << s):
                    return True
            elif 1 + parked(TWIN[x]) <= sum(free(h) for h in HOSTS[x]) and self.win(
                after, home.copy(), now_empty, kings
            ):
                return True
        for s in range(4):
            x = s * 13 + home[s]
            if home[s] < 13 and parked(x) and may_move(x):
                up = home.copy()
                up[s] += 1
                if self.win(ptr.copy(), up, empty + (up[s] == 13 and kings >> s & 1), kings):
                    return True
        return False
