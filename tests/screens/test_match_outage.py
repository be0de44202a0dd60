"""Issue 27, acceptance 3: the match store read-only in the middle of a match.

ann plays three deals while her store refuses every write (as a database whose
permissions were taken away does): her game goes on, the board says her moves
are not shared for now, and leaving the board and coming back keeps them (they
wait in her own data directory). Once the store takes writes again they are
shared within seconds, with nothing done by her: bob's side sees them, and
leaving and re-entering the board drops nothing and doubles nothing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, Player, StoreReadOnly
from termsolitaire.match.db import Database
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.newgame import NewGameScreen

from .matchkit import WallClock, lobby_app, screen_text, shown_screen, until


class Outage:
    """The store of one process turned read-only (and back) under it."""

    def __init__(self, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
        self.db = db
        self.on = False
        real = db.reconnect

        def reconnect() -> None:
            if self.on:
                db.read_only = True
                raise StoreReadOnly(f"The match database {db.path} is read-only")
            real()

        monkeypatch.setattr(db, "reconnect", reconnect)

    def start(self) -> None:
        self.on = True
        self.db.read_only = True  # every write now raises StoreReadOnly

    def end(self) -> None:
        self.on = False  # the next reconnect opens it for writing again


def stored(shared: Path, table: int, player: str) -> list[str]:
    db = sqlite3.connect(shared / "match.sqlite3")
    try:
        rows = db.execute(
            "SELECT a.action FROM actions a JOIN seats s ON a.table_id = s.table_id "
            "AND a.seat = s.seat WHERE a.table_id = ? AND s.player = ? ORDER BY a.n",
            (table, player),
        ).fetchall()
    finally:
        db.close()
    return [r[0] for r in rows]


async def test_moves_made_while_the_store_is_read_only_are_shared_when_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, clock = tmp_path / "match", WallClock()
    app, match = lobby_app(shared, clock, tmp_path / "home")
    outage = Outage(match.store.db, monkeypatch)
    async with app.run_test(size=(100, 30)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await shown_screen(pilot, NewGameScreen)
        await pilot.press("enter")  # a public table
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        table = screen.seat.table_id
        bob = MatchStore(Player.make("bob"), shared, now=clock, keep_dir=tmp_path / "bob")
        bob.join(table).start()

        outage.start()
        for _ in range(3):
            await pilot.press("d")
        assert screen.seat.log == ["deal", "deal", "deal"]
        await until(pilot, lambda: "Not shared for now" in screen_text(app), "the notice")
        assert stored(shared, table, "ann") == []  # bob sees none of them yet

        await pilot.press("Q")  # leave the board, then come back to it
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        assert screen.seat.log == ["deal", "deal", "deal"]  # kept here, not dropped
        assert len(screen.seat.pending) == 3

        outage.end()  # writable again: nothing pressed from here on
        await until(pilot, lambda: not screen.seat.pending, "the actions shared", timeout=15)
        assert stored(shared, table, "ann") == ["deal", "deal", "deal"]
        await until(pilot, lambda: "Shared:" in screen_text(app), "the board says so")
        assert bob.table(table).seat_of("ann").moves == screen.seat.figures[2]

        await pilot.press("Q")
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        assert screen.seat.log == ["deal", "deal", "deal"] and not screen.seat.pending
        assert stored(shared, table, "ann") == ["deal", "deal", "deal"]
        bob.close()
