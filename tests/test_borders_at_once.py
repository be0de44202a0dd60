"""Issue 33: a node's border and outline read in one step from its styles' rules
(textual_hooks.borders_read_at_once): the same edges as Textual's four edge
properties give, for every node of every screen on the login path, for rules set
inline over the stylesheet's, and for a bare Styles; and a border set later shows."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.css.styles import Styles
from textual.widgets import Static

from termsolitaire import textual_hooks

from .login_path import at_the_board, nodes

assert textual_hooks.borders_read_at_once()


def textuals(styles: object, name: str) -> object:
    """``styles.border`` (or ``outline``) as Textual's own property reads it."""
    from textual.css.styles import StylesBase

    return textual_hooks.style_properties.textuals_border_get(
        vars(StylesBase)[name], styles, type(styles)
    )


async def test_every_node_on_the_login_path_reads_textuals_borders() -> None:
    async with at_the_board() as app:
        seen = bordered = 0
        for _, node in nodes(app):
            for name in ("border", "outline"):
                edges = getattr(node.styles, name)
                assert edges == textuals(node.styles, name)
                bordered += any(edge[0] for edge in edges)
            seen += 1
        assert seen > 40
        assert bordered > 0  # some node on the way has a border


def test_inline_rules_over_the_stylesheets_and_a_bare_styles() -> None:
    node = Static("x")
    node._css_styles.border = ("round", "red")
    node.styles.border_left = ("heavy", "blue")  # inline, over the stylesheet's
    edges = node.styles.border
    assert edges == textuals(node.styles, "border")
    assert edges.left[0] == "heavy" and edges.top[0] == "round"
    assert node.styles.outline == textuals(node.styles, "outline")
    bare = Styles()
    bare.outline_bottom = ("dashed", "green")
    assert bare.outline == textuals(bare, "outline")
    assert bare.outline.bottom[0] == "dashed" and not bare.outline.top[0]
    assert bare.border == textuals(bare, "border")


class Boxed(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("boxed", id="box")


async def test_a_border_set_later_shows() -> None:
    app = Boxed()
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.pause()
        box = app.query_one("#box")
        assert box.size.width == 20
        box.styles.border = ("round", "#ff0000")
        await pilot.pause()
        assert box.size.width == 18  # the border's gutter
        assert "╭" in app.export_screenshot() and "#ff0000" in app.export_screenshot().lower()
