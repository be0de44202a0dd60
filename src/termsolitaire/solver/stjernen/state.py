"""Stjernen's compact state for the solver: integer cards, make/unmake, Zobrist hashing.

The rules core (:mod:`termsolitaire.rules.stjernen`) is the judge; this is a
fast copy of it for search. Cards are the rules' codes (``suit * 13 + rank - 1``,
0-51; the two packs' copies of a card share a code). Places are small integers:

- ``0-3`` the inner ring ``i1``-``i4``; ``4-7`` the outer ring ``o1``-``o4``
  (``4 + k`` in front of ``k``); ``8`` the centre; ``9-14`` the upturned piles
  ``u1``-``u6``; ``15-18`` the foundations ``f1``-``f4``.

A move is an int: ``src << 5 | dst`` for a card, or :data:`DEAL` / :data:`COLLECT`.
The hash is exact up to 64-bit Zobrist collisions and canonical where the rules
do not care: a foundation is hashed by its suit and height, not by its corner,
and the stock by the cards it holds, in order. Two parts of it are kept apart as
well, for the evaluation's tables: ``ihash`` (the inner ring) and ``uhash`` (the
round, the stock and the upturned piles); each changes only when a card leaves
its places, a deal or a collect.
"""

from __future__ import annotations

import random
from typing import Final

from termsolitaire.rules import Game, Move

INNER: Final = (0, 1, 2, 3)
OUTER: Final = (4, 5, 6, 7)
CENTRE: Final = 8
UP: Final = (9, 10, 11, 12, 13, 14)
FND: Final = (15, 16, 17, 18)
NPLACES: Final = 19
# The same places as bounds, for the hot loops and tests: ``range(UP_FIRST,
# UP_END)`` is a native loop when compiled (a loop over a ``Final`` tuple is
# not), and a literal ``Final`` int is a C constant there.
INNER_END: Final = 4
"""The inner ring is the places below this: ``p < INNER_END``."""
FRONT: Final = 4
"""``i + FRONT`` is the outer position in front of inner pile ``i``."""
OUTER_FIRST: Final = 4
OUTER_END: Final = 8
UP_FIRST: Final = 9
UP_END: Final = 15
FND_FIRST: Final = 15
DEAL: Final = -1
COLLECT: Final = -2
ROUNDS: Final = 6
FULL: Final = 26
WON: Final = 4 * FULL
"""Cards home in a won game."""

NAMES = (
    *(f"i{k}" for k in range(1, 5)),
    *(f"o{k}" for k in range(1, 5)),
    "c",
    *(f"u{k}" for k in range(1, 7)),
    *(f"f{k}" for k in range(1, 5)),
)
PLACE = {n: p for p, n in enumerate(NAMES)}

Snapshot = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int, int, int]

_rng = random.Random(20240611)


def _table(depth: int) -> list[list[int]]:
    return [[_rng.getrandbits(64) for _ in range(52)] for _ in range(depth)]


_ZF = _table(FULL)
"""One table for the four foundations: a foundation is hashed by its cards only."""
ZOBRIST: Final[list[list[list[int]]]] = [_table(64) for _ in range(15)] + [_ZF] * 4
ZSTOCK: Final = _table(64)
ZROUND: Final = [_rng.getrandbits(64) for _ in range(ROUNDS + 2)]


def rank(card: int) -> int:
    """1 (ace) to 13 (king)."""
    return card % 13 + 1


def needed(count: int, suit: int) -> int:
    """The card a foundation of ``suit`` holding ``count`` cards takes next (-1 when full)."""
    if count >= FULL:
        return -1
    return suit * 13 + 12 - count % 13


NEEDED: Final = tuple(tuple(needed(n, s) for n in range(FULL + 1)) for s in range(4))
"""``NEEDED[suit][count]`` is ``needed(count, suit)``."""


class State:
    """A Stjernen position as lists of card codes, changed in place by :meth:`make`
    and restored exactly by :meth:`unmake`."""

    __slots__ = (
        "fcount",
        "hash",
        "ihash",
        "piles",
        "round",
        "slot_suit",
        "stock",
        "suit_slot",
        "uhash",
    )

    def __init__(self) -> None:
        self.piles: list[list[int]] = [[] for _ in range(NPLACES)]
        self.stock: list[int] = []
        """Face-down cards, the next one dealt last."""
        self.round = 1
        self.slot_suit = [-1] * 4
        """Suit of each foundation (-1: empty)."""
        self.suit_slot = [-1] * 4
        """Foundation place (15-18) of each suit (-1: not started)."""
        self.fcount = [0] * 4
        """Cards on the foundation of each suit."""
        self.hash = 0
        self.ihash = 0
        """The part of :attr:`hash` that stands for the inner ring."""
        self.uhash = 0
        """The part of :attr:`hash` that stands for the round, the stock and the
        upturned piles."""

    @classmethod
    def from_game(cls, game: Game) -> State:
        st = cls()
        for p, name in enumerate(NAMES):
            st.piles[p] = [c.code for c, _ in game.pile(name)]
        st.stock = [c.code for c, _ in game.pile("stock")]
        st.round = int(getattr(game, "round", 1))
        for k, f in enumerate(FND):
            cards = st.piles[f]
            if cards:
                s = cards[0] // 13
                st.slot_suit[k] = s
                st.suit_slot[s] = f
                st.fcount[s] = len(cards)
        st.hash, st.ihash, st.uhash = st.full_hashes()
        return st

    def full_hash(self) -> int:
        return self.full_hashes()[0]

    def full_hashes(self) -> tuple[int, int, int]:
        """:attr:`hash`, :attr:`ihash` and :attr:`uhash` worked out afresh."""
        parts = [0] * NPLACES
        for p, cards in enumerate(self.piles):
            z = ZOBRIST[p]
            h = 0
            for d, c in enumerate(cards):
                h ^= z[d][c]
            parts[p] = h
        u = ZROUND[self.round]
        for d, c in enumerate(self.stock):
            u ^= ZSTOCK[d][c]
        for p in UP:
            u ^= parts[p]
        i = parts[0] ^ parts[1] ^ parts[2] ^ parts[3]
        h = u ^ i
        for p in range(OUTER_FIRST, CENTRE + 1):
            h ^= parts[p]
        for p in FND:
            h ^= parts[p]
        return h, i, u

    def key(self) -> tuple[object, ...]:
        """An exact key of the position (for tests): what the hash stands for."""
        fnd = tuple(sorted(tuple(self.piles[f]) for f in FND))
        rest = tuple(tuple(self.piles[p]) for p in range(FND_FIRST))
        return (self.round, tuple(self.stock), rest, fnd)

    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return sum(self.fcount)

    def snapshot(self) -> Snapshot:
        """The position as immutable values, for :meth:`restore`."""
        return (
            tuple(map(tuple, self.piles)),
            tuple(self.stock),
            self.round,
            self.hash,
            self.ihash,
            self.uhash,
        )

    def restore(self, snap: Snapshot) -> None:
        """Set the position to ``snap``."""
        piles, stock, self.round, self.hash, self.ihash, self.uhash = snap
        self.piles = [list(p) for p in piles]
        self.stock = list(stock)
        self.slot_suit = [-1] * 4
        self.suit_slot = [-1] * 4
        self.fcount = [0] * 4
        for k in range(4):  # the foundations, as a native loop when compiled
            cards = piles[FND_FIRST + k]
            if cards:
                s = cards[0] // 13
                self.slot_suit[k] = s
                self.suit_slot[s] = FND_FIRST + k
                self.fcount[s] = len(cards)

    def copy(self) -> State:
        new = State()
        new.restore(self.snapshot())
        return new

    # ------------------------------------------------------------ moves

    def fnd_target(self, card: int) -> int:
        """The foundation place ``card`` may go to now (the lowest empty one for a
        king of a suit not started), or -1."""
        s = card // 13
        f = self.suit_slot[s]
        if f < 0:
            if card % 13 != 12:
                return -1
            for k in range(4):
                if self.slot_suit[k] < 0:
                    return FND[k]
            return -1
        return f if NEEDED[s][self.fcount[s]] == card else -1

    def legal(self, every_corner: bool = False) -> list[int]:
        """Every legal action, in the rules' sense. With ``every_corner`` a king
        that starts a suit is offered to every empty foundation (as the rules
        list it); otherwise only to the first empty one (they are equivalent)."""
        piles = self.piles
        board: dict[int, list[int]] = {}
        c = piles[CENTRE]
        if not c:
            for a in (0, 13, 26, 39):
                board[a] = [CENTRE]
        elif c[-1] % 13 != 12:
            board[c[-1] + 1] = [CENTRE]
        empty_o: list[int] = []
        for o in OUTER:
            p = piles[o]
            if not p:
                empty_o.append(o)
            elif p[-1] % 13 != 12:
                board.setdefault(p[-1] + 1, []).append(o)
        moves: list[int] = []
        if c:
            self._to_fnd(c[-1], CENTRE, moves, every_corner)
        for i in INNER:
            p = piles[i]
            if p:
                o = i + FRONT
                if not piles[o] or o in board.get(p[-1], ()):
                    moves.append(i << 5 | o)
        for src in (*OUTER, *UP):
            p = piles[src]
            if not p:
                continue
            card = p[-1]
            for d in board.get(card, ()):
                moves.append(src << 5 | d)
            for d in empty_o:
                moves.append(src << 5 | d)
            self._to_fnd(card, src, moves, every_corner)
        if self.stock:
            moves.append(DEAL)
        elif self.round < ROUNDS:
            moves.append(COLLECT)
        return moves

    def _to_fnd(self, card: int, src: int, moves: list[int], every_corner: bool) -> None:
        s = card // 13
        if self.suit_slot[s] >= 0 or not every_corner:
            f = self.fnd_target(card)
            if f >= 0:
                moves.append(src << 5 | f)
        elif card % 13 == 12:
            for k in range(4):
                if self.slot_suit[k] < 0:
                    moves.append(src << 5 | FND[k])

    def make(self, m: int) -> int:
        """Play ``m`` (legal); return what :meth:`unmake` needs."""
        piles = self.piles
        if m >= 0:
            src, dst = m >> 5, m & 31
            sp = piles[src]
            card = sp.pop()
            dp = piles[dst]
            zc = ZOBRIST[src][len(sp)][card]
            # Nothing is ever placed on the inner ring or the upturned piles.
            if src < INNER_END:
                self.ihash ^= zc
            elif src > CENTRE:
                self.uhash ^= zc
            h = self.hash ^ zc
            h ^= ZOBRIST[dst][len(dp)][card]
            dp.append(card)
            self.hash = h
            if dst >= FND_FIRST:
                s = card // 13
                if not self.fcount[s]:
                    self.slot_suit[dst - FND_FIRST] = s
                    self.suit_slot[s] = dst
                self.fcount[s] += 1
            return 0
        if m == DEAL:
            stock = self.stock
            h = self.hash
            n = 0
            for u in range(UP_FIRST, UP_FIRST + 7 - self.round):  # the row: 7 - round piles
                if not stock:
                    break
                card = stock.pop()
                h ^= ZSTOCK[len(stock)][card]
                p = piles[u]
                h ^= ZOBRIST[u][len(p)][card]
                p.append(card)
                n += 1
            self.uhash ^= h ^ self.hash
            self.hash = h
            return n
        # collect
        h = self.hash ^ ZROUND[self.round] ^ ZROUND[self.round + 1]
        gathered: list[int] = []
        lens = 0
        for k in range(UP_END - UP_FIRST):
            u = UP_FIRST + k
            p = piles[u]
            z = ZOBRIST[u]
            for d, card in enumerate(p):
                h ^= z[d][card]
            gathered.extend(p)
            lens |= len(p) << (7 * k)
            p.clear()
        gathered.reverse()
        for d, card in enumerate(gathered):
            h ^= ZSTOCK[d][card]
        self.stock = gathered
        self.round += 1
        self.uhash ^= h ^ self.hash
        self.hash = h
        return lens

    def unmake(self, m: int, info: int) -> None:
        piles = self.piles
        if m >= 0:
            src, dst = m >> 5, m & 31
            dp = piles[dst]
            card = dp.pop()
            sp = piles[src]
            zc = ZOBRIST[src][len(sp)][card]
            if src < INNER_END:
                self.ihash ^= zc
            elif src > CENTRE:
                self.uhash ^= zc
            h = self.hash ^ ZOBRIST[dst][len(dp)][card]
            h ^= zc
            sp.append(card)
            self.hash = h
            if dst >= FND_FIRST:
                s = card // 13
                self.fcount[s] -= 1
                if not self.fcount[s]:
                    self.slot_suit[dst - FND_FIRST] = -1
                    self.suit_slot[s] = -1
            return
        if m == DEAL:
            stock = self.stock
            h = self.hash
            for u in range(UP_FIRST - 1 + info, UP_FIRST - 1, -1):  # the row's piles, backwards
                p = piles[u]
                card = p.pop()
                h ^= ZOBRIST[u][len(p)][card]
                h ^= ZSTOCK[len(stock)][card]
                stock.append(card)
            self.uhash ^= h ^ self.hash
            self.hash = h
            return
        self.round -= 1
        h = self.hash ^ ZROUND[self.round] ^ ZROUND[self.round + 1]
        gathered = self.stock
        for d, card in enumerate(gathered):
            h ^= ZSTOCK[d][card]
        gathered.reverse()
        pos = 0
        for k in range(UP_END - UP_FIRST):
            u = UP_FIRST + k
            n = (info >> (7 * k)) & 127
            p = piles[u]
            p.extend(gathered[pos : pos + n])
            z = ZOBRIST[u]
            for d, card in enumerate(p):
                h ^= z[d][card]
            pos += n
        self.stock = []
        self.uhash ^= h ^ self.hash
        self.hash = h


def to_move(m: int) -> Move:
    """The rules' move for ``m``."""
    if m == DEAL:
        return Move("deal")
    if m == COLLECT:
        return Move("collect")
    return Move.transfer(NAMES[m >> 5], NAMES[m & 31])


def from_move(move: Move) -> int:
    """The solver's move for the rules' ``move``."""
    if move.kind == "deal":
        return DEAL
    if move.kind == "collect":
        return COLLECT
    return PLACE[move.src] << 5 | PLACE[move.dst]
