"""The PostgreSQL the tests run against: a fresh database per test session.

``TERMSOLITAIRE_TEST_DATABASE`` names the server (any database on it: the fresh
one is created beside it), else ``postgresql://postgres@127.0.0.1:5432/test``
when a server answers there. Unreachable, the tests that need it skip with one
line saying why, unless ``TERMSOLITAIRE_REQUIRE_POSTGRES=1`` (``.ci/run``) makes
that a failure.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

URL_ENV = "TERMSOLITAIRE_TEST_DATABASE"
REQUIRE_ENV = "TERMSOLITAIRE_REQUIRE_POSTGRES"
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
SKIP_PREFIX = "PostgreSQL tests skipped: "


def _with_dbname(url: str, name: str) -> str:
    """``url`` (``postgresql://…``) naming database ``name`` instead."""
    from urllib.parse import urlsplit

    return urlsplit(url)._replace(path=f"/{name}").geturl()


def fresh_database() -> Iterator[str]:
    """Create a database of its own, upgraded to the latest schema; its conninfo.
    Dropped afterwards."""
    base = os.environ.get(URL_ENV) or DEFAULT_URL
    try:
        import psycopg
    except ImportError:  # pragma: no cover - the test extra installs it
        _unavailable("psycopg is not installed (pip install -e '.[test]')")
        raise
    try:
        admin = psycopg.connect(base, autocommit=True, connect_timeout=3)
    except psycopg.Error as e:
        first = (str(e).strip().splitlines() or ["?"])[0]
        _unavailable(f"no PostgreSQL at {base} ({first}); set {URL_ENV}")
        raise
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"tsol_test_{worker}_{os.getpid()}_{secrets.token_hex(3)}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
        url = _with_dbname(base, name)
        try:
            from termsolitaire.storage import schema

            with psycopg.connect(url, autocommit=True) as conn:
                schema.upgrade(conn)
            yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


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
