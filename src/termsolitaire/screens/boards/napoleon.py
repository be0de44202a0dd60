"""The Napoleon board: sixteen positions in a circle around the four aces.

The positions ``p1``-``p16`` stand at their angles, ``p1`` at the top and
clockwise every 22.5°, each fanned outward from the centre
(:mod:`termsolitaire.widgets.circle`); the foundations ♠ ♥ ♦ ♣ are side by
side in the middle.

Keys: the positions are lettered clockwise from north in alphabetical order,
skipping the letters this board already uses — ``f`` (to the foundation) and
``h j k l`` (the cursor): ``a b c d e g i m n o p q r s t u``. So the letter
under a pile's label is its key, and the next pile clockwise has the next
letter. ``f`` sends the card in hand (or under the cursor) to its
foundation; ``M`` shows or hides the move list. Arrow keys move the cursor
to the nearest pile in that direction.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding

from termsolitaire.rules.napoleon import FOUNDATIONS, POSITIONS, Napoleon
from termsolitaire.screens.boards.bindings import (
    FOUNDATION_BINDING,
    NEAREST_CURSOR,
    board_bindings,
    pile_bindings,
)
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.registry import board_css
from termsolitaire.widgets.board import Board, Place
from termsolitaire.widgets.circle import CircleBoard
from termsolitaire.widgets.nav import nearest

KEYS = dict(zip(POSITIONS, "abcdegimnopqrstu", strict=True))
"""Clockwise from north: a to u without f (foundation) and h j k l (cursor)."""

MIN_WIDTH = 63
MIN_HEIGHT = 20
"""Below this the circle cannot show a fresh deal's five-card piles card by card."""


def _places() -> dict[str, Place]:
    places = {p: Place(i, 0, "ring", KEYS[p]) for i, p in enumerate(POSITIONS)}
    places.update({f: Place(i, 0, "centre", "f") for i, f in enumerate(FOUNDATIONS)})
    return places


class NapoleonScreen(BoardScreen):
    CSS_PATH = board_css("board", "napoleon")
    GAME = Napoleon.info.name
    PILE_WORD = "position"
    BINDINGS = board_bindings(
        *pile_bindings(KEYS, "Position"),
        FOUNDATION_BINDING,
        Binding("M", "move_list", "Moves", id="move-list", tooltip="show or hide the move list"),
        cursor=NEAREST_CURSOR,
        drop=("more", "fewer", "move-list"),  # one card moves at a time; M in the footer
    )
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [[*POSITIONS, *FOUNDATIONS]]
    CURSOR_START = POSITIONS[0]
    ALONG_PILES = False
    MIN_HEIGHT = MIN_HEIGHT
    MOVES_WIDTH = 14

    def navigate(self, cursor: str | None, dx: int, dy: int) -> str | None:
        """The nearest pile that way (:func:`~termsolitaire.widgets.nav.nearest`)."""
        if cursor is None:
            return self.CURSOR_START
        return nearest(self.board.centres(), cursor, dx, dy) or cursor

    def make_board(self) -> Board:
        return CircleBoard(self.PLACES, self.look, id="board")

    @property
    def min_size(self) -> tuple[int, int]:
        return MIN_WIDTH, MIN_HEIGHT

    def hint(self) -> str:
        return "Keys: a-u positions, f foundation; M moves; arrows+Space; ? help"
