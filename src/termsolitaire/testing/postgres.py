"""PostgreSQL for the tests and the benches: a database of their own on a server,
and a match game as the database has it.

:func:`scratch_database` creates a database beside the one ``server_url``
names, brings it to the latest schema (``termsolitaire db upgrade``'s
migrations), yields its URL and drops it afterwards, whatever happened
(``WITH (FORCE)``: connections still open are ended). psycopg.Error when the
server cannot be reached.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from urllib.parse import urlsplit

import psycopg

from ..match.replay import replay
from ..rules import Game
from ..storage import schema


def with_dbname(url: str, name: str) -> str:
    """``url`` (``postgresql://…``) naming database ``name`` instead."""
    return urlsplit(url)._replace(path=f"/{name}").geturl()


@contextlib.contextmanager
def scratch_database(server_url: str, name: str) -> Iterator[str]:
    """A new database called ``name`` on the server, at the latest schema; its URL.
    Dropped afterwards."""
    with psycopg.connect(server_url, autocommit=True, connect_timeout=3) as admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
        try:
            url = with_dbname(server_url, name)
            with psycopg.connect(url, autocommit=True) as conn:
                schema.upgrade(conn)
            yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def match_game(url: str, name: str, table: int = 1) -> Game:
    """The game of the player called ``name`` at ``table``, as the database has it."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT deal, suits FROM match.tables WHERE id = %s", (table,)
        ).fetchone()
        assert row is not None, f"no table {table}"
        actions = [
            r[0]
            for r in conn.execute(
                "SELECT a.action FROM match.actions a JOIN match.seats s ON s.table_id ="
                " a.table_id AND s.seat = a.seat JOIN match.players p ON p.id = s.player"
                " WHERE a.table_id = %s AND p.name = %s ORDER BY a.n",
                (table, name),
            )
        ]
    return replay(int(row[0]), int(row[1]), actions)
