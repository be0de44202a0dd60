"""The won panel and the stuck offer, driven by keys."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from textual.widgets import Markdown

from termsolitaire.app import SolitaireApp
from termsolitaire.rules.penguin import Penguin
from termsolitaire.screens.boards.penguin import PenguinScreen
from termsolitaire.screens.dialogs.confirm_end import ConfirmEndScreen
from termsolitaire.screens.dialogs.dealnumber import DealNumberScreen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.screens.dialogs.stuck import StuckScreen

from .conftest import answer, board
from .matchkit import key_line, screen_text, shown_screen, until


async def test_stuck_offer_undo(penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        start = board(penguin_app).game.to_text()
        monkeypatch.setattr(Penguin, "is_stuck", property(lambda self: True))
        await pilot.press("7", "3")
        assert isinstance(penguin_app.screen, StuckScreen)
        # its line adds what the key line does not say: Restart is this deal again
        text = screen_text(penguin_app)
        assert "Restart plays deal 5 again." in text
        assert "Escape keeps looking" not in text
        monkeypatch.undo()
        await pilot.press("z")
        assert isinstance(penguin_app.screen, PenguinScreen)
        assert board(penguin_app).game.to_text() == start


async def test_stuck_offer_new_deal(
    penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    from termsolitaire.screens.dialogs import unasked

    monkeypatch.setattr(unasked, "ARM_SECONDS", 0.0)  # a click at once (the wait: test_finish)
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(Penguin, "is_stuck", property(lambda self: True))
        await pilot.press("7", "3")
        monkeypatch.setattr(Penguin, "is_stuck", property(lambda self: False))
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


async def test_the_help_and_the_results_show_their_own_keys_over_the_board_s(
    penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the help and the won panel the board's key line ("z Undo", "R Restart")
    showed keys that do nothing there, and nothing said how to close the help or
    that Escape looks at the won board: each has its own line at the foot."""

    async with penguin_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await shown_screen(pilot, HelpScreen)
        await pilot.pause()
        assert key_line(penguin_app)[:2] == ["Close help", "Rules"]
        await pilot.press("escape")
        monkeypatch.setattr(Penguin, "is_won", property(lambda self: True))
        await pilot.press("7", "3")
        await shown_screen(pilot, ResultsScreen)
        await pilot.pause()
        assert key_line(penguin_app)[:4] == ["New deal", "Menu", "Share", "Look at the board"]


async def test_the_stuck_offer_abandon_and_end_show_their_own_keys_over_the_board_s(
    penguin_app: SolitaireApp, spider_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under "Stuck", "Start a new deal?" and "End this game now?" the board's key
    line ("f To foundation", "H Hint") showed through, keys that do nothing
    there, and nothing said that Escape looks at the board: each answer's key
    and Escape are on the dialog's own line, as under the help and the results."""
    from termsolitaire.screens.dialogs.confirm import ConfirmAbandonScreen

    async with penguin_app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(Penguin, "is_stuck", property(lambda self: True))
        await pilot.press("7", "3")
        await shown_screen(pilot, StuckScreen)
        monkeypatch.undo()
        await pilot.pause()
        assert key_line(penguin_app)[:4] == ["Undo", "Restart", "New deal", "Look at the board"]
        await pilot.press("escape")
        await pilot.press("N")
        await shown_screen(pilot, ConfirmAbandonScreen)
        await pilot.pause()
        assert key_line(penguin_app)[:3] == ["Yes, abandon", "No, keep playing", "Never mind"]
        await pilot.press("escape")
        assert isinstance(penguin_app.screen, PenguinScreen)
        assert board(penguin_app).game.history != ()  # kept

    async with spider_app.run_test(size=(80, 24)) as pilot:  # End's question (Spider's e)
        await pilot.press("e")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.pause()
        assert key_line(spider_app)[:2] == ["Yes, end it", "No, play on"]
        await pilot.press("escape")
        assert not board(spider_app).over


async def test_the_deal_number_prompt_shows_its_own_keys_over_the_board_s(
    penguin_app: SolitaireApp,
) -> None:
    """``#`` over SSH at 80x24: under "play deal number" the board's key line
    ("f To foundation  M Moves  z Undo …") showed through, keys that type into
    the prompt there. The prompt's own line: Enter plays, Escape never minds."""

    async with penguin_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("number_sign")
        await shown_screen(pilot, DealNumberScreen)
        await pilot.pause()
        assert key_line(penguin_app) == ["Play that deal", "Never mind"]
        await pilot.press("a", "b", "c", "enter")  # refused, still asking
        assert isinstance(penguin_app.screen, DealNumberScreen)
        await pilot.press("escape")
        assert isinstance(penguin_app.screen, PenguinScreen)
        await pilot.press("number_sign")
        await shown_screen(pilot, DealNumberScreen)
        await pilot.press("7", "enter")  # Enter, on the line, plays that deal
        await until(pilot, lambda: board(penguin_app).game.deal == 7, "deal 7")


async def test_end_in_the_help_stays_at_the_end_as_the_page_grows(
    penguin_app: SolitaireApp,
) -> None:
    """`End` pressed within about a second of opening a board's help stopped at the
    "Mouse" paragraph: it scrolled to the end of the page as laid out then, and the
    page grew after (its lines wrapped again). `End` now keeps the page at its end
    as it grows, here by a narrower terminal, until the player scrolls up."""
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        help_screen = await shown_screen(pilot, HelpScreen)
        body = help_screen.query_one("#help-body")
        await until(pilot, lambda: body.max_scroll_y > 0, "the help's page")
        await pilot.press("end")
        await until(pilot, lambda: body.scroll_y == body.max_scroll_y, "End")
        longer = body.max_scroll_y
        await pilot.resize_terminal(60, 24)  # every paragraph wraps on more lines
        await until(pilot, lambda: body.max_scroll_y > longer, "the page laid out again")
        last = re.compile(r"narrow\. *│")  # the help's last words
        await until(pilot, lambda: last.search(screen_text(penguin_app)), "the end", timeout=5)


async def test_restart_key(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        start = board(penguin_app).game.to_text()
        await answer(pilot, ["7", "3", "R"], "y")
        assert board(penguin_app).game.to_text() == start
        assert board(penguin_app).game.deal == 5


LINES = re.compile("[\u2500-\u257f\u2581\u2594\u258a\u258e\u2590\u258c]")
"""Box-drawing characters, and the blocks Textual's ``tall``/``wide`` frames use."""


@pytest.mark.parametrize("game", ["stjernen", "penguin", "spider", "napoleon"])
async def test_ascii_writes_the_help_and_the_rules_pages_in_ascii(game: str) -> None:
    """Under ``--ascii`` a board's help (its keys and how to play) and its game's
    rules page, every screenful of them, hold ASCII characters only: bullets,
    tables without box-drawn lines, arrows, dashes, suits, the scroll bar."""
    from termsolitaire.screens.dialogs.rulebook import RulesScreen

    app = SolitaireApp(game, 3, clock=False)
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for keys, kind in ((["question_mark"], HelpScreen), (["r"], RulesScreen)):
            await pilot.press(*keys)
            await shown_screen(pilot, kind)
            for _ in range(12):  # every screenful
                await pilot.pause()
                drawn = screen_text(app)
                wide = sorted({ch for ch in drawn if ord(ch) > 127})
                assert not wide, (kind.__name__, wide)
                await pilot.press("pagedown")


async def test_ascii_marks_a_search_and_a_cut_message_with_dots() -> None:
    """Under ``--ascii`` the verdict's "working on it" and the mark where a long
    status message is cut were the one "…" left on the board: now "..."."""
    from termsolitaire.screens.boards.solving import SEARCHING
    from termsolitaire.widgets.line import TextLine

    app = SolitaireApp("penguin", 5, {}, clock=False)
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)

        def shown(name: str) -> str:
            return screen.query_one(f"#{name}", TextLine).render_line(0).text

        screen.say("Played 9♦ 7→3")
        screen.solving.show_verdict(SEARCHING)
        await pilot.pause()
        assert shown("verdict").strip() == "..."
        screen.say("Played 9♦ 7→3, " + "and a long message " * 6)
        await pilot.pause()
        line = shown("status")
        assert line.rstrip().endswith("..."), line
        assert all(ord(ch) < 128 for ch in line + shown("verdict")), line


async def test_ascii_draws_dialog_frames_in_ascii_too() -> None:
    """Issue 30: under ``--ascii`` the help, the deal-number prompt, End's question
    and the results are framed with ``+ - |``, like the cards."""
    app = SolitaireApp("spider", 123, {"suits": 2}, clock=False)
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    async with app.run_test(size=(80, 24)) as pilot:
        assert not LINES.search(screen_text(app))  # the board itself
        for keys, kind in (
            (["question_mark"], HelpScreen),
            (["escape", "number_sign"], DealNumberScreen),
            (["escape", "e"], ConfirmEndScreen),
            (["y"], ResultsScreen),
        ):
            await pilot.press(*keys)
            await shown_screen(pilot, kind)
            await pilot.pause()
            drawn = screen_text(app)
            assert "+--" in drawn, kind.__name__
            assert not LINES.search(drawn), (kind.__name__, LINES.findall(drawn)[:5])
            if kind is HelpScreen:  # how to play names the target mark as drawn
                source = app.screen.query_one(Markdown).source
                assert "marked v" in source and "▼" not in source


async def test_the_help_says_what_the_verdict_words_mean() -> None:
    """A fresh Stjernen board says "fair: deal next" beside its keys while card
    moves are there to play: the help says what that means (no card move gains
    anything), and what "*" after a verdict stands for."""
    from termsolitaire.app import SolitaireApp

    from .matchkit import screen_text, until

    app = SolitaireApp("stjernen", 1, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark", "end")
        await until(pilot, lambda: "Hints and the verdict" in screen_text(app), "the section")
        text = " ".join(screen_text(app).replace("│", " ").split())  # the frame's sides out
        assert '"fair: deal next" (no card move gains anything now: deal;' in text
        assert '"winnable*"' in text


def test_the_stuck_offer_of_a_game_with_no_deal_number_names_this_deal() -> None:
    # a game set up from a position has no deal number: Restart still plays it again
    assert StuckScreen(None).lines == [
        "Undo goes back a move at a time; Restart plays this deal again."
    ]
    assert StuckScreen(12).lines == [
        "Undo goes back a move at a time; Restart plays deal 12 again."
    ]
