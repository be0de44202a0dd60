"""Penguin, David Parlett's patience.

The rules as players read them: docs/rules.md (also on screen: ``r`` in the
menu). The contract this module follows: the project's RULES.md, section 2.

Piles: ``t1``-``t7`` columns, ``c1``-``c7`` the flipper's one-card cells,
``f1``-``f4`` the foundations of ♠ ♥ ♦ ♣. The game key ``beak`` is the rank that
starts every foundation.

The deal: the 52 cards are shuffled (:mod:`termsolitaire.rules.deal`, Penguin's
stream). The first card of the shuffle is the fourth beak card: its rank is
the beak. The other three cards of that rank go to their foundations; the
fourth beak card is dealt first, followed by the remaining 48 cards in
shuffled order, left to right in seven rows of seven, so it lies at the very
bottom of ``t1``.

Ranks wrap both ways: foundations go up from the beak (J Q K A 2 ... 10) and
columns down in suit (a K may lie on an A of its suit).

>>> from termsolitaire.rules import new_game
>>> g = new_game("penguin", deal=5)
>>> g.beak, g.score, len(g.pile("t1"))
(1, 3, 7)
"""

from __future__ import annotations

from typing import Self

from .cards import RANKS, SUITS, Card, glyph, pack, rank_text
from .deal import shuffled
from .game import Game, names, top_run
from .info import GameInfo
from .moves import Move
from .registry import register

COLUMNS = names("t", 7)
CELLS = names("c", 7)
FOUNDATIONS = names("f", 4)
_SUIT_OF = dict(zip(FOUNDATIONS, SUITS, strict=True))
"""The suit each foundation takes."""


def up(rank: int) -> int:
    """The rank one above ``rank``, wrapping K -> A."""
    return rank % 13 + 1


def follows(lower: Card, upper: Card) -> bool:
    """``upper`` lies on ``lower`` in a Penguin column: same suit, one rank down, wrapping."""
    return lower.suit == upper.suit and lower.rank == up(upper.rank)


class Penguin(Game):
    info = GameInfo(
        name="penguin",
        title="Penguin",
        blurb="seven columns, a flipper of seven cells, the beak rank",
        stream=2,
        order=2,
    )
    pile_names = COLUMNS + CELLS + FOUNDATIONS
    foundations = FOUNDATIONS
    game_keys = ("beak",)

    beak: int

    @classmethod
    def _dealt(cls, deal: int, **variant: int) -> Self:
        game = cls(**variant)
        cards = shuffled(pack(), cls.info.stream, deal)
        fourth = cards[0]
        game.beak = fourth.rank
        rest = [c for c in cards[1:] if c.rank != game.beak]
        for f, suit in zip(FOUNDATIONS, SUITS, strict=True):
            if suit != fourth.suit:
                game._piles[f].append(Card(game.beak, suit))
        for i, card in enumerate([fourth, *rest]):
            game._piles[COLUMNS[i % 7]].append(card)
        return game

    def _bind(self) -> None:
        self._cols = [(n, self._piles[n]) for n in COLUMNS]
        self._cells = [(n, self._piles[n]) for n in CELLS]
        self._fnd = [(n, self._piles[n]) for n in FOUNDATIONS]

    @property
    def fill_rank(self) -> int:
        """The only rank that may start an empty column: one below the beak."""
        return (self.beak - 2) % 13 + 1

    def _next_on(self, fnd: list[Card]) -> int | None:
        """The rank that goes next on a foundation, or None when it is complete."""
        if not fnd:
            return self.beak
        if len(fnd) == 13:
            return None
        return up(fnd[-1].rank)

    # ------------------------------------------------------------ rules

    def _legal(self) -> list[Move]:
        transfer = Move.transfer
        fill = self.fill_rank
        # Where each card could go on the layout: the column whose top is one above it.
        target: dict[tuple[str, int], str] = {}
        empty_cols: list[str] = []
        for n, p in self._cols:
            if p:
                t = p[-1]
                target[(t.suit, (t.rank - 2) % 13 + 1)] = n
            else:
                empty_cols.append(n)
        empty_cells = [n for n, p in self._cells if not p]
        found: dict[str, tuple[str, int | None]] = {}
        for i, (n, p) in enumerate(self._fnd):
            found[SUITS[i]] = (n, self._next_on(p))

        moves: list[Move] = []
        for n, p in self._cols:
            if not p:
                continue
            run = top_run(p, 0, follows)
            for k in range(1, run + 1):
                c = p[-k]
                d = target.get((c.suit, c.rank))
                if d is not None and d != n:
                    moves.append(transfer(n, d, k))
                if c.rank == fill:
                    moves.extend(transfer(n, e, k) for e in empty_cols)
            top = p[-1]
            f, want = found[top.suit]
            if want == top.rank:
                moves.append(transfer(n, f))
            moves.extend(transfer(n, e) for e in empty_cells)
        for n, p in self._cells:
            if not p:
                continue
            c = p[0]
            f, want = found[c.suit]
            if want == c.rank:
                moves.append(transfer(n, f))
            d = target.get((c.suit, c.rank))
            if d is not None:
                moves.append(transfer(n, d))
            if c.rank == fill:
                moves.extend(transfer(n, e) for e in empty_cols)
        return moves

    def _allows(self, m: Move) -> bool:
        """``m in self._legal()``, for the one move (a column's top run onto the
        column one above its bottom card, an empty column, a cell or its
        foundation; a cell's card likewise, but never to a cell)."""
        if m.kind != "move" or m.src == m.dst:
            return False
        piles = self._piles
        src, dst, k = piles.get(m.src), piles.get(m.dst), m.count
        if not src or dst is None:
            return False
        if m.src in CELLS:
            if k != 1 or m.dst in CELLS:
                return False
            c = src[0]
        elif m.src in COLUMNS:
            if not 1 <= k <= len(src):
                return False
            for j in range(1, k):
                if not follows(src[-j - 1], src[-j]):
                    return False
            c = src[-k]
            if m.dst in CELLS:
                return k == 1 and not dst
        else:
            return False
        if m.dst in FOUNDATIONS:
            return k == 1 and _SUIT_OF[m.dst] == c.suit and self._next_on(dst) == c.rank
        if dst:
            return follows(dst[-1], c)
        return c.rank == self.fill_rank

    def _refusal(self, m: Move) -> str | None:
        if m.kind != "move":
            return f"Penguin has no {m.kind}: every card is on the table"
        src, dst = self._piles[m.src], self._piles[m.dst]
        if m.src in FOUNDATIONS:
            return "Cards on the foundations never move"
        if not src:
            return f"{m.src} is empty"
        if m.count > len(src):
            return f"{m.src} has only {len(src)} card{'s' if len(src) > 1 else ''}"
        if m.count > top_run(src, 0, follows):
            return "Only a suit sequence moves together (same suit, each one rank lower)"
        card = src[-m.count]
        if m.dst in CELLS:
            if m.src in CELLS:
                return "A card in a cell cannot move to another cell"
            if m.count > 1:
                return "A cell holds one card"
            return f"Cell {m.dst} is taken"
        if m.dst in FOUNDATIONS:
            if m.count > 1:
                return "One card at a time goes to a foundation"
            suit = SUITS[FOUNDATIONS.index(m.dst)]
            g = glyph(suit)
            if card.suit != suit:
                return f"{card.label} cannot go on the {g} foundation: same suit only"
            want = self._next_on(dst)
            if want is None:
                return f"The {g} foundation is complete"
            if not dst:
                return f"The {g} foundation starts with the beak rank, {rank_text(want)}"
            return f"Next on the {g} foundation is the {Card(want, suit).label}"
        if not dst:
            return (
                f"An empty column takes only a {rank_text(self.fill_rank)} "
                f"(one below the beak {rank_text(self.beak)}) and its sequence"
            )
        above = Card(up(card.rank), card.suit).label
        if m.src in CELLS or m.count == 1:
            return f"{card.label} goes only on the {above}"
        return f"{card.label} (and the cards on it) goes only on the {above}, not {dst[-1].label}"

    def _execute(self, m: Move) -> None:
        self._transfer(m)

    # ---------------------------------------------------------- reading

    def _in_sequence(self, lower: Card, upper: Card) -> bool:
        return follows(lower, upper)

    def starts_with(self, pile: str) -> int | None:
        if pile in COLUMNS:
            return self.fill_rank
        return self.beak if pile in FOUNDATIONS else None

    def _key_values(self) -> list[tuple[str, str]]:
        return [("beak", RANKS[self.beak - 1])]

    def _read_keys(self, values: dict[str, tuple[int, str]]) -> None:
        n, text = values["beak"]
        if text.upper() not in RANKS and text != "10":
            raise ValueError(f"line {n}: beak must be a rank (A 2 ... 9 T J Q K), not {text!r}")
        self.beak = 10 if text == "10" else RANKS.index(text.upper()) + 1

    def _deck(self) -> list[Card]:
        return pack()

    def _check_position(self, lines: dict[str, int]) -> None:
        for n, p in self._cells:
            if len(p) > 1:
                raise ValueError(
                    f"line {lines[n]}: cell {n} holds {len(p)} cards; a cell holds one"
                )
        for i, (n, p) in enumerate(self._fnd):
            suit = SUITS[i]
            rank = self.beak
            for card in p:
                if card != Card(rank, suit):
                    raise ValueError(
                        f"line {lines[n]}: foundation {n} must go up in "
                        f"{glyph(suit)} from the beak {rank_text(self.beak)}, "
                        f"found {card}"
                    )
                rank = up(rank)


register(Penguin)
