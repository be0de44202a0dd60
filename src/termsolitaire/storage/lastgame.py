"""The last finished game, kept whole for ``termsolitaire share`` (issue 31).

When a solo game ends (won, lost, time up, ended) the app writes it here,
``last-finished.json`` in the data directory, as a game's JSON (API.md
``to_json``: the deal, every action, undo and redo included). Only the last
one is kept; nothing else reads it. A match seat's game is shared from the
store instead (``share --table``).
"""

from __future__ import annotations

from pathlib import Path

from ..rules import Game, from_json
from .files import StorageError, write_atomic
from .paths import Paths

FILENAME = "last-finished.json"


def keep(paths: Paths, game: Game) -> str | None:
    """Keep ``game`` as the last finished one; a message when that failed."""
    if game.deal is None or not game.log:
        return None
    try:
        write_atomic(paths.data / FILENAME, game.to_json())
    except StorageError as e:
        return f"The finished game was not kept for sharing: {e}"
    return None


def load(paths: Paths) -> Game:
    """The last finished game; ValueError with a sentence when there is none."""
    path = paths.data / FILENAME
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise ValueError("no finished game yet: finish one, or name a file to share") from None
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        return from_json(text)
    except ValueError as e:
        raise ValueError(f"{path} is not a game ({e})") from None
