"""Issue 33: a screen shown for the first time reads what it shows once. Textual
mounts a new screen, then resumes it: the menu read every save and the daily
twice, the match lobby its tables, invitations and saves twice, and the menu's
second daily line (after the first frame) laid it out and painted it again. The
first resume now shows what the mount read; every later one reads again (a game
saved, a table opened meanwhile shows on the way back)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.storage.saves import SaveStore
from termsolitaire.widgets.line import TextLine

from .matchkit import lobby_first


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each reading of the saves (``saves``) and the lobby's of its lists (``tables``)."""
    done: list[str] = []
    every_save, reload = SaveStore.all, LobbyScreen.reload

    def saves_read(self: SaveStore) -> Any:
        done.append("saves")
        return every_save(self)

    def tables_read(self: LobbyScreen) -> None:
        done.append("tables")
        reload(self)

    monkeypatch.setattr(SaveStore, "all", saves_read)
    monkeypatch.setattr(LobbyScreen, "reload", tables_read)
    return done


async def test_the_lobby_then_the_menu_read_once_and_again_on_the_way_back(
    reads: list[str], tmp_path: Path
) -> None:
    with lobby_first(tmp_path) as app:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)
            assert reads == ["tables", "saves"]
            reads.clear()
            await pilot.press("g")
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert reads == ["saves"]
            assert "dailies" in str(app.screen.query_one("#menu-daily").render())
            reads.clear()
            await pilot.press("down", "enter")  # a Penguin board, saved on the way out
            for _ in range(3):
                await pilot.pause()
            board = app.screen  # (a deal left unplayed has no Resume line)
            board.do(board.controller.play(board.game.legal_moves()[0]))  # type: ignore[attr-defined]
            await pilot.pause()  # (saved once the board is painted again)
            app.pop_screen()
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            assert "saves" in reads
            lines = [str(o.prompt) for o in app.screen.query_one("#games").options]  # type: ignore[attr-defined]
            assert any(line.startswith("Resume Penguin") for line in lines)
            reads.clear()
            app.pop_screen()
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)
            assert reads.count("tables") == 1
            assert "Penguin" in app.screen.query_one("#status", TextLine).text


async def test_the_menu_as_the_first_screen_shows_its_daily_line(reads: list[str]) -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert reads == ["saves"]
        assert "dailies" in str(app.screen.query_one("#menu-daily").render())
