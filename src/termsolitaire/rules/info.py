"""A game's declaration: what the menu, the command line and the settings need to know.

Each game module states its :class:`GameInfo` once (as PySolFC's
``registerGame(GameInfo(...))``); the registry, the command line's subcommands
and options, the menu, the settings and the board screens' map are derived
from these declarations, so no game name is written anywhere else.

>>> from termsolitaire.rules import info
>>> spider = info("spider")
>>> spider.title, [c.key for c in spider.variants], spider.time_limits
('Spider', ['suits'], (0, 5, 10, 15, 20))
>>> spider.variants[0].text(2), spider.variant_text({"suits": 1})
('2 suits', '1 suit')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    """One variant option of a game: its key (the ``variant`` key and the command
    line's ``--KEY``), the values it may take and its default."""

    key: str
    noun: str
    """What a value counts, singular: ``suit`` gives "1 suit", "2 suits"."""
    values: tuple[int, ...]
    default: int
    help: str = ""

    def text(self, value: int) -> str:
        """A value as a player reads it (``2 suits``)."""
        return f"{value} {self.noun}{'' if value == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Everything outside the rules needs to know about a game, declared once."""

    name: str
    """The name used everywhere (API.md): the command, the save file, ``game:``."""
    title: str
    blurb: str
    """One line for the menu: what the layout looks like."""
    stream: int
    """The PCG32 stream of its deals (:mod:`termsolitaire.rules.deal`); unique per game."""
    variants: tuple[Choice, ...] = ()
    time_limits: tuple[int, ...] = ()
    """Minutes a player may put on the clock, ``0`` meaning no limit; empty when the
    game's clock only counts up."""
    time_limit_default: int = 0
    order: int = 100
    """Where the menu lists the game (lower first; ties by name)."""
    pile_word: str = "pile"
    """What a player calls the place a card is picked from (Napoleon: ``position``)."""

    def default_variant(self) -> dict[str, int]:
        return {c.key: c.default for c in self.variants}

    def variant_text(self, variant: Mapping[str, int]) -> str:
        """The variant as a player reads it (``2 suits``); empty for games without one."""
        return " ".join(c.text(variant.get(c.key, c.default)) for c in self.variants)

    @staticmethod
    def limit_text(minutes: int) -> str:
        """A time limit as the menu and the settings show it."""
        return f"{minutes} min" if minutes else "none"
