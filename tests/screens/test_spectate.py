"""Spectators through Pilot (issue 31, acceptance 2): a spectator opens a public
table from the lobby and sees a player's move within one refresh; a private
table is refused without an invitation; the players see "1 watching"; a player
who turns watching off is not watched. The players act through their own
stores, as other terminals would; waits are for visible effects."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from termsolitaire.match import MatchStore, NotInvited, Player
from termsolitaire.match.watching import EXPIRY
from termsolitaire.screens.match import spectate
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.spectate import SpectatorScreen

from .matchkit import WallClock, ascii_chosen_over, lobby_app, screen_text, shown_screen, until


def a_match_under_way(shared: Path, clock: WallClock):  # type: ignore[no-untyped-def]
    """bob and dan, both started at public table (1 suit, 10 minutes, deal 42):
    their stores, the table's id and their seats."""
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    dan = MatchStore(Player.make("dan"), shared, now=clock)
    table = bob.open_table(suits=1, minutes=10, deal=42).table_id
    bseat, dseat = bob.seat(table), dan.join(table)
    bseat.start()
    dseat.start()
    return bob, dan, table, bseat, dseat


def a_move(store_seat):  # type: ignore[no-untyped-def]
    return next(m for m in store_seat.game.legal_moves() if m.kind == "move")


async def watched_from_the_lobby(pilot: Pilot[object], lobby: LobbyScreen) -> SpectatorScreen:
    """``w`` on the lobby's table once it is listed: the spectator's screen."""
    await until(pilot, lambda: lobby.tables, "the table in the lobby")
    await pilot.press("w")
    return await shown_screen(pilot, SpectatorScreen)


async def test_a_spectator_watches_a_public_table_live(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, _match = lobby_app(shared, clock, tmp_path / "home", player="cat")
    bob, dan, table, bseat, dseat = a_match_under_way(shared, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        watch = await watched_from_the_lobby(pilot, await shown_screen(pilot, LobbyScreen))
        assert [w.info.player.name for w in watch.watchers] == ["bob", "dan"]
        # 80 columns: one board at a time, Tab for the other
        assert watch.query_one("#side-0").display and not watch.query_one("#side-1").display
        bseat.play(a_move(bseat))
        await until(
            pilot,
            lambda: watch.watchers[0].game.to_text() == bseat.game.to_text(),
            "bob's move on the spectator's board",
            timeout=5,
        )
        await until(pilot, lambda: "bob  score" in screen_text(app), "bob's line")
        await pilot.press("tab")
        await until(pilot, lambda: watch.query_one("#side-1").display, "dan's board")
        assert not watch.query_one("#side-0").display
        await pilot.press("1", "2", "d")  # nothing can be played
        assert watch.watchers[1].game.to_text() == dseat.game.to_text()
        assert bob.spectators(table) == 1
        await pilot.press("q")
        await shown_screen(pilot, LobbyScreen)
        assert bob.spectators(table) == 0
        # a spectator has seen the deal: they may not take a seat at that table later
    bob.close()
    dan.close()


async def test_the_card_style_changed_while_watching_reaches_the_boards(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Card style ASCII chosen in the settings over a table being watched (the
    palette opens them anywhere): the boards kept the box-drawing and suit glyphs
    they opened with."""
    app, _match = lobby_app(shared, clock, tmp_path / "home", player="cat")
    bob, dan, _table, _bseat, _dseat = a_match_under_way(shared, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        watch = await watched_from_the_lobby(pilot, await shown_screen(pilot, LobbyScreen))
        await until(pilot, lambda: "┌" in screen_text(app), "the boards")
        await ascii_chosen_over(pilot, app, SpectatorScreen)
        await until(pilot, lambda: "+-" in screen_text(app), "the boards in ASCII")
        assert watch.look.ascii
        assert not any(glyph in screen_text(app) for glyph in "┌└♠♥♦♣·")
    bob.close()
    dan.close()


async def test_both_boards_side_by_side_in_a_wide_window(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, _match = lobby_app(shared, clock, tmp_path / "home", player="cat")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    dan = MatchStore(Player.make("dan"), shared, now=clock)
    table = bob.open_table(suits=2, minutes=5, deal=7).table_id
    dan.join(table)
    async with app.run_test(size=(150, 40)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        spectate.spectate(app.screen, table)
        watch = await shown_screen(pilot, SpectatorScreen)
        await until(pilot, lambda: "dan  score 0" in screen_text(app), "both lines")
        assert watch.query_one("#side-0").display and watch.query_one("#side-1").display
        assert "bob  score 0" in screen_text(app)
    bob.close()
    dan.close()


async def test_the_player_sees_who_watches(
    shared: Path, clock: WallClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann at her board: "1 watching" in her side panel while cat watches; gone
    once cat's presence expires (a killed spectator writes nothing)."""
    monkeypatch.setattr(spectate, "COUNT_EVERY", 0.2)
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    cat = MatchStore(Player.make("cat"), shared, now=clock)
    table = match.store.open_table(suits=1, minutes=10, deal=5).table_id
    bob.join(table).start()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        board = await shown_screen(pilot, MatchScreen)
        assert "watching" not in str(board.panel_shown)
        cat.spectate(table)
        await until(pilot, lambda: "1 watching" in str(board.panel_shown), "1 watching")
        assert "1 watching" in screen_text(app)
        clock.advance(EXPIRY + 1)  # cat's process died: no renewal
        await until(pilot, lambda: "watching" not in str(board.panel_shown), "the count to expire")
    bob.close()
    cat.close()


async def test_a_private_table_is_watched_only_by_invitation(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, match = lobby_app(shared, clock, tmp_path / "home", player="cat")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    dan = MatchStore(Player.make("dan"), shared, now=clock)
    table = bob.open_table(suits=1, minutes=10, public=False, deal=3).table_id
    bob.invite(table, "dan")
    dan.join(table)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        assert lobby.tables == []  # not even listed
        spectate.spectate(lobby, table)  # as if the number were known
        await until(
            pilot,
            lambda: "you can watch it only when a player invites you" in screen_text(app),
            "the refusal",
        )
        assert not isinstance(app.screen, SpectatorScreen)
        with pytest.raises(NotInvited):
            match.store.watch(table, 1)
        bob.invite_to_watch(table, "cat")
        watch = await watched_from_the_lobby(pilot, lobby)  # listed after the invitation
        assert len(watch.watchers) == 2
    bob.close()
    dan.close()


async def test_a_player_who_turns_watching_off_is_not_watched(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, match = lobby_app(shared, clock, tmp_path / "home", player="bob")
    dan = MatchStore(Player.make("dan"), shared, now=clock)
    cat = MatchStore(Player.make("cat"), shared, now=clock)
    table = match.store.open_table(suits=1, minutes=10, deal=11).table_id
    dan.join(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("o")  # bob: watching off
        await until(pilot, lambda: "Nobody may watch your games" in screen_text(app), "off")
        assert [s.player.name for s in cat.watch_seats(table)] == ["dan"]
        dan.set_watchable(False)
        with pytest.raises(Exception, match="does not let others watch"):
            cat.watch_seats(table)
        await pilot.press("o")
        await until(pilot, lambda: "Others may watch your games" in screen_text(app), "on")
        assert [s.player.name for s in cat.watch_seats(table)] == ["bob"]
    dan.close()
    cat.close()


async def test_a_board_stops_when_its_player_turns_watching_off(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, _match = lobby_app(shared, clock, tmp_path / "home", player="cat")
    bob, dan, table, bseat, dseat = a_match_under_way(shared, clock)
    async with app.run_test(size=(150, 40)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        spectate.spectate(app.screen, table)
        watch = await shown_screen(pilot, SpectatorScreen)
        bob.set_watchable(False)
        await until(pilot, lambda: "bob turned watching off" in screen_text(app), "bob's board")
        before = watch.watchers[0].game.to_text()
        bseat.play(a_move(bseat))
        dseat.play(a_move(dseat))
        await until(
            pilot, lambda: watch.watchers[1].game.to_text() == dseat.game.to_text(), "dan's move"
        )
        assert watch.watchers[0].game.to_text() == before  # bob's board no longer follows
        dan.set_watchable(False)
        await until(pilot, lambda: "does not let others watch" in screen_text(app), "the end")
    bob.close()
    dan.close()
