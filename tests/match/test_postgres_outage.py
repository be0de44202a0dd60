"""PostgreSQL going away under a match (issue 32, acceptance 3, at the store): the
test puts a TCP proxy it controls between the stores and the server and cuts it
mid-match. Both games go on, nothing is lost, and the pending actions are shared
once the database answers again."""

from __future__ import annotations

import threading
from urllib.parse import urlsplit

import psycopg
import pytest

from termsolitaire.match import StoreGone

from ..postgres import CutProxy
from .conftest import first_moves


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


def test_live_changes_come_back_after_a_cut(store, proxy, postgres) -> None:  # type: ignore[no-untyped-def]
    """The listener opens the connection again by itself once the database answers,
    tells the screens to read everything again (changes may have been missed), and
    hears the next write."""
    ann = store("ann")
    heard = threading.Event()
    stop = ann.db.subscribe(heard.set)
    proxy.cut()
    proxy.restore()
    assert heard.wait(30), "not told that the connection came back"
    heard.clear()
    with psycopg.connect(postgres, autocommit=True) as other_host:
        other_host.execute("SELECT pg_notify('termsolitaire_match', '99')")
    assert heard.wait(30), "a write after the cut was not heard"
    stop()
