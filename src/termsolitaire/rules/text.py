"""Reading position text, and the game as JSON (API.md).

Position text is checked completely before a game is built: known keys, every
pile once, exactly the game's cards, faces where the game allows them, and the
shapes each game's rules allow. Errors are ``ValueError("line N: ...")``. This
module splits the text into lines and finds the game and its variant; the game
reads its own keys and piles (:meth:`~termsolitaire.rules.game.Game.set_up`).

The JSON form of a game::

    {"format": "termsolitaire-game", "version": 1, "game": "napoleon",
     "start": "<position text>", "log": ["p1-p2", "undo", "redo", ...],
     "elapsed": 12.5}

``start`` is the start position, ``log`` every action in order (undos and redos
included), ``elapsed`` the seconds played. Loading replays the log, so
everything derived from it (Spider's score, moves and reached positions) comes
back exactly.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from .game import JSON_FORMAT, JSON_VERSION
from .moves import IllegalMove

if TYPE_CHECKING:
    from .game import Game

__all__ = ["JSON_FORMAT", "JSON_VERSION", "from_json", "from_text"]


def _entries(text: str) -> list[tuple[int, str, str]]:
    out: list[tuple[int, str, str]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or not key:
            raise ValueError(f"line {n}: expected 'key: value', got {raw.strip()!r}")
        out.append((n, key, value.strip()))
    return out


def from_text(text: str) -> Game:
    """Read position text (API.md) into a game with an empty history."""
    from .registry import game_class

    if not isinstance(text, str):
        raise ValueError("line 0: position text must be a string")
    entries = _entries(text)
    seen: dict[str, tuple[int, str]] = {}
    for n, key, value in entries:
        if key in seen:
            raise ValueError(f"line {n}: {key!r} given twice (first on line {seen[key][0]})")
        seen[key] = (n, value)
    if "game" not in seen:
        raise ValueError("line 0: missing 'game'")
    gline, gname = seen["game"]
    try:
        cls = game_class(gname.lower())
    except ValueError as e:
        raise ValueError(f"line {gline}: {e}") from None

    known = {"game", "variant", "deal", *cls.game_keys, *cls.pile_names}
    for n, key, _ in entries:
        if key not in known:
            raise ValueError(f"line {n}: unknown key {key!r} for {cls.title}")

    variant = _read_variant(cls, seen)
    game = cls(**variant)
    if "deal" in seen:
        n, value = seen["deal"]
        if not value.isdigit():
            raise ValueError(f"line {n}: deal must be a whole number >= 0, not {value!r}")
        game.deal = int(value)
    game.set_up(seen)
    return game


def _read_variant(cls: type[Game], seen: dict[str, tuple[int, str]]) -> dict[str, int]:
    if not cls.variant_keys:
        if "variant" in seen:
            raise ValueError(f"line {seen['variant'][0]}: {cls.title} has no variants")
        return {}
    if "variant" not in seen:
        raise ValueError("line 0: missing 'variant'")
    n, value = seen["variant"]
    variant: dict[str, int] = {}
    for part in value.split(","):
        k, sep, v = part.strip().partition("=")
        if not sep or k not in cls.variant_keys or not v.strip().isdigit():
            raise ValueError(f"line {n}: bad variant {value!r}")
        variant[k] = int(v)
    try:
        cls(**variant).check_variant()
    except ValueError as e:
        raise ValueError(f"line {n}: {e}") from None
    return variant


def from_json(text: str | bytes) -> Game:
    """Rebuild a game saved by :meth:`~termsolitaire.rules.game.Game.to_json`: the
    same position, history, redo list and log."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"not a saved game: {e}") from None
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise ValueError("not a saved game (no 'format': 'termsolitaire-game')")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("saved game has no version")
    if version > JSON_VERSION:
        raise ValueError(f"saved by a newer termsolitaire (format version {version})")
    if version < 1:
        raise ValueError(f"unknown saved-game version {version}")
    start, log, elapsed = data.get("start"), data.get("log"), data.get("elapsed", 0.0)
    if not isinstance(start, str):
        raise ValueError("saved game has no start position")
    if not isinstance(log, list) or not all(isinstance(a, str) for a in log):
        raise ValueError("saved game's log is not a list of actions")
    if (
        not isinstance(elapsed, int | float)
        or isinstance(elapsed, bool)
        or not math.isfinite(elapsed)
        or elapsed < 0
    ):
        raise ValueError("saved game's elapsed time is not a number of seconds")
    try:
        game = from_text(start)
    except ValueError as e:
        raise ValueError(f"saved start position: {e}") from None
    if data.get("game") != game.name:
        raise ValueError("saved game's name does not match its start position")
    for i, action in enumerate(log, start=1):
        try:
            if action == "undo":
                game.undo()
            elif action == "redo":
                game.redo()
            else:
                game.play(action)
        except IllegalMove as e:
            raise ValueError(f"saved log entry {i} ({action!r}): {e.reason}") from None
    game.elapsed = float(elapsed) if isinstance(elapsed, float) else elapsed
    return game
