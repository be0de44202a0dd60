"""The match says what is true (issue 30): an opponent who has not started is
"not started (10:00)", their replay is offered once there is one, the lobby
says who sat down at a player's table and stops offering an invitation to a
full one, and the Players column never cuts a name at 80 columns."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button, DataTable, Static

from termsolitaire.match import MatchStore, Player
from termsolitaire.match.credit import credit_restart
from termsolitaire.match.services import NewGame
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.lobby_text import COLUMNS
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.match_results import MatchResultsScreen

from .conftest import SPIDER_KEYS, answer, chord
from .matchkit import WallClock, lobby_app, screen_text, shown_screen, until
from .test_match import first_action, transfer


def shown(screen: MatchResultsScreen, button: str) -> bool:
    return bool(screen.query_one(f"#{button}", Button).display)


async def test_results_say_not_started_and_offer_their_replay_once_there_is_one(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """bob has sat down but not started: ann's results say "not started (10:00)",
    not "playing, 0:00 left", and offer no replay of his game until he has moved."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    table = match.store.open_table(suits=1, minutes=10, deal=5).table_id
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    bseat = bob.join(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        await answer(pilot, ["e"], "y")
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: "not started (10:00)" in screen_text(app), "bob not started")
        assert "0:00 left" not in screen_text(app)
        assert shown(results, "mine") and not shown(results, "theirs")
        await pilot.press("o")  # no replay to show: the key does nothing
        await pilot.pause()
        assert app.screen is results

        clock.advance(30)
        bseat.start()
        bseat.play(first_action(bseat.game))
        await until(pilot, lambda: shown(results, "theirs"), "their replay offered")
        clock.advance(60)
        await until(pilot, lambda: "playing, 9:00 left" in screen_text(app), "bob's clock")
        await pilot.press("o")
        await until(pilot, lambda: app.screen is not results, "their replay")
        # Whose game: both replays were headed "Replay · Spider · …" alike.
        assert str(app.screen.query_one("#title").text).startswith("Replay of bob · ")
        await pilot.press("Q")
        results = await shown_screen(pilot, MatchResultsScreen)
        await pilot.press("y")
        await until(pilot, lambda: app.screen is not results, "my replay")
        title = str(app.screen.query_one("#title").text)
        assert title.startswith(f"Replay of {match.me.name} · "), title
    bob.close()


async def test_the_lobby_says_who_sat_down_and_stops_offering_an_invitation(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, match = lobby_app(shared, clock, tmp_path / "home")
    table = match.store.open_table(suits=1, minutes=10, deal=5).table_id
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        assert "i: invite someone" in str(lobby.query_one("#detail").render())
        bob = MatchStore(Player.make("bob"), shared, now=clock)
        bob.join(table)
        status = lobby.query_one("#status")
        await until(pilot, lambda: "bob sat down at your table" in status.text, "told")  # type: ignore[attr-defined]
        detail = str(lobby.query_one("#detail").render())
        assert "invite" not in detail and "both seats are taken" in detail
        await pilot.press("i")
        assert "full" in status.text  # type: ignore[attr-defined]
        bob.close()


async def test_the_lobby_s_line_forgets_what_it_asked_once_the_board_was_played(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Over ssh: "Cy sat down at your table 2: Enter, start your game" stayed on
    Bo's lobby after he had started his game and come back with Q (and after a
    visit to the menu), under "Enter: back to your game (your clock is running)".
    Going to a board clears the line: back from it, the saved games' line (here
    none), not the old instruction."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    table = match.store.open_table(suits=1, minutes=10, deal=5).table_id
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        bob = MatchStore(Player.make("bob"), shared, now=clock)
        bob.join(table)
        status = lobby.query_one("#status")
        await until(pilot, lambda: "start your game" in status.text, "told")  # type: ignore[attr-defined]
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        await pilot.press("Q")
        await shown_screen(pilot, LobbyScreen)
        assert "start your game" not in status.text  # type: ignore[attr-defined]
        assert "back to your game" in str(lobby.query_one("#detail").render())
        bob.close()


async def test_the_lobby_tells_the_host_who_declined(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ann invited bob, bob pressed x: ann's lobby went on saying "Invited bob to
    table 1; they see it in their lobby" and she waited for him."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    table = match.store.open_table(suits=1, minutes=10, public=False, deal=5).table_id
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        await pilot.press("i")
        await pilot.press(*"bob", "enter")
        status = lobby.query_one("#status")
        await until(pilot, lambda: "Invited bob" in status.text, "invited")  # type: ignore[attr-defined]
        bob.decline(table)
        said = f"bob declined your invitation to table {table}"
        await until(pilot, lambda: said in status.text, "the decline told")  # type: ignore[attr-defined]
        bob.close()


async def test_the_players_column_never_cuts_a_name_at_80_columns(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """A table against the beginner and one with a 32-character name: every name
    whole on screen (a long pair takes a second line of its row)."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    match.open(NewGame(kind="computer", level="beginner"))
    long_name = "Bartholomew-Fitzgerald-Longname1"
    assert len(long_name) == 32
    other = MatchStore(Player.make(long_name), shared, now=clock)
    other.open_table(suits=2, minutes=10, deal=7)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        await pilot.pause()
        assert "computer (beginner)" in screen_text(app)  # whole, on one line
        table = lobby.query_one(DataTable)
        width = dict(COLUMNS)["Players"]
        cells = [str(table.get_row_at(row)[3]) for row in range(table.row_count)]
        assert all(len(line) <= width for cell in cells for line in cell.splitlines())
        joined = ["".join(cell.splitlines()) for cell in cells]
        assert "ann vscomputer (beginner)" in joined  # every character, none cut
        assert f"{long_name} vs(free)" in joined
        assert "Bartholomew-Fitzgerald-" in screen_text(app)  # broken after a hyphen
    other.close()


async def test_a_match_board_keeps_the_boards_words_and_keys(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The match's board adds Watch and Results to Spider's keys: a pick-up still
    names the pile ("Pile 3 in hand"), and its help lists the pile keys beside
    its own (they once read only the two match keys)."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    match.store.open_table(suits=1, minutes=10, deal=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await pilot.press(SPIDER_KEYS["t3"])
        text = screen.query_one("#status").text  # type: ignore[attr-defined]
        assert str(text).startswith("Pile 3 in hand"), text
        await pilot.press("escape", "question_mark")
        await until(pilot, lambda: "watch the opponent" in screen_text(app), "the help")
        assert "piles" in screen_text(app)


async def test_the_computers_finish_says_it_had_no_useful_move_not_end_pressed(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The computer presses no key: when it stops (no move it would make), its
    panel, the results' Finish row and Watch say "no useful move"; the player's own
    End still reads "End pressed"."""
    app, match = lobby_app(shared, clock, tmp_path / "home", engine="tests.screens.engine:stops")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "right", "enter")  # the computer, casual, 10 minutes
        screen = await shown_screen(pilot, MatchScreen)
        await until(pilot, lambda: "no useful move" in str(screen.panel_shown), "its finish")
        assert "End pressed" not in str(screen.panel_shown)
        await answer(pilot, ["e"], "y")
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: results.results is not None and results.results.final, "final")
        finish = next(line for line in screen_text(app).splitlines() if "Finish" in line)
        assert finish.strip("█ ").split() == ["Finish", "End", "pressed", "no", "useful", "move"], (
            finish
        )
        await pilot.press("w")
        await until(
            pilot,
            lambda: "computer (casual)'s game has ended (no useful move)" in screen_text(app),
            "Watch's words",
        )
    match.close()


async def test_r_before_the_game_has_ended_says_why_no_results_show(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """``r`` (the results again) on a running match board said nothing at all: the
    footer hides it then, and the key fell through. It says why; after End it
    shows the results."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    match.store.open_table(suits=1, minutes=10, deal=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await pilot.press("r")
        await until(
            pilot,
            lambda: "The results show when your game has ended (e ends it)" in screen_text(app),
            "why no results",
        )
        assert app.screen is screen
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the board again")
        await pilot.press("r")
        await shown_screen(pilot, MatchResultsScreen)


async def test_the_board_and_the_results_say_what_a_server_restart_gave_back(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """A host down for two minutes with a minute left on both clocks (docs/match.md,
    "A server restart"): back at her board ann has that minute, and the results
    say on one line each what was given back to whom."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    seat = match.store.open_table(suits=1, minutes=5, deal=5)
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    bob.join(seat.table_id).start()
    seat.start()
    clock.advance(240)
    quiet = {match.me.id: clock(), "bob": clock()}
    clock.advance(120)  # the host was down: it gives the two minutes back at start
    with match.store.db.write("credit the restart") as db:
        assert len(credit_restart(db, quiet, clock())) == 2
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await shown_screen(pilot, MatchScreen)
        await until(pilot, lambda: "moves 0  1:00" in screen_text(app), "a minute left")
        await answer(pilot, ["e"], "y")
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: "credited" in screen_text(app), "the credit said")
        text = screen_text(app)
        assert f"{match.me.name} (you): 2:00 credited for server downtime" in text
        assert "bob: 2:00 credited for server downtime" in text
        assert "playing, 1:00 left" in text  # bob's clock, credited too
        figures = results.query_one("#figures", Static)
        lines = ["".join(s.text for s in figures.render_line(y)) for y in range(12)]
        score = next(line for line in lines if "Score" in line)
        assert score.index("Score") > 10, score  # the figures still centred above them
    bob.close()
