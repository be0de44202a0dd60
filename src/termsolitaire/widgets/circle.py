"""A circle of piles around a row of centre piles (Napoleon), drawn as one canvas. No rules.

A ring pile sits at its angle (slot 0 at north, clockwise, ``360 / ring``
degrees apart) and is fanned outward from the centre: its key label on an
inner ellipse, then its cards bottom to top, each one a three-cell chip
(``10♥``, `` K♠``) one step further out along the pile's ray. The steps are
as short as the chips allow (one row up and down, four or five columns
sideways), so the piles at the compass points are straight columns and rows
and the ones between them staircases: the circle looks like a circle. The
centre piles (the foundations) stand side by side in the middle row.

Rays can meet near the screen's edge; the layout gives every pile the cells
of its ray until the ray leaves the screen or runs into a cell another pile
reached first (inner cells first), and a pile longer than its cells shows
``+N`` for its lowest cards and the rest one by one.

Everything is drawn by one widget with the line API: a change recomputes the
canvas and refreshes only the rows that differ. Each pile is a
:class:`CirclePile` that takes the same ``show`` calls as a
:class:`~termsolitaire.widgets.pile.PileView`, so the board screen drives it
unchanged.

>>> spots = circle_layout(80, 21, {f"p{i}": i - 1 for i in range(1, 17)}, 16, {})
>>> spots["p1"].label, spots["p1"].cells[:2]
((39, 6), ((39, 5), (39, 4)))
>>> spots["p5"].label[1] == spots["p5"].cells[0][1] == 10
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from termsolitaire.messages import DragDropped, DragMoved, PileClicked

from .board import Board, Place
from .cards import (
    CURSOR_LABEL,
    EMPTY,
    LABEL,
    SELECTED,
    TARGET_LABEL,
    CardLook,
)
from .fan import Pile
from .pile import PileView, target_mark

CHIP = 3  # cells per card chip: "10♥", " K♠"
FREE = Style(bold=True, underline=True)
"""The outermost card of a ring pile, the one that moves: bold and underlined, so
it stands out without colour too (``NO_COLOR``, ``--ascii``)."""
Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Spot:
    """Where one pile is drawn: its label chip and a chip per card, innermost first."""

    label: Cell
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Spacing:
    """How far the circle spreads in a window: ring radii and steps between cards."""

    rx: float
    ry: float
    col: int  # columns per card sideways
    centre: int  # columns per centre pile


def spacing(width: int, height: int) -> Spacing:
    """Larger windows spread the circle out; the smallest ones pack it tight."""
    col = 5 if width >= 110 else 4
    centre = col
    ry = round(height * (0.2 if height < 30 else 0.24))
    ry = max(3, min(ry, height - 1 - height // 2 - 5))  # five cards below the centre
    rx = max(1.5 * centre + 4, round(width * 0.14))
    return Spacing(rx, ry, col, centre)


def _step(angle: float, sp: Spacing) -> tuple[float, float]:
    """One card further out along the ray at ``angle``: at least a row or a chip apart."""
    sx, sy = math.sin(angle), -math.cos(angle)
    # Visual units: a row is two columns high. The shortest step that separates chips.
    length = min(
        2 / abs(sy) if abs(sy) > 1e-9 else math.inf,
        sp.col / abs(sx) if abs(sx) > 1e-9 else math.inf,
    )
    return sx * length, sy * length / 2


def circle_layout(
    width: int, height: int, ring: dict[str, int], count: int, centre: dict[str, int]
) -> dict[str, Spot]:
    """Spots for ``ring`` piles (name to slot) and ``centre`` piles (name to index)."""
    sp = spacing(width, height)
    cx, cy = width // 2, height // 2
    spots: dict[str, Spot] = {}
    taken: set[int] = set()

    def cells_of(x: int, y: int) -> range:
        return range(y * width + x, y * width + x + CHIP)

    def free(x: int, y: int) -> bool:
        return x >= 0 and x + CHIP <= width and 0 <= y < height and not taken & set(cells_of(x, y))

    n = len(centre)
    for name, i in centre.items():
        x = cx - 1 + math.floor((i - (n - 1) / 2) * sp.centre + 0.5)
        spots[name] = Spot((x, cy - 1), ((x, cy),))
        taken.update(cells_of(x, cy - 1), cells_of(x, cy))
    rays: dict[str, tuple[float, float, float, float]] = {}
    labels: dict[str, Cell] = {}
    for name, slot in ring.items():
        angle = 2 * math.pi * slot / count
        x0 = cx + sp.rx * math.sin(angle)
        y0 = cy - sp.ry * math.cos(angle)
        dx, dy = _step(angle, sp)
        rays[name] = (x0, y0, dx, dy)
        labels[name] = (round(x0) - 1, round(y0))
        taken.update(cells_of(*labels[name]))
    grown: dict[str, list[Cell]] = {name: [] for name in ring}
    alive = set(ring)
    for k in range(1, 40):
        for name in ring:
            if name not in alive:
                continue
            x0, y0, dx, dy = rays[name]
            cell = (round(x0 + k * dx) - 1, round(y0 + k * dy))
            if free(*cell):
                grown[name].append(cell)
                taken.update(cells_of(*cell))
            else:
                alive.discard(name)
        if not alive:
            break
    for name in ring:
        spots[name] = Spot(labels[name], tuple(grown[name]))
    return spots


def min_capacity(spots: dict[str, Spot]) -> int:
    """The fewest cards any pile can show one by one in this layout."""
    return min(len(s.cells) for s in spots.values())


class CirclePile:
    """What one pile shows; the same ``show`` keywords as a PileView, drawn by the canvas."""

    def __init__(
        self, name: str, key: str, canvas: CircleCanvas, look: CardLook, top_only: bool = False
    ) -> None:
        self.pile = name
        self.top_only = top_only  # show only the top card (the centre piles)
        self.key = key
        self.canvas = canvas
        self.look = look
        self.cards: Pile = ()
        self.selected = 0
        self.target = False
        self.cursor: int | None = None
        self.placeholder = ""
        self.badge = ""
        self.links: tuple[bool, ...] = ()  # the circle never folds; kept for ``show``

    def show(self, **changes: Any) -> None:
        """Set any of ``cards selected target cursor placeholder badge links look``;
        redraw later."""
        changed = False
        for name, value in changes.items():
            if getattr(self, name) != value:
                setattr(self, name, value)
                changed = True
        if changed:
            self.canvas.invalidate()

    def chips(self, spot: Spot) -> list[tuple[Cell, str, Style, int]]:
        """Each drawn chip: its cell, text, style and the count a click there takes."""
        look = self.look
        out: list[tuple[Cell, str, Style, int]] = [(spot.label, *self._label(look))]
        cells, cards, n = spot.cells, self.cards, len(self.cards)
        if not cells:
            return out
        if n == 0:
            text = self.placeholder or ("..." if look.ascii else "···")
            return [*out, (cells[0], text.center(CHIP)[:CHIP], EMPTY, 0)]
        first = 0
        if self.top_only:  # a centre pile: its top card
            first = n - 1
        elif n > len(cells):  # the lowest cards become one "+N" chip
            first = n - len(cells) + 1
            out.append((cells[0], f"+{first}".rjust(CHIP), LABEL, n))
            cells = cells[1:]
        for cell, i in zip(cells, range(first, n), strict=False):
            card, _ = cards[i]
            style = look.face_style(card)
            count = n - i
            if self.selected and count <= self.selected:
                style += SELECTED
            elif count == 1:  # a foundation's top card is bold, but it never moves
                style += Style(bold=True) if self.top_only else FREE
            out.append((cell, look.label(card).rjust(CHIP), style, count))
        return out

    def _label(self, look: CardLook) -> tuple[str, Style, int]:
        if self.target:  # the mark before the key, as on the piles (pile.target_mark)
            text = self.key.center(CHIP)
            at = max(text.index(self.key[:1] or " ") - 1, 0)
            return text[:at] + target_mark(look) + text[at + 1 :], TARGET_LABEL, 0
        if self.cursor is not None:
            return f"[{self.key}]", CURSOR_LABEL, 0
        return self.key.center(CHIP), LABEL, 0


class CircleCanvas(Widget):
    """Draws every pile of the circle; turns the pointer into pile messages."""

    DEFAULT_CSS = "CircleCanvas { width: 1fr; height: 1fr; background: transparent; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.piles: dict[str, CirclePile] = {}
        self.spots: dict[str, Spot] = {}
        self.hits: dict[Cell, tuple[str, int]] = {}
        self._strips: list[Strip] = []
        self._stale = True
        self._laid_out: tuple[int, int] | None = None
        self.ring: dict[str, int] = {}
        self.centre: dict[str, int] = {}
        self._pending = False
        self._press: tuple[str, int, int, int] | None = None
        self._dragging = False
        self._ignore_click = False
        self.top_only = False

    # ------------------------------------------------------------ drawing

    def invalidate(self) -> None:
        """Recompute the canvas once the current handler is done (before it is first
        shown: when it is first rendered, its size known then)."""
        if not self.is_mounted or not self._strips:
            self._stale = True
        elif not self._pending:
            self._pending = True
            self.call_later(self.rebuild)

    def rebuild(self, full: bool = False) -> None:
        self._pending = False
        width, height = self.size
        if width <= 0 or height <= 0:
            return
        strips = self._build(width, height)
        old, self._strips = self._strips, strips
        self._stale = False
        if full or len(old) != len(strips):
            self.refresh()
            return
        for y, (a, b) in enumerate(zip(old, strips, strict=True)):
            if a != b:
                self.refresh(Region(0, y, width, 1))

    def lay_out(self, width: int, height: int) -> None:
        """Place the piles for a canvas of ``width`` x ``height``."""
        self.spots = circle_layout(width, height, self.ring, len(self.ring), self.centre)
        self._laid_out = (width, height)

    def _build(self, width: int, height: int) -> list[Strip]:
        """Every row of the canvas (and which pile each cell belongs to)."""
        if self._laid_out != (width, height):
            self.lay_out(width, height)
        rows: list[list[tuple[str, Style]]] = [[(" ", Style())] * width for _ in range(height)]
        hits: dict[Cell, tuple[str, int]] = {}
        for name, spot in self.spots.items():
            pile = self.piles[name]
            for (x, y), text, style, count in pile.chips(spot):
                if not (0 <= y < height):
                    continue
                for i, ch in enumerate(text):
                    if 0 <= x + i < width:
                        rows[y][x + i] = (ch, style)
                        hits[(x + i, y)] = (name, count)
        self.hits = hits
        return [self._strip(row, width) for row in rows]

    @staticmethod
    def _strip(row: list[tuple[str, Style]], width: int) -> Strip:
        segments: list[Segment] = []
        text, style = "", row[0][1] if row else Style()
        for ch, st in row:
            if st is not style and st != style:
                if text:
                    segments.append(Segment(text, style or None))
                text, style = "", st
            text += ch
        if text:
            segments.append(Segment(text, style or None))
        return Strip(segments, width)

    def on_resize(self, event: events.Resize) -> None:
        self.rebuild(full=True)

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        if (self._stale or len(self._strips) != height) and width > 0:
            self._strips = self._build(width, height)
            self._stale = False
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)

    # -------------------------------------------------------------- mouse

    def hit(self, x: int, y: int) -> tuple[str, int] | None:
        """The pile at canvas cell ``x``, ``y`` and the count a click there takes."""
        hit = self.hits.get((x, y))
        if hit is not None and self.top_only and hit[1]:
            return hit[0], 1
        return hit

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if event.button != 1:
            return
        self._ignore_click = False
        self._dragging = False
        hit = self.hit(event.x, event.y)
        self._press = None
        if hit is not None:
            self._press = (hit[0], hit[1], event.screen_x, event.screen_y)
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._press is None:
            return
        pile, count, x0, y0 = self._press
        if not self._dragging and (event.screen_x, event.screen_y) == (x0, y0):
            return
        if count == 0:
            return
        self._dragging = True
        self.post_message(DragMoved(pile, count, event.screen_x, event.screen_y))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        press, self._press = self._press, None
        self.release_mouse()
        if press is not None and self._dragging:
            self._dragging = False
            self._ignore_click = True  # a terminal sends a Click after a drag on one widget
            self.post_message(DragDropped(press[0], press[1], event.screen_x, event.screen_y))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self._ignore_click:
            self._ignore_click = False
            return
        hit = self.hit(event.x, event.y)
        if hit is not None:
            self.post_message(PileClicked(hit[0], hit[1], event.chain))


class CircleBoard(Board):
    """The felt of a circle game: ``ring`` places around a row of ``centre`` places.

    ``places`` maps pile names to :class:`~termsolitaire.widgets.board.Place`
    with ``kind`` ``"ring"`` (``slot``: the position, 0 at north, clockwise) or
    ``"centre"`` (``slot``: left to right). ``top_only``: a click or drag
    anywhere on a pile takes its top card (games that move one card at a time).
    """

    DEFAULT_CSS = """
    CircleBoard > CircleCanvas { layer: felt; }
    """

    def __init__(
        self, places: dict[str, Place], look: CardLook, *, top_only: bool = True, **kw: Any
    ) -> None:
        Widget.__init__(self, **kw)
        self.places = places
        self.slots, self.split = 0, 0
        self.look = look
        self.top_only = top_only
        self.canvas = CircleCanvas(id="circle")
        piles = {
            name: CirclePile(name, p.key, self.canvas, look, p.kind == "centre")
            for name, p in places.items()
        }
        self.canvas.piles = piles
        # The board's piles answer as its fans do (show, cards, key): one on a canvas.
        self.piles = cast("dict[str, PileView]", piles)
        self.ghost = PileView("ghost", "", "fan", look)
        self.geometry = None
        self.ring = {n: p.slot for n, p in places.items() if p.kind == "ring"}
        self.centre = {n: p.slot for n, p in places.items() if p.kind == "centre"}
        self.canvas.ring, self.canvas.centre = self.ring, self.centre
        self.canvas.top_only = top_only

    def compose(self) -> ComposeResult:
        yield self.canvas
        yield self.ghost

    def place_piles(self, size: tuple[int, int] | None = None) -> None:
        width, height = self.size  # the canvas lays itself out when first drawn
        if width <= 0 or height <= 0:
            return
        self.canvas.lay_out(width, height)
        self.ghost.styles.width = self.look.width
        self.ghost.show(look=self.look)
        self.canvas.rebuild(full=True)

    def set_look(self, look: CardLook) -> None:
        self.look = look
        for pile in self.piles.values():
            pile.show(look=look)
        self.place_piles()

    def pile_at(self, x: int, y: int) -> str | None:
        region = self.canvas.region
        hit = self.canvas.hit(x - region.x, y - region.y)
        return hit[0] if hit else None

    def centres(self) -> dict[str, tuple[float, float]]:
        """Each pile's place on the canvas: its label, or the card of a centre pile."""
        out: dict[str, tuple[float, float]] = {}
        for name, spot in self.canvas.spots.items():
            x, y = spot.cells[0] if name in self.centre else spot.label
            out[name] = (x + 1, y)
        return out

    def capacity(self) -> int:
        """The fewest cards a ring pile shows one by one at this size (0: not laid out)."""
        spots = [s for n, s in self.canvas.spots.items() if n in self.ring]
        return min((len(s.cells) for s in spots), default=0)
