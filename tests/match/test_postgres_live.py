"""Live changes pushed, not polled, on one connection per process (issue 32)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psycopg
import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.match.pgdb import Changes
from termsolitaire.storage.backend import open_storage
from termsolitaire.storage.pgconn import APPLICATION_NAME, shared
from termsolitaire.storage.settings import Settings


@pytest.fixture
def backend(postgres: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    return "postgresql"


def test_a_write_on_one_host_is_heard_on_the_other(  # type: ignore[no-untyped-def]
    store, postgres
) -> None:
    ann = store("ann")
    changes = Changes(postgres)
    before = ann.revision()
    ann.open_table(deal=4)
    revision = changes.wait(10.0)
    assert revision is not None and revision > before
    assert revision == ann.revision()
    assert changes.wait(0.05) is None  # nothing more written
    changes.close()


def backends(url: str) -> set[int]:
    """The server processes serving termsolitaire's connections to this database."""
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name LIKE %s",
            (APPLICATION_NAME + "@%",),
        ).fetchall()
    return {int(r[0]) for r in rows}


def test_a_session_holds_one_connection_for_all_its_stores_and_its_listener(  # type: ignore[no-untyped-def]
    postgres, tmp_path: Path, monkeypatch, clock
) -> None:
    url = postgres + "?connect_timeout=4"  # a URL of its own: its connection is this test's
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", url)
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "SHA256:ann")
    before = backends(postgres)
    storage = open_storage(tmp_path / "data", url)
    storage.save_settings(Settings())
    ann = MatchStore(Player.make("ann"), tmp_path / "match", now=clock)
    guest = MatchStore(Player.make("bob"), tmp_path / "match", now=clock)  # hot-seat
    heard = threading.Event()
    stop = ann.db.subscribe(heard.set)  # type: ignore[attr-defined]
    seat = ann.open_table(deal=4)
    guest.join(seat.table_id)
    assert heard.wait(10.0)
    assert storage.load_settings() == (Settings(), [])
    link = shared(url)
    conn = link.current()
    assert conn is not None
    pid = conn.info.backend_pid
    now = backends(postgres)
    assert pid in now and now - before <= {pid}
    stop()
    for s in (ann, guest):
        s.close()
    storage.close()
    assert conn.closed  # the last one out closed it
    deadline = time.monotonic() + 10
    while pid in backends(postgres):  # the server ends its process a moment later
        assert time.monotonic() < deadline, "the connection stayed open"


def test_a_link_opened_and_closed_leaves_no_descriptor_open(postgres: str) -> None:
    """Each connection's listening alarm (a socket pair) was made with the link and
    never closed: two descriptors left each time a process's stores all closed and
    opened again, until the garbage collector happened to find them."""
    import gc
    import os

    from termsolitaire.storage.pgconn import SharedConnection

    def descriptors() -> int:
        return len(os.listdir("/proc/self/fd"))

    gc.disable()  # what is left open must be closed by close(), not by a collection
    try:
        before = descriptors()
        for _ in range(5):
            link = SharedConnection(postgres)
            stop = link.subscribe("termsolitaire_test_alarm", lambda payload: None)
            link.connect()
            stop()  # the last listener out closes the link
            assert link.current() is None
        assert descriptors() == before
    finally:
        gc.enable()
