"""Napoleon's solver: a compact state and a depth-first search that can prove loss.

The state: sixteen piles as ``bytes`` of card codes (0-51, as
:attr:`termsolitaire.rules.Card.code`: suit index × 13 + rank − 1), bottom to
top, and the top rank of each foundation. A move is ``(src, dst)``, pile
indices 0-15 for ``p1``-``p16`` and 16-19 for ``f1``-``f4``, the order of the
rules core's ``pile_names``.

Game knowledge that keeps the search small, and why each piece is sound:

- **The piles are interchangeable.** They sit in a circle but the rules never
  look at where: a position is the multiset of its piles (the key sorts them),
  and a king goes to one empty pile only (any other gives the same position).
- **A king at the bottom of its pile is home.** Moving it to an empty pile
  gives the same position again: never tried.
- **Safe foundation moves** are played at once: a card whose two possible
  guests (the cards one rank lower of the other colour) are already on their
  foundations can never hold anything again, so sending it home only frees a
  place; any winning line from before still wins (skip that card's moves).
"""

from __future__ import annotations

import time

from termsolitaire.rules import Game, Move
from termsolitaire.rules.napoleon import FOUNDATIONS, POSITIONS

from .base import Budget, Result
from .search import depth_first

PILES = 16
NAMES = POSITIONS + FOUNDATIONS
"""Pile index -> the rules core's pile name."""

RANK = [c % 13 + 1 for c in range(52)]
SUIT = [c // 13 for c in range(52)]
RED = [SUIT[c] in (1, 2) for c in range(52)]
BYTE = [bytes((c,)) for c in range(52)]
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))
"""For each suit index (S H D C), the two suits of the other colour."""
HOSTS = [
    tuple(s * 13 + RANK[c] for s in OTHER_COLOUR[SUIT[c]]) if RANK[c] < 13 else ()
    for c in range(52)
]
"""The cards a card may be put on: one rank higher, the other colour."""
SEP = b"\xff"


def settled(pile: bytes, i: int) -> bool:
    """Whether the card at ``pile[i]`` lies where it belongs: on a card it may be
    built on, or a king at the bottom. Such a card never needs to move again
    except to its foundation (or sideways onto its other possible host)."""
    c = pile[i]
    if i == 0:
        return RANK[c] == 13
    return c in _GUESTS_OF[pile[i - 1]]


_GUESTS_OF = [frozenset(g for g in range(52) if h in HOSTS[g]) for h in range(52)]


class NapoleonState:
    """Napoleon's position for the search: make/unmake on ``bytes`` piles."""

    __slots__ = ("found", "piles")

    def __init__(self, piles: list[bytes], found: list[int]) -> None:
        self.piles = piles
        self.found = found
        """Top rank on each foundation (1: the ace alone)."""

    @classmethod
    def from_game(cls, game: Game) -> NapoleonState:
        piles = [bytes(c.code for c, _ in game.pile(n)) for n in NAMES[:PILES]]
        found = [len(game.pile(n)) for n in NAMES[PILES:]]
        return cls(piles, found)

    def key(self) -> bytes:
        return SEP.join(sorted(self.piles))

    def won(self) -> bool:
        return self.found == [13, 13, 13, 13]

    def progress(self) -> int:
        return sum(self.found)

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> list[tuple[int, int]]:
        """Every legal move, exactly as the rules core lists them (for the tests)."""
        piles, found = self.piles, self.found
        at: dict[int, int] = {}
        empty = []
        for i, p in enumerate(piles):
            if p:
                at[p[-1]] = i
            else:
                empty.append(i)
        moves = []
        for i, p in enumerate(piles):
            if not p:
                continue
            c = p[-1]
            if found[SUIT[c]] == RANK[c] - 1:
                moves.append((i, PILES + SUIT[c]))
            for h in HOSTS[c]:
                j = at.get(h)
                if j is not None:
                    moves.append((i, j))
            if RANK[c] == 13:
                moves.extend((i, j) for j in empty)
        return moves

    def search_moves(self) -> list[tuple[int, int]]:
        """The moves worth trying (see the module's notes), best last."""
        piles, found = self.piles, self.found
        at: dict[int, int] = {}
        empty = -1
        for i, p in enumerate(piles):
            if p:
                at[p[-1]] = i
            elif empty < 0:
                empty = i
        scored: list[tuple[int, tuple[int, int]]] = []
        for i, p in enumerate(piles):
            if not p:
                continue
            c = p[-1]
            n = len(p)
            home = settled(p, n - 1)
            if found[SUIT[c]] == RANK[c] - 1:
                scored.append((100, (i, PILES + SUIT[c])))
            for h in HOSTS[c]:
                j = at.get(h)
                if j is not None:
                    scored.append(((10 if home else 50) + self._exposes(p, n), (i, j)))
            if RANK[c] == 13 and n > 1 and empty >= 0:
                scored.append((40 + self._exposes(p, n), (i, empty)))
        scored.sort()
        return [m for _, m in scored]

    def _exposes(self, p: bytes, n: int) -> int:
        """A bonus for what taking the top card of ``p`` (``n`` cards) lays bare."""
        if n == 1:
            return 20
        below = p[n - 2]
        if self.found[SUIT[below]] == RANK[below] - 1:
            return 30
        return 0 if settled(p, n - 2) else 5

    def apply(self, move: tuple[int, int]) -> None:
        s, d = move
        piles = self.piles
        src = piles[s]
        c = src[-1]
        piles[s] = src[:-1]
        if d >= PILES:
            self.found[d - PILES] += 1
        else:
            piles[d] += BYTE[c]

    def revert(self, move: tuple[int, int]) -> None:
        s, d = move
        piles = self.piles
        if d >= PILES:
            f = d - PILES
            c = f * 13 + self.found[f] - 1
            self.found[f] -= 1
        else:
            dst = piles[d]
            c = dst[-1]
            piles[d] = dst[:-1]
        piles[s] += BYTE[c]

    def autoplay(self) -> list[tuple[int, int]]:
        """Play every safe foundation move (module notes); return them."""
        piles, found = self.piles, self.found
        done = []
        again = True
        while again:
            again = False
            for i in range(PILES):
                p = piles[i]
                if not p:
                    continue
                c = p[-1]
                s = SUIT[c]
                r = RANK[c]
                if found[s] == r - 1:
                    o1, o2 = OTHER_COLOUR[s]
                    if r <= 2 or (found[o1] >= r - 1 and found[o2] >= r - 1):
                        piles[i] = p[:-1]
                        found[s] = r
                        done.append((i, PILES + s))
                        again = True
        return done

    def play(self, move: tuple[int, int]) -> list[tuple[int, int]]:
        self.apply(move)
        return [move, *self.autoplay()]

    def unplay(self, played: list[tuple[int, int]]) -> None:
        for m in reversed(played):
            self.revert(m)


def to_move(move: tuple[int, int]) -> Move:
    return Move.transfer(NAMES[move[0]], NAMES[move[1]])


def solve(game: Game, budget: Budget) -> Result:
    """Search from ``game``'s position: ``won`` with a line, ``lost`` (proved) or ``unknown``."""
    start = time.monotonic()
    state = NapoleonState.from_game(game)
    first = state.autoplay()
    out = depth_first(state, start + budget.seconds, budget.memory_mb, first)
    moves = out.line if out.verdict == "won" else out.best_line
    return Result(
        verdict=out.verdict,
        moves=tuple(to_move(m) for m in moves),
        seconds=time.monotonic() - start,
        positions=out.positions,
        best=out.best,
    )
