"""The clock and the hidden board (issue 9.6, 9.15): a solo game's clock stands still
while a dialog covers the board or the game is paused; keys never play on a board
that is not on screen."""

from __future__ import annotations

from termsolitaire.app import SolitaireApp
from termsolitaire.play.modes import MATCH
from termsolitaire.play.session import Clock

from .conftest import board, status
from .matchkit import until


def stepped() -> tuple[list[float], Clock]:
    now = [1000.0]
    return now, Clock(running=True, now=lambda: now[0])


async def test_the_clock_stands_still_under_a_dialog_and_while_paused() -> None:
    now, clock = stepped()
    app = SolitaireApp("penguin", 5, {}, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        now[0] += 2
        screen.tick()
        assert screen.game.elapsed == 2
        await pilot.press("question_mark")  # help covers the board
        now[0] += 30
        screen.tick()
        await pilot.press("escape")
        now[0] += 1
        screen.tick()
        assert screen.game.elapsed == 3  # the 30 s under the help did not count
        await pilot.press("P")
        assert not screen.board.display and "Paused" in str(screen.query_one("#enlarge").render())
        now[0] += 60
        screen.tick()
        await pilot.press("7", "3")  # game keys do nothing while paused
        assert screen.game.history == ()
        await pilot.press("P")
        assert screen.board.display and status(app) == "Playing on"
        now[0] += 1
        screen.tick()
        assert screen.game.elapsed == 4


async def test_keys_do_not_play_on_a_hidden_board() -> None:
    """At 60×20 the Penguin board is replaced by "Enlarge the window"; its keys
    must not play moves nobody can see."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = board(app)
        assert not screen.board.display
        await pilot.press("4", "f", "7", "3", "N", "z")
        assert screen.game.history == () and screen.game.log == ()
        await pilot.press("question_mark")  # help still opens
        assert type(app.screen).__name__ == "HelpScreen"


async def test_the_hidden_boards_refusal_goes_once_the_board_is_seen_again() -> None:
    """A key on a board too small to show says "Enlarge the window…"; enlarged,
    the board is back and that line must not stay: it says what is in hand."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = board(app)
        await pilot.press("3")
        # No dialog is there to close (it said "Enlarge the window (or close the
        # dialog) to play" whatever hid the board).
        assert status(app) == "Enlarge the window to play"
        # Each resize is waited for (under load it lands some frames later): a key
        # pressed before the board hides would play on it.
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: screen.board.display, "the board back")
        assert status(app).startswith("Keys: ")  # as before the key (it went blank)
        await pilot.press("7")
        await pilot.resize_terminal(60, 20)
        await until(pilot, lambda: not screen.board.display, "the board hidden")
        await pilot.press("3")
        assert status(app).startswith("Enlarge the window")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: status(app).startswith("Column 7 in hand"), "the hand said")
        assert screen.game.history == ()


async def test_a_match_clock_never_stops() -> None:
    now, clock = stepped()
    app = SolitaireApp("penguin", 5, {}, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        screen.controller.policy = MATCH
        await pilot.press("question_mark")
        now[0] += 5
        screen.tick()
        assert screen.game.elapsed == 5
        await pilot.press("escape", "P")
        assert status(app) == "The match clock never stops: P is for solo games"
        assert screen.board.display


async def test_a_header_too_wide_for_a_tiny_window_is_cut_with_a_mark() -> None:
    """At 40×10 the board is hidden and its header keeps the game's name only:
    "Pengu          score 3  moves 0", half a word that reads whole. Cut, it
    ends with "…"."""
    from .matchkit import screen_text

    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(40, 10)) as pilot:
        await until(pilot, lambda: "score" in screen_text(app), "the header")
        header = screen_text(app).strip().splitlines()[0]
        assert header.startswith("Peng…"), header


async def test_a_board_seen_again_says_what_it_said_before_the_refusal() -> None:
    """A key pressed on a board too small to show is refused ("Enlarge the window
    to play"); enlarged, the line went blank (or said only what was in hand, the
    hint's "Next: …, Enter plays it" lost). It says again what it said before."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press("7", "3")
        assert status(app) == "Played 9♦ 7→3"
        await pilot.resize_terminal(60, 20)
        await until(pilot, lambda: not screen.board.display, "the board hidden")
        await pilot.press("4")
        await pilot.press("4")  # a second refusal keeps the line from before the first
        assert status(app) == "Enlarge the window to play"
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: screen.board.display, "the board back")
        assert status(app) == "Played 9♦ 7→3"
        assert screen.game.log == ("t7-t3",)
