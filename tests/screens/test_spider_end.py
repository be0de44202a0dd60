"""End in a solo Spider game: a key in the footer, a confirm, then the results
with score, runs, moves and time used; the statistics record the game."""

from __future__ import annotations

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.boards.spider import SpiderScreen
from termsolitaire.screens.dialogs.confirm_end import ConfirmEndScreen
from termsolitaire.screens.dialogs.results import ResultsScreen

from .conftest import answer, board, status


async def test_end_after_yes_shows_results_and_records_the_game() -> None:
    app = SolitaireApp("spider", 123, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        shown = {
            (a.binding.key, a.binding.description)
            for a in app.screen.active_bindings.values()
            if a.binding.show and a.enabled
        }
        assert ("e", "End") in shown  # in the footer
        await pilot.press("1", "0")  # t1-t10
        game = board(app).game
        await pilot.press("e")
        assert isinstance(app.screen, ConfirmEndScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert app.screen.headline == "You ended the game"
        assert (app.screen.score, app.screen.runs, app.screen.moves) == (
            game.score,
            0,
            1,
        )
        text = app.screen.figures_text()
        assert "Runs       0 of 8" in text and "Time used" in text
        rows = [(f.game, f.result, f.moves) for f in app.services.stats.finished()]
        assert rows == [("spider", "lost", 1)]
        saved, _ = app.services.saves.load("spider")
        assert saved is None  # an ended game is no longer resumed


async def test_end_answered_no_plays_on() -> None:
    app = SolitaireApp("spider", 123, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await answer(pilot, ["e"], "n")
        assert isinstance(app.screen, SpiderScreen)
        assert not board(app).over
        assert status(app) == "Playing on"
        await pilot.press("1", "0")
        assert [str(m) for m in board(app).game.history] == ["t1-t10"]
        assert app.services.stats.finished() == []


async def test_end_with_no_action_records_nothing() -> None:
    """docs/ui.md: a game with no action is never recorded; End on a fresh deal
    ends it (the results show) but the statistics stay empty."""
    app = SolitaireApp("spider", 123, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await answer(pilot, ["e"], "y")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert app.services.stats.finished() == []


async def test_the_deal_key_is_dimmed_once_the_stock_is_dealt_out() -> None:
    """Spider 2 suits over SSH at 120x40, fair hints to "No move helps here": the
    stock dealt out, the key line still lit "d Deal" as any key that works
    (docs/ui.md: it dims what cannot be done now, an empty stock among them);
    d said "The stock is empty: all five packets are dealt". Now dimmed, d says
    the same."""

    def deal_lit() -> bool:
        return any(
            a.binding.action == "deal" and a.enabled
            for a in app.screen.active_bindings.values()
            if a.binding.show
        )

    app = SolitaireApp("spider", 123, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert deal_lit()
        while board(app).game.pile("stock"):
            await pilot.press("d")
        await pilot.pause()
        assert not deal_lit()
        await pilot.press("d")
        assert status(app) == "The stock is empty: all five packets are dealt"
