"""Spectators: anyone may watch a public table live; a private one by invitation.

A spectator reads the store, never a player's process: their screen replays the
seats' stored actions (:class:`~.results.Watcher`), exactly as a player who
comes back does. What the store keeps for them (all in the match database, so
every process and every host sees it):

- ``spectators``: one row per spectator and table, ``seen_at`` renewed by
  :meth:`Spectating.spectate` every :data:`BEAT` seconds while their screen
  shows the table. A spectator counts while ``seen_at`` is younger than
  :data:`EXPIRY`, so one whose process was killed stops counting by itself.
  The row stays when they leave (only ``seen_at`` goes back): a player who
  has watched a table has seen its deal and may not take its free seat. A
  guest, who may come back under another id, watches a table only once both
  seats are taken.
- ``watch_invitations``: a seated player lets someone watch their private table.
- ``watch_settings``: a player who turned watching off
  (:meth:`Spectating.set_watchable`); spectators then see only the other seat,
  and nobody at all when both turned it off.

Each player writes only their own rows: a spectator their presence, a player
their setting, a seated player their invitations.
"""

from __future__ import annotations

import contextlib
import sqlite3

from .errors import NotAllowed, NotInvited, StoreError
from .identity import Player, is_guest
from .model import SeatInfo, TableInfo
from .rows import table_row
from .social import Social

BEAT = 10.0
"""Seconds between two renewals of a spectator's presence."""
EXPIRY = 30.0
"""A spectator not renewed for this long no longer counts (a killed process)."""

PRIVATE = "Table {} is private: you can watch it only when a player invites you"


def watchable(db: sqlite3.Connection, player_id: str) -> bool:
    """Whether ``player_id`` lets others watch their games (the default: yes)."""
    row = db.execute("SELECT allowed FROM watch_settings WHERE player = ?", (player_id,)).fetchone()
    return row is None or bool(row["allowed"])


def watch_invited(db: sqlite3.Connection, table_id: int, player_id: str) -> bool:
    row = db.execute(
        "SELECT 1 FROM watch_invitations WHERE table_id = ? AND guest = ?", (table_id, player_id)
    ).fetchone()
    return row is not None


def has_watched(db: sqlite3.Connection, table_id: int, player_id: str) -> bool:
    """Whether ``player_id`` has watched this table (and so has seen its deal)."""
    row = db.execute(
        "SELECT 1 FROM spectators WHERE table_id = ? AND player = ?", (table_id, player_id)
    ).fetchone()
    return row is not None


def count(db: sqlite3.Connection, table_id: int, now: float) -> int:
    """Spectators of a table now (seated players watching their opponent not counted)."""
    row = db.execute(
        "SELECT count(*) FROM spectators WHERE table_id = ? AND seen_at > ? "
        "AND player NOT IN (SELECT player FROM seats WHERE table_id = ?)",
        (table_id, now - EXPIRY, table_id),
    ).fetchone()
    return int(row[0])


def watching(db: sqlite3.Connection, player_id: str, now: float) -> sqlite3.Cursor:
    """A row if ``player_id`` is watching some table now (their presence is younger
    than :data:`EXPIRY`, as :func:`count` counts it)."""
    return db.execute(
        "SELECT 1 FROM spectators WHERE player = ? AND seen_at > ? LIMIT 1",
        (player_id, now - EXPIRY),
    )


def note_watched(store: Social, table_id: int) -> None:
    """Remember that this player has seen the table's deal (not counted as watching
    now); a store that cannot be written is left alone (nobody joins through it)."""
    now = store.now()
    with contextlib.suppress(StoreError), store.db.write("note what you watched", quiet=True) as db:
        db.execute(
            "INSERT INTO spectators (table_id, player, first_at, seen_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (table_id, store.me.id, now, now - EXPIRY),
        )


def check_spectator(db: sqlite3.Connection, info: TableInfo, target: SeatInfo, me: str) -> SeatInfo:
    """``target`` if ``me`` (seated nowhere at this table) may watch it live;
    NotAllowed or NotInvited otherwise."""
    t = info.id
    if info.state == "closed":
        raise NotAllowed(f"Table {t} was closed: there is nothing to watch")
    if not info.full and is_guest(me):
        # Watching shows the deal, so a spectator may not take the free seat; a
        # guest comes back under another id (or with their key) and could.
        raise NotAllowed(  # (the lobby's status line: 80 columns hold it)
            "Guests can watch only full tables: connect with an SSH key to watch this one"
        )
    if not info.public and not watch_invited(db, t, me):
        raise NotInvited(PRIVATE.format(t))
    if not watchable(db, target.player.id):
        raise NotAllowed(f"{target.player.name} does not let others watch their games")
    return target


class Spectating(Social):
    """Spectators, as the store offers them (mixed into
    :class:`~.store.MatchStore`, which says what :meth:`table` is)."""

    def table(self, table_id: int) -> TableInfo:
        """One table as this player sees it now (the store's: a private table to
        which this player is invited to watch included)."""
        raise NotImplementedError

    def watch_seats(self, table_id: int) -> list[SeatInfo]:
        """The seats this player (not seated there) may watch live at a table, seat 1
        first; NotAllowed / NotInvited with the reason when none."""
        try:
            info = self.table(table_id)
        except NotInvited:
            raise NotInvited(PRIVATE.format(table_id)) from None
        if info.seat_of(self.me.id) is not None:
            raise NotAllowed(f"You sit at table {table_id}: Enter goes to your own game")
        if not info.seats:
            raise NotAllowed(f"Nobody sits at table {table_id} yet")
        seats: list[SeatInfo] = []
        refusal: NotAllowed | None = None
        with self.db.read("see who may be watched") as db:
            for s in info.seats:
                try:
                    seats.append(check_spectator(db, info, s, self.me.id))
                except NotAllowed as e:
                    refusal = refusal or e
        if not seats:
            assert refusal is not None
            raise refusal
        return seats

    def spectate(self, table_id: int) -> int:
        """This player is watching ``table_id`` now (call every :data:`BEAT` seconds
        while the table is shown); how many watch it, this player included. An
        arrival (the first call, or one after the presence expired) makes the
        table's revision move, so its players see the new count at once; a
        renewal is a quiet write (no revision, no notification): it wakes no
        screen anywhere."""
        now = self.now()
        with self.db.write("note that you watch", quiet=True) as db:  # a renewal: quiet
            cur = db.execute(
                "UPDATE spectators SET seen_at = ? WHERE table_id = ? AND player = ? "
                "AND seen_at > ?",
                (now, table_id, self.me.id, now - EXPIRY),
            )
            if cur.rowcount:
                return count(db, table_id, now)
        with self.db.write("note that you watch") as db:  # arriving: the players see it
            table_row(db, table_id)
            db.execute(
                "INSERT INTO spectators (table_id, player, first_at, seen_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id, player) DO UPDATE SET seen_at = excluded.seen_at",
                (table_id, self.me.id, now, now),
            )
            db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (table_id,))
            return count(db, table_id, now)

    def stop_spectating(self, table_id: int) -> None:
        """This player stopped watching: they no longer count (the row stays)."""
        now = self.now()
        with self.db.write("note that you stopped watching") as db:
            db.execute(
                "UPDATE spectators SET seen_at = ? WHERE table_id = ? AND player = ?",
                (now - EXPIRY, table_id, self.me.id),
            )
            db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (table_id,))

    def spectators(self, table_id: int) -> int:
        """How many watch ``table_id`` now (one indexed query: a match screen asks
        when the table's revision moves, and every few seconds for expiries)."""
        now = self.now()
        with self.db.read("count who watches") as db:
            return count(db, table_id, now)

    def invite_to_watch(self, table_id: int, who: str) -> Player:
        """A seated player lets ``who`` (id or name) watch their private table."""
        guest = self.find_player(who)
        now = self.now()
        with self.db.write("invite a spectator") as db:
            table_row(db, table_id)
            seated = {
                r["player"]
                for r in db.execute("SELECT player FROM seats WHERE table_id = ?", (table_id,))
            }
            if self.me.id not in seated:
                raise NotAllowed("Only a player seated at a table invites spectators to it")
            if guest.id in seated:
                raise NotAllowed(f"{guest.name} plays at this table")
            db.execute(
                "INSERT INTO watch_invitations VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (table_id, guest.id, self.me.id, now),
            )
        return guest

    def watchable(self) -> bool:
        """Whether this player lets others watch their games."""
        with self.db.read("read your watching setting") as db:
            return watchable(db, self.me.id)

    def set_watchable(self, allowed: bool) -> None:
        """Let others watch this player's games, or not (from now on: a spectator
        already watching sees the board stop with a sentence)."""
        now = self.now()
        with self.db.write("change your watching setting") as db:
            db.execute(
                "INSERT INTO watch_settings VALUES (?, ?, ?) ON CONFLICT (player) "
                "DO UPDATE SET allowed = excluded.allowed, at = excluded.at",
                (self.me.id, int(allowed), now),
            )
            db.execute(
                "UPDATE tables SET revision = revision + 1 WHERE id IN "
                "(SELECT table_id FROM seats WHERE player = ? AND finished_at IS NULL)",
                (self.me.id,),
            )
