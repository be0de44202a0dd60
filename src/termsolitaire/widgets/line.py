"""A one-row text widget that never asks for a new layout: the clock, the status line.

``Static.update`` may change a widget's size, so it reflows the screen; this
one has a fixed size and repaints its one row as a single segment.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget


class TextLine(Widget):
    """One line of text, left, right or centre aligned (``align``)."""

    DEFAULT_CSS = "TextLine { height: 1; width: 1fr; }"

    def __init__(self, text: str = "", align: str = "left", **kw: str) -> None:
        super().__init__(**kw)
        self.text = text
        self.align = align

    def set(self, text: str) -> None:
        """Show ``text``; repaint only when it differs."""
        if text != self.text:
            self.text = text
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        text = self.text[:width]
        if self.align == "right":
            text = text.rjust(width)
        elif self.align == "center":
            text = text.center(width)
        else:
            text = text.ljust(width)
        return Strip([Segment(text, self.rich_style)], width)

    def render_str(self) -> str:  # for tests and the help of humans
        return self.text
