"""The daily from the app (issue 31): the menu shows it and ``d`` opens the dailies;
Enter starts one on the game's own board with no pause, restart or hints (each
refused with a sentence), the title naming the day, not the deal; leaving and
coming back resumes it; End leads to the leaderboard with one's own line marked;
a second Enter is refused; a solo game on the daily's deal number counts for
nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Label

from termsolitaire.app import SolitaireApp
from termsolitaire.match import MatchStore, Player
from termsolitaire.match.daily import Daily, week_of
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.daily import DailyResults, DailyScreen
from termsolitaire.screens.dialogs.confirm_end import ConfirmEndScreen
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.line import TextLine

from .conftest import status
from .matchkit import ascii_chosen_over, screen_text, shown_screen, until


@pytest.fixture
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TERMSOLITAIRE_MATCH_DIR", str(tmp_path / "match"))
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "ann")
    return tmp_path / "match"


def daily_line(screen: DailyScreen) -> str:
    return str(screen.query_one("#status", TextLine).text)


async def daily_board(pilot: Pilot[object], game: str) -> tuple[DailyScreen, BoardScreen]:
    """From the dailies on screen, ``game``'s daily played: the dailies and its board."""
    dailies = await shown_screen(pilot, DailyScreen)
    dailies.query_one("#dailies").highlighted = [g for g, _ in dailies.choices].index(game)
    await pilot.press("enter")
    return dailies, await shown_screen(pilot, BoardScreen)


async def test_a_click_on_the_daily_line_opens_the_dailies(shared: Path) -> None:
    """The menu's and the lobby's line "Daily: Stjernen · … · d: dailies" did
    nothing when clicked (its d did): a mouse player found no way in but the
    key line. A click opens the dailies, from either."""
    from termsolitaire.screens.match.lobby import LobbyScreen

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        label = menu.query_one("#menu-daily", Label)
        await until(pilot, lambda: "Daily:" in str(label.render()), "the menu's daily line")
        await pilot.click("#menu-daily")
        await shown_screen(pilot, DailyScreen)
        await pilot.press("q", "m")
        lobby = await shown_screen(pilot, LobbyScreen)
        line = lobby.query_one("#lobby-daily", TextLine)
        await until(pilot, lambda: "Daily:" in line.text, "the lobby's daily line")
        await pilot.click("#lobby-daily")
        await shown_screen(pilot, DailyScreen)


async def test_a_daily_from_the_menu(shared: Path) -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        label = menu.query_one("#menu-daily", Label)
        await until(pilot, lambda: "Daily:" in str(label.render()), "the menu's daily line")
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        await pilot.press("down")  # Stjernen, then Penguin
        assert dailies.chosen() == ("penguin", {})
        await pilot.press("enter")
        board = await shown_screen(pilot, BoardScreen)
        assert "daily" in board.title_text() and "deal" not in board.title_text()
        # The daily's board adds End to Penguin's keys and keeps the board's words
        # and help (they once read only the End key: "1 in hand", a help of one key).
        await pilot.press("1")
        assert status(app).startswith("Column 1 in hand"), status(app)
        await pilot.press("escape", "question_mark")
        await until(pilot, lambda: "end your daily now" in screen_text(app), "the help")
        assert "1 2 3 4 5 6 7" in screen_text(app) and "columns" in screen_text(app)
        await pilot.press("escape")
        await shown_screen(pilot, BoardScreen)
        for key, words in (("H", "No hints in the daily"), ("R", "played once"), ("P", "never")):
            await pilot.press(key)
            assert words in status(app), key
        assert board.solving.verdict == ""  # no verdict while the attempt goes on
        move = board.game.legal_moves()[0]
        board.do(board.controller.play(move))
        log = board.game.log
        await pilot.press("Q")
        dailies = await shown_screen(pilot, DailyScreen)
        await pilot.press("enter")  # resumed: the same attempt
        board = await shown_screen(pilot, BoardScreen)
        assert board.game.log == log
        await pilot.press("E")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        await shown_screen(pilot, DailyResults)
        await pilot.press("l")
        dailies = await shown_screen(pilot, DailyScreen)
        await until(pilot, lambda: "▶1" in screen_text(app), "the leaderboard")
        text = screen_text(app)
        assert "Penguin · daily of" in text and "ann" in text and "lost" in text
        assert "Penguin · nobody" not in text and "you played" in text
        await pilot.press("enter")
        await until(pilot, lambda: "one attempt a day" in daily_line(dailies), "the refusal")
        assert "You played today's Penguin daily" in daily_line(dailies)

    ann = Daily(MatchStore(Player.make("ann"), shared, keep_dir=False))
    before = (ann.state("penguin", {}), ann.summary("penguin", {}))
    solo = SolitaireApp("penguin", ann.deal("penguin", {}), {}, clock=False)
    async with solo.run_test(size=(80, 24)) as pilot:
        board = await shown_screen(pilot, BoardScreen)
        board.do(board.controller.play(board.game.legal_moves()[0]))
        await pilot.press("Q")
    assert (ann.state("penguin", {}), ann.summary("penguin", {})) == before == ("lost", (0, 1))


async def test_enter_on_a_past_day_s_board_shows_today_s_before_it_plays(shared: Path) -> None:
    """Looking at yesterday's Napoleon board (`[`), one's own line "playing" there,
    Enter started today's attempt at once: the day's one attempt, spent by a player
    who may have meant yesterday's. It shows today's board and says what the
    next Enter does; that one plays."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        today = dailies.daily.today()
        await pilot.press("left_square_bracket", "enter")
        assert dailies.day == today and app.screen is dailies
        assert f"daily of {today}" in screen_text(app)
        assert daily_line(dailies) == "Today's Stjernen daily: Enter plays it, one attempt a day"
        assert dailies.daily.state("stjernen", {}) is None
        await pilot.press("enter")
        await shown_screen(pilot, BoardScreen)
        assert dailies.daily.state("stjernen", {}) == "playing"


async def test_today_shows_today_whatever_day_was_stepped_to(shared: Path) -> None:
    """`t Today` after `[ Day before` kept the day stepped to ("daily of 2026-12-04"
    under the key that says Today), and `[` pressed on the all-time records moved
    that hidden day silently; now `t` is today's board, and the all-time records,
    which have no day, say so and change nothing."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        today = dailies.daily.today()
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert dailies.day < today
        await pilot.press("t")
        assert dailies.day == today and f"daily of {today}" in screen_text(app)
        await pilot.press("a", "left_square_bracket")
        assert "no day before or after" in daily_line(dailies)
        await pilot.press("w")
        assert dailies.day == today


async def test_the_weeks_leaderboard_names_the_days_it_spans(shared: Path) -> None:
    """`w` headed the board "week of 2026-12-06" on a Sunday: it spans Monday
    2026-11-30 to that Sunday, not a week from then."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        await pilot.press("w")
        monday, sunday = week_of(dailies.daily.today())
        await until(pilot, lambda: f"week {monday} to {sunday}" in screen_text(app), "the week")


async def test_a_click_on_a_daily_shows_its_leaderboard_and_a_second_plays_it(
    shared: Path,
) -> None:
    """One attempt a day: a click on the Penguin line, to see its leaderboard,
    started the Penguin daily (Textual's list plays on the first click). It shows
    the leaderboard now, as ↓ does; a click on the highlighted line plays it."""
    from textual.widgets import OptionList

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        lines = dailies.query_one("#dailies", OptionList)
        assert lines.highlighted == 0  # Stjernen
        await pilot.click("#dailies", offset=(2, 1))  # the Penguin line
        await until(pilot, lambda: "Penguin · daily of" in screen_text(app), "its leaderboard")
        assert app.screen is dailies and lines.highlighted == 1
        assert dailies.daily.state("penguin", {}) != "playing"
        await pilot.click("#dailies", offset=(2, 1))
        board = await shown_screen(pilot, BoardScreen)
        assert board.game.name == "penguin"


async def test_ascii_writes_the_dailies_without_middle_dots_or_plus_minus(shared: Path) -> None:
    """Under ``--ascii`` (or the ASCII card style) the menu's daily line, the
    dailies' title and lines and the leaderboard separate their fields with ``|``
    and write a rating's ``±`` as ``+-``, as the board's header does."""
    from dataclasses import replace

    app = SolitaireApp(clock=False)
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        label = menu.query_one("#menu-daily", Label)
        await until(pilot, lambda: "Daily:" in str(label.render()), "the menu's daily line")
        assert "Daily: Stjernen | nobody has played it yet | d: dailies" in str(label.render())
        await pilot.press("d")
        await shown_screen(pilot, DailyScreen)
        await until(pilot, lambda: "Stjernen | daily of" in screen_text(app), "the leaderboard")
        text = screen_text(app)
        assert "you are ann | rating 1500 +-350?" in text
        assert "Penguin | nobody has played it yet" in text
        assert "·" not in text and "±" not in text


async def test_ascii_writes_the_lobby_without_middle_dots(tmp_path: Path) -> None:
    """The match lobby under ``--ascii``: its title, daily line and table details
    separate their fields with ``|`` too."""
    from dataclasses import replace

    from termsolitaire.screens.match.lobby import LobbyScreen

    from .matchkit import WallClock, lobby_app

    app, match = lobby_app(tmp_path / "match", WallClock(), tmp_path / "home")
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    match.store.open_table(1, 10)  # ann's own open table: the details show it
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: "d: dailies" in screen_text(app), "the lobby's daily line")
        text = screen_text(app)
        assert "Spider match lobby | you are ann | 1 open table" in text
        assert "Stjernen | nobody has played it yet | d: dailies" in text
        assert "·" not in text and "±" not in text


async def test_the_lobbys_info_shows_the_rating(tmp_path: Path) -> None:
    from termsolitaire.screens.match.players import PlayersScreen

    from .matchkit import WallClock, lobby_app

    app, _ = lobby_app(tmp_path / "match", WallClock(), tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await shown_screen(pilot, PlayersScreen)
        await until(pilot, lambda: "rating 1500 ±350?" in screen_text(app), "the rating")
        assert "(provisional)" in screen_text(app)


FULL = os.environ.get("TERMSOLITAIRE_FULL") == "1"


@pytest.mark.parametrize(
    "game", ["spider", *(["stjernen", "napoleon"] if FULL else [])]
)  # Penguin: above; the other two with TERMSOLITAIRE_FULL=1 (4 s each)
async def test_every_games_daily_ends_with_its_end_key(game: str, shared: Path) -> None:
    """Each game's board plays its daily: hints refused, End (Spider's ``e``, the
    others' ``E``) ends it, and the leaderboard lists it."""
    from termsolitaire.match import current_player

    daily = Daily(MatchStore(current_player(), None, keep_dir=False))
    app = SolitaireApp(clock=False, first_screen=lambda services, look: DailyScreen(daily, look))
    async with app.run_test(size=(100, 30)) as pilot:
        dailies, board = await daily_board(pilot, game)
        await pilot.press("H")
        assert "No hints in the daily" in status(app)
        await pilot.press("e" if game == "spider" else "E")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        results = await shown_screen(pilot, DailyResults)
        await pilot.pause()
        foot, _ = results.get_widget_at(1, 29)  # its own keys, not the board's
        assert isinstance(foot, KeyLine) and foot.shown() == ["Leaderboard", "Look at the board"]
        # the key the button names, "Leaderboard (l)", not the n the solo results bind
        assert [key.display for key in foot.keys] == ["l", "esc"]
        await pilot.press("l")
        await shown_screen(pilot, DailyScreen)
        assert board.game.name == game
    assert (
        daily.state(game, dailies.choices[[g for g, _ in dailies.choices].index(game)][1]) == "lost"
    )


async def test_the_daily_promises_no_verdict_it_never_gives(shared: Path) -> None:
    """H on a daily said "No hints in the daily: everyone plays it alone; the
    verdict comes at the end", and still said so on the board once the attempt
    had ended, where no verdict ever came, nor on the leaderboard (playtest36).
    It says what holds: no hints, the same deal for all."""
    from termsolitaire.match import current_player

    daily = Daily(MatchStore(current_player(), None, keep_dir=False))
    app = SolitaireApp(clock=False, first_screen=lambda services, look: DailyScreen(daily, look))
    async with app.run_test(size=(80, 24)) as pilot:
        _, board = await daily_board(pilot, "penguin")
        await pilot.press("H")
        assert status(app).startswith("No hints in the daily"), status(app)
        assert "verdict" not in status(app)
        await pilot.press("E")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        await shown_screen(pilot, DailyResults)
        await pilot.press("escape")  # the ended board
        await shown_screen(pilot, BoardScreen)
        await pilot.press("H")
        assert "verdict" not in status(app) and board.solving.verdict == "", status(app)


async def test_the_dailies_help_says_what_the_rating_in_their_title_is(shared: Path) -> None:
    """The title reads "rating 1500 ±350?" and nothing on the screen said whose
    rating that is (the matches') or what the ± and the ? mean."""
    from termsolitaire.screens.dialogs.help import HelpScreen

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        await shown_screen(pilot, DailyScreen)
        assert "rating 1500 ±350?" in screen_text(app)
        await pilot.press("question_mark")
        help = await shown_screen(pilot, HelpScreen)
        keys = " ".join(words for _, words in help.keys)
        assert "Spider match rating" in keys and "? until 10 rated matches" in keys


async def test_the_card_style_changed_over_the_dailies_reaches_them_and_the_daily_played_next(
    shared: Path,
) -> None:
    """Card style ASCII chosen in the settings over the dailies (the palette opens
    them there): the leaderboard's rule and the board of the daily played next were
    drawn in the old style, box-drawing and suit glyphs a Linux console cannot show."""
    from termsolitaire.match import current_player

    daily = Daily(MatchStore(current_player(), None, keep_dir=False))
    app = SolitaireApp(clock=False, first_screen=lambda services, look: DailyScreen(daily, look))
    async with app.run_test(size=(80, 24)) as pilot:
        dailies = await shown_screen(pilot, DailyScreen)
        assert "───" in screen_text(app)
        await ascii_chosen_over(pilot, app, DailyScreen)
        await until(pilot, lambda: "---" in screen_text(app), "the leaderboard in ASCII")
        assert "─" not in screen_text(app)
        await pilot.press("enter")
        board = await shown_screen(pilot, BoardScreen)
        assert board.look.ascii and dailies.look.ascii
        await until(pilot, lambda: "+-" in screen_text(app), "the daily's board in ASCII")
        assert not any(glyph in screen_text(app) for glyph in "┌└♠♥♦♣")


async def test_the_card_style_changed_over_the_lobby_reaches_its_lines_and_the_dailies(
    tmp_path: Path,
) -> None:
    """The same from the match lobby (a login's first screen): its daily line and
    the dailies it opens next were in the old style."""
    from termsolitaire.screens.match.lobby import LobbyScreen

    from .matchkit import lobby_first

    with lobby_first(tmp_path) as app:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await shown_screen(pilot, LobbyScreen)
            daily = lobby.query_one("#lobby-daily", TextLine)
            await until(pilot, lambda: "·" in daily.text, "the lobby's daily line")
            await ascii_chosen_over(pilot, app, LobbyScreen)
            await until(pilot, lambda: "·" not in daily.text, "the daily line in ASCII")
            assert " | " in daily.text
            await pilot.press("d")
            await shown_screen(pilot, DailyScreen)
            assert "─" not in screen_text(app)


async def test_the_daily_boards_help_lists_no_key_the_daily_refuses(shared: Path) -> None:
    """The daily's board help listed "H the next move of a winning line", "R this
    deal from the start", "N a new random deal", "S step through a winning line"
    and "#": each, pressed, only says the daily has no hints or restart. They
    are left out; the keys that play stay."""
    from termsolitaire.match import current_player
    from termsolitaire.screens.dialogs.help import HelpScreen

    daily = Daily(MatchStore(current_player(), None, keep_dir=False))
    app = SolitaireApp(clock=False, first_screen=lambda services, look: DailyScreen(daily, look))
    async with app.run_test(size=(80, 24)) as pilot:
        await daily_board(pilot, "penguin")
        await pilot.press("question_mark")
        help = await shown_screen(pilot, HelpScreen)
        listed = [key for key, _ in help.keys]
        for refused in ("H", "S", "R", "N", "#"):
            assert refused not in listed
        for kept in ("z", "E", "f", "Q"):
            assert kept in listed


async def test_the_daily_results_show_the_time_the_leaderboard_keeps(shared: Path) -> None:
    """Over ssh on PostgreSQL the results read "Time used 6:03" and the
    leaderboard "6:02" for the same attempt: the dialog read the clock again
    after the end was stored (a second boundary crossed between the two). The
    results show the time stored with the result."""
    import time

    from termsolitaire.match import current_player
    from termsolitaire.screens.daily import DailyResults

    t = [time.time()]

    def slow() -> float:  # each look at the clock a little later, as on a busy host
        t[0] += 0.45
        return t[0]

    store = MatchStore(current_player(), None, keep_dir=False, now=slow)
    daily = Daily(store)
    app = SolitaireApp(clock=False, first_screen=lambda services, look: DailyScreen(daily, look))
    async with app.run_test(size=(80, 24)) as pilot:
        await daily_board(pilot, "penguin")
        await pilot.press("E")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        results = await shown_screen(pilot, DailyResults)
        with store.db.read("the result") as db:
            (stored,) = db.execute("SELECT seconds FROM daily_results").fetchone()
        assert results.seconds == int(stored)


async def test_the_palette_leaves_fair_hints_on_during_a_daily(shared: Path) -> None:
    """The palette's "Turn fair hints off" during a daily attempt says the setting
    stays on, and changes nothing."""
    from termsolitaire.match import current_player

    daily = Daily(MatchStore(current_player(), None, keep_dir=False))
    app = SolitaireApp(clock=False, first_screen=lambda services, look: DailyScreen(daily, look))
    async with app.run_test(size=(100, 30)) as pilot:
        await daily_board(pilot, "spider")
        found = {c.title: c for c in app.get_system_commands(app.screen)}
        found["Turn fair hints off"].callback()
        said = "Fair hints cannot be turned off in the daily: the setting stays on"
        await until(pilot, lambda: said in [str(n.message) for n in app._notifications], said)
        assert app.services.settings.fair_hints


async def test_the_day_after_today_says_there_is_none_yet(shared: Path) -> None:
    """`] Day after` on today's leaderboard (and on this week's) did nothing and
    said nothing: a key that seemed dead. It says there is no later one yet and
    how to go back; the day shown stays today."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        today = dailies.daily.today()
        await pilot.press("right_square_bracket")
        assert dailies.day == today
        assert daily_line(dailies) == "No daily after today's yet: [ goes back a day"
        await pilot.press("w", "right_square_bracket")
        assert daily_line(dailies) == "No week after this one yet: [ goes back a week"
        await pilot.press("left_square_bracket", "right_square_bracket")
        assert dailies.day == today and f"daily of {today}" not in screen_text(app)


async def test_a_damaged_match_database_set_aside_from_the_menu_is_told(shared: Path) -> None:
    """A match database that was not a database, found by the menu's daily line,
    was set aside and a new one started without a word: the day's daily results,
    the rating and the match record gone and nothing said (only the lobby told
    it, and the menu had already opened the store). The menu says it once, with
    the name the old file is kept under."""
    from textual.widgets._toast import Toast

    shared.mkdir(parents=True)
    (shared / "match.sqlite3").write_bytes(b"garbage garbage")
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await shown_screen(pilot, MenuScreen)
        await until(pilot, lambda: bool(app.screen.query(Toast)), "the notice")
        said = " ".join(str(t.render()) for t in app.screen.query(Toast))
        kept = [p.name for p in shared.glob("match.sqlite3.corrupt-*")]
        assert len(kept) == 1 and "could not be read" in said, said
        assert kept[0] in "".join(said.split()), said
        await pilot.press("d")
        await shown_screen(pilot, DailyScreen)
        await pilot.pause()
        assert len(app.screen.query(Toast)) <= 1  # told once, not again by d


async def test_back_from_an_attempt_the_line_says_what_enter_does(shared: Path) -> None:
    """Enter on a daily already played ("You played today's Penguin daily…"), then
    Napoleon's daily played and left with Q: the dailies came back still saying
    "You played today's Penguin daily", under Napoleon's line. The line says
    again what Enter does."""
    ann = Daily(MatchStore(Player.make("ann"), shared))
    ann.attempt("penguin", {}).act("end")
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("d")
        dailies = await shown_screen(pilot, DailyScreen)
        dailies.query_one("#dailies").highlighted = 1  # Penguin: played
        await pilot.press("enter")
        await until(pilot, lambda: "You played" in daily_line(dailies), "the refusal")
        await daily_board(pilot, "napoleon")
        await pilot.press("Q")
        await shown_screen(pilot, DailyScreen)
        await pilot.pause()
        assert daily_line(dailies).startswith("Enter plays the highlighted daily"), daily_line(
            dailies
        )
