"""A board: piles placed on the felt from a map of pile name to place. No rules.

The board lays its piles out in ``slots`` equal columns; a wider gap opens
before slot ``split`` (Penguin's foundations, Spider's stock). ``band`` says
where a pile sits vertically: 0 the top row (one card high), 1 below it down to
the bottom, 2 the whole height. Wider windows get wider cards and more space;
the layout changes only when the size does, never on a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.widget import Widget

from .cards import CardLook
from .fan import Pile
from .pile import PileView

TOP_BAND = 4  # label row + three card rows
ROOMY_HEIGHT = 32  # from this board height on, fanned cards lie two rows apart


@dataclass(frozen=True, slots=True)
class Place:
    """Where a pile goes: its slot (column), its band, how it is drawn and its key."""

    slot: int
    band: int
    kind: str
    key: str


@dataclass(frozen=True, slots=True)
class Geometry:
    """A board's horizontal measures: card and gap widths, the extra gap at the
    split, the left margin, and the blank row under the top band (none when short)."""

    card: int
    gap: int
    split_gap: int
    x0: int
    vgap: int

    def x(self, slot: int, split: int) -> int:
        return self.x0 + slot * (self.card + self.gap) + (self.split_gap if slot >= split else 0)


def fit(width: int, height: int, slots: int) -> Geometry | None:
    """The widest cards and gaps that fit ``slots`` columns in ``width``; None if none do."""
    for card in (7, 5):
        for gap in (5, 4, 3, 2, 1):
            if card == 7 and gap < 2:
                continue
            split_gap = max(2, gap)
            total = slots * card + (slots - 1) * gap + split_gap
            if total <= width:
                vgap = 1 if height >= 22 else 0
                return Geometry(card, gap, split_gap, (width - total) // 2, vgap)
    return None


def min_width(slots: int) -> int:
    return slots * 5 + (slots - 1) + 2


class Board(Widget):
    """The felt with its piles, and a floating pile that follows the pointer in a drag."""

    DEFAULT_CSS = """
    Board { layers: felt drag; width: 1fr; height: 1fr; }
    Board > PileView { layer: felt; }
    Board > #pile-ghost { layer: drag; display: none; }
    """

    def __init__(
        self, places: dict[str, Place], slots: int, split: int, look: CardLook, **kw: Any
    ) -> None:
        super().__init__(**kw)
        self.places = places
        self.slots = slots
        self.split = split
        self.look = look
        self.piles = {name: PileView(name, p.key, p.kind, look) for name, p in places.items()}
        self.ghost = PileView("ghost", "", "fan", look)
        self.geometry: Geometry | None = None

    def compose(self) -> ComposeResult:
        yield from self.piles.values()
        yield self.ghost

    def on_resize(self, event: events.Resize) -> None:
        self.place_piles()

    def place_piles(self, size: tuple[int, int] | None = None) -> None:
        """Size and place every pile for the board's size (or ``size``: the size it
        will have, so that the first frame already shows the cards)."""
        width, height = size or self.size
        geo = fit(width, height, self.slots)
        self.geometry = geo
        if geo is None:
            return
        look = self.look.with_size(geo.card, roomy=height >= ROOMY_HEIGHT)
        low = TOP_BAND + geo.vgap
        for name, place in self.places.items():
            view = self.piles[name]
            x = geo.x(place.slot, self.split)
            if place.band == 0:
                y, h = 0, TOP_BAND
            elif place.band == 1:
                y, h = low, max(TOP_BAND, height - low)
            else:
                y, h = 0, height
            view.styles.offset = (x, y)
            view.styles.width = geo.card
            view.styles.height = h
            view.show(look=look)
        self.ghost.styles.width = geo.card
        self.ghost.show(look=look)

    def set_look(self, look: CardLook) -> None:
        self.look = look
        self.place_piles()
        if self.geometry is None:
            for view in (*self.piles.values(), self.ghost):
                view.show(look=look)

    def pile_at(self, x: int, y: int) -> str | None:
        """The pile under screen position ``x``, ``y`` (the ghost is looked through)."""
        for name, view in self.piles.items():
            if view.region.contains(x, y):
                return name
        return None

    def centres(self) -> dict[str, tuple[float, float]]:
        """The middle of each pile on screen, in board cells (where the cursor's
        arrows look for the nearest pile that way)."""
        ox, oy = self.region.x, self.region.y
        return {
            name: (r.x - ox + r.width / 2, r.y - oy + r.height / 2)
            for name, view in self.piles.items()
            for r in [view.region]
        }

    def show_ghost(self, cards: Pile, x: int, y: int) -> None:
        """Float ``cards`` under the pointer (just below it, so the drop target stays visible)."""
        ghost = self.ghost
        ox, oy = self.region.x, self.region.y
        ghost.styles.height = len(cards) + 2
        ghost.styles.offset = (x - ox - 1, y - oy + 1)
        ghost.show(cards=tuple(cards), selected=len(cards))
        ghost.display = True

    def hide_ghost(self) -> None:
        self.ghost.display = False
