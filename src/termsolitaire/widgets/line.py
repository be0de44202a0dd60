"""A one-row text widget that never asks for a new layout: the clock, the status line.

``Static.update`` may change a widget's size, so it reflows the screen; this
one has a fixed size and repaints its one row as a single segment.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget

from termsolitaire.widgets.cards import app_look


def fit_text(text: str, width: int, cut: str = "…") -> str:
    """``text`` made to fit ``width`` columns the way a reader loses least.

    A line of clauses (``"a; b; c; d"``) first drops clauses from the one before
    the last backwards, so its head and its last word stay ("Keys: ...; ? help");
    then the head is cut short, ``cut`` ("…", or "..." on an ASCII terminal)
    marking the cut, before the last clause.

    >>> fit_text("Keys: 1-7 columns; arrows+Space; mouse; ? help", 30)
    'Keys: 1-7 columns; ? help'
    >>> fit_text("Keys: 1-7 columns; arrows+Space; mouse; ? help", 20)
    'Keys: 1-7 c…; ? help'
    >>> fit_text("Hint: 4→f (Enter or its key plays it)", 20)
    'Hint: 4→f (Enter or…'
    >>> fit_text("Hint: 4->f (Enter or its key plays it)", 20, "...")
    'Hint: 4->f (Enter...'
    """
    if len(text) <= width:
        return text
    if width <= 0:
        return ""
    clauses = text.split("; ")
    while len(clauses) > 2:
        del clauses[-2]
        shorter = "; ".join(clauses)
        if len(shorter) <= width:
            return shorter
    if len(clauses) == 2 and len(clauses[1]) + 2 <= width // 2:
        room = width - len(clauses[1]) - 2
        return clauses[0][: room - len(cut)].rstrip() + cut + "; " + clauses[1]
    return (text[: max(0, width - len(cut))].rstrip() + cut)[:width]


def drop_parts(text: str, width: int, sep: str, cut: str = "…") -> str:
    """``text``, parts joined by ``sep``, with whole parts dropped from the end
    until it fits ``width``: a cut never leaves half a number that reads whole.
    A first part still too wide is cut with ``cut`` at its end (a 40-column
    board's header read "Pengu", a word that is not one).

    >>> drop_parts("Watching ann · deal 596368032 · table 1", 30, " · ")
    'Watching ann · deal 596368032'
    >>> drop_parts("Watching ann · deal 596368032", 20, " · ")
    'Watching ann'
    >>> drop_parts("Penguin · daily 2026-12-06", 5, " · "), drop_parts("Spider", 2, " · ", "...")
    ('Peng…', '..')
    """
    parts = text.split(sep)
    while len(parts) > 1 and len(sep.join(parts)) > width:
        parts.pop()
    kept = sep.join(parts)
    if len(kept) <= width:
        return kept
    return (kept[: max(0, width - len(cut))] + cut)[:width]


class TextLine(Widget):
    """One line of text, left, right or centre aligned (``align``); with
    ``fit``, a text too wide is shortened by :func:`fit_text` instead of cut off;
    with ``drop``, by dropping whole parts between ``drop`` separators."""

    DEFAULT_CSS = "TextLine { height: 1; width: 1fr; }"

    def __init__(
        self, text: str = "", align: str = "left", fit: bool = False, drop: str = "", **kw: Any
    ) -> None:
        super().__init__(**kw)
        self.text = text
        self.align = align
        self.fit = fit
        self.drop = drop

    def set(self, text: str) -> None:
        """Show ``text``; repaint only when it differs."""
        if text != self.text:
            self.text = text
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self.fit:  # (the cut's mark as the app draws: "..." under --ascii)
            text = fit_text(self.text, width, app_look(self).words("…"))
        elif self.drop:
            text = drop_parts(self.text, width, self.drop, app_look(self).words("…"))
        else:
            text = self.text[:width]
        if self.align == "right":
            text = text.rjust(width)
        elif self.align == "center":
            text = text.center(width)
        else:
            text = text.ljust(width)
        return Strip([Segment(text, self.rich_style)], width)
