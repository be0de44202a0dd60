"""The move list panel: the game's moves in the notation of API.md, newest at the bottom.

One widget drawn with the line API; a new move repaints only the rows that
changed. When the list is longer than the panel, the oldest moves scroll off
the top (the numbers say how many came before).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from termsolitaire.play.words import short_count
from termsolitaire.widgets.cards import app_look

HEADING = Style(bold=True)

NARROWEST_LIST = 13
"""The fewest columns the list takes beside the board: ``Moves (123)`` and
``123 2→5 ×3`` whole, with the space before them."""


class MoveList(Widget):
    """``Moves`` over a numbered list: ``12 c→f``, as the board labels its piles."""

    DEFAULT_CSS = "MoveList { width: 14; height: 1fr; }"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.moves: tuple[str, ...] = ()
        self._lines: list[str] = []

    def set_moves(self, moves: Sequence[object]) -> None:
        """Show ``moves`` (each as the board words it)."""
        shown = tuple(str(m) for m in moves)
        if shown != self.moves:
            self.moves = shown
            self._relayout()

    def lines(self, height: int) -> list[str]:
        """The rows of the panel in ``height`` rows: the heading, then the latest moves."""
        if height <= 0:
            return []
        room = height - 1
        shown = self.moves[-room:] if room > 0 else ()
        first = len(self.moves) - len(shown) + 1
        rows = [f"Moves ({len(self.moves)})" if self.moves else "Moves"]
        rows += [self.fit(f"{first + i:>3} {m}") for i, m in enumerate(shown)]
        if not self.moves and room > 0:
            rows.append("  none yet")
        return rows + [""] * (height - len(rows))

    def fit(self, row: str) -> str:
        """``row`` as it fits the list's width (a space before it): a card count
        that does not fit reads ``×3``, not ``(3 cards)`` cut off."""
        if len(row) < self.size.width:
            return row
        return app_look(self).words(short_count(row))

    def _relayout(self) -> None:
        width, height = self.size
        new = self.lines(height)
        old, self._lines = self._lines, new
        if len(old) != len(new):
            self.refresh()
            return
        for y, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                self.refresh(Region(0, y, width, 1))

    def on_resize(self) -> None:
        self._lines = self.lines(self.size.height)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        if len(self._lines) != height:  # first drawn: its size is known now
            self._lines = self.lines(height)
        text = self._lines[y] if y < len(self._lines) else ""
        style = self.rich_style + HEADING if y == 0 else self.rich_style
        return Strip([Segment(f" {text}"[:width].ljust(width), style)], width)
