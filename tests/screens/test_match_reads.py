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
from termsolitaire.screens.match import polling
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen

from .matchkit import WallClock, lobby_app, shown_screen, until

HOUR = 3600.0


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "postgresql":
        monkeypatch.setenv("TERMSOLITAIRE_DATABASE", request.getfixturevalue("postgres"))
    monkeypatch.setattr(polling, "FALLBACK", HOUR)
    return str(request.param)


class FailOnce:
    """``store.table`` that raises StoreBusy at its next call once armed (the
    database busy for a moment), as PostgreSQL's busy answer or SQLite's lock."""

    def __init__(self, store: MatchStore) -> None:
        self.real = store.table
        self.armed = False
        self.failed = 0

    def __call__(self, table_id: int) -> Any:
        if self.armed:
            self.armed = False
            self.failed += 1
            raise StoreBusy("The match database is busy: cannot read the tables now; try again")
        return self.real(table_id)


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
        failing = FailOnce(screen.seat.store)
        monkeypatch.setattr(screen.seat.store, "table", failing)
        failing.armed = True
        bseat.play(next(m for m in bseat.game.legal_moves() if m.kind == "move"))
        await until(pilot, lambda: failing.failed, "the read that fails")
        # nothing more is written at the table: only the screen can mend it
        await until(pilot, lambda: f"moves{1:>6}" in str(screen.panel_shown), "bob's move")
        assert screen.revision == bob.table(seat.table_id).revision
    match.close()
    ann.close()
    bob.close()
