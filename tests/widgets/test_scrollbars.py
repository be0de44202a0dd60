"""Scroll bars under the ASCII look: the thumb in whole cells, no block glyphs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.scrollbars import scroll_bars_follow_the_look

BLOCKS = set("▁▂▃▄▅▆▇▉▊▋▌▍▎▏")


class Tall(App[None]):
    """A hundred lines in a ten-line window, scrolled to where the thumb's top
    falls inside a cell."""

    def __init__(self, look: CardLook) -> None:
        super().__init__()
        self.look = look

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("\n".join(f"line {i}" for i in range(100)))


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_thumb_has_no_block_glyph_under_ascii(ascii: bool) -> None:
    scroll_bars_follow_the_look()  # as the app module does when imported
    app = Tall(replace(CardLook(), ascii=ascii))
    async with app.run_test(size=(30, 10)) as pilot:
        app.query_one(VerticalScroll).scroll_to(y=7, animate=False)
        await pilot.pause()
        strips = app.screen._compositor.render_strips()
        drawn = {segment.text for strip in strips for segment in strip}
        glyphs = BLOCKS & set("".join(drawn))
        assert (not glyphs) if ascii else glyphs, glyphs
