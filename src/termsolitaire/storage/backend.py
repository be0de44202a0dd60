"""One storage interface, two backends: which one keeps a player's data.

:class:`Storage` is what the app opens: its saves, its statistics and its
settings. Two backends stand behind it, chosen by one setting, the database
URL (``--database URL`` or ``$TERMSOLITAIRE_DATABASE``):

- none (the default): :class:`FileStorage`, the files and SQLite under the
  data directory, exactly as before — one machine, nothing to set up;
- ``postgresql://…``: :class:`~termsolitaire.storage.postgres.PostgresStorage`,
  every store in one PostgreSQL database that several hosts share.

The app and the screens receive a :class:`Storage` and never ask which it is.

>>> backend_of(None), backend_of("postgresql://db/x"), backend_of("postgres://db/x")
('files', 'postgresql', 'postgresql')
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Mapping
from typing import Protocol

from .paths import Paths, paths
from .saves import SaveStore
from .settings import Settings, load_settings, save_settings
from .stats import Stats

DATABASE_ENV = "TERMSOLITAIRE_DATABASE"
"""The database URL when ``--database`` is not given (empty or unset: the files)."""
OWNER_ENV = "TERMSOLITAIRE_PLAYER_ID"
"""Whose data a shared database holds for this process: ``serve`` sets it to the
player's key fingerprint for each session."""


class Storage(Protocol):
    """Where one player's saves, statistics and settings are kept."""

    paths: Paths
    """The local directories (locks, crash logs and the files backend's data)."""
    saves: SaveStore
    stats: Stats

    def load_settings(self) -> tuple[Settings, list[str]]:
        """The saved settings (defaults when none) and messages for the player."""
        ...

    def save_settings(self, settings: Settings) -> None:
        """Keep the settings; raises :class:`~termsolitaire.storage.files.StorageError`."""
        ...

    def close(self) -> None: ...


class FileStorage:
    """Today's backend: JSON files and SQLite under the data directory."""

    def __init__(self, where: Paths) -> None:
        self.paths = where
        self.saves = SaveStore(where)
        self.stats = Stats(where.stats_db)

    def load_settings(self) -> tuple[Settings, list[str]]:
        return load_settings(self.paths)

    def save_settings(self, settings: Settings) -> None:
        save_settings(self.paths, settings)

    def close(self) -> None:
        self.stats.close()


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


def open_storage(
    data_dir: str | os.PathLike[str] | None = None, database: str | None = None
) -> Storage:
    """The storage the settings ask for (:func:`database_url`); ValueError for an
    unknown URL, StorageError when the database cannot be reached."""
    where = paths(data_dir)
    url = database_url(database)
    if backend_of(url) == "files" or url is None:
        return FileStorage(where)
    from .postgres import PostgresStorage

    return PostgresStorage(url, owner(), where)
