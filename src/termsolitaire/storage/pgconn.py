"""One PostgreSQL connection per process and database, shared by every store in
it and by its live changes.

A session's app keeps the player's saves, statistics and settings
(:mod:`.postgres`) and the match store (:mod:`termsolitaire.match.pgdb`, with
a second store per hot-seat guest or computer) in one database. Each used to
open a connection of its own, so 50 sessions took 100 connections, PostgreSQL's
default ``max_connections``. Here they share one: :func:`shared` hands out the
process's :class:`SharedConnection` for a URL, opened on first use and again
after it broke. Threads take turns on it with one lock; :meth:`~SharedConnection.using`
sets the schema a store's SQL is written for (``public`` or ``match``).

Live changes ride on the same connection: :meth:`~SharedConnection.subscribe`
issues ``LISTEN`` once, and a small thread waits on the connection's socket
while nobody queries, reads what the server pushed and calls the subscribers
with the payload (notifications that arrive during someone's query are kept by
psycopg and handed over the same way). Nobody polls, and a screen waits on
nothing: its callback only schedules work on its own loop.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg

Conn = psycopg.Connection[tuple[Any, ...]]
Listener = Callable[[str | None], None]
"""Called with a notification's payload, or None after the connection came back
(changes may have been missed while it was away: read everything again)."""

CONNECT_TIMEOUT = 5
APPLICATION_NAME = "termsolitaire"
"""How the connection is named in ``pg_stat_activity``: ``termsolitaire@HOST``
(what the bench counts, and how a save's lock names the host holding it)."""
RETRY_LISTEN = 2.0
"""Seconds between two tries of the listening thread to open a lost connection."""
WAKE = 1.0
"""Seconds the listening thread sleeps at most between two looks at its state."""


class SharedConnection:
    """The one connection of this process to the database at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock = threading.RLock()
        self._conn: Conn | None = None
        self._schema: str | None = None
        self._depth = 0
        self._users = 0
        self._listeners: dict[int, tuple[str, Listener]] = {}
        self._next_id = 0
        self._channels: set[str] = set()
        self._heard: list[tuple[str, str | None]] = []
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._wake_w: socket.socket | None = None
        """The listening thread's alarm: a byte here ends its wait (while it runs)."""
        self.opened = 0
        """How many connections this process has opened to the database (one, unless
        it broke and was opened again)."""

    # ------------------------------------------------------------ the connection

    def current(self) -> Conn | None:
        """The connection when it is open and well, else None (nothing is opened)."""
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            return None
        return conn

    def connect(self) -> Conn:
        """The connection, opened now if there is none or it broke; psycopg.Error
        when the server cannot be reached. The attempt itself holds no lock: a
        thread trying a server that does not answer keeps no other waiting (unless
        it holds the lock already)."""
        with self.lock:
            conn = self.current()
            if conn is not None:
                return conn
            self.drop()
        conn = psycopg.connect(
            self.url,
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT,
            application_name=f"{APPLICATION_NAME}@{socket.gethostname()}"[:63],
        )
        with self.lock:
            if (current := self.current()) is not None:  # another thread was quicker
                with contextlib.suppress(psycopg.Error):
                    conn.close()
                return current
            self.opened += 1
            try:
                conn.add_notify_handler(self._notified)
                for channel in sorted(self._channels):
                    conn.execute(f"LISTEN {channel}".encode())
            except psycopg.Error:
                with contextlib.suppress(psycopg.Error):
                    conn.close()
                raise
            self._conn = conn
            return conn

    @contextlib.contextmanager
    def using(self, schema: str) -> Iterator[Conn]:
        """The connection, with ``schema`` first on the search path, for this thread
        alone until the block ends (a block inside another gets the outer one's
        schema back after it)."""
        with self.lock:
            conn = self.connect()
            before = self._schema
            if before != schema:
                self._set_schema(conn, schema)
            self._depth += 1
            try:
                yield conn
            finally:
                self._depth -= 1
                if self._depth and before is not None and before != schema:
                    with contextlib.suppress(psycopg.Error):
                        self._set_schema(conn, before)
                if self._heard:
                    self._wake()

    def _set_schema(self, conn: Conn, schema: str) -> None:
        self._schema = None
        conn.execute(f"SET search_path TO {schema}".encode())
        self._schema = schema

    def drop(self) -> None:
        """Close the connection (it broke); the next use opens another."""
        with self.lock:
            conn, self._conn, self._schema = self._conn, None, None
            if conn is not None:
                with contextlib.suppress(psycopg.Error):
                    conn.close()

    def hold(self) -> None:
        """One more store uses the connection."""
        with self.lock:
            self._users += 1

    def release(self) -> None:
        """A store is done with it: the last one out closes it."""
        with self.lock:
            self._users = max(0, self._users - 1)
            last = self._users == 0 and not self._listeners
        if last:
            self.close()

    def close(self) -> None:
        """Close the connection and stop listening."""
        self._stopping.set()
        self._wake()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(WAKE + 1)
        with self.lock:
            self._thread = None
            self.drop()
            with _registry_lock:
                if _registry.get(self.url) is self:
                    del _registry[self.url]

    # ------------------------------------------------------------ live changes

    def subscribe(self, channel: str, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` (from another thread) on every NOTIFY on ``channel`` by
        anyone; the function returned stops it. The first subscriber issues
        ``LISTEN`` and starts the listening thread; a connection that is down now is
        opened by that thread as soon as it can be."""
        with self.lock:
            self._next_id += 1
            key = self._next_id
            self._listeners[key] = (channel, listener)
            if channel not in self._channels:
                self._channels.add(channel)
                conn = self.current()
                if conn is not None:
                    try:
                        conn.execute(f"LISTEN {channel}".encode())
                    except psycopg.Error:
                        self.drop()
            if self._thread is None:
                self._stopping.clear()
                wake, alarm = socket.socketpair()
                wake.setblocking(False)
                alarm.setblocking(False)
                self._wake_w = alarm
                self._thread = threading.Thread(
                    target=self._listen,
                    args=(wake, alarm),
                    name="termsolitaire-listen",
                    daemon=True,
                )
                self._thread.start()

        def stop() -> None:
            with self.lock:
                self._listeners.pop(key, None)
                last = not self._listeners and self._users == 0
            if last:
                self.close()

        return stop

    def _notified(self, note: psycopg.Notify) -> None:
        """psycopg's handler: runs in whichever thread read the notification."""
        self._heard.append((note.channel, note.payload))

    def _wake(self) -> None:
        alarm = self._wake_w
        if alarm is not None:  # None: no thread listens
            with contextlib.suppress(OSError):
                alarm.send(b"x")

    def _listen(self, wake: socket.socket, alarm: socket.socket) -> None:
        """The listening thread: tells the listeners what the server pushes, until
        :meth:`close`; then closes its alarm, both ends (a thread started after
        this one has its own)."""
        try:
            self._listening(wake)
        finally:
            with self.lock:
                if self._wake_w is alarm:
                    self._wake_w = None
            wake.close()
            alarm.close()

    def _listening(self, wake: socket.socket) -> None:
        tried = 0.0
        while not self._stopping.is_set():
            conn = self.current()
            if conn is None:
                if time.monotonic() - tried < RETRY_LISTEN:
                    self._stopping.wait(min(WAKE, RETRY_LISTEN))
                    continue
                tried = time.monotonic()
                try:
                    self.connect()
                except psycopg.Error:
                    continue
                self._tell([(channel, None) for channel in self._channels])
                continue
            try:
                waiting: list[Any] = [conn.fileno(), wake]
                ready, _, _ = select.select(waiting, [], [], WAKE)
            except (OSError, ValueError, psycopg.Error):
                ready = []
            if wake in ready:
                with contextlib.suppress(OSError):
                    while wake.recv(4096):
                        pass
            if any(r is not wake for r in ready):
                self._read(conn)
            with self.lock:
                heard, self._heard = self._heard, []
            self._tell(heard)

    def _read(self, conn: Conn) -> None:
        """What the server pushed while the connection was idle."""
        with self.lock:
            if conn is not self._conn or conn.closed:
                return
            try:
                conn.pgconn.consume_input()
                while (note := conn.pgconn.notifies()) is not None:
                    if conn.pgconn.notify_handler:
                        conn.pgconn.notify_handler(note)
            except psycopg.Error:
                self.drop()  # the server went away: the next use opens again

    def _tell(self, heard: list[tuple[str, str | None]]) -> None:
        if not heard:
            return
        with self.lock:
            listeners = list(self._listeners.values())
        for channel, payload in heard:
            for wanted, listener in listeners:
                if wanted == channel:
                    with contextlib.suppress(Exception):
                        listener(payload)


_registry: dict[str, SharedConnection] = {}
_registry_lock = threading.Lock()


def shared(url: str) -> SharedConnection:
    """This process's connection to the database at ``url`` (not opened yet)."""
    with _registry_lock:
        link = _registry.get(url)
        if link is None:
            link = _registry[url] = SharedConnection(url)
        return link


def connections() -> int:
    """How many connections this process holds open to any database (for tests
    and the bench: one per database)."""
    with _registry_lock:
        links = list(_registry.values())
    return sum(1 for link in links if link.current() is not None)
