"""Penguin's solver: a compact state and a depth-first search that can prove loss.

Penguin is Freecell-like once ranks are read relative to the beak: the beak is
the ace, the rank below it the king. Columns are built down in suit, a run of
any length moves as one, an empty column takes only a "king" (the rank below
the beak) with its run, and the seven cells take any single card.

The state: seven columns as ``bytes`` of card codes (0-51, as
:attr:`termsolitaire.rules.Card.code`), bottom to top; seven cells (``EMPTY``
when empty); the number of cards on each foundation. A move is ``(src, dst,
count)``: indices 0-6 for ``t1``-``t7``, 7-13 for ``c1``-``c7`` and 14-17 for
``f1``-``f4``, the order of the rules core's ``pile_names``.

Game knowledge that keeps the search small, and why each piece is sound:

- **Columns are interchangeable, and so are cells.** The rules never ask which
  column or cell a card is in, so a position is the multiset of its columns and
  the multiset of its cells (the key sorts both). A card goes to the first
  empty cell only, a run to the first empty column only.
- **A "king" at the bottom of its column is home.** Moving its whole column to
  an empty column gives the same position again: never tried.
- **A card that may go onto its host does not go into a cell instead.** A top
  card that does not lie on its host, while that host is uncovered on another
  column, is moved there rather than into a cell: whatever a line can do with
  the card in the cell, it can do with the card on its host (the two move
  together; or the card, now lying on its host, steps into a free cell when
  the host itself has to go into one; or it goes home from there).
  (Stronger-looking rules are not sound together: sending cell cards onto their
  hosts at once, say, leaves no way to put the host itself into a cell.)
- **Foundation moves are safe** and are played at once, except the fourth beak
  card's: a card whose foundation has reached the rank just below it can only
  ever host that card, which is already home, so it only takes up a place. (The
  fourth beak card could host the "king" of its suit, a wrap the rules allow:
  its foundation move is searched like any other.)
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator

from termsolitaire.rules import Game, Move
from termsolitaire.rules.penguin import CELLS, COLUMNS, FOUNDATIONS

from ..base import BenchRun, Budget, Result, SolverInfo
from ..search import BestFirst, DepthFirst, Search, answer, restarts

COLS = 7
CELL0 = 7
FND0 = 14
NAMES = COLUMNS + CELLS + FOUNDATIONS
"""Pile index -> the rules core's pile name."""

SUIT = [c // 13 for c in range(52)]
RANK = [c % 13 + 1 for c in range(52)]
UP = [SUIT[c] * 13 + RANK[c] % 13 for c in range(52)]
"""The card a card lies on in a column: same suit, one rank up (K wraps to A)."""
BYTE = [bytes((c,)) for c in range(52)]
SEP = b"\xff"
EMPTY = 255
"""A cell without a card (sorts after every card in the key)."""

PenguinMove = tuple[int, int, int]


def run_length(col: bytes) -> int:
    """Cards in the run at the top of ``col`` (0 when it is empty)."""
    n = len(col)
    if not n:
        return 0
    k = 1
    while k < n and UP[col[n - k]] == col[n - k - 1]:
        k += 1
    return k


class PenguinState:
    """Penguin's position for the search: make/unmake on ``bytes`` columns."""

    __slots__ = ("beak", "cells", "cols", "fill", "found", "jitter", "rel")

    def __init__(self, beak: int, cols: list[bytes], cells: list[int], found: list[int]) -> None:
        self.beak = beak
        self.cols = cols
        self.cells = cells
        self.found = found
        """Cards on each foundation (0-13)."""
        self.fill = (beak - 2) % 13 + 1
        """The rank that may start an empty column: one below the beak."""
        self.rel = [(RANK[c] - beak) % 13 + 1 for c in range(52)]
        self.jitter: random.Random | None = None
        """When set, shuffles :meth:`search_moves` among moves scored alike."""
        """Each card's rank counted from the beak (the beak is 1, ``fill`` is 13)."""

    def copy(self, jitter: int | None = None) -> PenguinState:
        """A copy (with its move order shuffled by the seed ``jitter``)."""
        new = PenguinState(self.beak, list(self.cols), list(self.cells), list(self.found))
        if jitter is not None:
            new.jitter = random.Random(jitter)
        return new

    @classmethod
    def from_game(cls, game: Game) -> PenguinState:
        cols = [bytes(c.code for c, _ in game.pile(n)) for n in NAMES[:COLS]]
        cells = [(p[0][0].code if p else EMPTY) for p in map(game.pile, NAMES[CELL0:FND0])]
        found = [len(game.pile(n)) for n in NAMES[FND0:]]
        beak: int = game.beak  # type: ignore[attr-defined]
        return cls(beak, cols, cells, found)

    def exact(self) -> bytes:
        return SEP.join(self.cols) + SEP + bytes(self.cells)

    def key(self) -> bytes:
        return SEP.join(sorted(self.cols)) + SEP + bytes(sorted(self.cells))

    def won(self) -> bool:
        return self.found == [13, 13, 13, 13]

    def dead(self) -> bool:
        return False

    def rank(self) -> int:
        """Distance from a win, roughly: cards not home (thrice), cards lying on
        the next card of each suit, and cells taken."""
        found, beak = self.found, self.beak
        wanted = {s * 13 + (beak - 1 + found[s]) % 13 for s in range(4) if found[s] < 13}
        buried = 0
        for p in self.cols:
            for i, c in enumerate(p):
                if c in wanted:
                    buried += len(p) - 1 - i
        taken = 7 - self.cells.count(EMPTY)
        return 3 * (52 - sum(found)) + buried + taken

    def snapshot(self) -> tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, ...]]:
        return tuple(self.cols), tuple(self.cells), tuple(self.found)

    def restore(self, snap: tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, ...]]) -> None:
        cols, cells, found = snap
        self.cols, self.cells, self.found = list(cols), list(cells), list(found)

    def progress(self) -> int:
        return sum(self.found)

    def _home(self, c: int) -> bool:
        """Whether ``c`` is the next card for its foundation."""
        return self.found[SUIT[c]] == self.rel[c] - 1

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> list[PenguinMove]:
        """Every legal move, exactly as the rules core lists them (for the tests)."""
        cols, cells, fill = self.cols, self.cells, self.fill
        at = {p[-1]: i for i, p in enumerate(cols) if p}
        empty_cols = [i for i, p in enumerate(cols) if not p]
        empty_cells = [CELL0 + i for i, c in enumerate(cells) if c == EMPTY]
        moves: list[PenguinMove] = []
        for i, p in enumerate(cols):
            if not p:
                continue
            for k in range(1, run_length(p) + 1):
                c = p[-k]
                d = at.get(UP[c])
                if d is not None and d != i:
                    moves.append((i, d, k))
                if RANK[c] == fill:
                    moves.extend((i, e, k) for e in empty_cols)
            top = p[-1]
            if self._home(top):
                moves.append((i, FND0 + SUIT[top], 1))
            moves.extend((i, e, 1) for e in empty_cells)
        for i, c in enumerate(cells):
            if c == EMPTY:
                continue
            if self._home(c):
                moves.append((CELL0 + i, FND0 + SUIT[c], 1))
            d = at.get(UP[c])
            if d is not None:
                moves.append((CELL0 + i, d, 1))
            if RANK[c] == fill:
                moves.extend((CELL0 + i, e, 1) for e in empty_cols)
        return moves

    def search_moves(self) -> list[PenguinMove]:
        """The moves worth trying (see the module's notes), best last."""
        cols, cells, fill, found = self.cols, self.cells, self.fill, self.found
        at = {p[-1]: i for i, p in enumerate(cols) if p}
        empty_col = next((i for i, p in enumerate(cols) if not p), -1)
        free_cell = next((CELL0 + i for i, c in enumerate(cells) if c == EMPTY), -1)
        scored: list[tuple[int, PenguinMove]] = []
        for i, p in enumerate(cols):
            if not p:
                continue
            n = len(p)
            run = run_length(p)
            for k in range(1, run + 1):
                c = p[-k]
                d = at.get(UP[c])
                if d is not None and d != i:
                    scored.append((self._score(p, n - k) + 10, (i, d, k)))
                if RANK[c] == fill and empty_col >= 0 and k < n:
                    scored.append((self._score(p, n - k), (i, empty_col, k)))
            top = p[-1]
            if self._home(top):
                scored.append((1000, (i, FND0 + SUIT[top], 1)))
            if free_cell >= 0 and (run > 1 or UP[top] not in at):
                scored.append((self._score(p, n - 1) - 20, (i, free_cell, 1)))
        for i, c in enumerate(cells):
            if c == EMPTY:
                continue
            if self._home(c):
                scored.append((1000, (CELL0 + i, FND0 + SUIT[c], 1)))
            d = at.get(UP[c])
            if d is not None:
                scored.append((60, (CELL0 + i, d, 1)))
            if RANK[c] == fill and empty_col >= 0:
                scored.append((50, (CELL0 + i, empty_col, 1)))
        del found
        if self.jitter is not None:
            rnd = self.jitter.randrange
            scored = [(score + rnd(30), m) for score, m in scored]
        scored.sort()
        return [m for _, m in scored]

    def _score(self, col: bytes, n: int) -> int:
        """How good it is to lay bare ``col[n - 1]`` (the column keeps ``n`` cards)."""
        if n == 0:
            return 40
        below = col[n - 1]
        if self._home(below):
            return 50
        return 20 - min(self.rel[below] - self.found[SUIT[below]], 13)

    def apply(self, move: PenguinMove) -> None:
        s, d, k = move
        if s < CELL0:
            src = self.cols[s]
            moving = src[-k:]
            self.cols[s] = src[:-k]
        else:
            moving = BYTE[self.cells[s - CELL0]]
            self.cells[s - CELL0] = EMPTY
        if d < CELL0:
            self.cols[d] += moving
        elif d < FND0:
            self.cells[d - CELL0] = moving[0]
        else:
            self.found[d - FND0] += 1

    def revert(self, move: PenguinMove) -> None:
        s, d, k = move
        if d < CELL0:
            dst = self.cols[d]
            moving = dst[-k:]
            self.cols[d] = dst[:-k]
        elif d < FND0:
            moving = BYTE[self.cells[d - CELL0]]
            self.cells[d - CELL0] = EMPTY
        else:
            f = d - FND0
            self.found[f] -= 1
            moving = BYTE[f * 13 + (self.beak - 1 + self.found[f]) % 13]
        if s < CELL0:
            self.cols[s] += moving
        else:
            self.cells[s - CELL0] = moving[0]

    def autoplay(self) -> list[PenguinMove]:
        """Play every safe foundation move (module notes); return them."""
        cols, cells, found, rel = self.cols, self.cells, self.found, self.rel
        done: list[PenguinMove] = []
        again = True
        while again:
            again = False
            for i in range(COLS):
                p = cols[i]
                if p:
                    c = p[-1]
                    r = rel[c]
                    if r > 1 and found[SUIT[c]] == r - 1:
                        cols[i] = p[:-1]
                        found[SUIT[c]] = r
                        done.append((i, FND0 + SUIT[c], 1))
                        again = True
            for i in range(7):
                c = cells[i]
                if c != EMPTY:
                    r = rel[c]
                    if r > 1 and found[SUIT[c]] == r - 1:
                        cells[i] = EMPTY
                        found[SUIT[c]] = r
                        done.append((CELL0 + i, FND0 + SUIT[c], 1))
                        again = True
        return done

    def play(self, move: PenguinMove) -> list[PenguinMove]:
        """Play ``move``, then the safe foundation moves. When nothing went home,
        only the column the move left can show a new card to send home."""
        self.apply(move)
        s, d, _ = move
        if d < FND0:
            if s >= CELL0:
                return [move]
            p = self.cols[s]
            if not p:
                return [move]
            c = p[-1]
            r = self.rel[c]
            if r == 1 or self.found[SUIT[c]] != r - 1:
                return [move]
        return [move, *self.autoplay()]

    def unplay(self, played: list[PenguinMove]) -> None:
        for m in reversed(played):
            self.revert(m)


def to_move(move: PenguinMove) -> Move:
    return Move.transfer(NAMES[move[0]], NAMES[move[1]], move[2])


def finders(
    state: PenguinState, first: list[PenguinMove]
) -> Iterator[Search[PenguinMove, PenguinMove]]:
    """The searches that take turns with the depth-first prover
    (:func:`termsolitaire.solver.search.restarts`): best-first by
    :meth:`PenguinState.rank` (it wins at once most deals where the prover's
    order wanders), then depth-first ones with shuffled move orders, seeded
    from the position."""
    yield BestFirst(state.copy(), first)
    rng = random.Random(zlib.crc32(state.key()))
    while True:
        if rng.random() < 0.5:
            yield BestFirst(state.copy(), first, seed=rng.randrange(1 << 30))
        else:
            yield DepthFirst(state.copy(jitter=rng.randrange(1 << 30)), first)


def solve(game: Game, budget: Budget) -> Result:
    """Search from ``game``'s position: ``won`` with a line, ``lost`` (proved) or ``unknown``."""
    start = budget.clock()
    state = PenguinState.from_game(game)
    first = state.autoplay()
    out = restarts(DepthFirst(state.copy(), first), finders(state, first), budget, share=0.5)
    return answer(out, lambda: PenguinState.from_game(game), to_move, budget, start)


SOLVER = SolverInfo(solve, bench=(BenchRun("penguin", deals="1-1000", seconds=2.0),))
"""Penguin's solver: it decides a deal in milliseconds, so the benchmark takes
deals 1-1000 at 2 s each."""
