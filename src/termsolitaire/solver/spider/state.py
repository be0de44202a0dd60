"""Spider's compact state for search: integer cards, make/unmake, incremental hashing.

The rules core (:class:`termsolitaire.rules.spider.Spider`) is the judge; this is
a second, fast copy of the same rules for the solver and the computer opponent.
``tests/solver/test_spider_state.py`` plays both side by side and checks that
they agree on every legal move set and every position.

Cards are small integers: ``suit * 16 + rank`` (suit 0-3 for ♠ ♥ ♦ ♣, rank 1-13),
so ``upper - lower == 1`` says that ``lower`` continues a same-suit run on
``upper``, and ``(upper & 15) - (lower & 15) == 1`` that it may be placed there.
A card not known to the holder of the state (the opponent's view of a
face-down card) is :data:`UNKNOWN`.

Moves are tuples: ``(src, dst, count)`` a transfer, ``(src, TURN, 0)`` a turn,
``DEAL_MOVE`` a deal; piles are numbered 0-9 for ``t1``-``t10``.

Every pile keeps a summary (its hashes and the figures the evaluation reads),
derived after a move from the one before for the piles the move touches; while
the stock lasts the position's hash is the sum of the piles' hashes at their
places (Zobrist keys per pile, height and card). Once the stock is empty the
piles are interchangeable, so the hash is the sum of their mixed hashes, which
forget which pile is which: two positions that differ only by the order of
their piles are one position to the search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from termsolitaire.rules import Card, Move
from termsolitaire.rules.moves import DEAL
from termsolitaire.rules.spider import TABLEAU, Spider

PILES = 10
TURN = -1
DEAL_MOVE: tuple[int, int, int] = (-1, -1, 0)
UNKNOWN = 0
"""A face-down card whose identity the state's holder does not know."""
RUN = 13
SUIT_CODES = "SHDC"
MASK = (1 << 64) - 1
SpiderMove = tuple[int, int, int]

_rng = random.Random(20240611)
_ZUP = [_rng.getrandbits(64) for _ in range(128 * 64)]
"""Zobrist keys of a face-up card (code) at a height in its pile."""
_ZDOWN = [[_rng.getrandbits(64) if d else 0 for d in range(128)] for _ in range(PILES)]
"""Zobrist keys of a pile's face-down prefix (its cards never move, so pile and count name it)."""
_ZPILE = [_rng.getrandbits(64) for _ in range(PILES)]
_ZSTOCK = [_rng.getrandbits(64) for _ in range(128)]
_ZAT = [[_rng.getrandbits(64) for _ in range(128 * 64)] for _ in range(PILES)]
"""Zobrist keys of a face-up card at a height in a given pile (while the stock lasts)."""


def _mix(x: int) -> int:
    """splitmix64's finaliser: spreads a pile hash before piles are added up."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def code(card: Card) -> int:
    """The integer of a rules card.

    >>> code(Card(13, "S")), code(Card(1, "H"))
    (13, 17)
    """
    return SUIT_CODES.index(card.suit) * 16 + card.rank


def card(c: int) -> Card:
    """The rules card of an integer (the inverse of :func:`code`)."""
    return Card(c & 15, SUIT_CODES[c >> 4])


def to_move(m: SpiderMove) -> Move:
    """The rules move of a compact move."""
    src, dst, count = m
    if src < 0:
        return DEAL
    if dst == TURN:
        return Move.turn(TABLEAU[src])
    return Move.transfer(TABLEAU[src], TABLEAU[dst], count)


def from_move(m: Move) -> SpiderMove:
    """The compact move of a rules move."""
    if m.kind == "deal":
        return DEAL_MOVE
    if m.kind == "turn":
        return (TABLEAU.index(m.src), TURN, 0)
    return (TABLEAU.index(m.src), TABLEAU.index(m.dst), m.count)


_NO_CARDS: tuple[int, ...] = ()
"""The pile :meth:`PileInfo._derived` summarises before setting its fields."""


class PileInfo:
    """What the search reads of one pile, computed in one pass over its face-up cards.

    A move changes a pile only at its top, so :meth:`pushed` and :meth:`popped`
    derive the summary after a move from the one before, reading only the cards
    moved (and, when a whole run leaves, the run below it): the search makes
    several moves per position it keeps, and a full pass over both piles was
    about 40% of its time.
    """

    __slots__ = (
        "_mixed",
        "bad",
        "base",
        "hash",
        "index",
        "nat",
        "placed",
        "run",
        "segs",
        "square",
        "top",
    )

    def __init__(self, pile: Sequence[int], down: int, index: int) -> None:
        h = _ZDOWN[index][down]
        hp = h ^ _ZPILE[index]
        zat = _ZAT[index]
        n = len(pile)
        segs = nat = bad = square = 0
        run = 0
        prev = -1
        for j in range(down, n):
            c = pile[j]
            h ^= _ZUP[(j << 6) | c]
            hp ^= zat[(j << 6) | c]
            if prev < 0:
                segs = 1
                run = 1
            elif prev - c == 1:
                run += 1
            else:
                segs += 1
                square += run * run
                run = 1
                if (prev & 15) - (c & 15) == 1:
                    nat += 1
                else:
                    bad += 1
            prev = c
        self.index = index
        self.hash = h
        self.square = square + run * run
        """The sum of the squared lengths of the same-suit runs in the face-up part."""
        self._mixed = -1
        self.placed = hp
        """The pile's hash at its place (while the stock lasts the piles are
        told apart): their sum is the position's key."""
        self.segs = segs
        """Same-suit runs in the face-up part."""
        self.nat = nat
        """Breaks between runs that still descend by rank (another suit)."""
        self.bad = bad
        """Breaks where the upper card is not one rank lower."""
        self.run = run
        """Length of the run at the top (0 when the pile shows no face-up card)."""
        self.top = prev
        """The top card (-1 when the pile shows no face-up card)."""
        self.base = pile[n - run] if run else -1
        """The lowest card of the run at the top (-1 when none)."""

    @property
    def mixed(self) -> int:
        """The pile's hash, spread: its share of the key once piles are interchangeable."""
        if self._mixed < 0:
            self._mixed = _mix(self.hash)
        return self._mixed

    def _derived(self) -> PileInfo:
        # Pure Python makes a bare instance (the fastest); compiled by mypyc,
        # PileInfo.__new__ runs __init__, so it summarises no cards instead.
        # Either way the caller sets every field again.
        new = PileInfo.__new__(PileInfo) if _BARE else PileInfo(_NO_CARDS, 0, self.index)
        new.index = self.index
        new._mixed = -1
        new.segs, new.nat, new.bad = self.segs, self.nat, self.bad
        return new

    def pushed(self, pile: Sequence[int], down: int, k: int) -> PileInfo:
        """The summary once the top ``k`` cards of ``pile``, one same-suit run
        (or one card dealt), have been put on the pile this summary describes."""
        n = len(pile)
        if not self.run:
            return PileInfo(pile, down, self.index)
        new = self._derived()
        h, hp, zat = self.hash, self.placed, _ZAT[self.index]
        for j in range(n - k, n):
            h ^= _ZUP[(j << 6) | pile[j]]
            hp ^= zat[(j << 6) | pile[j]]
        new.hash, new.placed = h, hp
        base = pile[n - k]
        new.top = pile[-1]
        top = self.top
        if top - base == 1:
            run = self.run + k
            new.square = self.square - self.run * self.run + run * run
            new.base = self.base
        else:
            run = k
            new.square = self.square + k * k
            new.base = base
            new.segs += 1
            if (top & 15) - (base & 15) == 1:
                new.nat += 1
            else:
                new.bad += 1
        new.run = run
        return new

    def popped(self, pile: Sequence[int], down: int, cards: Sequence[int]) -> PileInfo:
        """The summary once ``cards`` (bottom to top, part or all of the top
        run) have been taken from the pile this summary describes."""
        n = len(pile)
        k = len(cards)
        new = self._derived()
        h, hp, zat = self.hash, self.placed, _ZAT[self.index]
        for j in range(k):
            h ^= _ZUP[((n + j) << 6) | cards[j]]
            hp ^= zat[((n + j) << 6) | cards[j]]
        new.hash, new.placed = h, hp
        run = self.run
        if k < run:
            left = run - k
            new.run = left
            new.square = self.square - run * run + left * left
            new.top = pile[-1]
            new.base = self.base
            return new
        if n == down:
            new.segs = new.nat = new.bad = new.square = new.run = 0
            new.top = new.base = -1
            return new
        top = pile[-1]
        j = n - 1
        while j > down and pile[j - 1] - pile[j] == 1:
            j -= 1
        new.run = n - j
        new.top = top
        new.base = pile[j]
        new.square = self.square - run * run
        new.segs -= 1
        if (top & 15) - (cards[0] & 15) == 1:
            new.nat -= 1
        else:
            new.bad -= 1
        return new

    def fields(self) -> tuple[int, ...]:
        """Every figure of the summary, to compare with a fresh one (the tests)."""
        return (
            self.index, self.hash, self.segs, self.nat, self.bad, self.square,
            self.run, self.top, self.base, self.mixed, self.placed,
        )  # fmt: skip


def _bare_instances() -> bool:
    """Whether ``PileInfo.__new__(PileInfo)`` makes an instance without running
    ``__init__`` (pure Python: yes; compiled by mypyc: no)."""
    try:
        PileInfo.__new__(PileInfo)
    except TypeError:
        return False
    return True


_BARE = _bare_instances()


class SpiderState:
    """A Spider position the search can play forward and back quickly.

    ``piles[i]`` bottom to top, its first ``down[i]`` cards face down; ``stock``
    top last (a deal gives ``stock[-1]`` to pile 0); ``done`` the suit of each
    completed run, in order.
    """

    __slots__ = ("done", "down", "info", "piles", "placed", "stock")

    def __init__(
        self, piles: Sequence[Sequence[int]], down: list[int], stock: list[int], done: list[int]
    ) -> None:
        self.piles = [tuple(p) for p in piles]
        """Each pile's cards, bottom to top: tuples, so that a position kept
        for later shares the piles a move did not touch with its parent."""
        self.down = down
        self.stock = stock
        self.done = done
        self.info = [PileInfo(piles[i], down[i], i) for i in range(PILES)]
        self.placed = sum([f.placed for f in self.info])
        """The sum of the piles' hashes at their places (kept up to date by
        :meth:`make`, so that :attr:`key` reads no pile while the stock lasts)."""

    @classmethod
    def from_game(cls, game: Spider) -> SpiderState:
        """The state of a rules game's position (every card known: full knowledge)."""
        piles, down = [], []
        for name in TABLEAU:
            cards = game.pile(name)
            piles.append([code(c) for c, _ in cards])
            down.append(sum(1 for _, up in cards if not up))
        stock = [code(c) for c, _ in game.pile("stock")]
        done = [code(c) >> 4 for c, _ in game.pile("done")[::RUN]]
        return cls(piles, down, stock, done)

    def copy(self) -> SpiderState:
        return SpiderState(self.piles, self.down[:], self.stock[:], self.done[:])

    # -------------------------------------------------------------- reading

    @property
    def key(self) -> int:
        """The position's hash; pile order is forgotten once the stock is empty."""
        if self.stock:
            return (_ZSTOCK[len(self.stock)] + self.placed) & MASK
        return sum([f.mixed for f in self.info]) & MASK

    @property
    def seed(self) -> int:
        """The seed of the restarts' noise (:func:`~termsolitaire.solver.spider.solve`):
        the key as it was before each pile had its own Zobrist keys (each
        pile's hash mixed with its place). Which deals a noisy restart wins is
        chaotic, so a new seed would reshuffle them; with this one the
        restarts try the positions they tried before, in the same order."""
        if self.stock:
            placed = [_mix(f.hash ^ _ZPILE[f.index]) for f in self.info]
            return (_ZSTOCK[len(self.stock)] + sum(placed)) & MASK
        return self.key

    def exact(self) -> bytes:
        """The position itself, not a hash: each pile's face-down count and
        cards, the stock's size; the piles sorted once the stock is empty (then
        their order does not matter). Two positions have the same exact key
        only if they are the same up to that order, so a search that skips
        positions by this key can prove a loss (:func:`~.search.prove`)."""
        piles = [bytes([self.down[i]]) + bytes(self.piles[i]) for i in range(PILES)]
        if not self.stock:
            piles.sort()
        return b"\xff".join(piles) + bytes([len(self.stock)])

    @property
    def won(self) -> bool:
        return len(self.done) == 8

    def snapshot(self) -> tuple[Any, ...]:
        """An immutable copy of the position (see :meth:`restore`)."""
        return (
            tuple(self.piles),
            bytes(self.down),
            len(self.stock),
            bytes(self.done),
            tuple(self.info),
            self.placed,
        )

    def restore(self, snap: tuple[Any, ...], stock: list[int]) -> None:
        """Return to a snapshot of this state's own game (``stock``: the full stock, top last)."""
        piles, down, n, done, info, self.placed = snap
        self.piles = list(piles)
        self.down = list(down)
        self.stock = stock[:n]
        self.done = list(done)
        self.info = list(info)

    def position(self) -> tuple[Any, ...]:
        """Piles (cards, face-down count), stock and done, for comparison with the rules."""
        return (
            tuple((tuple(p), d) for p, d in zip(self.piles, self.down, strict=True)),
            tuple(self.stock),
            tuple(self.done),
        )

    def child_key(self, m: SpiderMove, key: int) -> int | None:
        """The :attr:`key` the position would have after the transfer ``m``
        (legal), without making it, from ``key``, this position's :attr:`key`;
        ``None`` for a turn, a deal, or a transfer that may complete a run
        (make those to know).

        A search makes each move to learn whether it reaches a position seen
        already, and most do (about three moves in five in the opponent's
        planner): reading the moved cards' Zobrist keys alone answers that for
        them, without building the piles and their summaries and taking them
        back. The key is a sum modulo 2**64 of the piles' shares, so the two
        piles' shares change in it as :meth:`make` changes them: the same key.
        """
        src, dst, k = m
        if dst < 0:
            return None
        piles, info = self.piles, self.info
        ps = piles[src]
        fd = info[dst]
        if (ps[-1] & 15) == 1 and fd.run + k >= RUN:
            return None
        n = len(ps) - k
        h = len(piles[dst]) - n
        fs = info[src]
        if self.stock:
            zs, zd = _ZAT[src], _ZAT[dst]
            xs = xd = 0
            for j in range(n, n + k):
                c = ps[j]
                xs ^= zs[(j << 6) | c]
                xd ^= zd[((j + h) << 6) | c]
            return (key - fs.placed - fd.placed + (fs.placed ^ xs) + (fd.placed ^ xd)) & MASK
        xs = xd = 0
        for j in range(n, n + k):
            c = ps[j]
            xs ^= _ZUP[(j << 6) | c]
            xd ^= _ZUP[((j + h) << 6) | c]
        return (key - fs.mixed - fd.mixed + _mix(fs.hash ^ xs) + _mix(fd.hash ^ xd)) & MASK

    # ---------------------------------------------------------------- moves

    def legal(self) -> list[SpiderMove]:
        """Every legal action, exactly as the rules core lists them."""
        piles, down = self.piles, self.down
        tops: dict[int, list[int]] = {}
        bare: list[int] = []
        for i in range(PILES):
            p = piles[i]
            if len(p) == down[i]:
                bare.append(i)
            else:
                tops.setdefault(p[-1] & 15, []).append(i)
        moves: list[SpiderMove] = []
        info = self.info
        for i in range(PILES):
            p = piles[i]
            run = info[i].run
            if not run:
                if down[i]:
                    moves.append((i, TURN, 0))
                continue
            for k in range(1, run + 1):
                r = (p[-k] & 15) + 1
                for d in tops.get(r, ()):
                    moves.append((i, d, k))
                for d in bare:
                    moves.append((i, d, k))
        if self.stock:
            moves.append(DEAL_MOVE)
        return moves

    def make(self, m: SpiderMove) -> Any:
        """Play ``m`` (legal); return what :meth:`unmake` needs to take it back."""
        src, dst, k = m
        piles, info = self.piles, self.info
        if src < 0:
            stock, down = self.stock, self.down
            dealt = stock[-PILES:]
            del stock[-PILES:]
            before = (piles[:], info[:], len(self.done), dealt, self.placed)
            for i in range(PILES):
                piles[i] += (dealt[-1 - i],)
                info[i] = info[i].pushed(piles[i], down[i], 1)
            for i in self._clear(range(PILES)):
                info[i] = PileInfo(piles[i], down[i], i)
            self.placed = sum([f.placed for f in info])
            return before
        if dst == TURN:
            old = info[src]
            self.down[src] -= 1
            info[src] = new = PileInfo(piles[src], self.down[src], src)
            self.placed += new.placed - old.placed
            return old
        ps, pd = piles[src], piles[dst]
        saved = (ps, pd, info[src], info[dst], len(self.done), self.placed)
        moved = ps[-k:]
        piles[src] = ps = ps[:-k]
        piles[dst] = pd = pd + moved
        down = self.down
        info[src] = old = saved[2].popped(ps, down[src], moved)
        info[dst] = new = saved[3].pushed(pd, down[dst], k)
        if new.run >= RUN and pd[-1] & 15 == 1 and self._clear((dst,)):
            info[dst] = new = PileInfo(piles[dst], down[dst], dst)
        self.placed += old.placed + new.placed - saved[2].placed - saved[3].placed
        return saved

    def unmake(self, m: SpiderMove, token: Any) -> None:
        """Take back ``m``, the last move made, with the token :meth:`make` returned."""
        src, dst, _ = m
        if src < 0:
            piles, info, done, dealt, self.placed = token
            self.piles[:], self.info[:] = piles, info
            self.stock.extend(dealt)
            del self.done[done:]
            return
        if dst == TURN:
            self.down[src] += 1
            self.placed += token.placed - self.info[src].placed
            self.info[src] = token
            return
        piles, info = self.piles, self.info
        piles[src], piles[dst], info[src], info[dst], done, self.placed = token
        del self.done[done:]

    def _clear(self, order: Any) -> list[int]:
        """Send complete runs at the top of the piles in ``order`` to done; list their piles."""
        cleared: list[int] = []
        piles, down = self.piles, self.down
        for i in order:
            p = piles[i]
            while len(p) - down[i] >= RUN and (p[-1] & 15) == 1 and p[-RUN] - p[-1] == 12:
                top = p[-1]
                if all(p[-j - 1] - p[-j] == 1 for j in range(1, RUN)):
                    piles[i] = p = p[:-RUN]
                    self.done.append(top >> 4)
                    cleared.append(i)
                else:
                    break
        return cleared
