"""A match screen remembers the revision of what it has read, never one it has not
(pgrace): a read of the table that failed is tried again at the next tick, on
both backends. Before, the screen kept the revision it had looked up and the
panel as it was, and read nothing more until the next write at the table (the
opponent waiting for this player's move: nothing came), or, on PostgreSQL, the
5 s fallback's read (:attr:`~termsolitaire.screens.match.polling.Follow.anyway`,
set to an hour here so that only the screen's own tick can mend it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.match.errors import StoreBusy
from termsolitaire.screens.match import lobby, polling
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen

from .matchkit import WallClock, lobby_app, screen_text, shown_screen, until, watched_after_ending

HOUR = 3600.0


@pytest.fixture
def backend(backend: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both backends (tests/conftest.py), with no fallback poll within a test."""
    monkeypatch.setattr(polling, "FALLBACK", HOUR)
    return backend


class FailOnceCalled:
    """A store method that raises StoreBusy at its next call once armed (the
    database busy for a moment: PostgreSQL's busy answer, SQLite's lock)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.armed = False
        self.failed = 0

    def __call__(self, *args: Any, **kw: Any) -> Any:
        if self.armed:
            self.armed = False
            self.failed += 1
            raise StoreBusy("The match database is busy: cannot read the tables now; try again")
        return self.real(*args, **kw)


async def test_a_panel_whose_read_failed_reads_again_at_the_next_tick(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = MatchStore(Player.make("ann"), shared, now=clock)
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    seat = ann.open_table(deal=4)  # deal 4 has card moves at the start
    seat.start()
    bseat = bob.join(seat.table_id)
    bseat.start()
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(100, 30)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")  # ann's game
        screen = await shown_screen(pilot, MatchScreen)
        await until(pilot, lambda: "bob" in str(screen.panel_shown), "bob in the panel")
        assert f"moves{0:>6}" in str(screen.panel_shown)
        failing = FailOnceCalled(screen.seat.store.table)
        monkeypatch.setattr(screen.seat.store, "table", failing)
        failing.armed = True
        bseat.play(next(m for m in bseat.game.legal_moves() if m.kind == "move"))
        await until(pilot, lambda: failing.failed, "the read that fails")
        # nothing more is written at the table: only the screen can mend it
        await until(pilot, lambda: f"moves{1:>6}" in str(screen.panel_shown), "bob's move")
        assert screen.revision == bob.table(seat.table_id).revision
    match.close()
    match.store.close()
    ann.close()
    bob.close()


async def test_a_lobby_whose_read_failed_reads_again_without_a_write(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby remembered the store's revision before its read of the tables;
    when that read failed, the list stayed as it was until the next write anywhere
    or the 10 s reread (an hour here)."""
    monkeypatch.setattr(lobby, "REREAD", HOUR)
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await shown_screen(pilot, LobbyScreen)
        assert screen.tables == []
        failing = FailOnceCalled(match.store.tables)
        monkeypatch.setattr(match.store, "tables", failing)
        failing.armed = True
        bob = MatchStore(Player.make("bob"), shared, now=clock)
        bob.open_table(deal=4)
        await until(pilot, lambda: failing.failed, "the read that fails")
        await until(pilot, lambda: "1 open table" in screen_text(app), "bob's table")
        bob.close()
    match.close()
    match.store.close()


async def test_a_watch_whose_read_failed_reads_again_without_a_write(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Watch (the opponent's board once one's own game has ended) kept the revision
    of a read that failed, and bob's move never came onto the board."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = match.store.open_table(deal=4).table_id
    bseat = bob.join(table)
    bseat.start()
    async with app.run_test(size=(80, 24)) as pilot:
        watch = await watched_after_ending(pilot)
        await until(pilot, lambda: watch.revision >= 0, "the first read")
        failing = FailOnceCalled(watch.watcher.refresh)
        monkeypatch.setattr(watch.watcher, "refresh", failing)
        failing.armed = True
        bseat.play(next(m for m in bseat.game.legal_moves() if m.kind == "move"))
        await until(pilot, lambda: failing.failed, "the read that fails")
        await until(pilot, lambda: watch.game.to_text() == bseat.game.to_text(), "bob's move")
    bob.close()
    match.close()
    match.store.close()


async def test_a_spectators_board_whose_read_failed_reads_again_without_a_write(
    backend: str, shared: Path, clock: WallClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's screen kept the revision of a read that failed: bob's move
    never came onto the board while nobody wrote at the table."""
    from .test_spectate import a_match_under_way, a_move, watched_from_the_lobby

    app, match = lobby_app(shared, clock, tmp_path / "home", player="cat")
    bob, dan, _table, bseat, _dseat = a_match_under_way(shared, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        watch = await watched_from_the_lobby(pilot, await shown_screen(pilot, LobbyScreen))
        await until(pilot, lambda: watch.revision >= 0, "the first read")
        failing = FailOnceCalled(watch.watchers[0].refresh)
        monkeypatch.setattr(watch.watchers[0], "refresh", failing)
        failing.armed = True
        bseat.play(a_move(bseat))
        await until(pilot, lambda: failing.failed, "the read that fails")
        await until(
            pilot,
            lambda: watch.watchers[0].game.to_text() == bseat.game.to_text(),
            "bob's move on the spectator's board",
        )
    bob.close()
    dan.close()
    match.close()
    match.store.close()
