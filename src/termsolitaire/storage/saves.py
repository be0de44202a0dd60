"""The autosave: one file per game, written after every action.

The file is JSON only (never pickle)::

    {"format": "termsolitaire-autosave", "version": 1,
     "sha256": "<hex digest of payload>", "payload": "<JSON text>"}

``payload`` is JSON text holding ``game`` (the rules core's ``to_json``: start
position, every action, elapsed seconds), ``id`` (a fresh id per game played,
so statistics count it once) and ``options`` (the time limit, ...). The
checksum over the exact payload text means a flipped byte is reported rather
than loaded as a different game.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..rules import Game, from_json
from .files import StorageError, keep_aside, write_atomic
from .paths import Paths

FORMAT = "termsolitaire-autosave"
VERSION = 1


def new_game_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Saved:
    """A game read back from its autosave."""

    game: Game
    id: str
    options: dict[str, Any] = field(default_factory=dict)
    saved_at: float = 0.0


def encode(game: Game, game_id: str, options: dict[str, Any] | None = None) -> str:
    payload = json.dumps(
        {
            "game": json.loads(game.to_json()),
            "id": game_id,
            "options": options or {},
            "saved_at": time.time(),
        },
        ensure_ascii=False,
    )
    digest = hashlib.sha256(payload.encode()).hexdigest()
    doc = {"format": FORMAT, "version": VERSION, "sha256": digest, "payload": payload}
    return json.dumps(doc, ensure_ascii=False)


def decode(raw: bytes) -> Saved:
    """Read an autosave; ValueError with a short reason when it is not a good one."""
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ValueError("not a complete save file") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError("not a termsolitaire save file")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("save file without a version")
    if version > VERSION:
        raise ValueError(f"saved by a newer termsolitaire (save format {version})")
    payload, digest = doc.get("payload"), doc.get("sha256")
    if not isinstance(payload, str) or not isinstance(digest, str):
        raise ValueError("save file without its game")
    if hashlib.sha256(payload.encode()).hexdigest() != digest:
        raise ValueError("save file damaged (checksum does not match)")
    data = json.loads(payload)
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise ValueError("save file without a game id")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ValueError("save file with bad options")
    game = from_json(json.dumps(data.get("game"), ensure_ascii=False))
    saved_at = data.get("saved_at", 0.0)
    return Saved(
        game, data["id"], options, float(saved_at) if isinstance(saved_at, int | float) else 0.0
    )


class SaveStore:
    """The autosaves under ``paths.saves``, one per game name."""

    def __init__(self, paths: Paths) -> None:
        self.paths = paths

    def save(self, game: Game, game_id: str, options: dict[str, Any] | None = None) -> None:
        """Write the game's autosave atomically; raises :class:`StorageError`."""
        write_atomic(self.paths.save_file(game.name), encode(game, game_id, options))

    def load(self, name: str) -> tuple[Saved | None, str | None]:
        """The saved game ``name`` and, when its file was broken, a message for the
        player (the file is then kept aside as ``NAME.corrupt-<timestamp>``)."""
        path = self.paths.save_file(name)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None, None
        except OSError as e:
            return None, f"Cannot read the saved {name} game: {e.strerror or e}"
        try:
            saved = decode(raw)
            if saved.game.name != name:
                raise ValueError(f"holds a {saved.game.name} game")
        except ValueError as e:
            moved = keep_aside(path)
            where = f"kept as {moved.name}" if moved else "left in place"
            return None, f"The saved {name} game could not be read ({e}); {where}."
        return saved, None

    def delete(self, name: str) -> None:
        try:
            self.paths.save_file(name).unlink(missing_ok=True)
        except OSError as e:
            raise StorageError(f"cannot remove the saved {name} game: {e.strerror or e}") from e

    def exists(self, name: str) -> bool:
        return self.paths.save_file(name).is_file()
