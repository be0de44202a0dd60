"""One pile on the felt: a card-wide widget drawn with the line API.

The screen sets what the pile shows (cards, selection, target, cursor) with
:meth:`PileView.show`; the pile works out its rows, compares them with the
rows on screen and refreshes only those that changed, so a move sends a few
short lines to the terminal. It posts :mod:`termsolitaire.messages` for
clicks and drags and decides nothing itself.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from termsolitaire.messages import DragDropped, DragMoved, PileClicked

from .cards import (
    BACK,
    CURSOR_LABEL,
    CURSOR_MARK,
    EMPTY,
    LABEL,
    SELECTED,
    TARGET_LABEL,
    CardLook,
)
from .fan import Pile, Row, fan_rows, stack_rows

HAND_UNMARKED = frozenset({"middle", "bottom"})
"""Rows of a card in hand drawn as they are: its top row, with its rank and suit,
shows it is in hand (a pick-up repaints one row a card, not the whole face)."""


def target_mark(look: CardLook) -> str:
    """The one cell that marks a pile the card in hand may go to (``v`` in ASCII,
    as the help and the status line write it)."""
    return look.words("▼")


class PileView(Widget):
    """A pile: a label row with its key, then its cards (``fan``) or top card (``stack``)."""

    DEFAULT_CSS = """
    PileView { position: absolute; width: 5; height: 0; background: transparent; }
    """

    def __init__(self, pile: str, key: str, kind: str = "fan", look: CardLook | None = None):
        super().__init__(id=f"pile-{pile}")
        self.pile = pile
        self.key = key
        self.kind = kind
        self.look = look or CardLook()
        self.cards: Pile = ()
        self.selected = 0
        self.target = False
        self.cursor: int | None = None
        self.placeholder = ""
        self.badge = ""
        self.links: tuple[bool, ...] = ()
        """Which cards continue a sequence on the one below (the rules say): they fold."""
        self._rows: list[Row] = []
        self._rows_key: tuple[Any, ...] | None = None
        self._row_strips: dict[tuple[int, Style, bool], Strip] = {}
        """Strips made for the current rows, by row and style (marks come and go)."""
        self._strips: list[Strip] = []
        self._stale = True  # the strips are to be made again before they are shown
        self._press: tuple[int, int, int] | None = None
        self._dragging = False
        self._ignore_click = False

    # ------------------------------------------------------------ drawing

    def show(self, **changes: Any) -> None:
        """Set any of ``cards selected target cursor placeholder badge links key look``
        and redraw."""
        changed = False
        for name, value in changes.items():
            if getattr(self, name) != value:
                setattr(self, name, value)
                changed = True
        if changed:
            self._redraw()

    def _redraw(self, full: bool = False) -> None:
        height = self.size.height
        if height <= 0 or full or self._stale:
            # Not laid out yet, or resized: drawn whole when next rendered, when the
            # size is known (so the first frame already shows the cards).
            self._stale = True
            if height > 0:
                self.refresh()
            return
        strips = self._make_strips(height)
        old = self._strips
        self._strips = strips
        if full or len(old) != len(strips):
            self.refresh()
            return
        width = self.size.width
        for y, (a, b) in enumerate(zip(old, strips, strict=True)):
            if a is not b and a != b:
                self.refresh(Region(0, y, width, 1))

    def _make_strips(self, height: int) -> list[Strip]:
        look = self.look
        top = 1 if self.key else 0  # no label row: the floating pile of a drag
        key = (self.kind, self.cards, height - top, look, self.placeholder, self.links, self.badge)
        if key != self._rows_key:  # the cards changed, not only the marks: lay them out
            if self.kind == "fan":
                rows = fan_rows(self.cards, height - top, look, self.placeholder, self.links)
            else:
                rows = stack_rows(self.cards, look, self.placeholder, self.badge)[: height - top]
            self._rows, self._rows_key = rows, key
            self._row_strips.clear()
        rows = self._rows
        width = look.width
        strips = [self._label_strip(width)] if top else []
        n = len(self.cards)
        cursor_row = self._cursor_row(rows)
        made = self._row_strips
        for y, row in enumerate(rows):
            style = self._row_style(row, n)
            cursor = y == cursor_row
            strip = made.get((y, style, cursor))
            if strip is None:
                text = row.text
                if cursor:  # one cell marks the cursor: a cursor key costs a few bytes
                    segments = [Segment(">", style + CURSOR_MARK), Segment(text[1:], style)]
                    strip = Strip(segments, width)
                else:
                    strip = Strip([Segment(text, style)], width)
                made[(y, style, cursor)] = strip
            strips.append(strip)
        blank = Strip.blank(width)
        strips.extend(blank for _ in range(height - len(strips)))
        return strips

    def _label_strip(self, width: int) -> Strip:
        key = self.key
        if self.target:  # one cell before the key: marking and unmarking cost a few bytes
            text = key.center(width)[:width]
            at = max(text.index(key[:1] or " ") - 1, 0)
            mark = Segment(target_mark(self.look), TARGET_LABEL)
            segments = [Segment(text[:at], LABEL), mark, Segment(text[at + 1 :], LABEL)]
            return Strip([s for s in segments if s.text], width)
        if self.cursor is not None:
            text, style = f"[{key}]".center(width), CURSOR_LABEL
        else:
            text, style = key.center(width), LABEL
        return Strip([Segment(text[:width], style)], width)

    def _cursor_row(self, rows: list[Row]) -> int:
        """Index (in the card rows) of the row that carries the cursor mark, or -1."""
        if self.cursor is None or not rows:
            return -1
        want = max(self.cursor, 1)
        for y, row in enumerate(rows):
            if row.count <= want and row.kind in ("edge", "back", "more", "empty"):
                return y
        return len(rows) - 1

    def _row_style(self, row: Row, n: int) -> Style:
        """A row's style. A legal target is marked on its label only, so lighting the
        targets up and down again costs a few cells each, never a redrawn pile."""
        if row.kind == "empty":
            return EMPTY
        if row.kind == "more":
            return LABEL
        style = self.look.face_style(row.card) if row.card is not None else BACK
        if self.selected and row.count <= self.selected and row.kind not in HAND_UNMARKED:
            return style + SELECTED
        return style

    def render_line(self, y: int) -> Strip:
        height = self.size.height
        if self._stale or len(self._strips) != height:
            self._strips = self._make_strips(height)
            self._stale = False
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        if not self._stale and len(self._strips) == event.size.height:
            # Already drawn at this height (the first frame draws a new pile at the
            # size its layout gave it, and its Resize comes after): the strips do not
            # depend on the width, and Textual repaints a resized widget itself.
            return
        self._redraw(full=True)

    def count_at(self, y: int) -> int:
        """How many cards from the top a click on row ``y`` takes (0: the pile itself)."""
        y -= 1 if self.key else 0
        if y < 0 or not self.cards:
            return 0
        if y < len(self._rows):
            return self._rows[y].count
        return 0

    # -------------------------------------------------------------- mouse

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if event.button != 1:
            return
        self._ignore_click = False
        self._dragging = False
        self._press = (self.count_at(event.y), event.screen_x, event.screen_y)
        self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._press is None:
            return
        count, x0, y0 = self._press
        if not self._dragging and (event.screen_x, event.screen_y) == (x0, y0):
            return
        if count == 0:
            return
        self._dragging = True
        self.post_message(DragMoved(self.pile, count, event.screen_x, event.screen_y))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        press, self._press = self._press, None
        self.release_mouse()
        if press is not None and self._dragging:
            self._dragging = False
            self._ignore_click = True  # a terminal sends a Click after a drag on one widget
            self.post_message(DragDropped(self.pile, press[0], event.screen_x, event.screen_y))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self._ignore_click:
            self._ignore_click = False
            return
        self.post_message(PileClicked(self.pile, self.count_at(event.y), event.chain))
