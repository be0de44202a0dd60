"""What a host knows of its sessions when it went quiet, and the credit it gives the
match clocks of their players when it starts again (docs/match.md, "A server
restart"; the credit itself: :mod:`termsolitaire.match.credit`).

Which players had a session here, and since when nobody could play here:

- on files (one SQLite match store), two small files in the server's data
  directory: :data:`ALIVE`, the players of the running sessions, written every
  :data:`HEARTBEAT` seconds and when a session starts its app; :data:`STOPPED`,
  the same at the moment a clean stop (SIGTERM) begins. A crash leaves no stop
  file: the last heartbeat says when it went quiet (to :data:`HEARTBEAT` s);
- with a shared PostgreSQL database, the ``sessions`` rows of this host
  (:mod:`.sessions`; its id kept in :data:`HOST_ID`, so a restarted host knows
  its rows): their last heartbeat, or the time a clean stop wrote into them
  (``stopped_at``). A player who has a session on another host since is not
  credited (they could play on).

At start the host reads that record, removes it (the rows in the same
transaction as the credit; the files before it, so a crash between can lose a
credit but never give one twice), and credits. Players who were not in
sessions here (local players of the store, another host's) get nothing.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from ..match.credit import Credit, credit_restart
from ..match.db import match_dir, open_database
from ..match.errors import StoreError
from ..storage.files import StorageError, write_atomic

log = logging.getLogger("termsolitaire.serve")

HEARTBEAT = 10.0
"""Seconds between two writes of :data:`ALIVE` (files)."""
ALIVE = "alive.json"
"""In the data directory: ``{"at": time, "players": [ids]}``, the running sessions."""
STOPPED = "stopped.json"
"""In the data directory: the same, written when a clean stop begins."""
HOST_ID = "host-id"
"""In the data directory: this host's id in the shared ``sessions`` table."""

Now = Callable[[], float]


def host_id(data_dir: Path) -> str:
    """This host's id, made at its first start and kept in ``data_dir``: a host that
    starts again knows its own rows in the shared ``sessions`` table."""
    path = data_dir / HOST_ID
    with contextlib.suppress(OSError):
        text = path.read_text(encoding="ascii").strip()
        if text:
            return text
    made = uuid.uuid4().hex
    with contextlib.suppress(StorageError):
        write_atomic(path, made + "\n")
    return made


class Heartbeat:
    """The files' record of this host's sessions (:data:`ALIVE`, :data:`STOPPED`)."""

    def __init__(self, data_dir: Path, now: Now = time.time) -> None:
        self.data_dir = data_dir
        self.now = now

    def beat(self, players: Iterable[str]) -> None:
        """The sessions' players now (written every :data:`HEARTBEAT` s)."""
        self._write(ALIVE, players)

    def stopped(self, players: Iterable[str]) -> None:
        """A clean stop begins: nobody plays here from now on."""
        self._write(STOPPED, players)

    def _write(self, name: str, players: Iterable[str]) -> None:
        record = {"at": self.now(), "players": sorted(set(players))}
        try:
            write_atomic(self.data_dir / name, json.dumps(record) + "\n")
        except StorageError as e:
            log.warning("cannot write %s: %s", name, e)

    def take(self) -> dict[str, float]:
        """When each player of the last run's sessions could no longer play here (the
        stop file's time, or after a crash the last heartbeat's), and the record
        removed: read once."""
        found: dict[str, float] = {}
        for name in (STOPPED, ALIVE):  # a clean stop's record is the one to trust
            path = self.data_dir / name
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                at = float(record["at"])
                found = dict.fromkeys((str(p) for p in record["players"]), at)
            except FileNotFoundError:
                continue
            except (OSError, ValueError, KeyError, TypeError) as e:
                log.warning("restart credit: %s not read (%s)", name, e)
                continue
            break  # (a stop with nobody here: not the heartbeat before it)
        for name in (STOPPED, ALIVE):
            with contextlib.suppress(OSError):
                (self.data_dir / name).unlink()
        return found


def _shared_quiet(db: sqlite3.Connection, host: str) -> dict[str, float]:
    """This host's rows in ``sessions`` (PostgreSQL, inside the credit's transaction):
    each key's last sign of life here, but for keys seen on another host since;
    the rows removed."""
    rows = db.execute(
        "SELECT key, max(coalesce(stopped_at, heartbeat_at)) AS quiet "
        "FROM public.sessions WHERE host = ? GROUP BY key",
        (host,),
    ).fetchall()
    found: dict[str, float] = {}
    for r in rows:
        since = float(r["quiet"])
        elsewhere = db.execute(
            "SELECT 1 FROM public.sessions WHERE key = ? AND host != ? AND heartbeat_at > ?",
            (r["key"], host, since),
        ).fetchone()
        if elsewhere is None:
            found[str(r["key"])] = since
    db.execute("DELETE FROM public.sessions WHERE host = ?", (host,))
    return found


def credit_at_start(
    matches: Path,
    *,
    heartbeat: Heartbeat | None,
    host: str | None,
    now: Now = time.time,
) -> list[Credit]:
    """Give back the downtime to the running games of this host's players: from the
    files (``heartbeat``) or, with a shared database, from this host's ``sessions``
    rows (``host``). The seats credited; nothing when there is no store or it
    cannot be written (logged)."""
    quiet: Mapping[str, float] = heartbeat.take() if heartbeat is not None else {}
    if host is None and not quiet:
        return []
    try:
        db = open_database(match_dir(matches), create=False)
    except StoreError:
        return []  # no match store yet: no game to credit
    try:
        with db.write("credit the server's downtime") as conn:
            if host is not None:
                quiet = _shared_quiet(conn, host)
            return credit_restart(conn, quiet, now())
    except StoreError as e:
        log.warning("restart credit not given: %s", e.reason)
        return []
    finally:
        db.close()
