"""Napoleon: sixteen piles in a circle around the four aces.

The rules as players read them: docs/rules.md (also on screen: ``r`` in the
menu). The contract this module follows: the project's RULES.md, section 4.

Piles: ``p1``-``p16`` clockwise from north (``p1`` at 0°, ``p2`` at 22.5°, ...),
``f1``-``f4`` the foundations of ♠ ♥ ♦ ♣, each starting with its ace.

The deal: the four aces go to the foundations; the other 48 cards, in the order
of the project's shuffle (:mod:`termsolitaire.rules.deal`, Napoleon's stream),
are dealt face up in five rounds, each clockwise from north:

1. every 90° (p1 p5 p9 p13), 2. every 45° (p1 p3 ... p15),
3. and 4. every position (p1 ... p16), 5. every 90° again.

So compass piles get 5 cards, diagonals 3, those in between 2.

>>> from termsolitaire.rules import new_game
>>> g = new_game("napoleon", deal=7)
>>> [len(g.pile(p)) for p in ("p1", "p2", "p3")]
[5, 2, 3]
"""

from __future__ import annotations

from typing import Self

from .cards import SUITS, Card, pack, rank_word
from .deal import shuffled
from .game import Game, names
from .info import GameInfo
from .moves import Move
from .registry import register

POSITIONS = names("p", 16)
FOUNDATIONS = names("f", 4)
_SUIT_OF = dict(zip(FOUNDATIONS, SUITS, strict=True))
"""The suit each foundation takes."""
ROUNDS: tuple[tuple[int, ...], ...] = (
    (1, 5, 9, 13),
    (1, 3, 5, 7, 9, 11, 13, 15),
    tuple(range(1, 17)),
    tuple(range(1, 17)),
    (1, 5, 9, 13),
)
"""The positions (1-16) dealt to in each of the five rounds, in order."""


class Napoleon(Game):
    info = GameInfo(
        name="napoleon",
        title="Napoleon",
        blurb="sixteen piles in a circle round the four aces",
        stream=1,
        order=4,
        pile_word="position",
    )
    pile_names = POSITIONS + FOUNDATIONS
    foundations = FOUNDATIONS

    @classmethod
    def _dealt(cls, deal: int, **variant: int) -> Self:
        game = cls(**variant)
        cards = shuffled([c for c in pack() if c.rank != 1], cls.info.stream, deal)
        it = iter(cards)
        for rnd in ROUNDS:
            for p in rnd:
                game._piles[f"p{p}"].append(next(it))
        for f, suit in zip(FOUNDATIONS, SUITS, strict=True):
            game._piles[f].append(Card(1, suit))
        return game

    def _bind(self) -> None:
        self._pos = [(n, self._piles[n]) for n in POSITIONS]
        self._fnd = [(n, self._piles[n]) for n in FOUNDATIONS]

    # ------------------------------------------------------------ rules

    def _legal(self) -> list[Move]:
        # Piles by top card (rank, red) so each source finds its targets at once.
        tops: dict[tuple[int, bool], list[str]] = {}
        empty: list[str] = []
        for n, p in self._pos:
            if p:
                t = p[-1]
                tops.setdefault((t.rank, t.red), []).append(n)
            else:
                empty.append(n)
        next_up = {SUITS[i]: (n, len(p) + 1) for i, (n, p) in enumerate(self._fnd)}
        moves: list[Move] = []
        transfer = Move.transfer
        for n, p in self._pos:
            if not p:
                continue
            c = p[-1]
            f, want = next_up[c.suit]
            if c.rank == want:
                moves.append(transfer(n, f))
            for d in tops.get((c.rank + 1, not c.red), ()):
                moves.append(transfer(n, d))
            if c.rank == 13:
                moves.extend(transfer(n, d) for d in empty)
        return moves

    def _allows(self, m: Move) -> bool:
        """``m in self._legal()``, for the one move (a position's top card to
        its foundation, onto a card of the other colour one rank higher, or a
        king to an empty position)."""
        if m.kind != "move" or m.count != 1 or m.src == m.dst or m.src not in POSITIONS:
            return False
        piles = self._piles
        src, dst = piles[m.src], piles.get(m.dst)
        if not src or dst is None:
            return False
        c = src[-1]
        if m.dst in FOUNDATIONS:
            return _SUIT_OF[m.dst] == c.suit and c.rank == len(dst) + 1
        if dst:
            return dst[-1].rank == c.rank + 1 and dst[-1].red != c.red
        return c.rank == 13

    def _refusal(self, m: Move) -> str | None:
        if m.kind != "move":
            return f"Napoleon has no {m.kind}: every card is on the table"
        src, dst = self._piles[m.src], self._piles[m.dst]
        if m.src in FOUNDATIONS:
            return "Cards on the foundations never move"
        if not src:
            return f"{m.src} is empty"
        if m.count > 1:
            return "Only one card moves at a time"
        card = src[-1]
        if m.dst in FOUNDATIONS:
            suit = SUITS[FOUNDATIONS.index(m.dst)]
            ace = Card(1, suit).label
            if card.suit != suit:
                return f"{card.label} cannot go on the {ace} foundation: same suit only"
            if len(dst) == 13:
                return f"The {ace} foundation is complete"
            return f"Next on the {ace} foundation is the {Card(len(dst) + 1, suit).label}"
        if not dst:
            return "Only a king can go on an empty position"
        top = dst[-1]
        colour = "black" if card.red else "red"
        higher = rank_word(card.rank + 1)
        if top.red == card.red and top.rank != card.rank + 1:  # both causes, both said
            want = f"a {colour} card one rank higher ({higher})"
            return f"{card.label} goes on {want}, not on {top.label}"
        if top.red == card.red:
            return f"{card.label} goes on a {colour} card, not on {top.label}"
        return f"{card.label} goes on a card one rank higher ({higher}), not on {top.label}"

    def _execute(self, m: Move) -> None:
        self._transfer(m)

    # ---------------------------------------------------------- reading

    def figures(self) -> list[tuple[str, str]]:
        """The score as the results and the statistics name it, out of the 52 a win
        puts home (the header said "foundations 4/52", the results "Score 52")."""
        return [("score", f"{self.score}/52"), ("moves", str(self.moves))]

    def starts_with(self, pile: str) -> int | None:
        return 13 if pile in POSITIONS else None

    def _deck(self) -> list[Card]:
        return pack()

    def _check_position(self, lines: dict[str, int]) -> None:
        for f, suit in zip(FOUNDATIONS, SUITS, strict=True):
            cards = self._piles[f]
            expect = [Card(r, suit) for r in range(1, len(cards) + 1)]
            if not cards or cards != expect:
                raise ValueError(
                    f"line {lines[f]}: foundation {f} must hold {Card(1, suit).label} "
                    f"and up in suit from it"
                )


register(Napoleon)
