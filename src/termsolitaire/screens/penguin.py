"""The Penguin board: seven cells and four foundations above seven columns.

Keys: columns ``1``-``7``, cells ``q w e r t y u``, and ``f`` for the
foundations (a card can only go to its own suit's one, so one key names
them all; the foundations show the beak rank that starts them).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from termsolitaire.rules import Card
from termsolitaire.widgets.board import Place

from .board import COMMON_BINDINGS, BoardScreen

COLUMNS = [f"t{i}" for i in range(1, 8)]
CELLS = [f"c{i}" for i in range(1, 8)]
FOUNDATIONS = ["f1", "f2", "f3", "f4"]
SUITS = "SHDC"
COLUMN_KEYS = "1234567"
CELL_KEYS = "qwertyu"
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _places() -> dict[str, Place]:
    places = {
        c: Place(i, 0, "stack", k) for i, (c, k) in enumerate(zip(CELLS, CELL_KEYS, strict=False))
    }
    places.update({f: Place(7 + i, 0, "stack", "f") for i, f in enumerate(FOUNDATIONS)})
    places.update(
        {
            t: Place(i, 1, "fan", k)
            for i, (t, k) in enumerate(zip(COLUMNS, COLUMN_KEYS, strict=False))
        }
    )
    return places


def _bindings() -> list[BindingType]:
    keys: list[BindingType] = [
        Binding(k, f"pile('{t}')", f"Column {t}", show=False, id=f"pile-{t}")
        for t, k in zip(COLUMNS, COLUMN_KEYS, strict=False)
    ]
    keys += [
        Binding(k, f"pile('{c}')", f"Cell {c}", show=False, id=f"pile-{c}")
        for c, k in zip(CELLS, CELL_KEYS, strict=False)
    ]
    keys.append(
        Binding(
            "f",
            "foundation",
            "To foundation",
            id="foundation",
            tooltip="send the card in hand (or under the cursor) to its foundation",
        )
    )
    return keys + COMMON_BINDINGS


class PenguinScreen(BoardScreen):
    CSS_PATH: ClassVar[list[str]] = ["board.tcss", "penguin.tcss"]
    GAME = "penguin"
    BINDINGS = _bindings()
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [CELLS + FOUNDATIONS, COLUMNS]
    SLOTS = 11
    SPLIT = 7
    MIN_HEIGHT = 18

    def title_text(self) -> str:
        beak = getattr(self.game, "beak", 1)
        rank = RANKS.get(beak, str(beak))
        return f"Penguin{self.sep}deal {self.game.deal}{self.sep}beak {rank}"

    def pile_marks(self, pile: str) -> dict[str, Any]:
        if pile in FOUNDATIONS:
            beak = getattr(self.game, "beak", 1)
            card = Card(beak, SUITS[FOUNDATIONS.index(pile)])
            return {"placeholder": self.board.piles[pile].look.label(card)}
        if pile in COLUMNS:  # an empty column takes only the rank below the beak
            fill = getattr(self.game, "fill_rank", 13)
            return {"placeholder": RANKS.get(fill, str(fill))}
        return {}

    def hint(self) -> str:
        return "Keys: 1-7 columns, q-u cells, f foundation; arrows+Space; mouse; ? help"

    def to_foundation(self, src: str) -> None:
        """Send the top card of ``src`` to its foundation; say why not if it cannot go."""
        if src in FOUNDATIONS and self.hand.src is not None and self.hand.src != src:
            src = self.hand.src
        self.to_suit_foundation(src)

    def action_pile(self, name: str) -> None:
        if name in FOUNDATIONS:
            self.action_foundation()
        else:
            super().action_pile(name)
