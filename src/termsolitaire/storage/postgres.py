"""The PostgreSQL backend: one player's saves, statistics and settings in a
database several ``serve`` hosts share (psycopg 3).

Every row carries its ``owner`` (:func:`~termsolitaire.storage.backend.owner`:
the player's key fingerprint under ``serve``), so one database holds everyone.
The classes here are the file backend's :class:`~.saves.SaveStore` and
:class:`~.stats.Stats` with their reads and writes done in the database; what
the screens call and what they get back are the same. The lock of a save is
the database's (:class:`PgSaveLock`): one open copy of a player's game on all
hosts together.

A connection that broke (the server restarted) is opened again on the next
call; what cannot be done raises :class:`~.files.StorageError` with the
message for the player, as the file backend does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import psycopg

from ..rules import Game
from . import schema
from .files import StorageError, write_atomic
from .locks import SaveLock
from .paths import Paths
from .pgconn import SharedConnection, shared
from .saves import Saved, SaveStore, _title, _variant, decode_as, encode, slot, unreadable
from .settings import Settings
from .stats import Finished, Stats

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


RETRY_AFTER = 2.0
"""Seconds after a failed connection during which calls fail at once instead of
trying again (a server that is down costs each caller no wait)."""


class Database:
    """The stores' way into the database: the process's one shared connection
    (:mod:`.pgconn`, shared with the match store and the live changes), its
    schema checked once per connection; after a failed connection, calls fail
    at once for :data:`RETRY_AFTER` seconds."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._failed: tuple[float, StorageError] | None = None
        self._link: SharedConnection | None = None
        self._checked: Conn | None = None

    @property
    def link(self) -> SharedConnection:
        if self._link is None:
            self._link = shared(self.url)
            self._link.hold()
        return self._link

    @contextlib.contextmanager
    def conn(self) -> Iterator[Conn]:
        """The connection, for this thread alone while the block runs; StorageError
        naming the problem when it cannot be had."""
        if self._failed is not None and time.monotonic() - self._failed[0] < RETRY_AFTER:
            raise self._failed[1]
        link = self.link
        with link.lock:
            try:
                link.connect()
            except psycopg.Error as e:
                error = StorageError(f"cannot reach the database: {_first_line(e)}")
                self._failed = (time.monotonic(), error)
                raise error from e
            self._failed = None
            with link.using("public") as conn:
                if conn is not self._checked:
                    self._check(conn)
                    self._checked = conn
                yield conn

    @staticmethod
    def _check(conn: Conn) -> None:
        try:
            found = schema.version(conn)
        except psycopg.Error as e:
            raise StorageError(f"cannot read the database: {_first_line(e)}") from e
        if found != schema.LATEST:
            newer = "newer than this termsolitaire" if found > schema.LATEST else "older"
            raise StorageError(
                f"the database's schema is {found}, {newer} (want {schema.LATEST}): "
                "run `termsolitaire db upgrade`"
            )

    def run(self, doing: str, work: Callable[[Conn], T]) -> T:
        """``work`` in one transaction; a connection that broke is opened again
        and the work tried once more."""
        for attempt in (1, 2):
            with self.conn() as conn:
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
        link, self._link, self._checked = self._link, None, None
        if link is not None:
            link.release()


class PooledDatabase(Database):
    """:class:`Database` for a process that holds several connections (``serve``:
    its accounts and its session caps, used from one event loop): a psycopg
    connection pool, each connection checked before use. A caller waits at most
    :data:`POOL_WAIT` seconds for one, so a database that is down never holds
    the event loop for long."""

    def __init__(self, url: str, size: int = 2) -> None:
        super().__init__(url)
        from psycopg_pool import ConnectionPool

        self.pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=1,
            max_size=size,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            check=ConnectionPool.check_connection,
            timeout=POOL_WAIT,
            reconnect_timeout=0,
            open=False,
            name="termsolitaire",
        )
        self.pool.open(wait=False)

    def run(self, doing: str, work: Callable[[Conn], T]) -> T:
        """As :meth:`Database.run`; after the database failed to answer, calls fail
        at once for :data:`RETRY_AFTER` seconds."""
        from psycopg_pool import PoolTimeout

        if self._failed is not None and time.monotonic() - self._failed[0] < RETRY_AFTER:
            raise StorageError(f"cannot {doing}: {self._failed[1]}")
        try:
            with self.pool.connection() as conn, conn.transaction():
                result = work(conn)
        except PoolTimeout as e:
            self._failed = (time.monotonic(), StorageError("the database does not answer"))
            raise StorageError(f"cannot {doing}: the database does not answer") from e
        except psycopg.OperationalError as e:
            self._failed = (time.monotonic(), StorageError(_first_line(e)))
            raise StorageError(f"cannot {doing}: {_first_line(e)}") from e
        except psycopg.Error as e:
            raise StorageError(f"cannot {doing}: {_first_line(e)}") from e
        self._failed = None
        return result

    def close(self) -> None:
        self.pool.close(timeout=1.0)


POOL_WAIT = 2.0
"""Seconds a caller of :class:`PooledDatabase` waits for a connection."""


class PostgresSaves(SaveStore):
    """The autosaves of ``owner``: one row per game and variant, the same checksummed
    JSON as the file (:func:`~.saves.encode`). A broken one is kept aside under
    ``SLOT.corrupt-<time>``, as the file is.

    When the database cannot take a save, it is written as a file on this host
    (``unshared-saves/`` in the data directory: :attr:`pending`) and the player
    is told; the next save that reaches the database, or the next load, shares
    it and removes the file. Nothing played is lost while the database is down.
    """

    def __init__(self, db: Database, owner: str, where: Paths) -> None:
        super().__init__(where)
        self.db = db
        self.owner = owner
        aside = where.data / "unshared-saves"
        self.pending = SaveStore(Paths(aside, aside))
        """The saves the database could not take yet, as files."""

    def _put(self, key: str, name: str, body: str) -> None:
        self.db.run(
            "save the game",
            lambda c: c.execute(
                "INSERT INTO saves VALUES (%s, %s, %s, %s, %s) ON CONFLICT (owner, slot) "
                "DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at",
                (self.owner, key, name, body, time.time()),
            ),
        )

    def _drop_pending(self, name: str, variant: Mapping[str, int] | None) -> None:
        with contextlib.suppress(OSError):
            self.pending.path(name, variant).unlink()

    def save(self, game: Game, game_id: str, options: dict[str, Any] | None = None) -> None:
        body = encode(game, game_id, options)
        key = slot(game.name, _variant(game.name, game.variant))
        try:
            self._put(key, game.name, body)
        except StorageError as e:
            try:
                write_atomic(self.pending.path(game.name, game.variant), body)
            except StorageError:
                raise e from None
            raise StorageError(
                f"{e}; the game is kept on this machine and shared when the database is back"
            ) from e
        self._drop_pending(game.name, game.variant)

    def _share(self, saved: Saved) -> None:
        """A pending save into the database (and its file gone); quiet when it cannot."""
        g = saved.game
        with contextlib.suppress(StorageError):
            self._put(slot(g.name, g.variant), g.name, encode(g, saved.id, saved.options))
            self._drop_pending(g.name, g.variant)

    def load(
        self, name: str, variant: Mapping[str, int] | None = None
    ) -> tuple[Saved | None, str | None]:
        local, _ = self.pending.load(name, variant)
        shared, problem = self._load_shared(name, variant)
        if local is not None and (shared is None or local.saved_at >= shared.saved_at):
            self._share(local)
            return local, None
        return shared, problem

    def _load_shared(
        self, name: str, variant: Mapping[str, int] | None
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
            saved = decode_as(body.encode(), name, lambda v: slot(name, v) == key)
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
            except StorageError:
                return None, unreadable(name, e, None)
            return None, unreadable(name, e, aside)
        return saved, None

    def all(self) -> tuple[list[Saved], list[str]]:
        found: dict[str, Saved] = {}
        problems: list[str] = []
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
            rows = []
            problems.append(f"Cannot read the saved games: {e}")
        for key, name, body in rows:
            saved, problem = self._decode(key, name, body)
            if problem:
                problems.append(problem)
            if saved is not None:
                found[key] = saved
        local, local_problems = self.pending.all()
        problems += local_problems
        for saved in local:
            key = slot(saved.game.name, saved.game.variant)
            if key not in found or saved.saved_at >= found[key].saved_at:
                found[key] = saved
                self._share(saved)
        return [found[k] for k in sorted(found)], problems

    def lock(self, name: str, variant: Mapping[str, int] | None = None) -> SaveLock:
        """The lock of a game's save for this player on every host (not yet taken)."""
        key = slot(name, _variant(name, variant))
        return PgSaveLock(self.db, self.owner, key, self.path(name, variant).with_suffix(".lock"))

    def delete(self, name: str, variant: Mapping[str, int] | None = None) -> None:
        key = slot(name, _variant(name, variant))
        self._drop_pending(name, variant)
        self.db.run(
            "delete the saved game",
            lambda c: c.execute(
                "DELETE FROM saves WHERE owner = %s AND slot = %s", (self.owner, key)
            ),
        )


SAVE_LOCKS = 0x5341  # "SA": the advisory locks of the saves (key: the owner and slot)
HOLDER = (
    "SELECT a.application_name, a.backend_start FROM pg_locks l"
    " JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory'"
    " AND l.classid::bigint = %s AND l.objid::bigint = %s AND l.objsubid = 2 AND l.granted"
)


class PgSaveLock(SaveLock):
    """One open copy of a game per player on every host at once: a session-level
    advisory lock on the process's connection, keyed by the player and the save's
    slot (the file lock of :class:`SaveLock` only sees this host). The server
    drops it when the session's connection closes, however the app ends. While
    the database cannot be reached the file lock stands in (this host at least)."""

    _taken: ClassVar[set[tuple[str, int]]] = set()
    """The locks this process holds (a second board of the same game in the same
    process is refused too: the database grants a session its own lock again)."""

    def __init__(self, db: Database, owner: str, key: str, path: Path) -> None:
        super().__init__(path)
        self.db = db
        crc = zlib.crc32(f"{owner}\0{key}".encode())
        self.objid = crc
        self.key = crc - (1 << 32) if crc >= 1 << 31 else crc
        self._shared = False

    @property
    def held(self) -> bool:
        return self._shared or super().held

    def acquire(self) -> bool:
        if self.held:
            return True
        ident = (self.db.url, self.key)
        if ident in PgSaveLock._taken:
            return False
        try:
            with self.db.conn() as c:
                row = c.execute(
                    "SELECT pg_try_advisory_lock(%s, %s)", (SAVE_LOCKS, self.key)
                ).fetchone()
        except (StorageError, psycopg.Error):
            return super().acquire()  # the database is away: this host's lock at least
        if row is None or not row[0]:
            return False
        self._shared = True
        PgSaveLock._taken.add(ident)
        return True

    def held_here(self) -> bool:
        return (self.db.url, self.key) in PgSaveLock._taken or super().held_here()

    def holder(self) -> str:
        """Where the game is open: ``a session on HOST since 14:02``."""
        try:
            with self.db.conn() as c:
                row = c.execute(HOLDER, (SAVE_LOCKS, self.objid)).fetchone()
        except (StorageError, psycopg.Error):
            row = None
        if row is None:
            return super().holder()
        host = str(row[0]).partition("@")[2] or "another host"
        return f"a session on {host} since {row[1].astimezone().strftime('%H:%M')}"

    def release(self) -> None:
        if self._shared:
            self._shared = False
            PgSaveLock._taken.discard((self.db.url, self.key))
            with contextlib.suppress(StorageError, psycopg.Error), self.db.conn() as c:
                c.execute("SELECT pg_advisory_unlock(%s, %s)", (SAVE_LOCKS, self.key))
        super().release()


class PostgresStats(Stats):
    """The finished games of ``owner``, one row each keyed by the game's id.

    A game finished while the database is down is kept in a file on this host
    (``unshared-stats.jsonl``, one JSON line each) and moved in by the next
    :meth:`record` or :meth:`finished` that reaches the database (its id makes
    it count once, however often that is tried)."""

    def __init__(self, db: Database, owner: str, where: Paths) -> None:
        super().__init__(where.stats_db)
        self.db = db
        self.owner = owner
        self.pending = where.data / "unshared-stats.jsonl"

    def insert(self, row: Finished) -> bool:
        try:
            self._share_pending()
            return self.db.run("write statistics", lambda c: insert_finished(c, self.owner, row))
        except StorageError as e:
            line = json.dumps(dataclasses.astuple(row)) + "\n"
            try:
                self.pending.parent.mkdir(parents=True, exist_ok=True)
                with self.pending.open("a", encoding="utf-8") as f:
                    f.write(line)
            except OSError:
                raise e from None
            self.messages.append(
                f"Statistics not shared for now ({e}); kept on this machine until the "
                "database is back"
            )
            return True

    def _share_pending(self) -> None:
        """Move the games kept while the database was down into it."""
        try:
            lines = self.pending.read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        rows = []
        for line in lines:
            with contextlib.suppress(ValueError, TypeError):
                rows.append(Finished(*json.loads(line)))

        def work(c: Conn) -> None:
            for row in rows:
                insert_finished(c, self.owner, row)

        self.db.run("share the statistics kept here", work)
        with contextlib.suppress(OSError):
            self.pending.unlink()

    def finished(self, limit: int | None = None) -> list[Finished]:
        sql = (
            "SELECT id, finished_at, game, variant, deal, result, score, moves, seconds, minutes"
            " FROM finished_games WHERE owner = %s ORDER BY finished_at DESC, seq DESC LIMIT %s"
        )
        self._share_pending()
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
        " score, moves, seconds, minutes)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
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
            f.minutes,
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


def check(url: str) -> None:
    """StorageError naming what keeps a host from using the database at all: it does
    not answer, or its schema is not this program's (``serve`` asks before it
    listens: nobody could log in, the accounts being there)."""
    with opened(url) as conn:
        Database._check(conn)


@contextlib.contextmanager
def opened(url: str) -> Iterator[Conn]:
    """A connection for a command (``db upgrade``, ``db import``), closed after."""
    conn = connect(url)
    try:
        yield conn
    finally:
        conn.close()
