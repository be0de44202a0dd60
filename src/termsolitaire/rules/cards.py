"""Cards: a small immutable value with a two-character text form.

>>> c = Card.parse("QH")
>>> c, str(c), c.label, c.red
(Card(rank=12, suit='H'), 'QH', 'Q♥', True)
>>> Card.parse("10s") == Card(10, "S")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

SUITS = "SHDC"
"""Suit letters in foundation order: spades, hearts, diamonds, clubs."""
RANKS = "A23456789TJQK"
"""Rank letters; index + 1 is the rank number (ace 1 ... king 13)."""
GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: ``rank`` 1 (ace) to 13 (king), ``suit`` one of ``S H D C``.

    Every card has a small integer ``code`` (0-51) for fast position keys.
    """

    rank: int
    suit: str
    code: int = field(init=False, repr=False, compare=False)
    red: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise ValueError(f"bad rank {self.rank!r}")
        if self.suit not in ("S", "H", "D", "C"):
            raise ValueError(f"bad suit {self.suit!r}")
        object.__setattr__(self, "code", SUITS.index(self.suit) * 13 + self.rank - 1)
        object.__setattr__(self, "red", self.suit in ("H", "D"))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QH``, ``qh`` or ``10h`` (case is ignored here; see :func:`parse_face`)."""
        card = _BY_TEXT.get(text.upper())
        if card is None:
            raise ValueError(f"not a card: {text!r}")
        return card

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def label(self) -> str:
        """The card as a player reads it: ``10♥``, ``A♠``."""
        return rank_text(self.rank) + GLYPHS[self.suit]

    @property
    def rank_name(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank))


def rank_text(rank: int) -> str:
    """A rank as a player reads it on a card: ``A 2 ... 10 J Q K``.

    >>> rank_text(1), rank_text(10), rank_text(12)
    ('A', '10', 'Q')
    """
    return "10" if rank == 10 else RANKS[rank - 1]


def rank_word(rank: int) -> str:
    """A rank as a player says it, with its article.

    >>> rank_word(8), rank_word(10), rank_word(1), rank_word(13)
    ('an 8', 'a 10', 'an ace', 'a king')
    """
    word = RANK_NAMES.get(rank, str(rank))
    return ("an " if word[0] in "8a" else "a ") + word


def glyph(suit: str) -> str:
    """The suit's glyph: ``glyph("H") == "♥"``."""
    return GLYPHS[suit]


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
"""The 52 cards, by ``code``."""

_BY_TEXT: dict[str, Card] = {}
for _c in ALL_CARDS:
    _BY_TEXT[str(_c)] = _c
    if _c.rank == 10:
        _BY_TEXT["10" + _c.suit] = _c


def parse_face(text: str) -> tuple[Card, bool]:
    """Read a card of position text: uppercase is face up, lowercase face down.

    >>> parse_face("qh")
    (Card(rank=12, suit='H'), False)
    >>> parse_face("10S")
    (Card(rank=10, suit='S'), True)
    """
    if text.isupper():
        return Card.parse(text), True
    if text.islower():
        return Card.parse(text), False
    raise ValueError(f"not a card: {text!r}")


def format_face(card: Card, face_up: bool) -> str:
    """The inverse of :func:`parse_face`."""
    text = str(card)
    return text if face_up else text.lower()


def pack(suits: str = SUITS) -> list[Card]:
    """One card of each rank of each suit in ``suits`` (a suit may repeat)."""
    return [ALL_CARDS[SUITS.index(s) * 13 + r - 1] for s in suits for r in range(1, 14)]
