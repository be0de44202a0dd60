"""Opening a SQLite file the way both local stores want it: the statistics
(:mod:`.stats`) and the match store (:mod:`termsolitaire.match.db`).

- :func:`connect`: autocommit (every transaction explicit), a busy timeout so
  two writers take turns, usable from the threads of one process under the
  caller's lock, opened in a given mode (``rwc``, ``rw``, ``ro``…);
- :func:`prepare`: WAL (readers never wait for the writer) and
  ``synchronous = NORMAL``, then the schema at its version (``PRAGMA
  user_version``), created in one ``BEGIN IMMEDIATE`` transaction; a file
  written by a newer termsolitaire raises :class:`NewerSchema`;
- :func:`set_aside`: a damaged file kept under another name, with its
  ``-wal`` and ``-shm`` gone, so a new one can start.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> db = connect(d / "x.sqlite3", busy_ms=1000)
>>> prepare(db, 1, "CREATE TABLE t (a INTEGER);")
0
>>> prepare(db, 1, "CREATE TABLE t (a INTEGER);"), db.execute("PRAGMA journal_mode").fetchone()[0]
(1, 'wal')
>>> prepare(db, 0, "")
Traceback (most recent call last):
...
termsolitaire.storage.sqlite.NewerSchema: written by a newer termsolitaire (schema 1)
>>> db.close()
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import quote

from .files import keep_aside


class NewerSchema(sqlite3.DatabaseError):
    """The file was written by a newer termsolitaire (its schema version is higher)."""

    def __init__(self, version: int) -> None:
        super().__init__(f"written by a newer termsolitaire (schema {version})")
        self.version = version


def connect(path: Path, *, busy_ms: int, mode: str = "rwc") -> sqlite3.Connection:
    """A connection to the file at ``path`` opened in ``mode`` (``rwc`` creates it),
    in autocommit mode, waiting up to ``busy_ms`` for another writer; its rows
    answer by name too (:class:`sqlite3.Row`)."""
    db = sqlite3.connect(
        f"file:{quote(str(path), safe='/')}?mode={mode}",
        uri=True,
        timeout=busy_ms / 1000,
        isolation_level=None,
        check_same_thread=False,
    )
    db.row_factory = sqlite3.Row
    db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
    return db


def version(db: sqlite3.Connection) -> int:
    """The schema version the file holds (0: none yet)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def prepare(
    db: sqlite3.Connection,
    latest: int,
    schema: str,
    *,
    writable: bool = True,
    wal: bool = True,
    steps: Mapping[int, str] | None = None,
) -> int:
    """Check the file's schema version against ``latest``; when ``writable``, set WAL
    and create the tables (``schema``, every one IF NOT EXISTS) if the file is
    older. The version found (NewerSchema when it is above ``latest``).
    ``wal=False``: a file that cannot switch to WAL (no shared memory beside it)
    is used in its journal mode. ``steps``: what brings a file of the version
    before each key to that version beyond new tables (a column added), run in
    order on a file that had tables, in the same transaction."""
    found = version(db)
    if found > latest:
        raise NewerSchema(found)
    if not writable:
        return found
    if wal:
        use_wal(db)
    else:
        with contextlib.suppress(sqlite3.OperationalError):
            use_wal(db, patience=0.0)
    db.execute("PRAGMA synchronous = NORMAL")
    if found < latest:
        try:
            db.execute("BEGIN IMMEDIATE")
            now = version(db)  # another process may have brought it up meanwhile
            if now < latest:
                changes = [sql for v, sql in sorted((steps or {}).items()) if 0 < now < v]
                for statement in statements("".join(changes) + schema):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {int(latest)}")
            db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
    return found


def statements(script: str) -> Iterator[str]:
    """The SQL statements of ``script`` one by one (``executescript`` would commit
    the transaction they are to run in).

    >>> list(statements("CREATE TABLE t (a TEXT DEFAULT ';'); INSERT INTO t VALUES (1);"))
    ["CREATE TABLE t (a TEXT DEFAULT ';');", ' INSERT INTO t VALUES (1);']
    """
    part = ""
    for piece in script.split(";"):
        part += piece + ";"
        if sqlite3.complete_statement(part):
            if part.strip(" \n;"):
                yield part
            part = ""


def use_wal(db: sqlite3.Connection, patience: float = 30.0) -> None:
    """Put the file in WAL mode, waiting out another process doing the same.

    Two processes opening a new file at once both ask for WAL; SQLite answers
    the loser "database is locked" at once, without its busy handler, so
    the wait is here.
    """
    deadline = time.monotonic() + patience
    pause = 0.005
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)


def set_aside(path: Path) -> Path | None:
    """Keep the damaged file at ``path`` under another name (None when it could not
    be moved) and remove its ``-wal`` and ``-shm`` files."""
    moved = keep_aside(path)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()
    return moved
