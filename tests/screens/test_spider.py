"""Spider through Pilot: cursor-mode moves, the deal and the undo barrier, the mouse."""

from __future__ import annotations

from textual.app import App

from termsolitaire.app import SolitaireApp
from termsolitaire.play.session import GameSession
from termsolitaire.rules import Game
from termsolitaire.screens.boards.spider import SpiderScreen
from tests.play.test_controller import face_down_t1

from .conftest import board, status


async def test_spider_move_with_cursor_mode_only(spider_app: SolitaireApp) -> None:
    async with spider_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right")  # the cursor appears on t1
        assert board(spider_app).hand.cursor == "t1"
        await pilot.press("space")  # pick up 10♠
        assert board(spider_app).board.piles["t10"].target
        await pilot.press("left", "left", "enter")  # t1 -> stock -> t10, drop
        assert [str(m) for m in board(spider_app).game.history] == ["t1-t10"]
        await pilot.press(*"hhhhhh", "space", *"llllll", "space")  # t10 -> t4, back to t10
        # t4's 9♥ onto t10's 10♠ after the first move
        assert [str(m) for m in board(spider_app).game.history] == ["t1-t10", "t4-t10"]
        await pilot.press("right", "space")  # t10 -> the stock: Space deals
        assert [str(m) for m in board(spider_app).game.history][-1] == "deal"


async def test_spider_run_moves_with_cursor_plus(spider_app: SolitaireApp) -> None:
    """The cursor and + / - cover a run, and never more than the run that could move
    (issue 9.11: five cards in hand where two form a run)."""
    async with spider_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "0")  # t1-t10: J♠ 10♠ on t10, a run of two
        game = board(spider_app).game
        assert [str(m) for m in game.history] == ["t1-t10"]
        await pilot.press("right", "left", "left", "up", "up", "space")  # t1, stock, t10
        assert board(spider_app).hand.src == "t10"
        assert board(spider_app).hand.shown_count() == 2  # the second up went nowhere
        await pilot.press("minus")
        assert board(spider_app).hand.shown_count() == 1
        await pilot.press("plus", "plus", "plus")
        assert board(spider_app).hand.shown_count() == 2  # + stops at the run
        await pilot.press("escape")
        assert board(spider_app).hand.src is None
        await pilot.press("4", "0")  # t4-t10: 9♥ on 10♠ ends the run
        await pilot.press("0", "plus", "plus")
        assert board(spider_app).hand.shown_count() == 1  # 9♥ alone could move


async def test_spider_deal_and_undo_barrier(spider_app: SolitaireApp) -> None:
    async with spider_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        game = board(spider_app).game
        after_deal = game.to_text()
        assert [str(m) for m in game.history] == ["deal"]
        await pilot.press("z")
        assert "A deal cannot be taken back" in status(spider_app)
        assert game.to_text() == after_deal


async def test_click_on_stock_deals(spider_app: SolitaireApp) -> None:
    async with spider_app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#pile-stock", offset=(2, 2))
        assert [str(m) for m in board(spider_app).game.history] == ["deal"]
        assert "4" in board(spider_app).board.piles["stock"].badge


async def test_a_click_on_the_completed_runs_names_them(spider_app: SolitaireApp) -> None:
    """A click on the pile of completed runs (labelled 0/8) said "Cards in done
    never move": the rules' name of the pile read as a word, which the board
    shows nowhere. It says what the pile is."""
    async with spider_app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#pile-done", offset=(2, 1))
        assert status(spider_app).startswith("Completed runs never move"), status(spider_app)
        assert not board(spider_app).game.history
        await pilot.click("#pile-t1", offset=(2, 5))  # t1's 6♣ in hand, then onto the runs
        await pilot.click("#pile-done", offset=(2, 1))
        assert status(spider_app).startswith("Only a complete run K to A joins"), status(spider_app)


async def test_header_shows_game_variant_deal(spider_app: SolitaireApp) -> None:
    async with spider_app.run_test(size=(80, 24)):
        title = board(spider_app).query_one("#title").text  # type: ignore[attr-defined]
        assert "Spider" in title and "2 suits" in title and "123" in title


async def test_time_limit_runs_out_and_results_show() -> None:
    from termsolitaire.screens.dialogs.results import ResultsScreen

    app = SolitaireApp("spider", 123, {"suits": 1}, time_limit=5, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        screen.game.elapsed = 5 * 60.0
        screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert app.screen.headline == "Time is up"


class OneBoard(App[None]):
    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.clock = False

    def on_mount(self) -> None:
        self.push_screen(SpiderScreen(GameSession(None, self.game)))


async def test_turn_with_t_then_pile_key() -> None:
    app = OneBoard(face_down_t1())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "1")
        assert [str(m) for m in app.game.history] == ["turn t1"]
        await pilot.press("z")
        assert "turned card cannot be turned back" in status(app)  # type: ignore[arg-type]


async def test_click_on_face_down_top_turns_it() -> None:
    app = OneBoard(face_down_t1())
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.board.piles["t1"]  # type: ignore[attr-defined]
        y = len(view._rows)  # the last card row, under the label row
        await pilot.click("#pile-t1", offset=(2, y))
        assert [str(m) for m in app.game.history] == ["turn t1"]
