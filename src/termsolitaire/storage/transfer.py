"""``termsolitaire db import DATA_DIR``: one host's files into PostgreSQL.

What moves, in one transaction (all of it or nothing):

- the files at the top of ``DATA_DIR`` (saves, statistics, settings), as the
  ``owner`` given (a local player: ``local:USER``);
- every SSH player under ``DATA_DIR/players/*/``: the account (name and key)
  and that player's saves, statistics and settings, owned by their key;
- the match store, ``DATA_DIR/match/match.sqlite3``, row for row: its
  players, tables, seats, actions, invitations, friends, ignores and outcomes;
  the daily deal's secret, attempts, their actions and results (the day's deal
  stays the same, and a daily played before the move stays played); who
  watched which table (a spectator still cannot take that table's free seat),
  who may watch, and the share codes. Not the code tries (a minute's rate
  limit) nor the revision counter. A file written by an older version lacks
  the newer tables: those move nothing.

Nothing already in the database is overwritten: a row that is there (the same
save slot, game id, player, table) stays as it is, so a second import moves
nothing and says so. Files are read, never changed.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .backend import owner as local_owner
from .files import StorageError
from .paths import MATCH_FILE, Paths
from .postgres import Conn, insert_finished
from .saves import decode, slot
from .settings import Settings
from .stats import Stats

MATCH_TABLES: tuple[str, ...] = (
    "players",
    "tables",
    "seats",
    "actions",
    "invitations",
    "friends",
    "ignores",
    "outcomes",
    "host_secret",
    "daily_attempts",
    "daily_actions",
    "daily_results",
    "spectators",
    "watch_invitations",
    "watch_settings",
    "shares",
)
"""The match store's tables in the order they move (a seat after its table); in
PostgreSQL they are the same tables in the schema ``match``. Every table of the
store but ``meta`` (its revision counter) and ``code_tries`` (the last
minute's wrong codes, for the rate limit: kept no longer than that)."""


@dataclass
class Moved:
    """How many rows moved, by kind, and what could not be read."""

    players: int = 0
    saves: int = 0
    statistics: int = 0
    settings: int = 0
    match_players: int = 0
    match_tables: int = 0
    match_seats: int = 0
    match_actions: int = 0
    match_invitations: int = 0
    match_friends: int = 0
    match_ignores: int = 0
    match_outcomes: int = 0
    match_host_secret: int = 0
    match_daily_attempts: int = 0
    match_daily_actions: int = 0
    match_daily_results: int = 0
    match_spectators: int = 0
    match_watch_invitations: int = 0
    match_watch_settings: int = 0
    match_shares: int = 0
    skipped: list[str] = field(default_factory=list)

    def total(self) -> int:
        return sum(getattr(self, f.name) for f in fields(self) if f.name != "skipped")

    def text(self) -> str:
        """``moved 3 saves, 12 statistics, ...`` then a line per file skipped."""
        parts = [
            f"{getattr(self, f.name)} {f.name.replace('_', ' ')}"
            for f in fields(self)
            if f.name != "skipped"
        ]
        lines = [f"moved {self.total()} rows: " + ", ".join(parts)]
        lines += [f"skipped {why}" for why in self.skipped]
        return "\n".join(lines)


def import_dir(conn: Conn, directory: Path, owner: str | None = None) -> Moved:
    """Move ``directory``'s files into the database (see the module); the counts."""
    if not directory.is_dir():
        raise StorageError(f"{directory} is not a directory")
    moved = Moved()
    with conn.transaction():
        _player_files(conn, Paths(directory, directory), owner or local_owner(), moved)
        for account in sorted(directory.glob("players/*/player.json")):
            try:
                data = json.loads(account.read_text(encoding="utf-8"))
                key, name = data["fingerprint"], data["name"]
                public_key = data.get("key", "")
            except (OSError, ValueError, KeyError, TypeError) as e:
                moved.skipped.append(f"{account}: {e}")
                continue
            cur = conn.execute(
                "INSERT INTO players VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (key, name, public_key, account.stat().st_mtime),
            )
            moved.players += cur.rowcount
            _player_files(conn, Paths(account.parent, account.parent), key, moved)
        _match_store(conn, directory / "match" / MATCH_FILE, moved)
    return moved


def _player_files(conn: Conn, where: Paths, owner: str, moved: Moved) -> None:
    for path in sorted(where.saves.glob("*.json")) if where.saves.is_dir() else []:
        try:
            raw = path.read_bytes()
            saved = decode(raw)
        except (OSError, ValueError) as e:
            moved.skipped.append(f"{path}: {e}")
            continue
        cur = conn.execute(
            "INSERT INTO saves VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (
                owner,
                slot(saved.game.name, saved.game.variant),
                saved.game.name,
                raw.decode(),
                saved.saved_at,
            ),
        )
        moved.saves += cur.rowcount
    if where.stats_db.is_file():
        stats = Stats(where.stats_db)
        try:
            for f in reversed(stats.finished()):
                moved.statistics += insert_finished(conn, owner, f)
        except StorageError as e:
            moved.skipped.append(f"{where.stats_db}: {e}")
        finally:
            stats.close()
    if where.settings.is_file():
        try:
            settings, _ = Settings.from_json(where.settings.read_bytes())
        except (OSError, ValueError) as e:
            moved.skipped.append(f"{where.settings}: {e}")
        else:
            cur = conn.execute(
                "INSERT INTO settings VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (owner, settings.to_json(), where.settings.stat().st_mtime),
            )
            moved.settings += cur.rowcount


def _match_store(conn: Conn, path: Path, moved: Moved) -> None:
    if not path.is_file():
        return
    with _read_only(path) as db:
        present = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table in MATCH_TABLES:
            if table not in present:  # a file of an older version of the store
                continue
            cur = db.execute(f"SELECT * FROM {table}")
            names = [d[0] for d in cur.description]
            rows: list[Any] = cur.fetchall()
            insert = (
                f"INSERT INTO match.{table} ({', '.join(names)}) "
                f"VALUES ({', '.join(['%s'] * len(names))}) ON CONFLICT DO NOTHING"
            )
            for row in rows:
                moved_here = conn.execute(insert.encode(), row).rowcount
                setattr(moved, f"match_{table}", getattr(moved, f"match_{table}") + moved_here)
    conn.execute(
        "SELECT setval(pg_get_serial_sequence('match.tables', 'id'),"
        " (SELECT coalesce(max(id), 0) + 1 FROM match.tables), false)"
    )


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise StorageError(f"cannot read {path}: {e}") from e
    try:
        yield db
    except sqlite3.Error as e:
        raise StorageError(f"cannot read {path}: {e}") from e
    finally:
        db.close()
