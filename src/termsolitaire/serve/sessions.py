"""Per-key session caps across hosts: the ``sessions`` table (``serve --database``).

Each host writes a row per running session and refreshes its rows' heartbeat
every :data:`BEAT` seconds; a key's sessions are the rows whose heartbeat is
younger than :data:`TTL` and not stopped, so the rows of a host that died (no
SIGTERM, no cleanup) stop counting within a minute and are deleted later by
whoever beats. A host stopped with SIGTERM marks its rows ``stopped_at`` at
once (they count no more) and leaves them: when it starts again (its id kept,
:func:`~.restart.host_id`) they say whose match clocks to credit for the
downtime, and it removes them (:mod:`.restart`). The cap on sessions in all
stays per host (it protects this machine).

When the database cannot be reached the host goes on with its own count
(players are not locked out by a database restart) and logs it once.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from ..storage.files import StorageError
from ..storage.postgres import Conn, Database, PooledDatabase
from .limits import Caps, Refusal

log = logging.getLogger("termsolitaire.serve")

BEAT = 15.0
"""Seconds between two heartbeats of a host's rows."""
TTL = 60.0
"""A row whose heartbeat is older than this no longer counts (its host is gone)."""
FORGET = 3600.0
"""Rows older than this are deleted."""


@dataclass
class SharedCaps(Caps):
    """:class:`~.limits.Caps` with the per-key count taken over every host."""

    shared: ClassVar[bool] = True
    where: ClassVar[str] = "on this server"
    url: str = ""
    host: str = field(default_factory=lambda: uuid.uuid4().hex)
    clock: Callable[[], float] = time.time
    db: Database | None = None
    """The server's pool (None: one of its own)."""
    _rows: dict[str, list[str]] = field(default_factory=dict)
    _failing: bool = False
    _owns_db: bool = False
    _stopped: bool = False

    def __post_init__(self) -> None:
        if self.db is None:
            self.db = PooledDatabase(self.url)
            self._owns_db = True

    @property
    def _db(self) -> Database:
        assert self.db is not None
        return self.db

    def _shared_count(self, key: str) -> int | None:
        try:
            row = self._db.run(
                "count the sessions",
                lambda c: c.execute(
                    "SELECT count(*) FROM sessions WHERE key = %s AND heartbeat_at > %s "
                    "AND stopped_at IS NULL",
                    (key, self.clock() - TTL),
                ).fetchone(),
            )
        except StorageError as e:
            self._failed(e)
            return None
        return int(row[0]) if row is not None else 0

    def admit(self, key: str | None) -> Refusal | None:
        refusal = super().admit(key)
        if refusal is not None or key is None or self.per_key <= 0:
            return refusal
        count = self._shared_count(key)
        if count is not None and count >= self.per_key:
            return self._key_full()
        return None

    def add(self, key: str | None) -> None:
        super().add(key)
        if key is None:
            return
        row = uuid.uuid4().hex
        self._rows.setdefault(key, []).append(row)
        now = self.clock()
        try:
            self._db.run(
                "count the session",
                lambda c: c.execute(
                    "INSERT INTO sessions VALUES (%s, %s, %s, %s, %s)",
                    (row, self.host, key, now, now),
                ),
            )
        except StorageError as e:
            self._failed(e)

    def remove(self, key: str | None) -> None:
        super().remove(key)
        rows = self._rows.get(key or "")
        if not rows:
            return
        row = rows.pop()
        if not rows:
            del self._rows[key or ""]
        if self._stopped:  # hung up by the stop: the row says whose clocks to credit
            return
        try:
            self._db.run(
                "end the session",
                lambda c: c.execute("DELETE FROM sessions WHERE id = %s", (row,)),
            )
        except StorageError as e:
            self._failed(e)

    def beat(self) -> None:
        """Refresh this host's rows (and write again any lost while the database was
        down); forget rows long dead. Nothing once stopping (:meth:`stop`)."""
        if self._stopped:
            return
        now = self.clock()
        mine = [(row, key) for key, rows in self._rows.items() for row in rows]

        def work(c: Conn) -> None:
            for row, key in mine:
                c.execute(
                    "INSERT INTO sessions VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
                    (row, self.host, key, now, now),
                )
            c.execute("DELETE FROM sessions WHERE heartbeat_at < %s", (now - FORGET,))

        try:
            self._db.run("refresh the sessions", work)
        except StorageError as e:
            self._failed(e)
            return
        if self._failing:
            log.info("sessions shared again across hosts")
            self._failing = False

    def stop(self) -> None:
        """This host begins a clean stop: its rows stop counting at once, and keep the
        time (``stopped_at``) for the credit when it starts again (:mod:`.restart`)."""
        if self._stopped:
            return
        self._stopped = True
        now = self.clock()
        mine = [(row, key) for key, rows in self._rows.items() for row in rows]

        def work(c: Conn) -> None:
            for row, key in mine:  # (written again if lost while the database was down)
                c.execute(
                    "INSERT INTO sessions VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) "
                    "DO UPDATE SET heartbeat_at = excluded.heartbeat_at, "
                    "stopped_at = excluded.stopped_at",
                    (row, self.host, key, now, now, now),
                )

        try:
            self._db.run("mark the sessions stopped", work)
        except StorageError as e:
            self._failed(e)

    def close(self) -> None:
        """This host stops: its rows stop counting at once (:meth:`stop`)."""
        self.stop()
        if self._owns_db:
            self._db.close()

    def _failed(self, e: StorageError) -> None:
        if not self._failing:
            log.warning("per-key caps counted on this host only for now: %s", e)
            self._failing = True
