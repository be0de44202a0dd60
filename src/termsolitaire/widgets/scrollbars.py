"""Scroll bars in ASCII under ``--ascii`` (or the ASCII card style).

Textual draws a scroll bar's thumb as cells of reverse video, and ends it with
eighth-cell block glyphs (``▁▂▃``, ``▉▊▋``) for a finer position; a terminal
that needs ``--ascii`` for the cards cannot show those either. Under the ASCII
look the thumb is whole cells only. The look is read from the bar's app each
time it is drawn, so the settings' card style reaches every bar at once.
"""

from __future__ import annotations

from typing import ClassVar

from textual.scrollbar import ScrollBar, ScrollBarRender

from termsolitaire.widgets.cards import app_look


class AsciiScrollBarRender(ScrollBarRender):
    """A thumb of whole cells of reverse video, no block glyphs."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class _RendererByLook:
    """``ScrollBar.renderer``, chosen by the bar's app's look when it is read."""

    def __get__(self, bar: ScrollBar | None, owner: type) -> type[ScrollBarRender]:
        if bar is not None and app_look(bar).ascii:
            return AsciiScrollBarRender
        return ScrollBarRender


def scroll_bars_follow_the_look() -> None:
    """Every scroll bar drawn in ASCII while its app's look is ASCII."""
    ScrollBar.renderer = _RendererByLook()  # type: ignore[assignment]
