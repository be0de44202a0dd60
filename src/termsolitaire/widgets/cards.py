"""How cards look: one styled text row at a time, for the line-API piles.

Every row a pile draws is one string of exactly ``width`` cells with one
style, so a changed row costs one colour code and its characters over SSH.
Nothing here knows a rule: a card is a rank, a suit and a face.

>>> look = CardLook(width=5)
>>> from termsolitaire.rules import Card
>>> look.edge(Card(10, "H")), look.edge(Card(1, "S"), bottom=True)
('┌10♥┐', '└─A♠┘')
>>> CardLook(width=5, ascii=True).edge(Card(1, "S"))
'+AS-+'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rich.style import Style

from termsolitaire.play.words import ASCII_TEXT
from termsolitaire.rules import Card

if TYPE_CHECKING:
    from textual.dom import DOMNode

GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}

# ANSI named colours only: the terminal's own palette, short escape codes.
FACE = Style(color="black", bgcolor="bright_white")
RED = Style(color="red", bgcolor="bright_white")
BLUE = Style(color="blue", bgcolor="bright_white")
GREEN = Style(color="green", bgcolor="bright_white")
BACK = Style(color="bright_white", bgcolor="blue")
EMPTY = Style(color="bright_black")
LABEL = Style(color="bright_black")
TARGET_LABEL = Style(color="bright_green", bold=True)
CURSOR_LABEL = Style(reverse=True, bold=True)
SELECTED = Style(reverse=True, bold=True)
CURSOR_MARK = Style(bold=True)  # the ">" on the card under the cursor


def app_look(node: DOMNode) -> CardLook:
    """The look of the app ``node`` belongs to (the default one where it has none)."""
    look = getattr(node.app, "look", None)
    return look if isinstance(look, CardLook) else CardLook()


ASCII_KEYS = {"⏎": "Enter", "←": "Left", "→": "Right", "↑": "Up", "↓": "Down", "⌫": "Bksp"}
"""The keys Textual shows with a glyph, as an ASCII terminal shows them."""


@dataclass(frozen=True, slots=True)
class CardLook:
    """Drawing options: card width, ASCII or Unicode, two or four suit colours, spacing."""

    width: int = 5
    ascii: bool = False
    four_colour: bool = False
    roomy: bool = False  # a big window: face-up cards fan two rows apart

    def with_size(self, width: int, roomy: bool) -> CardLook:
        if (width, roomy) == (self.width, self.roomy):
            return self
        return replace(self, width=width, roomy=roomy)

    # ------------------------------------------------------------ text

    @property
    def sep(self) -> str:
        """The separator of a header's fields (ASCII terminals get a plain one)."""
        return " | " if self.ascii else " · "

    def words(self, text: str) -> str:
        """``text`` as this look writes it: on ASCII terminals as the status line
        does (:data:`~termsolitaire.play.words.ASCII_TEXT`).

        >>> CardLook(ascii=True).words("Penguin · rating 1500 ±350? — deal 5")
        'Penguin | rating 1500 +-350? - deal 5'
        """
        return text.translate(ASCII_TEXT) if self.ascii else text

    def key(self, shown: str) -> str:
        """A key as the key lines show it (Textual's ``⏎``, ``←``), in words on
        ASCII terminals.

        >>> CardLook(ascii=True).key("⏎"), CardLook().key("⏎"), CardLook(ascii=True).key("^p")
        ('Enter', '⏎', '^p')
        """
        return ASCII_KEYS.get(shown, shown) if self.ascii else shown

    def label(self, card: Card) -> str:
        """``10♥`` (Unicode) or ``10H`` (ASCII)."""
        rank = RANK_TEXT.get(card.rank, str(card.rank))
        return rank + (card.suit if self.ascii else GLYPHS[card.suit])

    def _box(self) -> tuple[str, str, str, str, str, str]:
        if self.ascii:
            return "+", "+", "+", "+", "-", "|"
        return "┌", "┐", "└", "┘", "─", "│"

    def edge(self, card: Card, *, bottom: bool = False, mark: bool = False) -> str:
        """The top edge of a card with its label (``┌10♥┐``), or its bottom edge."""
        tl, tr, bl, br, h, _ = self._box()
        inner = self.width - 2
        text = self.label(card)
        if bottom:
            return bl + text.rjust(inner, h)[:inner] + br
        return (">" if mark else tl) + text.ljust(inner, h)[:inner] + tr

    def side(self) -> str:
        """A row of a card's sides, blank between: spacing in a roomy fan."""
        v = self._box()[5]
        return v + " " * (self.width - 2) + v

    def middle(self, card: Card) -> str:
        _, _, _, _, _, v = self._box()
        glyph = card.suit if self.ascii else GLYPHS[card.suit]
        return v + glyph.center(self.width - 2) + v

    def back(self, part: str = "top", text: str = "", *, mark: bool = False) -> str:
        """A face-down card's row: ``top``, ``middle`` or ``bottom``, ``text`` inside."""
        tl, tr, bl, br, _, v = self._box()
        fill = "#" if self.ascii else "▒"
        inner = text.center(self.width - 2, fill)
        if part == "top":
            return (">" if mark else tl) + inner + tr
        if part == "bottom":
            return bl + inner + br
        return v + inner + v

    def empty(self, part: str, text: str = "") -> str:
        """An empty place: a faint outline, ``text`` (e.g. the rank that starts it) inside."""
        tl, tr, bl, br, h, v = self._box()
        inner = self.width - 2
        if part == "top":
            return tl + h * inner + tr
        if part == "bottom":
            return bl + h * inner + br
        return v + text.center(inner) + v

    # ----------------------------------------------------------- styles

    def face_style(self, card: Card) -> Style:
        if self.four_colour:
            return {"S": FACE, "H": RED, "D": BLUE, "C": GREEN}[card.suit]
        return RED if card.red else FACE
