"""The storage setting: which backend a database URL names, and whose data it is.

Kept apart from :mod:`.backend` so that asking costs no import of the stores.

>>> backend_of(None), backend_of("postgresql://db/x"), backend_of("postgres://db/x")
('files', 'postgresql', 'postgresql')
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Mapping

DATABASE_ENV = "TERMSOLITAIRE_DATABASE"
"""The database URL when ``--database`` is not given (empty or unset: the files)."""
OWNER_ENV = "TERMSOLITAIRE_PLAYER_ID"
"""Whose data a shared database holds for this process: ``serve`` sets it to the
player's key fingerprint for each session."""


def backend_of(url: str | None) -> str:
    """Which backend a database URL names: ``files`` or ``postgresql``; ValueError
    naming the URL's scheme for anything else."""
    if not url:
        return "files"
    scheme = url.partition(":")[0].lower()
    if scheme in ("postgresql", "postgres"):
        return "postgresql"
    raise ValueError(f"unknown database {scheme!r}: use a postgresql://… URL, or none for files")


def database_url(explicit: str | None = None, env: Mapping[str, str] | None = None) -> str | None:
    """The database setting: ``explicit`` (``--database``), else the environment's."""
    env = os.environ if env is None else env
    return explicit or env.get(DATABASE_ENV) or None


def owner(env: Mapping[str, str] | None = None) -> str:
    """Whose data this process keeps in a shared database: the SSH player's key
    fingerprint under ``serve``, else ``local:USER``."""
    env = os.environ if env is None else env
    return env.get(OWNER_ENV) or f"local:{getpass.getuser()}"


def shown_url(url: str) -> str:
    """A database URL for a log line: no password (in the address or the query).

    >>> shown_url("postgresql://solitaire:secret@db.internal:5432/solitaire?sslmode=require")
    'postgresql://solitaire@db.internal:5432/solitaire?sslmode=require'
    >>> shown_url("postgresql://db/x?user=ann&password=secret")
    'postgresql://db/x?user=ann'
    """
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    user = parts.username
    netloc = f"{user}@{host}" if user else host
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "password"])
    return urlunsplit(parts._replace(netloc=netloc, query=query))
