"""Statistics: every finished game in SQLite (stdlib sqlite3, WAL, busy timeout).

One row per finished game, keyed by the game's id, so a game counts once even
when two logins finish it or an abandoned game is recorded again. The figures
per game and variant (played, won, win rate, best score, best time, fewest
moves, current and longest winning streak) are worked out from the rows.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import sqlite
from .files import StorageError, create_exclusive, refuse_links, sqlite_files

SCHEMA_VERSION = 2
"""1: the finished games; 2: the time limit each was played with (``minutes``)."""
BUSY_MS = 30_000
"""How long a writer waits for another (ms): statistics are written rarely."""
_DAMAGED = ("not a database", "malformed", "newer termsolitaire")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    finished_at TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    deal INTEGER,
    result TEXT NOT NULL CHECK (result IN ('won', 'lost')),
    score INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    seconds REAL NOT NULL,
    minutes INTEGER
);
CREATE INDEX IF NOT EXISTS games_by_kind ON games (game, variant, finished_at);
"""
_STEPS = {2: "ALTER TABLE games ADD COLUMN minutes INTEGER;"}
"""What an older file takes beyond the schema's new tables (:func:`sqlite.prepare`)."""


@dataclass(frozen=True)
class Finished:
    """One finished game, as the table of finished games shows it."""

    id: str
    finished_at: str
    game: str
    variant: str
    deal: int | None
    result: str
    score: int
    moves: int
    seconds: float
    minutes: int | None = None
    """The time limit it was played with (0: none; None: not known, a game kept
    before the limit was)."""


@dataclass(frozen=True)
class Summary:
    game: str
    variant: str
    played: int
    won: int
    best_score: int | None
    best_time: float | None
    fewest_moves: int | None
    current_streak: int
    longest_streak: int

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def variant_text(variant: dict[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(variant.items()))


class Stats:
    """The statistics database at ``path``; opened lazily, one connection per process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.messages: list[str] = []
        self._db: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create {self.path.parent}: {e.strerror or e}") from e
        for attempt in (1, 2):
            try:
                self._db = self._open()
                return self._db
            except sqlite3.DatabaseError as e:
                # Only a damaged or newer file is set aside; a locked or
                # unreadable one is reported and left alone.
                if attempt == 2 or not any(w in str(e) for w in _DAMAGED):
                    raise StorageError(f"cannot open statistics: {e}") from e
                self._set_aside(str(e))
        raise AssertionError("unreachable")  # pragma: no cover

    def _open(self) -> sqlite3.Connection:
        refuse_links(sqlite_files(self.path), "The statistics file")
        create_exclusive(self.path, 0o600)
        db = sqlite.connect(self.path, busy_ms=BUSY_MS)
        db.row_factory = None
        try:
            sqlite.prepare(db, SCHEMA_VERSION, _SCHEMA, steps=_STEPS)
            db.execute("SELECT count(*) FROM games").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _set_aside(self, why: str) -> None:
        moved = sqlite.set_aside(self.path)
        where = f"kept as {moved.name}" if moved else "left in place"
        self.messages.append(f"Statistics could not be read ({why}); {where}; starting afresh")

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            yield db
            db.execute("COMMIT")
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise StorageError(f"cannot write statistics: {e}") from e

    def record(
        self,
        game_id: str,
        game: str,
        variant: dict[str, int],
        deal: int | None,
        won: bool,
        score: int,
        moves: int,
        seconds: float,
        minutes: int = 0,
    ) -> bool:
        """Record a finished game once, played with a time limit of ``minutes``
        (0: none); False when this id was already recorded."""
        return self.insert(
            Finished(
                game_id,
                time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                game,
                variant_text(variant),
                deal,
                "won" if won else "lost",
                score,
                moves,
                round(seconds, 3),
                minutes,
            )
        )

    def insert(self, row: Finished) -> bool:
        """Keep one finished game's row; False when its id was there already."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO games (id, finished_at, game, variant, deal, result, score,"
                " moves, seconds, minutes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                dataclasses.astuple(row),
            )
            return cur.rowcount == 1

    def finished(self, limit: int | None = None) -> list[Finished]:
        """Finished games, newest first."""
        sql = (
            "SELECT id, finished_at, game, variant, deal, result, score, moves, seconds, minutes"
            " FROM games ORDER BY finished_at DESC, rowid DESC"
        )
        args: tuple[int, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            args = (limit,)
        try:
            rows = self._connect().execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise StorageError(f"cannot read statistics: {e}") from e
        return [Finished(*row) for row in rows]

    def summaries(self) -> list[Summary]:
        """One summary per game and variant that has been played."""
        groups: dict[tuple[str, str], list[Finished]] = {}
        for f in reversed(self.finished()):
            groups.setdefault((f.game, f.variant), []).append(f)
        return [summarise(g, v, rows) for (g, v), rows in sorted(groups.items())]


def summarise(game: str, variant: str, rows: list[Finished]) -> Summary:
    """The figures of one game and variant from its rows, oldest first."""
    wins = [r for r in rows if r.result == "won"]
    longest = run = 0
    for r in rows:
        run = run + 1 if r.result == "won" else 0
        longest = max(longest, run)
    return Summary(
        game=game,
        variant=variant,
        played=len(rows),
        won=len(wins),
        best_score=max((r.score for r in rows), default=None),
        best_time=min((r.seconds for r in wins), default=None),
        fewest_moves=min((r.moves for r in wins), default=None),
        current_streak=run,
        longest_streak=longest,
    )
