"""How a board names what the player sees: its piles by their keys, its cards by
their look. The controller words every sentence with these, so a message names
a pile as the board labels it (``7→3``, ``Cell w``), never by the notation
(``t7-t3``, ``c2``) that files and ``solve`` use."""

from __future__ import annotations

import re
from typing import Protocol

from ..rules import Card, Game, Move

ASCII_TEXT = str.maketrans(
    {
        **{"♠": "S", "♥": "H", "♦": "D", "♣": "C", "·": "|", "±": "+-"},
        **{"—": "-", "–": "-", "−": "-", "…": "...", "→": "->", "←": "<-", "✓": "ok"},
        **{"▼": "v", "°": " degrees", "×": "x"},
    }
)
"""The game's sentences on an ASCII terminal: suits as letters, a field's ``·``
as ``|``, dashes and minus as ``-``, a rating's ``±`` as ``+-``, arrows as
``->``, the target mark ``▼`` as ``v`` (as the board draws it), a size's or a
count's ``×`` as ``x`` (the status
line's words, the look's, :meth:`~termsolitaire.widgets.cards.CardLook.words`,
and the rules and help pages)."""


class Words(Protocol):
    """What a board tells the controller about its labels."""

    @property
    def ascii(self) -> bool:
        """Plain ASCII only (``->`` for ``→``)."""

    def pile_key(self, pile: str) -> str:
        """The label the board shows on ``pile`` (its key)."""

    def pile_title(self, pile: str) -> str:
        """``pile`` named for a sentence: its kind and key (``Column 7``, ``Cell w``)."""

    def card(self, card: Card) -> str:
        """A card as the board draws it (``2♥``, ``10♠``; ``2H`` in ASCII)."""

    def pile_order(self, pile: str) -> int:
        """Where ``pile`` comes in the board's reading order (for lists of targets)."""

    def action_key(self, action: str) -> str | None:
        """The key that does ``action`` (a board action's name, ``end``) on this
        board; None when the board has no key for it."""


class PlainWords:
    """The notation's own names: for a board with no labels of its own (tests,
    headless use). ``pile_key`` is the pile's name."""

    ascii = False

    def pile_key(self, pile: str) -> str:
        return pile

    def pile_title(self, pile: str) -> str:
        return pile

    def card(self, card: Card) -> str:
        return str(card)

    def pile_order(self, pile: str) -> int:
        return 0

    def action_key(self, action: str) -> str | None:
        return None


def move_text(words: Words, move: Move) -> str:
    """A move as the player plays it: ``7→3``, ``2→5 (3 cards)``, ``deal``, ``turn 4``."""
    arrow = "->" if words.ascii else "→"
    if move.kind == "turn":
        return f"turn {words.pile_key(move.src)}"
    if move.kind != "move":
        return move.kind
    text = f"{words.pile_key(move.src)}{arrow}{words.pile_key(move.dst)}"
    return text + (f" ({move.count} cards)" if move.count > 1 else "")


CARD_COUNT = re.compile(r" \((\d+) cards\)$")
"""The card count :func:`move_text` writes after a transfer's piles."""


def short_count(text: str) -> str:
    """A move's words with its card count short, for a narrow column.

    >>> short_count("2→5 (3 cards)"), short_count("7→3")
    ('2→5 ×3', '7→3')
    """
    return CARD_COUNT.sub(r" ×\1", text)


def named_move_text(words: Words, game: Game, move: Move) -> str:
    """A move not yet played, the card it moves named first: ``2♥ e→f``,
    ``9♠ 2→5 (3 cards)`` (the card that lands), so it reads in words."""
    text = move_text(words, move)
    if move.kind != "move":
        return text
    cards = game.pile(move.src)
    if len(cards) < move.count or not cards[-move.count][1]:
        return text
    return f"{words.card(cards[-move.count][0])} {text}"


def done_text(words: Words, move: Move, played: str) -> str:
    """What the status line says once ``move`` is played: a deal, a turn and a
    collect in words of their own, a transfer as ``played``."""
    if move.kind == "deal":
        return "Dealt a row"
    if move.kind == "turn":
        return f"Turned pile {words.pile_key(move.src)}"
    if move.kind == "collect":
        return "Collected the piles into a new stock"
    return played
