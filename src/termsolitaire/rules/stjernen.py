"""Stjernen, "the Star": a Norwegian two-deck patience.

The rules as players read them: docs/rules.md (also on screen: ``r`` in the
menu). The contract this module follows: the project's RULES.md, section 1.

Piles (API.md): ``c`` the centre; ``i1``-``i4`` the inner ring (north, east,
south, west); ``o1``-``o4`` the outer ring, ``oN`` in front of ``iN``;
``f1``-``f4`` the foundations (any of them takes the first king of a suit);
``u1``-``u6`` the upturned piles; ``stock``. The game key ``round`` (1-6) sets
the row width, ``7 - round``.

The deal: two packs (♠ ♥ ♦ ♣, each A to K, then the same again) are shuffled
(:mod:`termsolitaire.rules.deal`, Stjernen's stream). Counting the shuffled
cards from 0:

- cards 0-39 go face up to the inner ring in ten rounds of four, north to west:
  card ``k`` goes on ``i(k mod 4 + 1)``, so card 0 lies at the bottom of ``i1``
  and card 39 on top of ``i4``;
- cards 40-43 go face up to ``o1``, ``o2``, ``o3``, ``o4``;
- cards 44-103 form the stock, face down, in dealing order: card 44 is the top
  of the stock (the first card the first ``deal`` turns up, onto ``u1``) and
  card 103 its bottom.

``deal`` turns the top stock card onto ``u1``, the next onto ``u2``, ... up to
the round's width (fewer when the stock runs out). ``collect`` (only with the
stock empty, in rounds 1-5) turns the upturned piles over into a new stock whose
cards, bottom to top, are the reverse of ``u1`` + ``u2`` + ... + ``u6`` read
bottom to top, and starts the next round.

>>> from termsolitaire.rules import new_game
>>> g = new_game("stjernen", deal=1)
>>> g.round, g.row_width, len(g.pile("i1")), len(g.pile("stock"))
(1, 6, 10, 60)
>>> g.play("deal")
Move(kind='deal', src='', dst='', count=1)
>>> [len(g.pile(u)) for u in ("u1", "u2", "u3", "u4", "u5", "u6")], len(g.pile("stock"))
([1, 1, 1, 1, 1, 1], 54)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from .cards import Card, glyph, pack
from .deal import shuffled
from .game import DownRule, Game, names
from .info import GameInfo
from .moves import COLLECT, DEAL, Move
from .registry import register

CENTRE = "c"
INNER = names("i", 4)
OUTER = names("o", 4)
FOUNDATIONS = names("f", 4)
UPTURNED = names("u", 6)
STOCK = "stock"
ROUNDS = 6
"""Rounds of the stock; round ``n`` deals rows of ``7 - n`` cards."""
FULL = 26
"""Cards on a finished foundation: K down to A of one suit, twice."""

_ACES = tuple(s * 13 for s in range(4))
"""Codes of the four aces (a card's code is ``suit index * 13 + rank - 1``)."""
_KINGS = tuple(s * 13 + 12 for s in range(4))
_OWN = dict(zip(INNER, OUTER, strict=True))
"""Each inner-ring pile's outer position, the one place its cards go."""


def _builds(top: Card, code: int) -> bool:
    """Whether the card of ``code`` goes on ``top`` on the board (the centre or
    the outer ring): its suit, one rank higher."""
    return top.rank < 13 and top.code + 1 == code


class Stjernen(Game):
    """A game of Stjernen.

    >>> from termsolitaire.rules import new_game
    >>> g = new_game("stjernen", deal=2)
    >>> g.score, g.is_won, g.pile("o1")
    (0, False, ((Card(rank=12, suit='D'), True),))
    """

    info = GameInfo(
        name="stjernen",
        title="Stjernen",
        blurb="the star: rings of piles round a centre, six rounds of stock",
        stream=4,
        order=1,
    )
    pile_names = (CENTRE, *INNER, *OUTER, *FOUNDATIONS, *UPTURNED, STOCK)
    foundations = FOUNDATIONS
    stock_pile = STOCK
    game_keys = ("round",)
    rounds = ROUNDS

    round: int
    """The round of the stock, 1 to 6."""

    def __init__(self, **variant: int) -> None:
        self.round = 1
        super().__init__(**variant)

    @classmethod
    def _dealt(cls, deal: int, **variant: int) -> Self:
        game = cls(**variant)
        cards = shuffled(pack() + pack(), cls.info.stream, deal)
        for k in range(40):
            game._piles[INNER[k % 4]].append(cards[k])
        for k in range(4):
            game._piles[OUTER[k]].append(cards[40 + k])
        game._piles[STOCK][:] = reversed(cards[44:])
        game._down[STOCK] = len(game._piles[STOCK])
        return game

    def _bind(self) -> None:
        p = self._piles
        self._c = p[CENTRE]
        self._stock = p[STOCK]
        self._inner = [(n, p[n], o) for n, o in zip(INNER, OUTER, strict=True)]
        self._outer = [(n, p[n]) for n in OUTER]
        self._fnd = [(n, p[n]) for n in FOUNDATIONS]
        self._up = [(n, p[n]) for n in UPTURNED]

    @property
    def row_width(self) -> int:
        """How many cards a ``deal`` turns up in this round: 6, 5, ... 1.

        >>> from termsolitaire.rules import new_game
        >>> new_game("stjernen", deal=1).row_width
        6
        """
        return 7 - self.round

    @property
    def can_collect(self) -> bool:
        """Whether ``collect`` is legal now: the stock is empty and a round remains."""
        return not self._stock and self.round < ROUNDS

    def foundation_suit(self, pile: str) -> str | None:
        """The suit a foundation holds: the suit of its first king (None while empty)."""
        cards = self._piles[pile] if pile in FOUNDATIONS else None
        return cards[0].suit if cards else None

    def foundation_pass(self, pile: str) -> int:
        """Where a foundation stands: 0 empty, 1 on its first run K to A, 2 on the
        second, 3 complete (all 26 cards of its suit)."""
        n = len(self._piles[pile])
        return 0 if not n else 3 if n == FULL else 1 if n <= 13 else 2

    def click_action(self, pile: str) -> Move | None:
        """The stock deals a row; once it is empty it collects (while a round remains)."""
        if pile != STOCK:
            return None
        return COLLECT if self.can_collect else DEAL

    def starts_with(self, pile: str) -> int | None:
        if pile == CENTRE:
            return 1
        return 13 if pile in FOUNDATIONS else None

    def figures(self) -> list[tuple[str, str]]:
        return [*super().figures(), ("round", f"{self.round}/{ROUNDS}")]

    # ------------------------------------------------------------ rules

    def _legal(self) -> list[Move]:
        transfer = Move.transfer
        # What each destination takes, by card code: the foundations, and the
        # centre and non-empty outer positions (the "board").
        fnd: dict[int, list[str]] = {}
        empty_f: list[str] = []
        held: set[int] = set()
        for n, p in self._fnd:
            k = len(p)
            if not k:
                empty_f.append(n)
                continue
            top = p[-1].code
            held.add(top // 13)
            if k == 13:
                fnd[top + 12] = [n]
            elif k < FULL:
                fnd[top - 1] = [n]
        if empty_f:
            for s in range(4):
                if s not in held:
                    fnd[_KINGS[s]] = empty_f
        board: dict[int, list[str]] = {}
        c = self._c
        if not c:
            for a in _ACES:
                board[a] = [CENTRE]
        elif c[-1].rank < 13:
            board[c[-1].code + 1] = [CENTRE]
        empty_o: list[str] = []
        for n, p in self._outer:
            if not p:
                empty_o.append(n)
            elif p[-1].rank < 13:
                board.setdefault(p[-1].code + 1, []).append(n)

        moves: list[Move] = []
        if c:
            for d in fnd.get(c[-1].code, ()):
                moves.append(transfer(CENTRE, d))
        for n, p, o in self._inner:
            if p and (o in empty_o or o in board.get(p[-1].code, ())):
                moves.append(transfer(n, o))
        for group in (self._outer, self._up):
            for n, p in group:
                if not p:
                    continue
                code = p[-1].code
                for d in board.get(code, ()):
                    moves.append(transfer(n, d))
                for d in empty_o:
                    moves.append(transfer(n, d))
                for d in fnd.get(code, ()):
                    moves.append(transfer(n, d))
        if self._stock:
            moves.append(DEAL)
        elif self.round < ROUNDS:
            moves.append(COLLECT)
        return moves

    def _allows(self, m: Move) -> bool:
        """``m in self._legal()``, for the one move: one card at a time, the
        centre's only home, an inner card only to its own outer position, the
        outer and upturned cards onto the centre, the outer ring or home."""
        if m == DEAL:
            return bool(self._stock)
        if m == COLLECT:
            return self.can_collect
        if m.kind != "move" or m.count != 1 or m.src == m.dst:
            return False
        piles = self._piles
        src, dst = piles.get(m.src), piles.get(m.dst)
        if not src or dst is None or m.src in FOUNDATIONS or m.src == STOCK:
            return False
        code = src[-1].code
        if m.dst in FOUNDATIONS:
            return m.src not in INNER and self._takes(dst, code)
        if m.src in INNER:
            return m.dst == _OWN[m.src] and (not dst or _builds(dst[-1], code))
        if m.dst == CENTRE:
            return m.src != CENTRE and (_builds(dst[-1], code) if dst else code in _ACES)
        return m.dst in OUTER and m.src != CENTRE and (not dst or _builds(dst[-1], code))

    def _takes(self, pile: list[Card], code: int) -> bool:
        """Whether the foundation ``pile`` takes the card of ``code`` now."""
        k = len(pile)
        if not k:
            suit = code // 13
            return code in _KINGS and all(not p or p[-1].code // 13 != suit for _, p in self._fnd)
        top = pile[-1].code
        if k == 13:
            return code == top + 12
        return k < FULL and code == top - 1

    def _refusal(self, m: Move) -> str | None:
        if m.kind == "deal":
            if self.round < ROUNDS:
                return "The stock is empty: collect the upturned piles first"
            return "The stock is empty and no round remains"
        if m.kind == "collect":
            if self._stock:
                return "Collect only when the stock is empty"
            return "No collect after the sixth round"
        if m.kind != "move":
            return f"Stjernen has no {m.kind}: every card is face up or in the stock"
        src, dst = self._piles[m.src], self._piles[m.dst]
        if m.src in FOUNDATIONS:
            return "Cards on the foundations never move"
        if m.src == STOCK:
            return "Cards leave the stock only by a deal"
        if m.dst == STOCK:
            return "Nothing is placed on the stock"
        if m.dst in INNER:
            return "Nothing is ever placed on the inner ring"
        if m.dst in UPTURNED:
            return "Nothing is ever placed on an upturned pile"
        if not src:
            return f"{m.src} is empty"
        if m.count > 1:
            return "One card at a time"
        if m.src == CENTRE and m.dst not in FOUNDATIONS:
            return "The centre pile's cards go only to the foundations"
        if m.src in INNER:
            own = OUTER[INNER.index(m.src)]
            if m.dst != own:
                return f"An inner-ring card goes only to its own outer position ({own})"
        card = src[-1]
        if m.dst in FOUNDATIONS:
            return self._foundation_refusal(card, dst)
        top = dst[-1] if dst else None
        if m.dst == CENTRE and top is None:
            return "Only an ace can start the centre pile"
        if top is None:  # an empty outer position takes any card: not refused above
            return None
        if top.suit != card.suit:
            return f"{card.label} cannot go on {top.label}: suit must be followed"
        if top.rank == 13:
            where = "The centre pile" if m.dst == CENTRE else m.dst
            return f"{where} is complete up to the king"
        where = "the centre pile" if m.dst == CENTRE else m.dst
        return f"Next on {where} is the {Card(top.rank + 1, top.suit).label}"

    def _foundation_refusal(self, card: Card, pile: list[Card]) -> str:
        if not pile:
            if card.rank != 13:
                return "A king starts a foundation"
            return f"Another foundation already holds {glyph(card.suit)}"
        suit = pile[0].suit
        if card.suit != suit:
            return f"{card.label} cannot go on the {glyph(suit)} foundation: same suit only"
        # A full foundation holds all 26 cards of its suit, so it never gets here.
        want = 13 if len(pile) == 13 else pile[-1].rank - 1
        return f"Next on the {glyph(suit)} foundation is the {Card(want, suit).label}"

    def _execute(self, m: Move) -> None:
        if m.kind == "move":
            self._transfer(m)
        elif m.kind == "deal":
            stock = self._stock
            for _, p in self._up[: self.row_width]:
                if not stock:
                    break
                p.append(stock.pop())
            self._down[STOCK] = len(stock)
        else:  # collect
            gathered: list[Card] = []
            for _, p in self._up:
                gathered.extend(p)
                p.clear()
            gathered.reverse()
            self._stock[:] = gathered
            self._down[STOCK] = len(gathered)
            self.round += 1

    def _touched(self, m: Move) -> Sequence[str]:
        if m.kind == "move":
            return (m.src, m.dst)
        if m.kind == "deal":
            return (STOCK, *UPTURNED[: self.row_width])
        return (STOCK, *UPTURNED)

    def _state(self) -> tuple[Any, ...]:
        return (self.round,)

    def _set_state(self, state: tuple[Any, ...]) -> None:
        (self.round,) = state

    def _key_extra(self) -> tuple[Any, ...]:
        return (self.round,)

    # ------------------------------------------------------------- text

    def _key_values(self) -> list[tuple[str, str]]:
        return [("round", str(self.round))]

    def _read_keys(self, values: dict[str, tuple[int, str]]) -> None:
        n, text = values["round"]
        if text not in ("1", "2", "3", "4", "5", "6"):
            raise ValueError(f"line {n}: round must be 1 to 6, not {text!r}")
        self.round = int(text)

    def _deck(self) -> list[Card]:
        return pack() + pack()

    def _down_rule(self, pile: str) -> DownRule:
        return "all" if pile == STOCK else "none"

    def _check_position(self, lines: dict[str, int]) -> None:
        """The shapes Stjernen allows (what can be checked from the position alone).

        Foundations: K down to A of one suit, then the second K and down, one
        foundation per suit. Centre: A up in one suit. Outer ring: one suit, up
        by one. Inner ring: at most ten cards (nothing is ever placed there).
        Upturned piles: those beyond the round's width are empty, and they hold
        with the stock at most the 60 cards the stock began with. (The stock
        lies face down: the card reader checks that.)
        """
        suits: dict[str, str] = {}
        for n, p in self._fnd:
            if not p:
                continue
            suit = p[0].suit
            for i, card in enumerate(p):
                if card.suit != suit or card.rank != 13 - i % 13:
                    raise ValueError(
                        f"line {lines[n]}: foundation {n} must go from a king down to the ace "
                        f"in one suit, then the second king and down; found {card} "
                        f"as card {i + 1}"
                    )
            if suit in suits:
                raise ValueError(
                    f"line {lines[n]}: {suits[suit]} already holds {glyph(suit)}; "
                    "each suit has one foundation"
                )
            suits[suit] = n
        self._check_up_by_one(CENTRE, lines, "the centre pile", ace=True)
        for n in OUTER:
            self._check_up_by_one(n, lines, f"outer position {n}", ace=False)
        for n, p, _ in self._inner:
            if len(p) > 10:
                raise ValueError(
                    f"line {lines[n]}: inner-ring pile {n} holds {len(p)} cards; "
                    "it starts with ten and nothing is placed on it"
                )
        width = self.row_width
        for n, p in self._up[width:]:
            if p:
                raise ValueError(
                    f"line {lines[n]}: {n} must be empty in round {self.round} (rows of {width})"
                )
        held = len(self._stock) + sum(len(p) for _, p in self._up)
        if held > 60:
            raise ValueError(
                f"line {lines[STOCK]}: the stock and upturned piles hold {held} cards; "
                "the stock starts with 60 and only they feed each other"
            )

    def _check_up_by_one(self, name: str, lines: dict[str, int], what: str, ace: bool) -> None:
        p = self._piles[name]
        if not p:
            return
        first = p[0]
        if ace and first.rank != 1:
            raise ValueError(f"line {lines[name]}: {what} must start with an ace, not {first}")
        for i, card in enumerate(p):
            if card.suit != first.suit or card.rank != first.rank + i:
                raise ValueError(
                    f"line {lines[name]}: {what} must go up by one in one suit; "
                    f"found {card} as card {i + 1}"
                )


register(Stjernen)
