"""The match store in PostgreSQL: :class:`PgDatabase` is :class:`~.db.Database`
for a database several ``serve`` hosts share.

The store's SQL is written once, in what SQLite and PostgreSQL both read
(``ON CONFLICT DO NOTHING``, ``count(*) FILTER``, ``lower(name) = lower(?)``);
:class:`SqlConnection` runs it on PostgreSQL (schema ``match``, made by
``termsolitaire db upgrade``) with ``?`` for parameters and ``lastrowid`` as
SQLite has them, and rows answer by index and by column name as
:class:`sqlite3.Row` does.

Writes keep SQLite's meaning: ``BEGIN IMMEDIATE`` becomes one transaction
that first takes a transaction-scoped advisory lock, so writers take turns
exactly as on one SQLite file; every write bumps the revision and sends a
NOTIFY on :data:`CHANNEL` (``LISTEN`` to hear every host's changes at once).

A lost connection (the server restarted or is unreachable) makes the store
:attr:`~PgDatabase.broken` and raises :class:`~.errors.StoreGone`: a seat
then keeps its actions and shares them when :meth:`~PgDatabase.reconnect`
succeeds (:meth:`~.seat.Seat.sync`), as with a file that went away.

>>> translate("SELECT id FROM players WHERE lower(name) = lower(?) AND id LIKE 'a%'")
"SELECT id FROM players WHERE lower(name) = lower(%s) AND id LIKE 'a%%'"
"""

from __future__ import annotations

import contextlib
import queue
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import psycopg

from ..storage.pgconn import shared
from .dbcore import Healing
from .errors import StoreBusy, StoreError, StoreGone

CHANNEL = "termsolitaire_match"
"""The NOTIFY channel: the payload is the new revision."""
WRITE_LOCK = 0x7473_6D61  # "tsma": the advisory lock writers take turns on


def translate(sql: str) -> str:
    """A statement with SQLite's ``?`` parameters in psycopg's ``%s`` style."""
    return sql.replace("%", "%%").replace("?", "%s")


class Row(tuple[Any, ...]):
    """A row by index (``row[0]``) and by column name (``row["name"]``)."""

    names: dict[str, int]

    def __new__(cls, values: Sequence[Any], names: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row.names = names
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self.names[key])
        return super().__getitem__(key)

    def keys(self) -> list[str]:
        return list(self.names)


def _rows(cursor: psycopg.Cursor[Any]) -> Any:
    names = {c.name: i for i, c in enumerate(cursor.description or ())}
    return lambda values: Row(values, names)


def _value(v: Any) -> Any:
    return int(v) if isinstance(v, bool) else v


class Cursor:
    """What the store uses of :class:`sqlite3.Cursor`."""

    def __init__(self, conn: psycopg.Connection[Any], cur: psycopg.Cursor[Any]) -> None:
        self._conn = conn
        self._cur = cur

    @property
    def rowcount(self) -> int:
        return self._cur.rowcount

    @property
    def lastrowid(self) -> int | None:
        row = self._conn.execute("SELECT lastval()").fetchone()
        return int(row[0]) if row is not None else None

    def fetchone(self) -> Row | None:
        return cast(Row | None, self._cur.fetchone() if self._cur.description else None)

    def fetchall(self) -> list[Row]:
        return cast(list[Row], self._cur.fetchall() if self._cur.description else [])

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


class SqlConnection:
    """What the store uses of :class:`sqlite3.Connection`, on PostgreSQL."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        cur = self._conn.cursor(row_factory=_rows)
        try:
            cur.execute(translate(sql).encode(), [_value(v) for v in params])
        except psycopg.errors.UniqueViolation as e:
            raise sqlite3.IntegrityError(str(e)) from e
        return Cursor(self._conn, cur)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._conn.cursor() as cur:
            cur.executemany(translate(sql).encode(), [[_value(v) for v in r] for r in rows])


class PgDatabase(Healing):
    """:class:`~.db.Database`'s interface on PostgreSQL, on the process's one shared
    connection (:mod:`termsolitaire.storage.pgconn`: the player's saves and every
    other store of the process use the same one; its threads take turns)."""

    def __init__(self, url: str, directory: Path) -> None:
        self.url = url
        self.directory = directory
        """Where the file store would be (kept for code that opens a second store)."""
        self.path = Path("postgresql:match")
        self.messages: list[str] = []
        self.read_only = False
        self.link = shared(url)
        self.link.hold()
        self._closed = False
        self._checked: psycopg.Connection[Any] | None = None
        self._gone = False
        self._healed_at = 0.0
        self.reconnect()

    def _connect(self) -> None:
        with self.link.lock:
            try:
                conn = self.link.connect()
            except psycopg.Error as e:
                raise StoreGone(f"The shared match database cannot be reached ({_line(e)})") from e
            if conn is self._checked:
                return
            try:
                with self.link.using("match"):
                    conn.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
            except psycopg.Error as e:
                raise StoreGone(
                    f"The shared match database has no match tables ({_line(e)}): "
                    "run `termsolitaire db upgrade`"
                ) from e
            self._checked = conn

    @property
    def broken(self) -> bool:
        return self._gone

    def reconnect(self) -> None:
        """Connect, and check the match tables are there (also the first time):
        :attr:`broken` until it succeeds; raises StoreError when it fails."""
        with self.link.lock:
            self._gone = False
            try:
                self._connect()
            except StoreError:
                self._gone = True
                raise

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.link.release()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` (from another thread) whenever anyone on any host writes,
        or the connection came back after an outage; the function returned stops it."""
        return self.link.subscribe(CHANNEL, lambda payload: listener())

    @contextlib.contextmanager
    def _using(self, doing: str) -> Iterator[psycopg.Connection[Any]]:
        """The shared connection with the match schema, or StoreGone."""
        with self.link.lock:
            self.heal()
            conn = self.link.current()
            if self._gone or conn is None or conn is not self._checked:
                if not self._gone and conn is not None:
                    self._connect()  # opened again by another store: check it once
                else:
                    self._gone = True
                    raise StoreGone(f"The shared match database is not reachable: cannot {doing}")
            try:
                with self.link.using("match") as conn:
                    yield conn
            except psycopg.Error as e:
                raise self._failed(e, doing) from e

    def _failed(self, e: psycopg.Error, doing: str) -> StoreError:
        conn = self.link.current()
        if isinstance(e, psycopg.OperationalError) and conn is None:
            self._gone = True
            self.link.drop()
            return StoreGone(f"The shared match database is not reachable: cannot {doing}")
        if isinstance(e, psycopg.errors.LockNotAvailable | psycopg.errors.QueryCanceled):
            return StoreBusy(f"The match database is busy: cannot {doing} now; try again")
        return StoreError(f"The match database failed: cannot {doing} ({_line(e)})")

    @contextlib.contextmanager
    def read(self, doing: str = "read the tables") -> Iterator[sqlite3.Connection]:
        with self._using(doing) as conn:
            yield cast(sqlite3.Connection, SqlConnection(conn))

    @contextlib.contextmanager
    def snapshot(self, doing: str = "read the tables") -> Iterator[sqlite3.Connection]:
        with self._using(doing) as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield cast(sqlite3.Connection, SqlConnection(conn))

    @contextlib.contextmanager
    def write(self, doing: str, *, quiet: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction behind the writers' lock; bumps the revision and tells
        every listener (not when ``quiet``: a write no screen shows)."""
        with self._using(doing) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            yield cast(sqlite3.Connection, SqlConnection(conn))
            if quiet:
                return
            row = conn.execute(
                "UPDATE meta SET value = value + 1 WHERE key = 'revision' RETURNING value"
            ).fetchone()
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, str(row[0] if row else 0)))


def _line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class Changes:
    """Every host's writes as they happen, for code without a screen (tests, tools):
    :meth:`wait` returns as soon as any host writes. It listens on the process's
    shared connection (:meth:`PgDatabase.subscribe` is the screens' way)."""

    def __init__(self, url: str) -> None:
        self._link = shared(url)
        self._heard: queue.Queue[str | None] = queue.Queue()
        with self._link.lock:
            try:
                self._link.connect()
            except psycopg.Error as e:
                raise StoreGone(f"The shared match database cannot be reached ({_line(e)})") from e
            self._stop = self._link.subscribe(CHANNEL, self._heard.put)

    def wait(self, timeout: float) -> int | None:
        """The revision of the next write by anyone, or None after ``timeout`` seconds
        with none (or when the connection came back, changes perhaps missed)."""
        try:
            payload = self._heard.get(timeout=timeout)
        except queue.Empty:
            return None
        return int(payload) if payload is not None else None

    def close(self) -> None:
        self._stop()
