"""The Penguin board: seven cells and four foundations above seven columns.

Keys: columns ``1``-``7``, cells ``q w e r t y u``, and ``f`` for the
foundations (a card can only go to its own suit's one, so one key names
them all; the foundations show the beak rank that starts them).
"""

from __future__ import annotations

from typing import ClassVar

from termsolitaire.rules.cards import rank_text
from termsolitaire.rules.penguin import CELLS, COLUMNS, FOUNDATIONS, Penguin
from termsolitaire.screens.boards.bindings import FOUNDATION_BINDING, board_bindings, pile_bindings
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.registry import board_css
from termsolitaire.widgets.board import Place

COLUMN_KEYS = dict(zip(COLUMNS, "1234567", strict=True))
CELL_KEYS = dict(zip(CELLS, "qwertyu", strict=True))


def _places() -> dict[str, Place]:
    places = {c: Place(i, 0, "stack", k) for i, (c, k) in enumerate(CELL_KEYS.items())}
    places.update({f: Place(7 + i, 0, "stack", "f") for i, f in enumerate(FOUNDATIONS)})
    places.update({t: Place(i, 1, "fan", k) for i, (t, k) in enumerate(COLUMN_KEYS.items())})
    return places


class PenguinScreen(BoardScreen):
    CSS_PATH = board_css("board", "penguin")
    GAME = Penguin.info.name
    BINDINGS = board_bindings(
        *pile_bindings(COLUMN_KEYS, "Column"),
        *pile_bindings(CELL_KEYS, "Cell"),
        FOUNDATION_BINDING,
    )
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [[*CELLS, *FOUNDATIONS], list(COLUMNS)]
    SLOTS = 11
    SPLIT = 7
    MIN_HEIGHT = 18

    def title_text(self) -> str:
        beak = getattr(self.game, "beak", 1)
        return f"{super().title_text()}{self.sep}beak {rank_text(beak)}"

    def hint(self) -> str:
        return "Keys: 1-7 columns, q-u cells, f foundation; arrows+Space; ? help"
