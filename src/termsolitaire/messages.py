"""Every message the widgets post up to the screens: small dataclasses, one module.

The piles know no rules: they say where the player clicked or dropped, and the
board screen turns that into a :class:`~termsolitaire.rules.Move`.
``count`` is how many cards from the top of the pile the pointer covers
(0: the pile itself, e.g. an empty place or its label).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class PileClicked(Message):
    """A click on a pile; ``chain`` is 2 for a double click."""

    pile: str
    count: int
    chain: int = 1


@dataclass
class DragMoved(Message):
    """Cards of ``pile`` are being dragged; the pointer is at screen ``x``, ``y``."""

    pile: str
    count: int
    x: int
    y: int


@dataclass
class DragDropped(Message):
    """The dragged cards were let go at screen ``x``, ``y``."""

    pile: str
    count: int
    x: int
    y: int


@dataclass
class MenuChoice(Message):
    """The menu asks the app to open a board (``resume``: continue its save;
    ``or_new``: with no save, deal a new game without a word, as the bare game
    command does on a first start)."""

    game: str
    deal: int | None
    variant: dict[str, int]
    time_limit: int = 0
    resume: bool = False
    or_new: bool = False


@dataclass
class SettingChanged(Message):
    """A setting was changed (and saved): the app puts it into effect."""

    name: str
