"""The shared SQLite database: where it is, opening it, and turning its errors
into messages for the player.

One file, ``match.sqlite3``, in a directory every player of the host can
write (docs/match.md): ``--match-dir``, else ``$TERMSOLITAIRE_MATCH_DIR``, else
``match/`` under the data directory. WAL, so readers never wait for the
writer; a busy timeout, so two writers take turns; every write a short
``BEGIN IMMEDIATE`` transaction. A committed write survives the process being
killed (WAL's guarantee), which is what "every action appended as it is
played" rests on.

The file is created only by an explicit ``create=True`` open (the lobby);
later opens use ``mode=rw`` so a database that has disappeared is reported,
never silently recreated empty. Before each transaction the file is checked
to be the one that was opened (same device and inode): a file deleted or
replaced under a running game is reported as :class:`StoreGone` instead of
writing into an unlinked file nobody else can see.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from ..storage import sqlite
from ..storage.files import (
    NOFOLLOW,
    StorageError,
    create_exclusive,
    refuse_links,
    sqlite_files,
)
from ..storage.paths import MATCH_FILE, paths
from .dbcore import HEAL_EVERY, Healing, MatchDatabase
from .errors import StoreBusy, StoreDamaged, StoreError, StoreGone, StoreReadOnly

__all__ = ["HEAL_EVERY", "Database", "MatchDatabase", "match_dir", "open_database"]

ENV_DIR = "TERMSOLITAIRE_MATCH_DIR"
FILENAME = MATCH_FILE
SCHEMA_VERSION = 4
"""1: the match; 2: the daily deal; 3: spectators and share codes (issue 31);
4: a seat's clock credit for server restarts (``seats.credit_s``). Every table
is made with IF NOT EXISTS, so an older file takes the newer tables in place
when first opened; a column added to an older table is a step of
:data:`_STEPS`."""
BUSY_MS = 5000
"""How long a writer waits for another before giving up (ms): long enough for
any real write, short enough that a screen never looks frozen."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO meta VALUES ('revision', 0);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS players_by_name ON players (name);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    host TEXT NOT NULL,
    suits INTEGER NOT NULL CHECK (suits IN (1, 2, 4)),
    limit_s INTEGER NOT NULL CHECK (limit_s > 0),
    public INTEGER NOT NULL CHECK (public IN (0, 1)),
    deal INTEGER NOT NULL,
    code TEXT NOT NULL UNIQUE,
    opened_at REAL NOT NULL,
    closed_at REAL,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    player TEXT NOT NULL,
    taken_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    reason TEXT CHECK (reason IN ('cleared', 'time', 'end')),
    actions INTEGER NOT NULL DEFAULT 0,
    score INTEGER NOT NULL DEFAULT 0,
    runs INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    last_at REAL,
    credit_s REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, player)
);
CREATE INDEX IF NOT EXISTS seats_by_player ON seats (player);
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seat, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS invitations (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    guest TEXT NOT NULL,
    host TEXT NOT NULL,
    sent_at REAL NOT NULL,
    answer TEXT CHECK (answer IN ('accepted', 'declined')),
    PRIMARY KEY (table_id, guest)
);
CREATE INDEX IF NOT EXISTS invitations_by_guest ON invitations (guest);
CREATE TABLE IF NOT EXISTS friends (
    player TEXT NOT NULL, other TEXT NOT NULL, since REAL NOT NULL,
    PRIMARY KEY (player, other)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ignores (
    player TEXT NOT NULL, other TEXT NOT NULL, since REAL NOT NULL,
    PRIMARY KEY (player, other)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outcomes (
    table_id INTEGER NOT NULL,
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    score INTEGER NOT NULL,
    opponent_score INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE INDEX IF NOT EXISTS outcomes_by_player ON outcomes (player, opponent);
CREATE TABLE IF NOT EXISTS code_tries (player TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS code_tries_by_player ON code_tries (player, at);
CREATE TABLE IF NOT EXISTS host_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL,
    made_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS daily_attempts (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    day TEXT NOT NULL,
    deal INTEGER NOT NULL,
    started_at REAL NOT NULL,
    PRIMARY KEY (player, game, variant, day)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS daily_attempts_by_day ON daily_attempts (game, variant, day);
CREATE TABLE IF NOT EXISTS daily_actions (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    day TEXT NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (player, game, variant, day, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS daily_results (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    day TEXT NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    score INTEGER NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (player, game, variant, day)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS daily_results_by_day ON daily_results (game, variant, day);
-- version 3 (issue 31): spectators, watching settings and invitations, share codes
CREATE TABLE IF NOT EXISTS spectators (
    table_id INTEGER NOT NULL,
    player TEXT NOT NULL,
    first_at REAL NOT NULL,
    seen_at REAL NOT NULL,
    PRIMARY KEY (table_id, player)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS spectators_by_time ON spectators (table_id, seen_at);
CREATE TABLE IF NOT EXISTS watch_invitations (
    table_id INTEGER NOT NULL,
    guest TEXT NOT NULL,
    host TEXT NOT NULL,
    sent_at REAL NOT NULL,
    PRIMARY KEY (table_id, guest)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS watch_invitations_by_guest ON watch_invitations (guest);
CREATE TABLE IF NOT EXISTS watch_settings (
    player TEXT PRIMARY KEY,
    allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)),
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS shares (
    code TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    game TEXT NOT NULL,
    body TEXT NOT NULL,
    made_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS shares_by_body ON shares (body);
"""

_STEPS = {
    4: "ALTER TABLE seats ADD COLUMN credit_s REAL NOT NULL DEFAULT 0;",
}
"""What brings a file of the version before each key to that version beyond new
tables: version 4's credit (seconds a server restart gave back to the clock,
docs/match.md, "A server restart"); every row kept, with no credit."""


def match_dir(
    explicit: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
) -> Path:
    """The match directory: ``explicit`` (``--match-dir``), else ``$TERMSOLITAIRE_MATCH_DIR``,
    else ``match`` under the data directory (``data_dir`` or the usual one)."""
    env = os.environ if env is None else env
    if explicit is not None:
        return Path(explicit).expanduser()
    if env.get(ENV_DIR):
        return Path(env[ENV_DIR]).expanduser()
    return paths(data_dir).data / "match"


def _message(e: sqlite3.Error, path: Path, doing: str) -> StoreError:
    """The player's message for a database error while ``doing``."""
    text = str(e)
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return StoreReadOnly(
            f"The match database {path} is read-only: cannot {doing} "
            "(docs/match.md says how to set its permissions)"
        )
    if "locked" in low or "busy" in low:
        return StoreBusy(f"The match database is busy: cannot {doing} now; try again")
    if "not a database" in low or "malformed" in low:
        return StoreDamaged(f"The match database {path} is damaged ({text}): cannot {doing}")
    if "unable to open" in low or "disk i/o" in low or "no such table" in low:
        return StoreGone(f"The match database {path} is not there any more: cannot {doing}")
    return StoreError(f"The match database failed: cannot {doing} ({text})")


def open_database(directory: Path, *, create: bool = True, busy_ms: int = BUSY_MS) -> MatchDatabase:
    """The match database the storage setting names: PostgreSQL when
    ``--database``/``TERMSOLITAIRE_DATABASE`` is a ``postgresql://`` URL, else
    the SQLite file in ``directory``."""
    from ..storage.url import backend_of, database_url

    url = database_url()
    if url is not None and backend_of(url) == "postgresql":
        from .pgdb import PgDatabase

        return PgDatabase(url, directory)
    return Database(directory, create=create, busy_ms=busy_ms)


class Database(Healing):
    """One connection to the match database, shared by the threads of one process.

    :meth:`read` and :meth:`write` are the only ways in; both raise
    :class:`~termsolitaire.match.errors.StoreError` subclasses with a message.
    """

    def __init__(self, directory: Path, *, create: bool = True, busy_ms: int = BUSY_MS) -> None:
        self.directory = directory
        self.path = directory / FILENAME
        self.busy_ms = busy_ms
        self.messages: list[str] = []
        """Things the player should be told once (a damaged database set aside)."""
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None
        self._gone = False
        self._healed_at = 0.0
        self.read_only = False
        """Opened for reading only: every write raises StoreReadOnly."""
        self._open(create)

    # ------------------------------------------------------------ opening

    def _open(self, create: bool) -> None:
        if create:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(
                    f"Cannot create the match directory {self.directory}: {e.strerror or e}"
                ) from e
        elif not self.path.exists():
            raise StoreGone(f"The match database {self.path} is not there")
        for attempt in (1, 2):
            try:
                self._connect("rwc" if create else "rw")
                return
            except StoreError:
                self.close()
                raise
            except sqlite3.DatabaseError as e:
                self.close()
                low = str(e).lower()
                if "readonly" in low or "unable to open" in low:
                    self._open_read_only(e)
                    return
                damaged = "not a database" in low or "malformed" in low
                if attempt == 2 or not damaged or not create:
                    raise _message(e, self.path, "open it") from e
                moved = sqlite.set_aside(self.path)
                where = f"kept as {moved.name}" if moved else "left in place"
                self.messages.append(
                    f"The match database could not be read ({e}); {where}; starting a new one"
                )

    def _open_read_only(self, why: sqlite3.Error) -> None:
        """Open a database this process may not write: reading only (``mode=ro``), or,
        when SQLite cannot even set up its shared memory in a read-only directory,
        as an immutable file (a snapshot that does not see later changes)."""
        for mode in ("ro", "ro&immutable=1"):
            try:
                self._connect(mode)
            except sqlite3.DatabaseError:
                self.close()
                continue
            except StoreError:
                self.close()
                raise
            self.read_only = True
            self.messages.append(
                f"The match database {self.path} is read-only for you: you can see the "
                "tables but not play at them (docs/match.md says how to set its permissions)"
            )
            return
        raise _message(why, self.path, "open it") from why

    def _connect(self, mode: str) -> None:
        try:  # a link planted in the shared directory is never followed
            refuse_links(sqlite_files(self.path), "The match database")
        except StorageError as e:
            raise StoreError(str(e)) from None
        existed = True
        if mode == "rwc":
            existed = not create_exclusive(self.path, 0o644)
        db = sqlite.connect(self.path, busy_ms=self.busy_ms, mode=mode)
        self._db = db
        if not existed:
            self._share_permissions()
        writable = mode.startswith("rw")
        try:
            found = sqlite.prepare(
                db, SCHEMA_VERSION, _SCHEMA, writable=writable, wal=False, steps=_STEPS
            )
        except sqlite.NewerSchema as e:
            raise StoreDamaged(
                f"The match database {self.path} was written by a newer termsolitaire "
                f"(schema {e.version}); update termsolitaire to play at this host's tables"
            ) from None
        if not writable and found < SCHEMA_VERSION:
            raise StoreDamaged(f"The match database {self.path} has no tables yet")
        db.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
        st = os.stat(self.path)
        self._identity = (st.st_dev, st.st_ino)

    def _share_permissions(self) -> None:
        """A new database in a group-writable directory is made group-writable too
        (SQLite gives its -wal and -shm files the database file's permissions)."""
        try:
            dir_mode = os.stat(self.directory).st_mode
            if dir_mode & stat.S_IWGRP:
                fd = os.open(self.path, os.O_RDONLY | NOFOLLOW)
                try:
                    mode = os.fstat(fd).st_mode
                    os.fchmod(fd, stat.S_IMODE(mode) | stat.S_IRGRP | stat.S_IWGRP)
                finally:
                    os.close(fd)
        except OSError as e:
            self.messages.append(f"Could not make {self.path} group-writable: {e.strerror or e}")

    @property
    def broken(self) -> bool:
        """Read-only, or gone: :meth:`reconnect` may help once the admin has fixed it."""
        return self.read_only or self._gone

    def reconnect(self) -> None:
        """Open the database file again (never creating it): after its permissions
        were fixed, or a file was put back. Raises StoreError when it still fails."""
        with self._lock:
            self.close()
            self._gone = False
            self.read_only = False
            try:
                self._open(create=False)
            except StoreError:
                self._gone = True
                raise

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None

    # ------------------------------------------------------------ using

    def _check_present(self, doing: str) -> sqlite3.Connection:
        if not self._gone:
            try:
                st = os.stat(self.path)
                self._gone = (st.st_dev, st.st_ino) != self._identity
            except OSError:
                self._gone = True
        if self._gone or self._db is None:
            self._gone = True
            self.close()
            raise StoreGone(f"The match database {self.path} has disappeared: cannot {doing}")
        return self._db

    @contextlib.contextmanager
    def read(self, doing: str = "read the tables") -> Iterator[sqlite3.Connection]:
        """The connection, for queries (each statement sees a consistent snapshot)."""
        with self._lock:
            self.heal()
            db = self._check_present(doing)
            try:
                yield db
            except sqlite3.Error as e:
                raise _message(e, self.path, doing) from e

    @contextlib.contextmanager
    def snapshot(self, doing: str = "read the tables") -> Iterator[sqlite3.Connection]:
        """Like :meth:`read`, inside one read transaction: every query in the block
        sees the same moment of the database."""
        with self.read(doing) as db:
            db.execute("BEGIN")
            try:
                yield db
            finally:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("COMMIT")

    @contextlib.contextmanager
    def write(self, doing: str, *, quiet: bool = False) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled
        back (nothing written) when it raises. Bumps the store's revision, unless
        ``quiet`` (a write nobody's screen shows: a spectator's renewal)."""
        with self._lock:
            self.heal()
            db = self._check_present(doing)
            if self.read_only:
                raise StoreReadOnly(
                    f"The match database {self.path} is read-only: cannot {doing} "
                    "(docs/match.md says how to set its permissions)"
                )
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise _message(e, self.path, doing) from e
            try:
                yield db
                if not quiet:
                    db.execute("UPDATE meta SET value = value + 1 WHERE key = 'revision'")
                db.execute("COMMIT")
            except BaseException as e:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                if isinstance(e, sqlite3.Error):
                    raise _message(e, self.path, doing) from e
                raise

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None] | None:
        """None: a SQLite file pushes nothing; poll :meth:`revision`."""
        return None
