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
relaxed positions found lost; moves that cannot hurt are made without a choice
(a card goes home when both its guests are home). The search stops after
``nodes`` relaxed positions and then proves nothing. It is :mod:`.partial`'s
game with room counted for every card; :class:`Capacity` plays it alone, in
fewer instructions than :mod:`.partial`'s search (which a test checks it
against, relaxed position for relaxed position), and also by random *dives*
that find a relaxed win (and so stop looking for a proof) far sooner than one
ordered search on most positions that have one (issue 34, napoleon13).
"""

from __future__ import annotations

import random
from typing import Final

from .cards import GUESTS, HOME, HOSTS, PILES, RANK, SUIT, TWIN

NODES = 300
"""Relaxed positions :func:`capacity_lost` looks at before giving up (about
10 ms): deep in a lost deal's search most positions are proved in fewer."""

EVERY_CARD = frozenset(range(52))

_FIXED: Final = 21
"""The slot of :class:`Capacity`'s state that holds 255: the "pile" of the cards
home in the position itself (never reached, never parked)."""
_SLOT: Final = [16 + SUIT[c] for c in range(52)]
"""The slot of each card's foundation in :class:`Capacity`'s state."""
_GUEST_SLOTS: Final = [
    (16 + SUIT[GUESTS[c][0]], 16 + SUIT[GUESTS[c][1]]) if RANK[c] > 1 else (0, 0) for c in range(52)
]
_HOSTS: Final = [HOSTS[c] if RANK[c] < 13 else () for c in range(52)]
_GUESTS: Final = [GUESTS[c] if RANK[c] > 1 else () for c in range(52)]
_ALL_HOME: Final = b"\r\r\r\r"
_NOTHING: Final = (0, 0, 0, 0)
"""An empty pile's entry in :meth:`Capacity._win`'s list of pile tops."""

DIVE = 1_000
"""Relaxed positions per random dive (:meth:`Capacity.step`)."""
DIVING = 30_000
"""Relaxed positions :meth:`Capacity.step` spends on dives alone before the
ordered search for a proof starts; after that one in :data:`DIVE_EVERY`."""
DIVE_EVERY = 5


class _Out(Exception):
    """The search ran past its node budget."""


class Capacity:
    """The relaxed game of the module notes from one position, searched for a
    proof of loss (:meth:`prove`, depth-first in a fixed order, resumable) and
    for a relaxed win (:meth:`dive`, short searches in a random order); both
    keep the relaxed positions they found lost in one table (the game only goes
    forward, so a relaxed position with no win has none whoever asks).

    A relaxed position is a ``bytearray``: slots 0-15 the cards still in place
    in each pile, 16-19 each foundation's top rank, 20 a bit per suit whose king
    took an empty pile, 21 a constant 255 (where the cards home at the start
    lie). Every card above a pile's count has left its place: it is *parked*
    unless its foundation has reached it. The moves that cannot hurt (a card
    whose guests are all home goes home when its suit allows) are made at once
    (:meth:`_settle`), so every relaxed position in the table is settled."""

    def __init__(
        self,
        piles: list[bytes],
        found: list[int],
        loc: bytearray,
        idx: bytearray,
        seed: int = 0,
        reuse: bool = True,
        dive: int = DIVE,
    ) -> None:
        self.piles = [bytes(p) for p in piles]
        self.pile = pile = [_FIXED if loc[c] == HOME else loc[c] for c in range(52)]
        self.place = place = list(idx)

        def at(c: int | None) -> tuple[int, int, int]:
            """Where ``c`` lies: its pile's slot, its place, its foundation's
            slot (no card: a place never reached)."""
            return (_FIXED, 0, 16) if c is None else (pile[c], place[c], _SLOT[c])

        self.info = [
            (
                RANK[c],
                _SLOT[c],
                *at(GUESTS[c][0] if RANK[c] > 1 else None),
                *at(GUESTS[c][1] if RANK[c] > 1 else None),
                *at(TWIN[c]),
                *at(HOSTS[c][0] if RANK[c] < 13 else None),
                *at(HOSTS[c][1] if RANK[c] < 13 else None),
            )
            for c in range(52)
        ]
        """Per card: its rank, its foundation's slot, and where (:func:`at`)
        its two guests, its twin and its two hosts lie: what the search asks
        of each card on top of a pile, read in one go."""
        self.deps = [
            sum({1 << q for q in (a, b, t, y, z) if q < PILES})
            for _, _, a, _, _, b, _, _, t, _, _, y, _, _, z, _, _ in self.info
        ]
        """Per card, a bit for each pile whose count :meth:`_win` reads to
        tell what that card may do on top of its pile (its guests', twin's and
        hosts' piles): a park elsewhere leaves the answer as it was."""
        st = bytearray(22)
        for i, p in enumerate(piles):
            st[i] = len(p)
        for s in range(4):
            st[16 + s] = found[s]
        st[_FIXED] = 255
        self._settle(st, list(range(52)))
        self.start = st
        self.lost: set[bytes] = set()
        self.nodes = 0
        """Relaxed positions looked at (each new one once per search or dive)."""
        self.verdict: bool | None = None
        """``True``: proved lost; ``False``: a relaxed win (nothing to prove)."""
        self.rng = random.Random(seed)
        self.reuse = reuse
        """Whether :meth:`_win` takes the parent's pile tops over after a park
        (``False``: every top looked at again, the same positions met; for the
        test that checks so, which cannot subclass a class compiled by mypyc)."""
        self.dive_size = dive
        """Relaxed positions one random dive may look at (:data:`DIVE`; a test
        sets others here, where a compiled module's constant cannot be changed)."""
        self._shuffle = False
        self._left = 0
        self._dived = 0

    # ------------------------------------------------------------ searches

    def prove(self, nodes: int) -> bool | None:
        """Search on, in the fixed order, for about ``nodes`` relaxed positions:
        ``True`` proved lost, ``False`` a relaxed win, ``None`` not done yet.
        A search stopped is taken up again from the start; what it finished is
        in the table, so only the path to where it stopped is walked again."""
        if self.verdict is None:
            self._shuffle = False
            self.verdict = self._search(nodes)
        return self.verdict

    def dive(self, nodes: int) -> bool | None:
        """Random dives of :attr:`dive_size` relaxed positions each, for about
        ``nodes`` in all: ``False`` when one finds a relaxed win, ``True`` when
        one sees everything (a proof), else ``None``."""
        stop = self.nodes + nodes
        while self.verdict is None and self.nodes < stop:
            self._shuffle = True
            self.verdict = self._search(min(self.dive_size, stop - self.nodes))
        return self.verdict

    def step(self, nodes: int) -> bool | None:
        """About ``nodes`` relaxed positions of work: dives alone for the first
        :data:`DIVING`, then the ordered search for a proof with one dive's
        worth in :data:`DIVE_EVERY` (a relaxed win found late still stops the
        proof)."""
        if self.verdict is not None:
            return self.verdict
        if self._dived < DIVING:
            # (``dive``'s answer, not ``self.verdict`` read again: mypy takes
            # that for the ``None`` it was checked to be above, and code
            # compiled with mypyc would fail on it.)
            n0 = self.nodes
            verdict = self.dive(nodes)
            self._dived += self.nodes - n0
            return verdict
        if self.rng.randrange(DIVE_EVERY) == 0:
            return self.dive(nodes)
        return self.prove(nodes)

    def _search(self, nodes: int) -> bool | None:
        self._left = nodes
        st = bytearray(self.start)
        try:
            if st[16:20] == _ALL_HOME:
                return False
            key = bytes(st)
            return key in self.lost or not self._win(key, None, -1)
        except _Out:
            return None

    # ------------------------------------------------------------ the game

    def _settle(self, st: bytearray, todo: list[int]) -> None:
        """Send home every card of ``todo`` that is its suit's next, reached (on
        top of its pile or parked) and spent (its guests home), and so on with
        what each makes ready: the card below it, its suit's next card, its
        hosts. Such moves only make more of them ready, so the end does not
        depend on the order."""
        pile, place, piles = self.pile, self.place, self.piles
        while todo:
            c = todo.pop()
            r = RANK[c]
            s = _SLOT[c]
            if st[s] != r - 1:
                continue
            i = pile[c]
            h = st[i]
            j = place[c]
            if j + 1 < h:
                continue  # covered
            if r > 1:
                a, b = _GUEST_SLOTS[c]
                if st[a] < r - 1 or st[b] < r - 1:
                    continue
            st[s] = r
            if j + 1 == h:  # on top of its pile: it leaves it
                st[i] = h - 1
                if h > 1:
                    todo.append(piles[i][h - 2])
            if r < 13:
                todo.append(c + 1)
                todo.extend(_HOSTS[c])

    def _may_move(self, st: bytearray, x: int, r: int) -> bool:
        """Whether ``x`` (rank ``r``) may leave its place or go home: its parked
        guests fit on its twin (none, or one and the twin is free)."""
        pile, place = self.pile, self.place
        n = 0
        for g in _GUESTS[x]:
            if place[g] >= st[pile[g]] and st[_SLOT[g]] < r - 1:
                n += 1
        if not n:
            return True
        if n > 1:
            return False
        t = TWIN[x]
        return place[t] + 1 >= st[pile[t]] and st[_SLOT[t]] < r

    def _win(self, st: bytes, seen: list[tuple[int, int, int, int]] | None, moved: int) -> bool:
        """Whether the settled relaxed position ``st`` (not in the table; its
        key, read-only) has a relaxed win; a position found without one goes
        into the table.

        ``seen`` is what the parent found on its pile tops (per pile: the
        card's :attr:`deps`, what it may do, the card, its rank) when ``st``
        is the parent with one card parked from pile ``moved`` and nothing
        else changed (else ``None``): a pile other than ``moved`` whose top
        reads no count of pile ``moved`` is taken as it was, not looked at
        again (napoleon14: most are, and the same moves come out)."""
        piles, pile, place, lost = self.piles, self.pile, self.place, self.lost
        self._left -= 1
        if self._left < 0:
            raise _Out
        self.nodes += 1
        homes: list[tuple[int, int, int]] = []  # (pile or -1 if parked, card, rank)
        parks: list[tuple[int, int, bool]] = []  # (pile, card, a king to an empty pile)
        # :meth:`_may_move` written out below: ``n`` parked guests, the twin ``t``.
        for s in range(16, 20):
            r = st[s]
            if r < 13:
                x = (s - 16) * 13 + r
                if place[x] >= st[pile[x]]:
                    n = 0
                    for g in _GUESTS[x]:
                        if place[g] >= st[pile[g]] and st[_SLOT[g]] < r:
                            n += 1
                    if n:
                        t = TWIN[x]
                        if n > 1 or place[t] + 1 < st[pile[t]] or st[_SLOT[t]] > r:
                            continue
                    homes.append((-1, x, r + 1))
        info = self.info
        deps = self.deps
        tops: list[tuple[int, int, int, int]] = []  # per pile: (deps, what, card, rank)
        for i in range(PILES):
            if seen is not None and i != moved:
                e = seen[i]
                if not e[0] >> moved & 1:  # nothing it depends on has changed
                    tops.append(e)
                    what = e[1]
                    if what:
                        if what & 1:
                            homes.append((i, e[2], e[3]))
                        if what & 2:
                            parks.append((i, e[2], False))
                        elif what & 4:
                            parks.append((i, e[2], True))
                    continue
            h = st[i]
            if not h:
                tops.append(_NOTHING)
                continue
            x = piles[i][h - 1]
            r, sx, ap, aj, as_, bp, bj, bs, tp, tj, ts, yp, yj, ys, zp, zj, zs = info[x]
            n = (aj >= st[ap] and st[as_] < r - 1) + (bj >= st[bp] and st[bs] < r - 1)
            if n and (n > 1 or tj + 1 < st[tp] or st[ts] >= r):
                tops.append((deps[x], 0, x, r))
                continue
            what = 0
            if st[sx] == r - 1:
                homes.append((i, x, r))
                what = 1
            if r == 13:
                if h > 1:
                    parks.append((i, x, True))
                    what |= 4
                tops.append((deps[x], what, x, r))
                continue
            # room: free hosts, less the parked twin
            room = (yj + 1 >= st[yp] and st[ys] <= r) + (zj + 1 >= st[zp] and st[zs] <= r)
            if room and (room > 1 or tj < st[tp] or st[ts] >= r):
                parks.append((i, x, False))
                what |= 2
            tops.append((deps[x], what, x, r))
        if self._shuffle:
            self.rng.shuffle(homes)
            self.rng.shuffle(parks)
        settle = self._settle
        for i, x, r in homes:
            nxt = bytearray(st)
            nxt[_SLOT[x]] = r
            todo = [x + 1, *_HOSTS[x]] if r < 13 else []
            if i >= 0:
                h = st[i]
                nxt[i] = h - 1
                if h > 1:
                    todo.append(piles[i][h - 2])
            settle(nxt, todo)
            if nxt[16:20] == _ALL_HOME:
                return True
            key = bytes(nxt)
            if key not in lost and self._win(key, None, -1):
                return True
        kings = st[20]
        empty = -1
        reuse = self.reuse
        for i, x, king in parks:
            h = st[i]
            nxt = bytearray(st)
            nxt[i] = h - 1
            if king:
                if empty < 0:  # empty piles, less those the kings that left took
                    empty = st.count(0, 0, PILES)
                    for q in range(4):
                        if kings >> q & 1 and st[16 + q] < 13:
                            empty -= 1
                if empty <= 0:
                    continue
                nxt[20] = kings | 1 << SUIT[x]
            known: list[tuple[int, int, int, int]] | None = tops if reuse else None
            if h > 1:
                b = piles[i][h - 2]
                if st[_SLOT[b]] == RANK[b] - 1:  # the card laid bare may go home
                    settle(nxt, [b])
                    if nxt[16:20] == _ALL_HOME:
                        return True
                    known = None
            key = bytes(nxt)
            if key not in lost and self._win(key, known, i):
                return True
        lost.add(st)
        return False


def capacity_lost(
    piles: list[bytes], found: list[int], loc: bytearray, idx: bytearray, nodes: int = NODES
) -> bool:
    """Whether the relaxed game of the module notes has no win from this
    position (``True`` proves the position lost); ``False`` when it has one or
    when ``nodes`` relaxed positions were not enough to tell."""
    return Capacity(piles, found, loc, idx).prove(nodes) is True
