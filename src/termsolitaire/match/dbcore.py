"""The match store's lower database layer, as the store sees it: one interface,
:class:`MatchDatabase`, with two dialects under it — the SQLite file of one
host (:class:`~.db.Database`) and PostgreSQL shared by hosts
(:class:`~.pgdb.PgDatabase`) — and what both do the same way
(:class:`Healing`: opening again after a failure, the revision).

The store (:class:`~.store.MatchStore`, the façade) and the modules under it
speak only this interface; :func:`~.db.open_database` picks the dialect from
the storage setting.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from .errors import StoreError

HEAL_EVERY = 1.0
"""Seconds between two tries to open again a database that failed (read-only, gone):
every read and write tries, at most this often, so a store that is back is used
again without anyone asking."""


class MatchDatabase(Protocol):
    """What the store uses of its database: :class:`~.db.Database` (one SQLite file
    on this host) or :class:`~.pgdb.PgDatabase` (PostgreSQL, shared by hosts)."""

    directory: Path
    path: Path
    messages: list[str]
    read_only: bool

    @property
    def broken(self) -> bool: ...

    def reconnect(self) -> None: ...

    def heal(self) -> None: ...

    def close(self) -> None: ...

    def read(self, doing: str = ...) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

    def snapshot(
        self, doing: str = ...
    ) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

    def write(
        self, doing: str, *, quiet: bool = False
    ) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One write transaction; it bumps the revision (and PostgreSQL tells every
        listener) unless ``quiet``."""
        ...

    def revision(self) -> int: ...

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None] | None:
        """Call ``listener`` (from another thread) whenever anyone writes; the
        function returned stops it. None when the database cannot push changes
        (then poll :meth:`revision`)."""
        ...


class Healing:
    """What both dialects do alike: a database that failed is opened again by the next
    use, at most every :data:`HEAL_EVERY` seconds; the revision every write bumps."""

    _healed_at = 0.0

    @property
    def broken(self) -> bool:
        raise NotImplementedError

    def reconnect(self) -> None:
        raise NotImplementedError

    def read(
        self, doing: str = "read the tables"
    ) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def heal(self) -> None:
        """Open the database again if it failed, at most every :data:`HEAL_EVERY`
        seconds; nothing when it is well or still failing (the next use says why)."""
        if not self.broken or time.monotonic() - self._healed_at < HEAL_EVERY:
            return
        self._healed_at = time.monotonic()
        with contextlib.suppress(StoreError):
            self.reconnect()

    def revision(self) -> int:
        """A number that grows with every write by anyone."""
        with self.read("see what changed") as db:
            return int(db.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()[0])
