"""A match clock survives a server restart (docs/match.md, "A server restart"): when
``serve`` starts again it gives the downtime back (at most 5 minutes, each seat
once) to the running games of the players who had a session on it, from its
heartbeat and stop files (SQLite) or its ``sessions`` rows (PostgreSQL). The
clock is injected: the host "goes down" by moving it, no test sleeps."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from termsolitaire.cli import main
from termsolitaire.match import MatchStore, Player
from termsolitaire.match.credit import Credit
from termsolitaire.match.hotseat import guest_player
from termsolitaire.match.services import MatchServices, NewGame
from termsolitaire.screens.match.match_results import credited_lines
from termsolitaire.serve.restart import Heartbeat, credit_at_start
from termsolitaire.serve.sessions import SharedCaps

from .conftest import T0, Clock, first_moves


class Host:
    """One ``serve`` host as the restart credit sees it: the players of its sessions,
    its heartbeats, a crash or a clean stop, and its next start, on the backend's
    record (the files in its data directory, or its rows in ``sessions``)."""

    def __init__(self, backend: str, data: Path, matches: Path, clock: Clock, name: str = "h1"):
        self.shared = backend == "postgresql"
        self.matches = matches
        self.clock = clock
        self.name = name
        self.heartbeat = None if self.shared else Heartbeat(data / name, now=clock)
        self.players: list[str] = []
        self.caps: SharedCaps | None = None

    def run(self, *players: str) -> None:
        """The server is up, with a session for each of ``players``."""
        self.players = list(players)
        if self.shared:
            url = os.environ["TERMSOLITAIRE_DATABASE"]
            self.caps = SharedCaps(100, 0, url=url, host=self.name, clock=self.clock)
            for p in players:
                self.caps.add(p)
        else:
            self.beat()

    def leave(self, player: str) -> None:
        """``player``'s session ends (before the next heartbeat)."""
        self.players.remove(player)
        if self.caps is not None:
            self.caps.remove(player)

    def beat(self) -> None:
        if self.caps is not None:
            self.caps.beat()
        if self.heartbeat is not None:
            self.heartbeat.beat(self.players)

    def crash(self) -> None:
        """Killed: nothing written (its pool's connections just go)."""
        if self.caps is not None:
            assert self.caps.db is not None
            self.caps.db.close()
            self.caps = None

    def stop(self) -> None:
        """SIGTERM: a clean stop."""
        if self.caps is not None:
            self.caps.close()
            self.caps = None
        if self.heartbeat is not None:
            self.heartbeat.stopped(self.players)

    def start(self) -> list[tuple[str, int]]:
        """The server starts again: who was credited, and how many seconds."""
        credits: list[Credit] = credit_at_start(
            self.matches,
            heartbeat=self.heartbeat,
            host=self.name if self.shared else None,
            now=self.clock,
        )
        return [(c.player, round(c.seconds)) for c in credits]


@pytest.fixture
def host(backend: str, tmp_path: Path, shared: Path, clock: Clock) -> Host:
    return Host(backend, tmp_path, shared, clock)


def a_match(store: Callable[..., MatchStore], minutes: int = 5) -> tuple[MatchStore, int]:
    """ann's table with bob seated, both clocks started now; ann's store, the table."""
    ann, bob = store("ann"), store("bob")
    seat = ann.open_table(minutes=minutes, deal=1)
    bob.join(seat.table_id).start()
    seat.start()
    return ann, seat.table_id


@pytest.mark.parametrize("how", ["crash", "stop"])
def test_a_game_with_a_minute_left_survives_two_minutes_of_downtime(
    store: Callable[..., MatchStore], clock: Clock, host: Host, how: str
) -> None:
    ann, table = a_match(store)
    host.run("ann", "bob")
    clock.advance(240)
    host.beat()  # a minute left on both clocks
    host.crash() if how == "crash" else host.stop()
    clock.advance(120)  # down for two minutes
    assert host.start() == [("ann", 120), ("bob", 120)]
    seat = ann.seat(table)
    assert not seat.finished and seat.remaining() == 60
    seat.act(first_moves(seat.game, 1)[0])  # she plays on
    results = ann.results(table)
    assert [(f.player.id, f.credit, f.time_used) for f in results.seats] == [
        ("ann", 120, 240),
        ("bob", 120, 240),
    ]
    assert credited_lines(results, "bob") == [
        "bob (you): 2:00 credited for server downtime",
        "ann: 2:00 credited for server downtime",
    ]
    clock.advance(60)  # now her minute is used up
    assert seat.check_clock() and seat.reason == "time"
    info = ann.table(table).seat_of("ann")
    assert info is not None and info.started_at == T0  # started_at stays true
    assert info.finished_at == T0 + 120 + 300 and info.time_used == 300


def test_a_restart_gives_back_five_minutes_at_most(
    store: Callable[..., MatchStore], clock: Clock, host: Host
) -> None:
    ann, table = a_match(store, minutes=20)
    host.run("ann")
    clock.advance(60)
    host.beat()
    host.crash()
    clock.advance(600)  # down for ten minutes
    assert host.start() == [("ann", 300)]
    assert ann.seat(table).remaining() == 1200 - (660 - 300)


def test_each_restart_credits_once(
    store: Callable[..., MatchStore], clock: Clock, host: Host
) -> None:
    ann, table = a_match(store)
    host.run("ann", "ann")  # two sessions of hers: her seat is credited once
    clock.advance(60)
    host.beat()
    host.crash()
    clock.advance(120)
    assert host.start() == [("ann", 120)]
    assert host.start() == []  # the record was read once
    host.run()  # up again; ann does not come back; then stopped and started again
    clock.advance(30)
    host.stop()
    clock.advance(60)
    assert host.start() == []
    info = ann.table(table).seat_of("ann")
    assert info is not None and info.credit == 120


def test_a_player_who_left_before_the_stop_is_not_credited(
    store: Callable[..., MatchStore], clock: Clock, host: Host
) -> None:
    """ann quit a few seconds after the last heartbeat, then the host stopped: her
    clock ran while she was away by her own choice."""
    ann, table = a_match(store)
    host.run("ann")
    clock.advance(60)
    host.beat()
    clock.advance(5)
    host.leave("ann")
    clock.advance(3)
    host.stop()
    clock.advance(120)
    assert host.start() == []
    info = ann.table(table).seat_of("ann")
    assert info is not None and info.credit == 0


def test_a_player_not_on_this_host_is_not_credited_by_it(
    store: Callable[..., MatchStore], clock: Clock, host: Host, backend: str, tmp_path: Path
) -> None:
    """bob plays elsewhere (a local login, another host): not his clock; carl was here
    but played on elsewhere while it was down; dee had a session on another host
    since (shared database only)."""
    ann, table = a_match(store)
    carl, dee = store("carl"), store("dee")
    other = carl.open_table(minutes=5, deal=2)
    other_table = other.table_id
    dees = dee.join(other_table)
    other.start()
    dees.start()
    host.run("ann", "carl", "dee")
    clock.advance(60)
    host.beat()
    host.crash()
    clock.advance(60)
    other.act(first_moves(other.game, 1)[0])  # carl, on another host or logged in
    elsewhere = Host(backend, tmp_path, host.matches, clock, name="h2")
    if backend == "postgresql":  # dee's session on another host since
        elsewhere.run("dee")
    clock.advance(60)
    dees_credit = 0 if backend == "postgresql" else 120  # on files: no other host
    assert host.start() == [("ann", 120)] + ([("dee", 120)] if dees_credit else [])
    credits = {s.player.id: s.credit for s in ann.table(table).seats}
    credits.update({s.player.id: s.credit for s in carl.table(other_table).seats})
    assert credits == {"ann": 120, "bob": 0, "carl": 0, "dee": dees_credit}
    elsewhere.stop()


def test_the_computers_clock_is_credited_with_its_players(
    store: Callable[..., MatchStore], clock: Clock, host: Host
) -> None:
    """The computer plays in its player's app: down with it, credited with them."""
    match = MatchServices(store("ann"))
    seat = match.open(NewGame(kind="computer", level="beginner", minutes=5))
    seat.start()
    driver = match.drivers[seat.table_id]
    driver.seat.start()  # (its process is not needed here)
    host.run("ann")
    clock.advance(240)
    host.beat()
    host.crash()
    clock.advance(120)
    try:
        assert host.start() == [("ann", 120), ("computer:beginner", 120)]
        info = match.store.table(seat.table_id)
        assert [s.remaining_at(clock()) for s in info.seats] == [60, 60]
    finally:
        match.close()


def test_a_hot_seat_guests_clock_is_credited_with_the_host(
    store: Callable[..., MatchStore], clock: Clock, host: Host
) -> None:
    """The hot-seat guest plays in the host's app, after the host's own game."""
    match = MatchServices(store("ann"))
    seat = match.open(NewGame(kind="hotseat", minutes=5, guest="Bea"))
    seat.start()
    seat.end()
    guest = match.hand_over(seat.table_id, guest_player(match.me, "Bea"))
    guest.start()
    host.run("ann")
    clock.advance(240)
    host.beat()
    host.crash()
    clock.advance(120)
    try:
        assert host.start() == [(guest.store.me.id, 120)]  # ann's own game had ended
        assert match.store_as(guest.store.me).seat(seat.table_id).remaining() == 60
    finally:
        match.close()


def test_a_version_3_match_file_keeps_every_row_and_gets_the_credit(
    shared: Path, clock: Clock
) -> None:
    ann = MatchStore(Player.make("ann"), shared, now=clock)
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    seat = ann.open_table(minutes=5, deal=1)
    bob.join(seat.table_id).start()
    seat.start()
    seat.act(first_moves(seat.game, 1)[0])
    before = ann.table(seat.table_id)
    ann.close()
    bob.close()
    db = sqlite3.connect(shared / "match.sqlite3")
    db.execute("ALTER TABLE seats DROP COLUMN credit_s")
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    ann = MatchStore(before.seats[0].player, shared, now=clock)
    after = ann.table(seat.table_id)
    assert after == before  # every seat as it was, with no credit
    with ann.db.read() as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 4
    ann.close()


def test_migration_7_keeps_the_seats_and_the_sessions(
    postgres: str, tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    ann = MatchStore(Player.make("ann"), tmp_path, now=clock)
    seat = ann.open_table(minutes=5, deal=1)
    seat.start()
    caps = SharedCaps(100, 0, url=postgres, host="h1", clock=clock)
    caps.add("ann")
    before = ann.table(seat.table_id)
    ann.close()
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("ALTER TABLE match.seats DROP COLUMN credit_s")
        conn.execute("ALTER TABLE sessions DROP COLUMN stopped_at")
        conn.execute("DELETE FROM schema_version WHERE version = 7")
    assert main(["db", "--database", postgres, "upgrade"]) == 0
    ann = MatchStore(Player.make("ann"), tmp_path, now=clock)
    assert ann.table(seat.table_id) == before
    caps.close()  # its row stopped, kept for the restart
    with psycopg.connect(postgres) as conn:
        assert conn.execute("SELECT key, stopped_at FROM sessions").fetchall() == [("ann", T0)]
    ann.close()
