"""The PostgreSQL the tests run against: a fresh database per test session.

``TERMSOLITAIRE_TEST_DATABASE`` names the server (any database on it: the fresh
one is created beside it), else ``postgresql://postgres@127.0.0.1:5432/test``
when a server answers there. Unreachable, the tests that need it skip with one
line saying why, unless ``TERMSOLITAIRE_REQUIRE_POSTGRES=1`` (``.ci/run``) makes
that a failure.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from collections.abc import Iterator

import pytest

URL_ENV = "TERMSOLITAIRE_TEST_DATABASE"
REQUIRE_ENV = "TERMSOLITAIRE_REQUIRE_POSTGRES"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
SKIP_PREFIX = "PostgreSQL tests skipped: "


def fresh_database() -> Iterator[str]:
    """Create a database of its own, upgraded to the latest schema; its conninfo.
    Dropped afterwards."""
    base = os.environ.get(URL_ENV) or DEFAULT_URL
    try:
        import psycopg

        from termsolitaire.testing.postgres import scratch_database
    except ImportError:  # pragma: no cover - the test extra installs it
        _unavailable("psycopg is not installed (pip install -e '.[test]')")
        raise
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"tsol_test_{worker}_{os.getpid()}_{secrets.token_hex(3)}"
    entered = False
    try:
        with scratch_database(base, name) as url:
            entered = True
            yield url
    except psycopg.Error as e:
        if entered:
            raise
        first = (str(e).strip().splitlines() or ["?"])[0]
        _unavailable(f"no PostgreSQL at {base} ({first}); set {URL_ENV}")


def _unavailable(why: str) -> None:
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"PostgreSQL tests required ({REQUIRE_ENV}=1): {why}", pytrace=False)
    pytest.skip(f"{SKIP_PREFIX}{why}")


def reset(url: str) -> None:
    """Empty every table (between tests that share the session's database)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        names = [
            f'"{r[0]}"."{r[1]}"'
            for r in conn.execute(
                "SELECT schemaname, tablename FROM pg_tables"
                " WHERE schemaname IN ('public', 'match') AND tablename <> 'schema_version'"
            ).fetchall()
        ]
        conn.execute(("TRUNCATE " + ", ".join(names) + " RESTART IDENTITY").encode())
        conn.execute("INSERT INTO match.meta VALUES ('revision', 0)")


class CutProxy:
    """127.0.0.1:PORT forwarding to the server; :meth:`cut` drops every connection
    and refuses new ones, :meth:`restore` listens again on the same port."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.port = 0
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            with self.lock:
                self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        with contextlib.suppress(OSError):
            b.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        assert self.listener is not None
        with contextlib.suppress(OSError):  # wakes the accepting thread (Linux)
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.sockets.clear()
