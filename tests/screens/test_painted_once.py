"""Issue 33: a screen under an opaque one does not have the screen on top painted
again. Textual asked the current screen to repaint whatever changed on the screen
just below it, even when the current one covers it all: the menu, restyled as a
board covered it, had the board painted in full a second time
(textual_hooks.refresh_covered). What changed on the covered screen still shows
when it comes back, and under a screen that lets it show through (a dialog) it
is Textual's as before."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual._compositor import Compositor
from textual.screen import ModalScreen

from termsolitaire import textual_hooks
from termsolitaire.app import SolitaireApp


def shown(app: SolitaireApp) -> str:
    """The screen as an SVG, less the name Textual gives it (a hash of the whole)."""
    return re.sub(r"terminal-\d+", "terminal", app.export_screenshot())


@pytest.fixture
def full_paints(monkeypatch: pytest.MonkeyPatch) -> list[Compositor]:
    """The compositors that painted a whole screen, in order."""
    done: list[Compositor] = []
    textual_paint = Compositor.render_full_update

    def counted(self: Compositor, *args: Any, **kw: Any) -> Any:
        done.append(self)
        return textual_paint(self, *args, **kw)

    monkeypatch.setattr(Compositor, "render_full_update", counted)
    return done


async def test_a_board_opened_from_the_menu_is_painted_once(full_paints: list[Compositor]) -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        menu = app.screen
        full_paints.clear()
        await pilot.press("down", "enter")  # Penguin, the menu's second game
        for _ in range(5):
            await pilot.pause()
        assert type(app.screen).__name__ == "PenguinScreen"
        # Textual alone: a second time for the menu restyled under it.
        assert full_paints == [app.screen._compositor]
        assert textual_hooks.refresh_covered(menu)


async def test_the_menu_shows_again_with_what_changed_under_the_board() -> None:
    """The menu, covered by the board, gains its "Resume Penguin" line; back on the
    menu, that line is on the screen, where the board was."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        menu = app.screen
        assert "Resume" not in shown(app)
        await pilot.press("down", "enter")
        for _ in range(3):
            await pilot.pause()
        assert app.screen is not menu
        board = app.screen  # (a deal left unplayed has no Resume line)
        board.do(board.controller.play(board.game.legal_moves()[0]))  # type: ignore[attr-defined]
        await pilot.pause()  # (saved once the board is painted again)
        app.pop_screen()
        for _ in range(3):
            await pilot.pause()
        assert app.screen is menu
        assert "Resume&#160;Penguin" in shown(app)


async def test_a_screen_under_a_dialog_is_textuals() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        await app.push_screen(ModalScreen[None]())
        await pilot.pause()
        assert app.screen.styles.background.a < 1  # the board shows through
        assert not textual_hooks.refresh_covered(board)
        assert not textual_hooks.refresh_covered(app.screen)


async def test_the_apps_first_screen_is_painted_in_full_once(
    full_paints: list[Compositor], tmp_path: Any
) -> None:
    """The match lobby, a login's first screen: Textual lays its own empty screen
    out below it once the terminal's size has come, and had the lobby painted in
    full a second time for it (BottomScreen); the lobby shows all the same."""
    from termsolitaire.screens.match.lobby import LobbyScreen

    from .matchkit import lobby_first

    with lobby_first(tmp_path) as app:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            for _ in range(5):
                await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)
            assert full_paints == [app.screen._compositor]
            assert "Spider&#160;match&#160;lobby" in shown(app)
            assert textual_hooks.refresh_covered(app.screen_stack[0])


async def test_the_bottom_screen_is_laid_out_only_when_it_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Textual laid its empty default screen out six times at an app's start, under
    an opaque first screen; now only once it is the app's screen (the first popped)."""
    from textual.screen import Screen

    from termsolitaire.app import BottomScreen

    laid_out: list[Any] = []
    textual_layout = Screen._refresh_layout

    def counted(self: Screen[Any], *args: Any, **kw: Any) -> None:
        laid_out.append(self)
        textual_layout(self, *args, **kw)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
        bottom = app.screen_stack[0]
        assert isinstance(bottom, BottomScreen)
        assert bottom not in laid_out
        assert laid_out.count(app.screen) == 1
        await pilot.resize_terminal(90, 30)
        for _ in range(3):
            await pilot.pause()
        assert bottom not in laid_out
        app.pop_screen()
        for _ in range(3):
            await pilot.pause()
        assert app.screen is bottom
        assert bottom in laid_out
        assert bottom.size == app.size == (90, 30)
