"""Issue 33: a new screen is laid out once, not three times with the screen below it.

Textual's first layout of a screen sends the screen a resize to the size it was
just laid out at, and the screen then lays itself and every screen below it out
again (screens/styled.py drops that resize). After its first paint, Textual laid
the screen out again and painted it whole twice more for what its widgets had
asked before that paint (styled.py drops what the paint answered). That may not
cost what a player sees: a real resize still lays the board out, and a
notification (Textual's rack, laid out on its own layer) still shows and goes."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets._toast import Toast

from termsolitaire.app import SolitaireApp

from .conftest import board


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The screens laid out, in order (the names of their classes)."""
    done: list[str] = []
    textual_layout = Screen._refresh_layout

    def counted(self: Screen[Any], *args: Any, **kw: Any) -> None:
        done.append(type(self).__name__)
        textual_layout(self, *args, **kw)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return done


async def test_a_board_opened_from_the_menu_is_laid_out_once_and_the_menu_not_again(
    layouts: list[str],
) -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        layouts.clear()
        await pilot.press("down", "enter")  # Penguin, the menu's second game
        for _ in range(5):
            await pilot.pause()
        assert type(app.screen).__name__ == "PenguinScreen"
        # Its first layout only. Textual alone: a second for what its widgets, its
        # mount and its notification rack asked for before the first paint had
        # answered it, and a third for the resize its first layout sends, which
        # lays out the menu below as well.
        assert layouts == ["PenguinScreen"]


async def test_a_resize_still_lays_the_board_out(layouts: list[str]) -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(50, 15)
        await pilot.pause()
        assert board(app).too_small
        assert "Enlarge the window" in str(app.screen.query_one("#enlarge").render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not board(app).too_small
        assert board(app).board.display
        assert board(app).board.size.width > 0


async def test_a_notification_shows_on_a_board_and_goes() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.notify("Saved elsewhere", timeout=30)
        for _ in range(3):
            await pilot.pause()
        toasts = list(app.screen.query(Toast))
        assert [str(t.render()) for t in toasts] == ["Saved elsewhere"]
        assert toasts[0].region.width > 0
        app.clear_notifications()
        await pilot.pause()
        await pilot.pause()
        assert not list(app.screen.query(Toast))
