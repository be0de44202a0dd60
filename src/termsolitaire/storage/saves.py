"""The autosave: one file per game, written after every action.

The file is JSON only (never pickle)::

    {"format": "termsolitaire-autosave", "version": 1,
     "sha256": "<hex digest of payload>", "payload": "<JSON text>"}

``payload`` is JSON text holding ``game`` (the rules core's ``to_json``: start
position, every action, elapsed seconds), ``id`` (a fresh id per game played,
so statistics count it once) and ``options`` (the time limit; the solver's
proof of loss, ``lost``, and winning line, ``won_line``: docs/solver.md; a
reader ignores the options it does not know). The checksum over the exact
payload text means a flipped byte is reported rather than loaded as a
different game.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules import Game, from_json, info
from .files import StorageError, keep_aside, write_atomic
from .locks import SaveLock
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


def _checksum(payload: str) -> str:
    """The payload's SHA-256, hex (hashlib imported here: the first save comes after
    a board's first frame, which does not need it)."""
    import hashlib

    return hashlib.sha256(payload.encode()).hexdigest()


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
    digest = _checksum(payload)
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
    if _checksum(payload) != digest:
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


def decode_as(raw: bytes, name: str, fits: Callable[[dict[str, int]], bool]) -> Saved:
    """:func:`decode`, for a save that must hold a ``name`` game in a variant that
    ``fits``: ValueError saying what it holds when it is another (a save in the
    wrong slot is as broken as a damaged one)."""
    saved = decode(raw)
    if saved.game.name != name:
        raise ValueError(f"holds a {saved.game.name} game")
    if not fits(saved.game.variant):
        raise ValueError(f"holds the variant {saved.game.variant}")
    return saved


def unreadable(name: str, why: object, aside: str | None) -> str:
    """What the player reads of a ``name`` save that could not be read: ``why``,
    and the name it was kept aside under (None: it was left in place)."""
    where = f"kept as {aside}" if aside else "left in place"
    return f"The saved {_title(name)} game could not be read ({why}); {where}."


def slot(name: str, variant: Mapping[str, int] | None = None) -> str:
    """The save slot of a game and variant: one save each (``penguin``,
    ``spider-suits2``). A variant that is the game's default still names itself,
    so 1-suit and 2-suit Spider never share a file.

    >>> slot("penguin"), slot("spider", {"suits": 2})
    ('penguin', 'spider-suits2')
    """
    return "-".join([name, *(f"{k}{v}" for k, v in sorted((variant or {}).items()))])


def _variant(name: str, variant: Mapping[str, int] | None) -> dict[str, int]:
    """``variant``, or the game's default one when None."""
    if variant is not None:
        return dict(variant)
    try:
        return info(name).default_variant()
    except ValueError:
        return {}


class SaveStore:
    """The autosaves under ``paths.saves``, one per game and variant (:func:`slot`).

    Saves written before there was one per variant (``spider.json``) are still
    read, for the variant they hold, and give way to the new file on the next save.
    """

    def __init__(self, paths: Paths) -> None:
        self.paths = paths

    def path(self, name: str, variant: Mapping[str, int] | None = None) -> Path:
        return self.paths.save_file(slot(name, _variant(name, variant)))

    def _legacy(self, name: str) -> Path:
        return self.paths.save_file(name)

    def save(self, game: Game, game_id: str, options: dict[str, Any] | None = None) -> None:
        """Write the game's autosave atomically; raises :class:`StorageError`."""
        path = self.path(game.name, game.variant)
        write_atomic(path, encode(game, game_id, options))
        legacy = self._legacy(game.name)
        if legacy != path and legacy.is_file():
            saved, _ = self._read(legacy, game.name, None)
            if saved is not None and saved.game.variant == game.variant:
                with contextlib.suppress(OSError):
                    legacy.unlink()

    def load(
        self, name: str, variant: Mapping[str, int] | None = None
    ) -> tuple[Saved | None, str | None]:
        """The saved game ``name`` in ``variant`` (None: the game's default variant)
        and, when its file was broken, a message for the player (the file is then
        kept aside as ``NAME.corrupt-<timestamp>``)."""
        want = _variant(name, variant)
        path = self.path(name, want)
        if path.exists() or path == self._legacy(name):
            return self._read(path, name, want)
        legacy = self._legacy(name)
        if legacy.is_file():
            saved, problem = self._read(legacy, name, None)
            if saved is not None and saved.game.variant != want:
                return None, None  # an older save of another variant: its own slot's
            return saved, problem
        return None, None

    def _read(
        self, path: Path, name: str, variant: dict[str, int] | None
    ) -> tuple[Saved | None, str | None]:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None, None
        except OSError as e:
            # Unreadable (a directory where the file should be, no permission): set
            # aside like a damaged file, so it is reported once and the next save
            # can be written where it was.
            moved = keep_aside(path)
            return None, unreadable(name, e.strerror or e, moved.name if moved else None)
        try:
            saved = decode_as(raw, name, lambda v: variant is None or v == variant)
        except ValueError as e:
            moved = keep_aside(path)
            return None, unreadable(name, e, moved.name if moved else None)
        return saved, None

    def all(self) -> tuple[list[Saved], list[str]]:
        """Every save there is (one per game and variant) and messages about broken ones."""
        found: dict[str, Saved] = {}
        problems: list[str] = []
        try:
            paths = sorted(self.paths.saves.glob("*.json"))
        except OSError:
            paths = []
        for path in paths:
            saved, problem = self._read(path, path.stem.split("-")[0], None)
            if problem:
                problems.append(problem)
            if saved is not None:
                found.setdefault(slot(saved.game.name, saved.game.variant), saved)
        return list(found.values()), problems

    def delete(self, name: str, variant: Mapping[str, int] | None = None) -> None:
        want = _variant(name, variant)
        try:
            self.path(name, want).unlink(missing_ok=True)
            legacy = self._legacy(name)
            if legacy.is_file():
                saved, _ = self._read(legacy, name, None)
                if saved is None or saved.game.variant == want:
                    legacy.unlink(missing_ok=True)
        except OSError as e:
            raise StorageError(f"cannot remove the saved {name} game: {e.strerror or e}") from e

    def exists(self, name: str, variant: Mapping[str, int] | None = None) -> bool:
        return self.load(name, variant)[0] is not None

    def lock(self, name: str, variant: Mapping[str, int] | None = None) -> SaveLock:
        """The lock of a game's save (not yet taken): one open copy of a game at a time."""
        return SaveLock(self.path(name, variant).with_suffix(".lock"))


def _title(name: str) -> str:
    """The game's name as players read it ("Napoleon"), or ``name`` if unknown."""
    try:
        return info(name).title
    except ValueError:  # info's answer for a name it does not know
        return name
