"""Issue 33: a node finds its screen, and a scrollbar colour is set, without an
import at each (textual_hooks.screen_lookup_without_import and
scrollbar_colours_without_import): the same screen as Textual's walk for every
node of every screen on the login path, NoScreen for a node that is not in one,
and a scrollbar colour set later shows."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widgets import Static

from termsolitaire import textual_hooks

from .login_path import at_the_board, nodes

assert textual_hooks.screen_lookup_without_import()


def walked(node: object) -> object:
    """The screen above ``node`` by its parents, as Textual's property walks them."""
    while node is not None and not isinstance(node, Screen):
        node = node._parent  # type: ignore[attr-defined]
    return node


async def test_every_node_on_the_login_path_finds_its_own_screen() -> None:
    async with at_the_board() as app:
        assert len(app.screen_stack) >= 2
        seen = 0
        for screen, node in nodes(app):
            assert node.screen is screen is walked(node)
            seen += 1
        assert seen > 40
        assert app.screen is app.screen_stack[-1]


def test_a_node_in_no_screen_has_none() -> None:
    with pytest.raises(NoScreen):
        _ = Static("loose").screen


class Scrolled(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scroll"):
            for n in range(40):
                yield Static(f"line {n}")


async def test_a_scrollbar_colour_set_later_shows() -> None:
    """textual_hooks.scrollbar_colours_without_import: a scrollbar colour set on a
    widget that shows a scrollbar repaints the bar in it, as Textual's does."""
    assert textual_hooks.scrollbar_colours_without_import()
    app = Scrolled()
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        assert "#ff0000" not in app.export_screenshot().lower()
        app.query_one("#scroll").styles.scrollbar_color = "#ff0000"
        await pilot.pause()
        assert "#ff0000" in app.export_screenshot().lower()
