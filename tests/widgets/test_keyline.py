"""The key line (:mod:`termsolitaire.widgets.keyline`) stands in for Textual's Footer:
a player sees the same keys, words and colours, and a click on a key presses it."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Footer, Static

from termsolitaire.widgets.keyline import KeyLine


class Keys(Screen[None]):
    """A screen with shown, hidden and dimmed keys (``u`` cannot be done now)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("z", "undo", "Undo", tooltip="take back the last move"),
        Binding("u", "unusable", "Dimmed"),
        Binding("question_mark", "help", "Help"),
        Binding("x", "hidden", "Hidden", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, footer: type[Footer] | type[KeyLine], palette: bool) -> None:
        super().__init__()
        self.footer = footer
        self.palette = palette
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("felt")
        yield self.footer(show_command_palette=self.palette)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "unusable" else True

    def action_undo(self) -> None:
        self.pressed.append("undo")

    def action_unusable(self) -> None:
        self.pressed.append("unusable")


class KeysApp(App[None]):
    def __init__(self, footer: type[Footer] | type[KeyLine], palette: bool, theme: str) -> None:
        super().__init__()
        self.keys = Keys(footer, palette)
        self.start_theme = theme

    def on_mount(self) -> None:
        self.theme = self.start_theme
        self.push_screen(self.keys)


def cells(strip: Strip) -> list[tuple[str, Style | None]]:
    """A line as (character, style) per cell: the colours and attributes a player
    sees (not the mouse metadata Textual adds)."""
    out: list[tuple[str, Style | None]] = []
    for segment in strip:
        s = segment.style
        seen = s and Style(color=s.color, bgcolor=s.bgcolor, bold=s.bold, dim=s.dim)
        out += [(ch, seen) for ch in segment.text]
    return out


async def last_line(footer: Any, palette: bool, theme: str, width: int) -> list[Any]:
    app = KeysApp(footer, palette, theme)
    async with app.run_test(size=(width, 5)) as pilot:
        for _ in range(10):  # Textual's Footer builds its keys after the first frame
            await pilot.pause()
        strips = app.screen._compositor.render_full_update().strips[-1]
        line = strips if isinstance(strips, Strip) else Strip.join(list(strips))
        return cells(line)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize(
    ("width", "palette", "shown"), [(80, False, False), (80, True, True), (40, True, False)]
)
async def test_the_line_looks_as_textual_s_footer(
    theme: str, width: int, palette: bool, shown: bool
) -> None:
    """The same cells in the same colours: keys, words, the dimmed key, the palette's
    key at the right; on a window too narrow for both, the line the Footer draws
    without the palette's key (the Footer would cut the keys where it begins)."""
    ours = await last_line(KeyLine, palette, theme, width)
    textual = await last_line(Footer, shown, theme, width)
    assert "".join(c for c, _ in ours) == "".join(c for c, _ in textual)
    assert ours == textual


async def test_a_click_presses_the_key_and_a_dimmed_key_does_nothing() -> None:
    app = KeysApp(KeyLine, False, "textual-dark")
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        line = app.keys.query_one(KeyLine)
        text = "".join(c for c, _ in cells(line.render_line(0)))
        assert text.startswith(" z Undo  u Dimmed  ? Help  q Quit ")
        assert "Hidden" not in text
        await pilot.click(KeyLine, offset=(text.index("Undo"), 0))
        await pilot.click(KeyLine, offset=(text.index("Dimmed"), 0))
        await pilot.pause()
        assert app.keys.pressed == ["undo"]


async def test_the_line_follows_the_keys_when_they_change() -> None:
    """A key the screen stops offering leaves the line without a new layout."""
    app = KeysApp(KeyLine, False, "textual-dark")
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        line = app.keys.query_one(KeyLine)
        assert "Help" in line.shown()
        app.keys.check_action = lambda action, parameters: action != "help"  # type: ignore[method-assign]
        app.keys.refresh_bindings()
        for _ in range(5):
            await pilot.pause()
        assert "Help" not in line.shown() and "Quit" in line.shown()


@pytest.mark.parametrize(("width", "palette"), [(40, False), (80, True)])
async def test_the_screen_s_keys_go_before_the_palette_s(width: int, palette: bool) -> None:
    """Where the keys and the palette's key do not both fit, the keys stay whole
    and the palette's key goes (a daily's "q Back" was cut at 80 columns)."""
    app = KeysApp(KeyLine, True, "textual-dark")
    async with app.run_test(size=(width, 5)) as pilot:
        await pilot.pause()
        line = app.keys.query_one(KeyLine)
        text = "".join(c for c, _ in cells(line.render_line(0)))
        assert " q Quit " in text
        assert ("^p palette" in text) == palette, text


async def test_on_a_narrow_line_the_ways_out_and_the_help_stay_whole() -> None:
    """Where the keys do not all fit, Textual's Footer cut the line at the edge: the
    lobby under 68 columns read "q Q" for Quit. The others go, each whole, from
    the end of the line; Quit and Help stay."""
    app = KeysApp(KeyLine, True, "textual-dark")
    async with app.run_test(size=(24, 5)) as pilot:
        await pilot.pause()
        line = app.keys.query_one(KeyLine)
        text = "".join(c for c, _ in cells(line.render_line(0)))
        assert line.shown() == ["Undo", "Help", "Quit"], text
        assert text.rstrip() == " z Undo  ? Help  q Quit"
