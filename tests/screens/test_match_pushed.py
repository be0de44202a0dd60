"""Live changes pushed, not polled (issue 32): with PostgreSQL the lobby and the
side panel change as soon as another process writes, with every poll timer set
to an hour (so only a notification can have told them)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.screens.match import lobby, match, polling
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen

from .matchkit import WallClock, lobby_app, screen_text, shown_screen, until

HOUR = 3600.0

OPEN_A_TABLE = """
import sys
from termsolitaire.match import MatchStore, Player
store = MatchStore(Player.make("bob"), sys.argv[1])
store.open_table(deal=4)
store.close()
"""


@pytest.fixture
def pushed_only(postgres: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The match store in PostgreSQL, and no screen polling it within the test."""
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    for module, name in ((lobby, "POLL"), (lobby, "REREAD"), (match, "POLL")):
        monkeypatch.setattr(module, name, HOUR)
    monkeypatch.setattr(polling, "FALLBACK", HOUR)
    return postgres


async def test_a_lobby_sees_a_table_another_process_opened(
    pushed_only: str, shared: Path, tmp_path: Path
) -> None:
    clock = WallClock(time.time())  # the other process's clock is the real one
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await shown_screen(pilot, LobbyScreen)
        assert screen.changes.pushed
        assert screen.tables == []
        env = dict(os.environ, TERMSOLITAIRE_DATABASE=pushed_only)
        subprocess.run([sys.executable, "-c", OPEN_A_TABLE, str(shared)], env=env, check=True)
        await until(pilot, lambda: "1 open table" in screen_text(app), "bob's table shown")
        assert [s.player.name for s in screen.tables[0].seats] == ["bob"]


async def test_the_side_panel_follows_the_opponent_without_polling(
    pushed_only: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(100, 30)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await pilot.press("enter")  # a public table
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")  # start playing
        screen = await shown_screen(pilot, MatchScreen)
        assert screen.changes.pushed
        bob = MatchStore(Player.make("bob"), shared, now=clock)
        bseat = bob.join(screen.seat.table_id)
        bseat.start()
        await until(pilot, lambda: "bob" in str(screen.panel_shown), "bob in the side panel")
        # a card move, or the deal on a (random) deal that has none at the start
        bseat.play(min(bseat.game.legal_moves(), key=lambda m: m.kind != "move"))
        moves = bseat.game.moves  # a deal is no move
        await until(pilot, lambda: f"moves{moves:>6}" in str(screen.panel_shown), "bob's move")
        bob.close()


async def test_a_covered_lobby_reads_nothing_and_catches_up_on_return(
    pushed_only: str, shared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby under a board (the player went on to a solo game) does not read the
    tables at every write by anyone; it reads them when the player comes back."""
    from textual.screen import Screen
    from textual.widgets import Static

    class Cover(Screen[None]):
        def compose(self) -> Any:
            yield Static("a board")

    clock = WallClock(time.time())
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await shown_screen(pilot, LobbyScreen)
        reads: list[str] = []
        real_reload = screen.reload
        monkeypatch.setattr(screen, "reload", lambda: (reads.append("read"), real_reload()))
        await app.push_screen(Cover())
        env = dict(os.environ, TERMSOLITAIRE_DATABASE=pushed_only)
        subprocess.run([sys.executable, "-c", OPEN_A_TABLE, str(shared)], env=env, check=True)
        await until(pilot, lambda: screen.changes.stale, "the write heard")
        await pilot.pause()
        assert reads == []
        app.pop_screen()
        await until(pilot, lambda: "1 open table" in screen_text(app), "bob's table shown")
        assert reads


async def test_a_board_opened_again_shows_its_opponent_at_once(
    pushed_only: str, shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Back on a board whose opponent is already playing (the player left it for the
    lobby, or hung up and came back), the side panel names them at once: with
    PostgreSQL it read "Opponent: nobody yet, others may join" until the next write
    at the table or the 5 s fallback (seen against the computer, which writes
    only when it moves)."""
    ann = MatchStore(Player.make("ann"), shared, now=clock)
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    seat = ann.open_table(deal=4)
    seat.start()
    bob.join(seat.table_id).start()
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(100, 30)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")  # back to the game going on
        screen = await shown_screen(pilot, MatchScreen)
        assert screen.changes.pushed
        await until(pilot, lambda: "bob" in str(screen.panel_shown), "bob", timeout=3.0)
        assert "nobody yet" not in screen_text(app)
    ann.close()
    bob.close()
