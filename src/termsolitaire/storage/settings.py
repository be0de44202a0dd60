"""The player's settings, kept as JSON in the config directory.

Unknown keys are ignored and a bad value falls back to its default, each with
a message; a file that is not readable JSON (or from a newer version) is kept
aside and the defaults are used.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from .files import keep_aside, write_atomic
from .paths import Paths

VERSION = 1

CHOICES: dict[str, tuple[Any, ...]] = {
    "card_style": ("unicode", "ascii"),
    "four_colour": (False, True),
    "theme": ("textual-dark", "textual-light", "nord", "gruvbox", "monokai", "dracula"),
    "spider_suits": (1, 2, 4),
    "spider_time_limit": (0, 5, 10, 15, 20),
    "confirm_abandon": (True, False),
    "mouse": (True, False),
}
"""Every setting and the values it may take (the first is the default)."""


@dataclass
class Settings:
    card_style: str = "unicode"
    four_colour: bool = False
    theme: str = "textual-dark"
    spider_suits: int = 1
    spider_time_limit: int = 0
    """Minutes on Spider's clock; 0 is no limit."""
    confirm_abandon: bool = True
    mouse: bool = True

    def to_json(self) -> str:
        return json.dumps({"version": VERSION, **asdict(self)}, indent=2) + "\n"

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
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if value in CHOICES[f.name] and type(value) is type(CHOICES[f.name][0]):
                setattr(settings, f.name, value)
            else:
                problems.append(f"setting {f.name}={value!r} is not one of {CHOICES[f.name]}")
        return settings, problems


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
