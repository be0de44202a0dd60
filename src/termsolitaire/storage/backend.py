"""One storage interface, two backends: which one keeps a player's data.

:class:`Storage` is what the app opens: its saves, its statistics and its
settings. Two backends stand behind it, chosen by one setting, the database
URL (``--database URL`` or ``$TERMSOLITAIRE_DATABASE``):

- none (the default): :class:`FileStorage`, the files and SQLite under the
  data directory, exactly as before — one machine, nothing to set up;
- ``postgresql://…``: :class:`~termsolitaire.storage.postgres.PostgresStorage`,
  every store in one PostgreSQL database that several hosts share.

The app and the screens receive a :class:`Storage` and never ask which it is.

Which one a URL names is :mod:`.url`'s to say (no import of the stores, so the
match store can ask cheaply).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Protocol

from .paths import Paths, paths
from .saves import SaveStore
from .settings import Settings, load_settings, save_settings
from .url import DATABASE_ENV, OWNER_ENV, backend_of, database_url, owner

if TYPE_CHECKING:
    from .stats import Stats

__all__ = [
    "DATABASE_ENV",
    "OWNER_ENV",
    "FileStorage",
    "Storage",
    "backend_of",
    "database_url",
    "open_storage",
    "owner",
]


class Storage(Protocol):
    """Where one player's saves, statistics and settings are kept."""

    paths: Paths
    """The local directories (locks, crash logs and the files backend's data)."""
    saves: SaveStore

    @property
    def stats(self) -> Stats:
        """The finished games and their figures."""
        ...

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
        self._stats: Stats | None = None

    @property
    def stats(self) -> Stats:
        """The statistics database, its module (and SQLite) imported when first
        asked: a board's first frame does not need them (issue 33, the launch)."""
        if self._stats is None:
            from .stats import Stats

            self._stats = Stats(self.paths.stats_db)
        return self._stats

    def load_settings(self) -> tuple[Settings, list[str]]:
        return load_settings(self.paths)

    def save_settings(self, settings: Settings) -> None:
        save_settings(self.paths, settings)

    def close(self) -> None:
        if self._stats is not None:
            self._stats.close()


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
