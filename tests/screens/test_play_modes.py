"""Issue 28, acceptance 2: one test per bug a new player met, each a mode the play
controller now keeps (no key acts on a hidden or read-only board, a match clock
never stops, leaving goes back to where the board was opened from)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, OptionList

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import from_text, new_game
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.dialogs.choice import ChoiceScreen
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.newgame import NewGameScreen
from termsolitaire.screens.menu import MenuScreen

from .conftest import board, deal_from_menu, status
from .matchkit import WallClock, lobby_app, shown_screen, until
from .test_penguin import winning_line


async def match_board(tmp_path: Path) -> tuple[SolitaireApp, WallClock]:
    clock = WallClock()
    app, _ = lobby_app(tmp_path / "match", clock, tmp_path / "home")
    return app, clock


async def open_table(pilot: object) -> MatchScreen:
    await shown_screen(pilot, LobbyScreen)  # type: ignore[arg-type]
    await pilot.press("n")  # type: ignore[attr-defined]
    await shown_screen(pilot, NewGameScreen)  # type: ignore[arg-type]
    await pilot.press("enter")  # type: ignore[attr-defined]
    await shown_screen(pilot, LobbyScreen)  # type: ignore[arg-type]
    await pilot.press("enter")  # type: ignore[attr-defined]
    return await shown_screen(pilot, MatchScreen)  # type: ignore[arg-type]


async def test_p_in_a_match_says_the_clock_never_stops_and_hides_nothing(
    tmp_path: Path,
) -> None:
    app, clock = await match_board(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_table(pilot)
        left = screen.seat.remaining()
        await pilot.press("P")
        assert status(app) == "The match clock never stops: P is for solo games"
        assert screen.board.display
        clock.advance(30)
        assert screen.seat.remaining() == left - 30  # it ran on
        await pilot.press("d")  # a deal on the board the player sees
        assert screen.seat.log == ["deal"]


async def test_h_s_d_r_n_and_hash_in_a_match_say_why_not(tmp_path: Path) -> None:
    app, _ = await match_board(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_table(pilot)
        for key, said in (
            ("H", "No hints in a match"),
            ("S", "No hints in a match"),
            ("D", "No hints in a match"),
            ("R", "A match game is played to its end"),
            ("N", "A match game is played to its end"),
            ("number_sign", "A match game is played to its end"),
        ):
            await pilot.press(key)
            assert status(app).startswith(said), (key, status(app))
            assert app.screen is screen and screen.seat.log == []


async def test_q_on_the_results_goes_back_to_the_menu() -> None:
    line = winning_line(new_game("penguin", 5))
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        menu.query_one("#deal", Input).value = "5"
        screen = await deal_from_menu(pilot, menu, "penguin")
        for move in line:
            screen.play(move)
        await shown_screen(pilot, ResultsScreen)
        await pilot.press("q")
        await shown_screen(pilot, MenuScreen)
        assert app.is_running


async def test_q_on_a_board_opened_from_the_command_line_goes_to_the_menu() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7", "3", "Q")
        menu = await shown_screen(pilot, MenuScreen)
        assert menu.query_one("#games", OptionList).highlighted_option.id == "resume:penguin"  # type: ignore[union-attr]
        assert app.is_running


async def test_q_goes_back_where_it_is_no_piles_key() -> None:
    """Spider's piles are digits: q goes back as Q does. Penguin's q is a cell."""
    app = SolitaireApp("spider", 5, {"suits": 1}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, BoardScreen)
        await pilot.press("q")
        await shown_screen(pilot, MenuScreen)
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        await pilot.press("q")
        assert app.screen is screen and status(app) == "Cell q is empty"


async def test_q_in_the_lobby_with_a_match_game_running_asks(tmp_path: Path) -> None:
    app, _ = await match_board(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(pilot)
        await pilot.press("Q")  # back to the lobby: the game goes on
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("q")
        question = await shown_screen(pilot, ChoiceScreen)
        assert question.headline == "Your match game at table 1 is running."
        await pilot.press("s")  # stay
        await shown_screen(pilot, LobbyScreen)
        assert app.is_running


async def test_the_menu_highlights_the_game_just_left() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        screen = await deal_from_menu(pilot, menu, "napoleon")
        games = menu.query_one("#games", OptionList)
        move = next(m for m in screen.game.legal_moves() if m.kind == "move")
        screen.play(move)
        await pilot.press("Q")
        await shown_screen(pilot, MenuScreen)
        # A Resume line came in above the games: the highlight follows the game left.
        assert games.highlighted_option.id == "resume:napoleon"  # type: ignore[union-attr]
        assert games.has_focus


async def test_back_from_a_game_started_by_its_deal_number() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        games = menu.query_one("#games", OptionList)
        games.highlighted = games.get_option_index("penguin")
        deal = menu.query_one("#deal", Input)
        deal.focus()
        await pilot.press("4", "2", "enter")  # Enter in the deal field starts the game
        screen = await shown_screen(pilot, BoardScreen)
        assert screen.game.deal == 42
        screen.play(next(m for m in screen.game.legal_moves() if m.kind == "move"))
        await pilot.press("Q")
        await shown_screen(pilot, MenuScreen)
        assert deal.value == "" and games.has_focus
        assert games.highlighted_option.id == "resume:penguin"  # type: ignore[union-attr]
        await pilot.press("down", "enter")  # the arrows work: the line below plays
        board_now = await shown_screen(pilot, BoardScreen)
        assert board_now.game.name != "penguin" or board_now.game.deal != 42


async def test_escape_never_quits_the_menu_or_the_lobby(tmp_path: Path) -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, MenuScreen)
    app, _ = await match_board(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, LobbyScreen)


async def test_a_cursor_drop_on_another_foundation_goes_to_the_cards_own() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        screen.hand.cursor = "t4"  # 2♥, its foundation f2
        await pilot.press("enter")
        assert screen.hand.src == "t4"
        screen.hand.cursor = "f4"  # the ♣ foundation under the cursor
        await pilot.press("enter")
        assert [str(m) for m in screen.game.history] == ["t4-f2"]


async def test_a_refused_cursor_drop_keeps_the_cards_in_hand() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        screen.hand.cursor = "t1"
        await pilot.press("enter")
        screen.hand.cursor = "t2"  # 7♥ does not go on the J♥
        await pilot.press("enter")
        assert screen.game.history == ()
        assert screen.hand.src == "t1"
        assert "goes only on" in status(app)


async def test_left_from_stjernens_corner_3_goes_to_2() -> None:
    app = SolitaireApp("stjernen", 1, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        screen.hand.cursor = "f3"  # the corner labelled 3
        await pilot.press("left")
        assert screen.hand.cursor == "o3"  # labelled 2
        await pilot.press("left")
        assert screen.hand.cursor == "f4"  # labelled 1


async def test_no_stale_in_hand_once_the_game_has_ended() -> None:
    app = SolitaireApp("spider", 3, {"suits": 1}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press("1")
        assert "in hand" in status(app)
        await pilot.press("e")
        await until(pilot, lambda: app.screen is not screen, "the End question")
        await pilot.press("y")
        await shown_screen(pilot, ResultsScreen)
        assert "in hand" not in status_of(screen)
        assert screen.hand.src is None


async def test_end_asks_and_enter_plays_on() -> None:
    """End's question has the abandon question's safe default: a stray ``e``
    followed by a reflexive Enter (or ``n``, Escape) keeps the game; only ``y`` ends it."""
    from termsolitaire.screens.dialogs.confirm_end import ConfirmEndScreen

    app = SolitaireApp("spider", 3, {"suits": 1}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press("d")
        log = list(screen.game.log)
        for keep in ("enter", "n", "escape"):
            await pilot.press("e")
            await shown_screen(pilot, ConfirmEndScreen)
            await pilot.press(keep)
            await until(pilot, lambda: app.screen is screen, f"{keep} closes the question")
            assert "Playing on" in status(app), keep
            assert isinstance(app.screen, BoardScreen) and list(screen.game.log) == log
        await pilot.press("e")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        await shown_screen(pilot, ResultsScreen)


def status_of(screen: BoardScreen) -> str:
    return screen.query_one("#status").text  # type: ignore[attr-defined,no-any-return]


async def test_a_replay_refuses_every_move_in_words() -> None:
    from termsolitaire.replay import Replay

    game = from_text(new_game("penguin", 5).to_text())
    move = next(m for m in game.legal_moves() if m.kind == "move")

    app = SolitaireApp(clock=False, replay=Replay(game.copy(), [move]))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        screen.do(screen.controller.pile("t7"))
        assert status(app).startswith("A replay is read only")
        assert screen.game.history == ()
