"""The won panel and the stuck offer, driven by keys."""

from __future__ import annotations

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.rules.penguin import Penguin
from termsolitaire.screens.boards.penguin import PenguinScreen
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.screens.dialogs.stuck import StuckScreen

from .conftest import answer, board


async def test_stuck_offer_undo(penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        start = board(penguin_app).game.to_text()
        monkeypatch.setattr(Penguin, "is_stuck", property(lambda self: True))
        await pilot.press("7", "3")
        assert isinstance(penguin_app.screen, StuckScreen)
        monkeypatch.undo()
        await pilot.press("z")
        assert isinstance(penguin_app.screen, PenguinScreen)
        assert board(penguin_app).game.to_text() == start


async def test_stuck_offer_new_deal(
    penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(Penguin, "is_stuck", property(lambda self: True))
        await pilot.press("7", "3")
        monkeypatch.undo()
        await pilot.click("#new")
        assert isinstance(penguin_app.screen, PenguinScreen)
        assert board(penguin_app).game.history == ()


async def test_won_panel_new_deal(
    penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(Penguin, "is_won", property(lambda self: True))
        await pilot.press("7", "3")
        assert isinstance(penguin_app.screen, ResultsScreen)
        assert penguin_app.screen.moves == 1
        monkeypatch.undo()
        await pilot.press("n")
        assert isinstance(penguin_app.screen, PenguinScreen)
        assert board(penguin_app).game.history == ()
        assert not board(penguin_app).over


async def test_restart_key(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        start = board(penguin_app).game.to_text()
        await answer(pilot, ["7", "3", "R"], "y")
        assert board(penguin_app).game.to_text() == start
        assert board(penguin_app).game.deal == 5
