"""The PostgreSQL backend: one player's saves, statistics and settings in a
database several ``serve`` hosts share (psycopg 3).

Every row carries its ``owner`` (:func:`~termsolitaire.storage.backend.owner`:
the player's key fingerprint under ``serve``), so one database holds everyone.
The classes here are the file backend's :class:`~.saves.SaveStore` and
:class:`~.stats.Stats` with their reads and writes done in the database; what
the screens call and what they get back are the same. The lock of a save stays
local (one open copy of a game per host).

A connection that broke (the server restarted) is opened again on the next
call; what cannot be done raises :class:`~.files.StorageError` with the
message for the player, as the file backend does.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

import psycopg

from ..rules import Game
from . import schema
from .files import StorageError
from .paths import Paths
from .saves import Saved, SaveStore, _title, _variant, decode, encode, slot
from .settings import Settings
from .stats import Finished, Stats, variant_text

T = TypeVar("T")
Conn = psycopg.Connection[tuple[Any, ...]]
CONNECT_TIMEOUT = 5


def connect(url: str) -> Conn:
    """A connection in autocommit mode (transactions are explicit);
    StorageError naming the problem when the server cannot be reached."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.Error as e:
        raise StorageError(f"cannot reach the database: {_first_line(e)}") from e


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class Database:
    """One connection, opened on first use and again after it broke."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Conn | None = None

    def conn(self) -> Conn:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self.close()
            conn = connect(self.url)
            try:
                found = schema.version(conn)
            except psycopg.Error as e:
                conn.close()
                raise StorageError(f"cannot read the database: {_first_line(e)}") from e
            if found != schema.LATEST:
                conn.close()
                newer = "newer than this termsolitaire" if found > schema.LATEST else "older"
                raise StorageError(
                    f"the database's schema is {found}, {newer} (want {schema.LATEST}): "
                    "run `termsolitaire db upgrade`"
                )
            self._conn = conn
        return self._conn

    def run(self, doing: str, work: Callable[[Conn], T]) -> T:
        """``work`` in one transaction; a connection that broke is opened again
        and the work tried once more."""
        for attempt in (1, 2):
            conn = self.conn()
            try:
                with conn.transaction():
                    return work(conn)
            except psycopg.OperationalError as e:
                if attempt == 2 or not conn.broken:
                    raise StorageError(f"cannot {doing}: {_first_line(e)}") from e
            except psycopg.Error as e:
                raise StorageError(f"cannot {doing}: {_first_line(e)}") from e
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                conn.close()


class PostgresSaves(SaveStore):
    """The autosaves of ``owner``: one row per game and variant, the same checksummed
    JSON as the file (:func:`~.saves.encode`). A broken one is kept aside under
    ``SLOT.corrupt-<time>``, as the file is."""

    def __init__(self, db: Database, owner: str, where: Paths) -> None:
        super().__init__(where)
        self.db = db
        self.owner = owner

    def save(self, game: Game, game_id: str, options: dict[str, Any] | None = None) -> None:
        body = encode(game, game_id, options)
        key = slot(game.name, _variant(game.name, game.variant))
        self.db.run(
            "save the game",
            lambda c: c.execute(
                "INSERT INTO saves VALUES (%s, %s, %s, %s, %s) ON CONFLICT (owner, slot) "
                "DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at",
                (self.owner, key, game.name, body, time.time()),
            ),
        )

    def load(
        self, name: str, variant: Mapping[str, int] | None = None
    ) -> tuple[Saved | None, str | None]:
        key = slot(name, _variant(name, variant))
        try:
            row = self.db.run(
                "read the saved game",
                lambda c: c.execute(
                    "SELECT body FROM saves WHERE owner = %s AND slot = %s", (self.owner, key)
                ).fetchone(),
            )
        except StorageError as e:
            return None, f"Cannot read the saved {_title(name)} game: {e}"
        if row is None:
            return None, None
        return self._decode(key, name, row[0])

    def _decode(self, key: str, name: str, body: str) -> tuple[Saved | None, str | None]:
        try:
            saved = decode(body.encode())
            if saved.game.name != name:
                raise ValueError(f"holds a {saved.game.name} game")
            if slot(name, saved.game.variant) != key:
                raise ValueError(f"holds the variant {saved.game.variant}")
        except ValueError as e:
            aside = f"{key}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
            try:
                self.db.run(
                    "keep the broken save aside",
                    lambda c: c.execute(
                        "UPDATE saves SET slot = %s WHERE owner = %s AND slot = %s",
                        (aside, self.owner, key),
                    ),
                )
                where = f"kept as {aside}"
            except StorageError:
                where = "left in place"
            return None, f"The saved {_title(name)} game could not be read ({e}); {where}."
        return saved, None

    def all(self) -> tuple[list[Saved], list[str]]:
        try:
            rows = self.db.run(
                "read the saved games",
                lambda c: c.execute(
                    "SELECT slot, game, body FROM saves WHERE owner = %s "
                    "AND slot NOT LIKE '%%.corrupt-%%' ORDER BY slot",
                    (self.owner,),
                ).fetchall(),
            )
        except StorageError as e:
            return [], [f"Cannot read the saved games: {e}"]
        found: list[Saved] = []
        problems: list[str] = []
        for key, name, body in rows:
            saved, problem = self._decode(key, name, body)
            if problem:
                problems.append(problem)
            if saved is not None:
                found.append(saved)
        return found, problems

    def delete(self, name: str, variant: Mapping[str, int] | None = None) -> None:
        key = slot(name, _variant(name, variant))
        self.db.run(
            "delete the saved game",
            lambda c: c.execute(
                "DELETE FROM saves WHERE owner = %s AND slot = %s", (self.owner, key)
            ),
        )


class PostgresStats(Stats):
    """The finished games of ``owner``, one row each keyed by the game's id."""

    def __init__(self, db: Database, owner: str, where: Paths) -> None:
        super().__init__(where.stats_db)
        self.db = db
        self.owner = owner

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
    ) -> bool:
        finished = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        row = Finished(
            game_id,
            finished,
            game,
            variant_text(variant),
            deal,
            "won" if won else "lost",
            score,
            moves,
            round(seconds, 3),
        )
        return self.db.run("write statistics", lambda c: insert_finished(c, self.owner, row))

    def finished(self, limit: int | None = None) -> list[Finished]:
        sql = (
            "SELECT id, finished_at, game, variant, deal, result, score, moves, seconds "
            "FROM finished_games WHERE owner = %s ORDER BY finished_at DESC, seq DESC LIMIT %s"
        )
        rows = self.db.run(
            "read statistics", lambda c: c.execute(sql, (self.owner, limit)).fetchall()
        )
        return [Finished(*row) for row in rows]

    def close(self) -> None:
        self.db.close()


def insert_finished(c: Conn, owner: str, f: Finished) -> bool:
    """One finished game, once: False when its id was there already."""
    cur = c.execute(
        "INSERT INTO finished_games (owner, id, finished_at, game, variant, deal, result,"
        " score, moves, seconds) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (owner, id) DO NOTHING",
        (
            owner,
            f.id,
            f.finished_at,
            f.game,
            f.variant,
            f.deal,
            f.result,
            f.score,
            f.moves,
            f.seconds,
        ),
    )
    return cur.rowcount == 1


class PostgresStorage:
    """Saves, statistics and settings of one player (``owner``) in PostgreSQL."""

    def __init__(self, url: str, owner: str, where: Paths) -> None:
        self.paths = where
        self.owner = owner
        self.db = Database(url)
        self.saves: SaveStore = PostgresSaves(self.db, owner, where)
        self.stats: Stats = PostgresStats(self.db, owner, where)

    def load_settings(self) -> tuple[Settings, list[str]]:
        try:
            row = self.db.run(
                "read the settings",
                lambda c: c.execute(
                    "SELECT body FROM settings WHERE owner = %s", (self.owner,)
                ).fetchone(),
            )
        except StorageError as e:
            return Settings(), [f"Cannot read settings: {e}; using defaults"]
        if row is None:
            return Settings(), []
        try:
            return Settings.from_json(row[0])
        except ValueError as e:
            return Settings(), [f"Settings could not be read ({e}); left in place; using defaults"]

    def save_settings(self, settings: Settings) -> None:
        body = settings.to_json()
        self.db.run(
            "save the settings",
            lambda c: c.execute(
                "INSERT INTO settings VALUES (%s, %s, %s) ON CONFLICT (owner) "
                "DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at",
                (self.owner, body, time.time()),
            ),
        )

    def close(self) -> None:
        self.db.close()


@contextlib.contextmanager
def opened(url: str) -> Iterator[Conn]:
    """A connection for a command (``db upgrade``, ``db import``), closed after."""
    conn = connect(url)
    try:
        yield conn
    finally:
        conn.close()
