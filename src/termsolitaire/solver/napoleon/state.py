"""Napoleon's compact state: make/unmake on ``bytes`` piles, and the moves worth trying."""

from __future__ import annotations

import random

from termsolitaire.rules import Game

from .cards import (
    BYTE,
    HOME,
    HOSTS,
    INFO,
    NAMES,
    OTHER_COLOUR,
    PILES,
    RANK,
    SAME_COLOUR,
    SEP,
    SUIT,
    Compound,
    NapoleonMove,
    Weights,
)
from .relax import relaxed_lost

CACHE_LIMIT = 400_000
"""Positions whose :meth:`NapoleonState.dead` answer is kept (some 40 MB)."""


class NapoleonState:
    """Napoleon's position for the search: make/unmake on ``bytes`` piles."""

    __slots__ = (
        "_floor",
        "_key",
        "_tops",
        "_walk",
        "dead_cache",
        "found",
        "home",
        "idx",
        "jitter",
        "loc",
        "piles",
        "spread",
        "unsettled",
        "weights",
    )

    def __init__(self, piles: list[bytes], found: list[int], weights: Weights = (3, 2, 1)) -> None:
        self.piles = piles
        self.found = found
        """Top rank on each foundation (1: the ace alone)."""
        self.weights = weights
        """:meth:`rank`'s weights of cards not home, cards not settled, and
        cards lying on the next card of a suit."""
        self.loc = bytearray([HOME] * 52)
        """Each card's pile (``HOME`` on its foundation)."""
        self.idx = bytearray(52)
        """Each card's place in its pile (0 at the bottom)."""
        self._floor: list[int] = []
        self._key: bytes | None = None
        """:meth:`key`'s answer while the position stays as it was (the
        searches ask :meth:`key` and then :meth:`dead` about each position)."""
        self._walk = bytearray(PILES)
        self._tops: set[int] = set()
        self.jitter: random.Random | None = None
        """When set, shuffles :meth:`search_moves` among moves scored alike."""
        self.spread = 25
        """How far apart (in :meth:`search_moves`' scores) moves may be scored and
        still be shuffled by :attr:`jitter`."""
        self.home = 100
        """:meth:`search_moves`' score of a card going home (a card onto a host
        scores 50, a king into an empty pile 40, before bonuses)."""
        self.dead_cache: dict[bytes, bool] = {}
        """:meth:`dead`'s answers by key, shared by the copies (the searches
        of one solve come back to the same positions again and again)."""
        self.unsettled = 0
        for i, p in enumerate(piles):
            for j, c in enumerate(p):
                self.loc[c] = i
                self.idx[c] = j
                self.unsettled += not self._settled(c)

    @classmethod
    def from_game(cls, game: Game) -> NapoleonState:
        piles = [bytes(c.code for c, _ in game.pile(n)) for n in NAMES[:PILES]]
        found = [len(game.pile(n)) for n in NAMES[PILES:]]
        return cls(piles, found)

    def copy(
        self, weights: Weights = (3, 2, 1), jitter: int | None = None, spread: int = 25
    ) -> NapoleonState:
        """A copy with its own :meth:`rank` weights (and move order shuffled by
        the seed ``jitter`` among moves scored less than ``spread`` apart)."""
        new = NapoleonState([], list(self.found), weights)
        new.piles = list(self.piles)  # where each card lies, as it is here
        new.loc, new.idx, new.unsettled = bytearray(self.loc), bytearray(self.idx), self.unsettled
        new.dead_cache = self.dead_cache
        if jitter is not None:
            new.jitter = random.Random(jitter)
            new.spread = spread
        return new

    def _settled(self, c: int) -> bool:
        j = self.idx[c]
        if j == 0:
            return RANK[c] == 13
        return self.piles[self.loc[c]][j - 1] in HOSTS[c]

    def key(self) -> bytes:
        k = self._key = SEP.join(sorted(self.piles))
        return k

    def exact(self) -> bytes:
        return SEP.join(self.piles)

    def won(self) -> bool:
        return self.found == [13, 13, 13, 13]

    def progress(self) -> int:
        return sum(self.found)

    def dead(self) -> bool:
        cache = self.dead_cache
        k = self._key
        if k is None:
            k = self.key()
        known = cache.get(k)
        if known is None:
            known = cache[k] = relaxed_lost(self.piles, self.found, self.loc, self.idx)
            if len(cache) > CACHE_LIMIT:
                cache.clear()
        return known

    def rank(self) -> int:
        """Distance from a win, roughly: cards not home, cards that must move once
        more before going home, and cards lying on the next card of each suit."""
        piles, found, loc, idx = self.piles, self.found, self.loc, self.idx
        buried = 0
        for s in range(4):
            if found[s] < 13:
                c = s * 13 + found[s]
                buried += len(piles[loc[c]]) - 1 - idx[c]
        w_home, w_unsettled, w_buried = self.weights
        return w_home * (52 - sum(found)) + w_unsettled * self.unsettled + w_buried * buried

    def snapshot(self) -> tuple[tuple[bytes, ...], tuple[int, ...], bytes, bytes, int]:
        """The position (piles and foundations) and what is kept of it."""
        loc, idx = bytes(self.loc), bytes(self.idx)
        return tuple(self.piles), tuple(self.found), loc, idx, self.unsettled

    def restore(self, snap: tuple[tuple[bytes, ...], tuple[int, ...], bytes, bytes, int]) -> None:
        piles, found, loc, idx, self.unsettled = snap
        self._key = None
        self.piles = list(piles)
        self.found = list(found)
        self.loc = bytearray(loc)
        self.idx = bytearray(idx)

    # ------------------------------------------------------------ moves

    def _top(self, c: int) -> bool:
        """Whether ``c`` lies on top of a pile."""
        i = self.loc[c]
        return i != HOME and self.idx[c] == len(self.piles[i]) - 1

    def legal_moves(self) -> list[NapoleonMove]:
        """Every legal move, exactly as the rules core lists them (for the tests)."""
        empty = [i for i, p in enumerate(self.piles) if not p]
        moves = []
        for i, p in enumerate(self.piles):
            if not p:
                continue
            c = p[-1]
            if self.found[SUIT[c]] == RANK[c] - 1:
                moves.append((i, PILES + SUIT[c]))
            moves.extend((i, self.loc[h]) for h in HOSTS[c] if self._top(h))
            if RANK[c] == 13:
                moves.extend((i, j) for j in empty)
        return moves

    def search_moves(self) -> list[Compound]:
        """The moves worth trying (module notes), the most promising last.

        Each is a *target* (a card going home, a card that is not settled going
        onto a host, a king into an empty pile) after the sideways moves it needs
        (:meth:`_uncover`), and, when the card it lands on could sit on either
        of its own hosts, once for each."""
        piles, found, loc, idx = self.piles, self.found, self.loc, self.idx
        tops = self._tops = {p[-1] for p in piles if p}
        nxt = {s * 13 + f for s, f in enumerate(found) if f < 13}
        scored: list[tuple[int, Compound]] = []
        # :meth:`_could_uncover`, written out: card ``k`` of pile ``i`` could be
        # uncovered if ``k >= floor[i]``, or if the walk down the pile gets there.
        floor = self._floor = [len(p) - 1 for p in piles]
        walk = self._walk = bytearray(PILES)
        empty = floor.index(-1) if -1 in floor else -1
        # The cheap test of :meth:`_add` first, where it would make it first:
        # most targets are buried past uncovering.
        add, deepen, home = self._add, self._deepen, self.home
        for i, p in enumerate(piles):
            for k in range(len(p) - 1, -1, -1):
                y = p[k]
                settled = RANK[y] == 13 if k == 0 else p[k - 1] in HOSTS[y]
                if y in nxt and (k >= floor[i] or (not walk[i] and deepen(i, k))):
                    add(scored, tops, home, y, -1)
                if settled:
                    continue  # it moves only home (or sideways, when that serves)
                if RANK[y] == 13:
                    if empty >= 0 and (k >= floor[i] or (not walk[i] and deepen(i, k))):
                        add(scored, tops, 40, y, empty)
                else:
                    h1, h2 = HOSTS[y]
                    if h1 in tops and h2 in tops:
                        # One will do: on either, the card can step across to
                        # the other while both stay uncovered (a sideways move).
                        if k >= floor[i] or (not walk[i] and deepen(i, k)):
                            add(scored, tops, 50, y, h1)
                    else:
                        for h in h1, h2:
                            j = loc[h]
                            if (
                                j != HOME
                                and j != i
                                and (k >= floor[i] or (not walk[i] and deepen(i, k)))
                                and (idx[h] >= floor[j] or (not walk[j] and deepen(j, idx[h])))
                            ):
                                add(scored, tops, 50, y, h)
                break  # a card that is not settled cannot be moved out of the way
        if self.jitter is not None:
            # ``jitter.randrange(spread)`` for each move, as ``random`` draws it
            # (the same numbers, without its three calls a number).
            bits = self.jitter.getrandbits
            spread = self.spread
            k = spread.bit_length()
            for n, (score, m) in enumerate(scored):
                r = bits(k)
                while r >= spread:
                    r = bits(k)
                scored[n] = (score + r, m)
        scored.sort()
        return [m for _, m in scored]

    def _add(
        self, scored: list[tuple[int, Compound]], tops: set[int], score: int, y: int, h: int
    ) -> None:
        """Add the target "``y`` onto ``h``" (``h`` -1: home; for a king, the empty
        pile ``h``) with the sideways moves it needs, if it can be made. ``tops``:
        the cards on top of their piles. :meth:`_could_uncover` holds for ``y``
        and (when it goes onto it) ``h``."""
        i = self.loc[y]
        king = RANK[y] == 13
        onto = h >= 0 and not king
        if y in tops and (not onto or h in tops):
            dst = PILES + SUIT[y] if h < 0 else h if king else self.loc[h]
            p = self.piles[i]
            n = len(p)  # :meth:`_exposes`, written out
            if n == 1:
                score += 20
            else:
                below = p[-2]
                if self.found[SUIT[below]] == RANK[below] - 1:
                    score += 30
                elif not (RANK[below] == 13 if n == 2 else p[-3] in HOSTS[below]):
                    score += 5
            scored.append((score, ((i, dst),)))
            if onto and self.idx[h]:
                self._add_variant(scored, score - 3, y, h, [])
            return
        flips: list[NapoleonMove] = []  # (:meth:`search_moves` made the cheap test)
        if self._uncover_both(y, h if onto else -1, flips):
            dst = PILES + SUIT[y] if h < 0 else h if king else self.loc[h]
            score += self._exposes(self.piles[i], self.idx[y] + 1) - 3 * len(flips)
            scored.append((score, (*flips, (self.loc[y], dst))))
            if onto:
                self._add_variant(scored, score - 3, y, h, flips)
        for m in reversed(flips):
            self.revert(m)

    def _add_variant(
        self,
        scored: list[tuple[int, Compound]],
        score: int,
        y: int,
        h: int,
        flips: list[NapoleonMove],
    ) -> None:
        """With ``y`` and ``h`` uncovered (by ``flips``): if ``h`` could sit on its
        other host instead, the target again with ``h`` moved there first."""
        i = self.loc[h]
        j = self.idx[h]
        if j == 0:
            return
        g = self.piles[i][j - 1]
        hosts = HOSTS[h]
        if g not in hosts:
            return
        other = hosts[0] if hosts[1] == g else hosts[1]
        more: list[NapoleonMove] = []
        if self._uncover(other, more, 1 << i | 1 << self.loc[y]):
            flip = (i, self.loc[other])
            self.apply(flip)
            if self._top(y):
                moves = (*flips, *more, flip, (self.loc[y], self.loc[h]))
                scored.append((score - 3 * len(more), moves))
            self.revert(flip)
        for m in reversed(more):
            self.revert(m)

    def _uncover_both(self, y: int, h: int, flips: list[NapoleonMove]) -> bool:
        """Uncover ``y`` and (unless -1) ``h``, in either order; the moves made
        stay applied and listed in ``flips`` (also on failure: the caller undoes)."""
        for first, second in ((y, h), (h, y)):
            if first < 0:
                continue
            if (
                self._uncover(first, flips, 0)
                and (second < 0 or self._uncover(second, flips, 0))
                and self._top(y)
                and (h < 0 or self._top(h))
            ):
                return True
            for m in reversed(flips):
                self.revert(m)
            flips.clear()
        return False

    def _could_uncover(self, c: int) -> bool:
        """A quick necessary test for :meth:`_uncover`, on the position
        :meth:`search_moves` was called on: every card above ``c`` lies on a
        host whose twin is on top of another pile.

        That is all a sideways move can use. Say ``x`` lies on ``b`` and must
        step across to ``b``'s twin ``o``. If ``o`` is covered, the card on it
        is a guest of ``o`` (or it cannot move at all), so its hosts are ``o``
        and ``b``: it could only step across onto ``b``, which ``x`` covers
        until ``o`` is free. So the test (and :meth:`_uncover`) needs no
        search, and no card's answer depends on another's.

        What is known is kept per pile until the next :meth:`search_moves`
        (:meth:`_deepen`): the cards from the top down to ``_floor[i]`` can be
        uncovered; below it, none if ``_walk[i]`` is set, else look further."""
        i = self.loc[c]
        if i == HOME:
            return False
        t = self.idx[c]
        if t >= self._floor[i]:
            return True
        return not self._walk[i] and self._deepen(i, t)

    def _deepen(self, i: int, t: int) -> bool:
        """Walk pile ``i`` down from ``_floor[i]`` to ``t`` (:meth:`_could_uncover`)."""
        p = self.piles[i]
        loc, tops = self.loc, self._tops
        k = self._floor[i]
        while k > t:
            _, _, h1, h2 = INFO[p[k]]  # a king: itself twice, never below
            below = p[k - 1]
            if below == h1:
                other = h2
            elif below == h2:
                other = h1
            else:
                break
            if other not in tops or loc[other] == i:
                break
            k -= 1
        self._floor[i] = k
        if k > t:
            self._walk[i] = 1
            return False
        return True

    def _uncover(self, c: int, flips: list[NapoleonMove], busy: int) -> bool:
        """Make ``c`` the top of its pile by moving each card above it sideways,
        to its other host (uncovered first, the same way). The moves are applied
        and appended to ``flips``; ``False`` when it cannot be done. ``busy``:
        a bit for each pile a card is already being uncovered in."""
        i = self.loc[c]
        if i == HOME or busy >> i & 1:
            return False
        busy |= 1 << i
        while len(self.piles[i]) - 1 > self.idx[c]:
            p = self.piles[i]
            z, below = p[-1], p[-2]
            hosts = HOSTS[z]
            if below not in hosts:
                return False
            other = hosts[0] if hosts[1] == below else hosts[1]
            if self.loc[other] == HOME or not self._uncover(other, flips, busy):
                return False
            m = (i, self.loc[other])
            self.apply(m)
            flips.append(m)
        return True

    def _exposes(self, p: bytes, n: int) -> int:
        """A bonus for what taking the top card of ``p`` (``n`` cards) lays bare."""
        if n == 1:
            return 20
        below = p[n - 2]
        if self.found[SUIT[below]] == RANK[below] - 1:
            return 30
        return 0 if self._settled(below) else 5

    def apply(self, move: NapoleonMove) -> None:
        s, d = move
        piles = self.piles
        src = piles[s]
        c = src[-1]
        self._key = None
        if not (RANK[c] == 13 if len(src) == 1 else src[-2] in HOSTS[c]):
            self.unsettled -= 1  # moves never unsettle a card
        piles[s] = src[:-1]
        if d >= PILES:
            self.found[d - PILES] += 1
            self.loc[c] = HOME
            self.idx[c] = 0
        else:
            dst = piles[d]
            self.idx[c] = len(dst)
            self.loc[c] = d
            piles[d] = dst + BYTE[c]

    def revert(self, move: NapoleonMove) -> None:
        s, d = move
        piles = self.piles
        self._key = None
        if d >= PILES:
            f = d - PILES
            c = f * 13 + self.found[f] - 1
            self.found[f] -= 1
        else:
            dst = piles[d]
            c = dst[-1]
            piles[d] = dst[:-1]
        src = piles[s]
        self.idx[c] = len(src)
        self.loc[c] = s
        piles[s] = src + BYTE[c]
        if not (src[-1] in HOSTS[c] if src else RANK[c] == 13):
            self.unsettled += 1

    def _safe(self, c: int) -> bool:
        """Whether ``c`` may go home now and safely (module notes)."""
        s = SUIT[c]
        r = RANK[c]
        found = self.found
        if found[s] != r - 1:
            return False
        o1, o2 = OTHER_COLOUR[s]
        f1, f2 = found[o1], found[o2]
        return (
            r <= 2
            or (f1 >= r - 1 and f2 >= r - 1)
            or (f1 >= r - 2 and f2 >= r - 2 and found[SAME_COLOUR[s]] >= r - 3)
        )

    def autoplay(self) -> list[NapoleonMove]:
        """Play the safe foundation moves (module notes) until none is left;
        return them. Only the next card of each suit can go home, so only
        those four are looked at (where they lie: ``loc``, ``idx``)."""
        piles, found, loc, idx, safe = self.piles, self.found, self.loc, self.idx, self._safe
        done = []
        again = True
        while again:
            again = False
            for s in range(4):
                r = found[s]
                if r < 13:
                    c = s * 13 + r
                    i = loc[c]
                    if idx[c] == len(piles[i]) - 1 and safe(c):
                        m = (i, PILES + s)
                        self.apply(m)
                        done.append(m)
                        again = True
        return done

    def play(self, moves: Compound) -> list[NapoleonMove]:
        """Play ``moves`` and then the safe foundation moves. When nothing went
        home, only the piles moves were taken from can show a new safe card."""
        piles, safe = self.piles, self._safe
        home = False
        for m in moves:
            self.apply(m)
            home = home or m[1] >= PILES
        if not home:
            found = self.found
            for src, _ in moves:
                p = piles[src]
                if p and found[SUIT[p[-1]]] == RANK[p[-1]] - 1 and safe(p[-1]):
                    break
            else:
                return list(moves)
        return [*moves, *self.autoplay()]

    def unplay(self, played: list[NapoleonMove]) -> None:
        for m in reversed(played):
            self.revert(m)
