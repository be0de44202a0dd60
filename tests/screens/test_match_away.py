"""A game that ran out of time while its player was away is told at their next
login, once (playtest33): not again at every login within the hour, nor when
they saw it end on their board. On both backends (the store keeps when each
player was last seen)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from termsolitaire.match import MatchStore, Player
from termsolitaire.screens.match.handover import HandOverScreen
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.match_results import MatchResultsScreen
from termsolitaire.screens.match.newgame import NewGameScreen

from .matchkit import WallClock, lobby_app, shown_screen, until
from .test_match import notes

TOLD = "ran out of time and ended: a lists finished tables, Enter there shows the results"


async def told_at_login(pilot: Pilot[object], app: object) -> list[str]:
    """The notices of a login's first lobby, once its first read is done (the
    lobby's mount tells them right after that read, in the same call)."""
    lobby = await shown_screen(pilot, LobbyScreen)
    await until(pilot, lambda: lobby.revision >= 0, "the lobby's first read")
    return [n for n in notes(app) if TOLD in n]


async def told_at_next_login(shared: Path, clock: WallClock, home: Path) -> list[str]:
    """A login (the lobby opened at 80×24 on ``home``), and the ran-out notices of
    its first lobby."""
    app, match = lobby_app(shared, clock, home)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            return await told_at_login(pilot, app)
    finally:
        match.close()


async def test_a_game_that_ran_out_while_away_is_told_once(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ann and bob both hung up mid-game; their clocks ran out. ann's next login
    says so; her login 5 minutes later does not say it again (it did, at every
    login for an hour)."""
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    ann = MatchStore(Player.make("ann"), shared, now=clock)
    table = bob.open_table(deal=3).table_id
    bob.seat(table).start()
    ann.join(table).start()
    bob.close()
    ann.close()
    clock.advance(10 * 60 + 30)
    told = await told_at_next_login(shared, clock, tmp_path / "home")
    assert told == [f"Your game at table {table} {TOLD}"]
    clock.advance(5 * 60)
    assert await told_at_next_login(shared, clock, tmp_path / "home") == []


async def test_a_game_seen_running_out_on_the_board_is_not_told_at_the_next_login(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ann's clock ran out on her board, the results showed: the next login does
    not tell her, as news, that it ran out while she was away."""
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    bob.seat(bob.open_table(deal=3, minutes=5).table_id).start()  # both clocks run out
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")  # join bob's table, start
        await shown_screen(pilot, MatchScreen)
        clock.advance(5 * 60 + 1)
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: results.results is not None, "the results")
    match.close()
    bob.close()
    clock.advance(60)
    assert await told_at_next_login(shared, clock, tmp_path / "home") == []


async def test_a_game_that_runs_out_while_the_lobby_shows_is_told_there(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Over ssh dee left her board with Q (her clock running, as the lobby said) and
    stayed in the lobby: when her time ran out, table 7 left the list and nothing
    was said. The lobby says so then, and her next login does not say it again."""
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = bob.open_table(deal=3, minutes=5).table_id
    bob.seat(table).start()
    ann = MatchStore(Player.make("ann"), shared, now=clock)
    ann.join(table).start()
    ann.close()
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: [t.id for t in lobby.tables] == [table], "her table listed")
        assert notes(app) == []
        clock.advance(5 * 60 + 1)
        await until(pilot, lambda: not lobby.tables, "the finished table gone from the list")
        await until(pilot, lambda: notes(app), "the notice")
        assert notes(app) == [f"Your game at table {table} {TOLD}"]
    match.close()
    clock.advance(60)
    assert await told_at_next_login(shared, clock, tmp_path / "home") == []
    bob.close()


async def test_a_game_that_runs_out_while_the_opponent_plays_on_is_told_in_the_lobby(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The same while bob still plays: the table stays listed ("yours: done"), and
    the lobby says Enter on its row shows the results. Over ssh carl's clock ran
    out 3 s after ann's and took the table off the list under "Enter there shows
    the results": the words hold either way."""
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = bob.open_table(deal=3, minutes=5).table_id
    ann = MatchStore(Player.make("ann"), shared, now=clock)
    ann.join(table).start()
    ann.close()
    clock.advance(60)
    bob.seat(table).start()
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: [t.id for t in lobby.tables] == [table], "her table listed")
        clock.advance(4 * 60 + 1)
        await until(pilot, lambda: notes(app), "the notice")
        # Bob's clock may run out next and take the table off: words true either way
        assert notes(app) == [
            f"Your game at table {table} ran out of time and ended: Enter on its row shows "
            "the results (a lists finished tables)"
        ]
        assert [t.id for t in lobby.tables] == [table]
    match.close()
    bob.close()


async def test_a_hot_seat_game_seen_running_out_at_the_hand_over_is_not_told_in_the_lobby(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ann's hot-seat game (Bob plays after her) ran out on her board, after a
    visit to the lobby: the hand-over showed it, so the lobby, back, does not
    tell it as news (the hand-over stands for the results there)."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "right", "right", "enter")  # hot-seat here
        await shown_screen(pilot, NewGameScreen)
        await pilot.press(*"Bob", "enter")
        await shown_screen(pilot, MatchScreen)
        await pilot.press("Q")  # to the lobby, her clock running
        lobby = await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: lobby.tables, "her table listed")
        await pilot.press("enter")
        await shown_screen(pilot, MatchScreen)
        clock.advance(10 * 60 + 1)
        await shown_screen(pilot, HandOverScreen)
        await pilot.press("escape")
        lobby = await shown_screen(pilot, LobbyScreen)
        # (the read tells what ran out in the same call: tell_ran_out)
        await until(pilot, lambda: lobby.tables and lobby.read_at >= clock.t, "a read after")
        assert [n for n in notes(app) if "ran out of time" in n] == []
    match.close()
