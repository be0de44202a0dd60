"""PostgreSQL going away under a match (issue 32, acceptance 3, at the store): the
test puts a TCP proxy it controls between the stores and the server and cuts it
mid-match. Both games go on, nothing is lost, and the pending actions are shared
once the database answers again."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit

import psycopg
import pytest

from termsolitaire.match import StoreGone

from .conftest import first_moves


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


@pytest.fixture
def backend() -> str:
    return "postgresql-through-a-proxy"


@pytest.fixture
def proxy(postgres: str, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    url = urlsplit(postgres)
    p = CutProxy((url.hostname or "127.0.0.1", url.port or 5432))
    monkeypatch.setenv(
        "TERMSOLITAIRE_DATABASE", url._replace(netloc=f"postgres@127.0.0.1:{p.port}").geturl()
    )
    yield p
    p.cut()


def stored(url: str, seat: int) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT action FROM match.actions WHERE table_id = 1 AND seat = %s ORDER BY n",
            (seat,),
        ).fetchall()
    return [r[0] for r in rows]


def test_a_database_cut_mid_match_loses_nothing(store, proxy, postgres, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    a, b = ann.open_table(deal=4), bob.join(1)
    a.start()
    b.start()
    a.act("deal")
    proxy.cut()

    move = first_moves(a.game, 1)[0]
    clock.advance(5)
    assert a.act(move) is not None  # no exception: the game goes on here
    assert (a.problem or "").startswith("Not shared for now; your game goes on here")
    assert a.log == ["deal", move] and [p[0] for p in a.pending] == [move]
    b.act("deal")  # and so does the other player's
    assert b.pending and b.game.packets == 4
    with pytest.raises(StoreGone, match="not reachable"):
        ann.tables()
    a.sync()  # still down: still pending, still said
    assert a.pending and "not shared" in (a.problem or "").lower()

    proxy.restore()
    a.sync()
    b.sync()
    assert a.problem is None and a.pending == [] and b.pending == []
    assert stored(postgres, 1) == ["deal", move] and stored(postgres, 2) == ["deal"]
    assert bob.table(1).seats[0].actions == 2
