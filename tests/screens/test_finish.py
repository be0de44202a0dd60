"""Issue 30: the board finishes a game by itself once only foundation moves are
left (each move shown), and the status line's message is never cut for the
verdict."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.play.finish import finishing_line
from termsolitaire.rules import Game, Move, new_game
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.dialogs.results import ResultsScreen

from .matchkit import screen_text, shown_screen, until
from .test_napoleon import WON_DEAL, won_line
from .test_penguin import winning_line


def first_finishable(g: Game, line: list[Move]) -> int:
    """Play ``line`` on ``g`` up to the first position the board would finish by
    itself; how many moves that took."""
    for n, move in enumerate(line, 1):
        g.play(move)
        if finishing_line(g):
            return n
    raise AssertionError("the line never reaches a position to finish")


@pytest.mark.parametrize("game", ["penguin", "napoleon"])
async def test_the_board_finishes_once_only_foundation_moves_are_left(game: str) -> None:
    deal = 5 if game == "penguin" else WON_DEAL
    line = winning_line(new_game(game, deal)) if game == "penguin" else won_line()
    g = new_game(game, deal)
    mine = line[: first_finishable(g, line)]  # the player's part
    left = finishing_line(g)
    assert left and len(left) >= 2, "the line should leave several cards to finish"
    app = SolitaireApp(game, deal, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        for move in mine:
            screen.do(screen.controller.play(move))
        assert screen.controller.finishing
        assert screen_text(app).count("finishing") == 1  # said on the status line
        seen: set[int] = set()
        await until(
            pilot,
            lambda: seen.add(len(screen.game.history)) or isinstance(app.screen, ResultsScreen),
            "the results",
        )
        game_now = screen.game
        assert game_now.is_won
        assert [str(m) for m in game_now.history[: len(mine)]] == [str(m) for m in mine]
        assert all(m.dst in game_now.foundations for m in game_now.history[len(mine) :])
        assert len(seen) >= 3  # one move at a time, not all in one frame


async def test_a_game_left_while_the_board_finished_it_finishes_when_resumed() -> None:
    """``Q`` while the board sends the cards home: the save keeps a position with
    only foundation moves left, and the resumed board used to sit there (the
    player had to press ``f`` for each card); it finishes it now, as it would have."""
    from termsolitaire.storage.paths import paths
    from termsolitaire.storage.saves import SaveStore

    line = winning_line(new_game("penguin", 5))
    g = new_game("penguin", 5)
    first_finishable(g, line)
    SaveStore(paths()).save(g, "id-left")
    app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
        assert screen.game.is_won


@pytest.mark.parametrize("key", ["z", "enter", "space"])
async def test_a_key_meanwhile(key: str) -> None:
    """``z`` while the board finishes takes the last move back and stops the
    finish; Enter or Space (a player following hints presses it again) sends the
    rest home at once instead of acting at the cursor."""
    line = winning_line(new_game("penguin", 5))
    n = first_finishable(new_game("penguin", 5), line)
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        for move in line[:n]:
            screen.do(screen.controller.play(move))
        left = len(screen.controller.finish_rest)
        assert left >= 3
        await pilot.press(key)
        if key == "z":  # before the board goes on
            await until(pilot, lambda: not screen.controller.finishing, "the finish to stop")
            assert not screen.game.is_won
            return
        assert screen.game.is_won and screen.controller.hand.src is None
        assert len(screen.game.history) == n + left
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")


LONG = {
    "spider": "Column 10 in hand: no place takes it now (Escape puts it back)",
    "penguin": "Column 7 in hand: no place takes it now (Escape puts it back)",
}


@pytest.mark.parametrize(("game", "variant"), [("spider", {"suits": 2}), ("penguin", {})])
async def test_the_verdict_gives_way_to_a_long_message(game: str, variant: dict[str, int]) -> None:
    app = SolitaireApp(game, 5, variant, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        screen.solving.show_verdict("winnable with the cards known")
        screen.say(LONG[game])
        await pilot.pause()
        text = screen_text(app)
        assert LONG[game] in text  # whole
        verdict = screen.query_one("#verdict").text  # type: ignore[attr-defined]
        assert verdict in ("winnable*", "win*", "")
        screen.say("Played 9♦ 7→3")  # a short message: the verdict whole again
        await pilot.pause()
        assert "winnable with the cards known" in screen_text(app)


def answers() -> tuple[list[str | None], Callable[[str | None], None]]:
    """What a panel was answered with, and the callback that keeps it."""
    chosen: list[str | None] = []

    def answered(value: str | None) -> None:
        chosen.append(value)

    return chosen, answered


@pytest.mark.parametrize("panel", ["results", "stuck"])
async def test_a_panel_that_opens_by_itself_ignores_enter_at_first(
    panel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The results and the stuck offer open after a move, unasked: an Enter that
    comes in their first moment (meant for the board: a player following hints
    presses it again and again) chooses nothing; once the moment is over Enter
    takes the default button, and the letter keys work at once."""
    from termsolitaire.screens.dialogs import unasked
    from termsolitaire.screens.dialogs.stuck import StuckScreen

    def opened():  # type: ignore[no-untyped-def]
        if panel == "results":
            return ResultsScreen("Won!", 52, 80, 60, game=new_game("penguin", 5))
        return StuckScreen(5)

    default, letter, by_letter = (
        ("new", "q", "quit") if panel == "results" else ("undo", "R", "restart")
    )
    monkeypatch.setattr(unasked, "ARM_SECONDS", 3600.0)  # "the first moment", for the test
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, BoardScreen)
        chosen, answered = answers()
        app.push_screen(opened(), answered)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.press("space")
        await pilot.pause()
        assert chosen == [] and isinstance(app.screen, type(opened()))
        await pilot.press(letter)  # a letter is chosen on purpose: at once
        await until(pilot, lambda: chosen, "the letter's answer")
        assert chosen == [by_letter]
        monkeypatch.setattr(unasked, "ARM_SECONDS", 0.0)  # the moment is over
        app.push_screen(opened(), answered)
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: len(chosen) == 2, "Enter's answer")
        assert chosen == [by_letter, default]


async def test_enter_pressed_on_and_on_after_a_win_stays_on_the_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player who kept pressing Enter after the winning move got a new deal once
    the panel's first half second was over, and never saw the results: each Enter
    that comes too soon now starts the wait again, and only an Enter after a
    pause chooses."""
    from types import SimpleNamespace

    from termsolitaire.screens.dialogs import unasked

    now = [0.0]
    monkeypatch.setattr(unasked, "time", SimpleNamespace(monotonic=lambda: now[0]))
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, BoardScreen)
        chosen, answered = answers()
        app.push_screen(ResultsScreen("Won!", 52, 80, 60), answered)
        panel = await shown_screen(pilot, ResultsScreen)
        await until(pilot, lambda: panel.query("#new"), "the panel's buttons")
        button = panel.query_one("#new")

        def ready() -> bool:  # (a button takes no press while it shows the last)
            return bool(chosen) or not button.has_class("-active")

        for _ in range(8):  # an Enter every 0.3 s for 2.4 s
            now[0] += 0.3
            await pilot.press("enter")
            await until(pilot, ready, "the button let go")
        assert chosen == [] and isinstance(app.screen, ResultsScreen)
        now[0] += unasked.ARM_SECONDS  # a pause, then Enter: meant for the panel
        await pilot.press("enter")
        await until(pilot, lambda: chosen, "Enter's answer")
        assert chosen == ["new"]


def test_the_results_offer_to_share_only_a_game_with_moves() -> None:
    """The time-up panel of a game left alone offered "s shares this game as a
    code" for a replay of nothing (playtest24)."""
    game = new_game("penguin", 5)
    untouched = ResultsScreen("Time is up", 3, 0, 300, game=game)
    assert "shares" not in untouched.figures_text()
    assert untouched.check_action("share", ()) is False
    game.play(game.legal_moves()[0])
    played = ResultsScreen("Time is up", 3, 1, 300, game=game)
    assert "s shares this game as a code" in played.figures_text()
    assert played.check_action("share", ()) is True


@pytest.mark.parametrize("asked", [False, True])
async def test_a_notice_stands_above_the_status_line(asked: bool) -> None:
    """A fair "no move helps" comes with a notice naming the setting; at 80x24 the
    notice lay over the status line and hid most of the answer it went with. It
    did again under End's question (``asked``), a screen of its own over the board."""
    from textual.widgets._toast import Toast

    from termsolitaire.play.helping import FAIR_SETTING

    app = SolitaireApp("spider", 5, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        screen.say("No move helps here, by the cards you can see; e ends the game")
        app.notify(FAIR_SETTING, timeout=15)
        if asked:
            await pilot.press("e")
            await until(pilot, lambda: app.screen is not screen, "End's question")

        def shown() -> bool:
            return any(t.region.height for t in app.screen.query(Toast))

        await until(pilot, shown, "the notice")
        y = screen.query_one("#statusbar").region.y
        over = {type(app.screen.get_widget_at(x, y)[0]).__name__ for x in range(80)}
        assert "Toast" not in over, over


async def test_cards_held_when_the_game_ends_leave_no_mark_on_the_ended_board() -> None:
    """Spider, pile 3 in hand (pile 2 marked ▼ as where it may go), then End: the
    results, and behind them (Escape looks at the board) pile 2 still marked and
    the cards still drawn in hand, on a game that takes no move."""
    app = SolitaireApp("spider", 5, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        await pilot.press("3")
        await until(pilot, lambda: "▼2" in screen_text(app), "pile 2 marked")
        await pilot.press("e")
        await until(pilot, lambda: app.screen is not screen, "End's question")
        await pilot.press("y")
        await shown_screen(pilot, ResultsScreen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the board again")
        await pilot.pause()
        assert "▼" not in screen_text(app)
