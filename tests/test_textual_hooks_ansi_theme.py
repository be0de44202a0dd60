"""Issue 33: the ANSI theme every drawn line asks for is read from the app's theme
name, its registry and its two ANSI themes at once (textual_hooks.ansi_theme_direct);
it is Textual's: at the board, after the theme changes to a light one and back,
after either ANSI theme is set, and for an app whose class has a theme of its own."""

from __future__ import annotations

from typing import Any

from rich.terminal_theme import DIMMED_MONOKAI, NIGHT_OWLISH
from textual.app import App
from textual.theme import Theme

from termsolitaire import textual_hooks

from .login_path import at_the_board

assert textual_hooks.ansi_theme_direct()


def textuals(app: Any) -> Any:
    return textual_hooks.themes.textuals_ansi_theme.fget(app)


async def test_the_board_draws_with_textuals_ansi_theme_through_every_change() -> None:
    async with at_the_board() as app:
        assert textual_hooks.themes._THEMES_PLAIN[type(app)]  # read at once, not Textual's
        seen = []
        for step in ("dark", "light", "dark ansi", "light ansi", "back"):
            if step == "light":
                app.theme = "textual-light"
            elif step == "dark ansi":
                app.ansi_theme_dark = NIGHT_OWLISH
            elif step == "light ansi":
                app.ansi_theme_light = DIMMED_MONOKAI
            elif step == "back":
                app.theme = "textual-dark"
            assert app.ansi_theme is textuals(app), step
            seen.append(app.ansi_theme)
        assert seen[0] is not seen[1] and seen[3:] == [DIMMED_MONOKAI, NIGHT_OWLISH]  # it changed


class Pinned(App[None]):
    """An app that draws with one theme whatever its ``theme`` says."""

    @property
    def current_theme(self) -> Theme:
        theme = self.get_theme("textual-light")
        assert theme is not None
        return theme


async def test_an_app_with_a_current_theme_of_its_own_is_asked_it() -> None:
    app = Pinned()
    async with app.run_test():
        assert app.theme != "textual-light"
        assert app.ansi_theme is app.ansi_theme_light is textuals(app)
        assert not textual_hooks.themes._THEMES_PLAIN[Pinned]
