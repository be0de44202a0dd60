"""The directories termsolitaire keeps its files in.

``TERMSOLITAIRE_HOME`` (or ``--data-dir``, which sets it) puts everything in one
directory, for tests and shared hosts; otherwise platformdirs' user data
directory holds saves and statistics and its user config directory the
settings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

APP = "termsolitaire"
ENV = "TERMSOLITAIRE_HOME"
MATCH_FILE = "match.sqlite3"
"""The match store's database file in its directory (match/db.py opens it,
``db import`` moves it)."""


@dataclass(frozen=True)
class Paths:
    """Where the data (saves, statistics) and the settings are kept."""

    data: Path
    config: Path

    @property
    def saves(self) -> Path:
        return self.data / "saves"

    @property
    def stats_db(self) -> Path:
        return self.data / "stats.sqlite3"

    @property
    def settings(self) -> Path:
        return self.config / "settings.json"

    def save_file(self, game: str) -> Path:
        return self.saves / f"{game}.json"


def paths(data_dir: str | os.PathLike[str] | None = None) -> Paths:
    """The directories to use: ``data_dir``, else ``$TERMSOLITAIRE_HOME``, else platformdirs."""
    home = data_dir if data_dir is not None else os.environ.get(ENV) or None
    if home is not None:
        root = Path(home).expanduser()
        return Paths(data=root, config=root)
    import platformdirs

    return Paths(
        data=Path(platformdirs.user_data_dir(APP, appauthor=False)),
        config=Path(platformdirs.user_config_dir(APP, appauthor=False)),
    )
