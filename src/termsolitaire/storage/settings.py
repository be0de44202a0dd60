"""The player's settings, kept as JSON in the config directory.

Unknown keys are ignored and a bad value falls back to its default, each with
a message; a file that is not readable JSON (or from a newer version) is kept
aside and the defaults are used.

Besides the general settings, each game with variants or a time limit has its
defaults for the menu, derived from its declaration (:mod:`termsolitaire.rules.info`):
the setting ``GAME.KEY`` (``spider.suits``, ``spider.time_limit``), kept in the
file under ``"games": {GAME: {KEY: value}}``. Files written before the
declarations existed named them ``GAME_KEY``; those are still read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

from ..rules import games
from .files import keep_aside, write_atomic
from .paths import Paths

VERSION = 1

GENERAL: dict[str, tuple[Any, ...]] = {
    "card_style": ("unicode", "ascii"),
    "four_colour": (False, True),
    "target_marks": (True, False),
    "theme": ("textual-dark", "textual-light", "nord", "gruvbox", "monokai", "dracula"),
    "confirm_abandon": (True, False),
    "mouse": (True, False),
    "winnable_only": (False, True),
    "solver_help": (True, False),
    "fair_hints": (True, False),
}
"""The general settings and the values each may take (the first is the default)."""


def game_choices() -> dict[str, tuple[tuple[int, ...], int]]:
    """Every game default, ``GAME.KEY``: the values it may take and its default."""
    out: dict[str, tuple[tuple[int, ...], int]] = {}
    for g in games():
        for c in g.variants:
            out[f"{g.name}.{c.key}"] = (c.values, c.default)
        if g.time_limits:
            out[f"{g.name}.time_limit"] = (g.time_limits, g.time_limit_default)
    return out


def choices(name: str) -> tuple[Any, ...]:
    """The values setting ``name`` may take, in order; KeyError for an unknown one."""
    if name in GENERAL:
        return GENERAL[name]
    return game_choices()[name][0]


def default_of(name: str) -> Any:
    """The value setting ``name`` has until the player changes it."""
    if name in GENERAL:
        return GENERAL[name][0]
    return game_choices()[name][1]


@dataclass
class Settings:
    """The player's choices, kept in ``settings.json`` (docs/ui.md, "Settings screen")."""

    card_style: str = "unicode"
    four_colour: bool = False
    target_marks: bool = True
    """A board marks each place the card in hand may go (one cell by its key);
    off, the status line names them instead."""
    theme: str = "textual-dark"
    confirm_abandon: bool = True
    mouse: bool = True
    winnable_only: bool = False
    """New random deals only among those the solver proves winnable."""
    solver_help: bool = True
    """The verdict on the status line and hints, searched in the background."""
    fair_hints: bool = True
    """The help (verdict, hints, solution, demo) sees only the cards the player
    sees (Spider's face-down cards and stock, Stjernen's stock order unknown);
    off: the solver sees every card. Always on in a match."""
    games: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per game name, the menu's defaults (``{GAME: {"suits": 2}}``); a missing one
    is the declaration's default."""

    def get(self, name: str) -> Any:
        """A setting by name: a general one, or a game default ``GAME.KEY``."""
        if name in GENERAL:
            return getattr(self, name)
        game, _, key = name.partition(".")
        value = self.games.get(game, {}).get(key)
        return value if value is not None else default_of(name)

    def set(self, name: str, value: Any) -> None:
        if name in GENERAL:
            setattr(self, name, value)
            return
        choices(name)  # KeyError for an unknown one
        game, _, key = name.partition(".")
        self.games.setdefault(game, {})[key] = value

    def game_default(self, game: str, key: str) -> int:
        """The menu's default for option ``key`` of ``game`` (``time_limit`` or a variant key)."""
        value = self.get(f"{game}.{key}")
        return int(value)

    def to_json(self) -> str:
        data: dict[str, Any] = {"version": VERSION}
        data.update({f.name: getattr(self, f.name) for f in fields(self) if f.name != "games"})
        data["games"] = {g: dict(v) for g, v in self.games.items() if v}
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> tuple[Settings, list[str]]:
        """Settings from JSON text and the problems found; ValueError when unreadable."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            raise ValueError("not readable JSON") from None
        if not isinstance(data, dict):
            raise ValueError("not a settings object")
        version = data.get("version", VERSION)
        if not isinstance(version, int) or version > VERSION:
            raise ValueError(f"written by a newer termsolitaire (version {version})")
        settings, problems = cls(), []
        values: dict[str, Any] = {k: data[k] for k in GENERAL if k in data}
        stored = data.get("games", {})
        for name in game_choices():
            game, _, key = name.partition(".")
            legacy = f"{game}_{key}"
            mine = stored.get(game) if isinstance(stored, dict) else None
            if isinstance(mine, dict) and key in mine:
                values[name] = mine[key]
            elif legacy in data:
                values[name] = data[legacy]
        bad: list[str] = []
        for name, value in values.items():
            allowed = choices(name)
            if value in allowed and type(value) is type(default_of(name)):
                settings.set(name, value)
            else:
                shown = repr(value)
                bad.append(f"{name}={shown if len(shown) <= 20 else shown[:19] + '…'}")
        if bad:
            problems.append(unusable(bad))
        return settings, problems


def unusable(bad: list[str]) -> str:
    """One message for every value of the file that cannot be used: one each
    stacked six notices over the menu, the first pushed off the top, in the
    program's words ("setting theme=['x'] is not one of ('textual-dark', …)").

    >>> unusable(["mouse=None"])
    'Settings file: mouse=None cannot be used; using its default (o: the settings)'
    >>> unusable(["mouse=None", "spider.suits=3"])
    'Settings file: 2 values cannot be used; using the defaults for mouse=None, spider.suits=3 (o: the settings)'
    """  # noqa: E501
    if len(bad) == 1:
        return f"Settings file: {bad[0]} cannot be used; using its default (o: the settings)"
    return (
        f"Settings file: {len(bad)} values cannot be used; using the defaults for"
        f" {', '.join(bad)} (o: the settings)"
    )


def load_settings(paths: Paths) -> tuple[Settings, list[str]]:
    """The saved settings (defaults when none) and messages for the player."""
    path = paths.settings
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings(), []
    except OSError as e:
        return Settings(), [f"Cannot read settings: {e.strerror or e}; using defaults"]
    try:
        return Settings.from_json(raw)
    except ValueError as e:
        moved = keep_aside(path)
        where = f"kept as {moved.name}" if moved else "left in place"
        return Settings(), [f"Settings file could not be read ({e}); {where}; using defaults"]


def save_settings(paths: Paths, settings: Settings) -> None:
    """Write the settings atomically; raises StorageError."""
    write_atomic(paths.settings, settings.to_json())
