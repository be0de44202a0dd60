"""The registry of games: one name per game, one way to start each."""

from __future__ import annotations

from typing import Any

from .game import Game

GAMES: tuple[str, ...] = ("napoleon", "penguin", "spider", "stjernen")
"""The games, by the names used everywhere (API.md)."""

_MODULES = {name: f"termsolitaire.rules.{name}" for name in GAMES}


def game_class(name: str) -> type[Game]:
    """The class of game ``name``; ValueError for an unknown name."""
    if name not in _MODULES:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    import importlib

    module = importlib.import_module(_MODULES[name])
    cls: type[Game] = module.GAME
    return cls


def new_game(name: str, deal: int | None = None, **variant: Any) -> Game:
    """A new game of ``name`` from deal number ``deal`` (``None``: a random deal).

    >>> g = new_game("napoleon", deal=7)
    >>> g.name, g.deal, g.variant, g.score
    ('napoleon', 7, {}, 4)
    """
    cls = game_class(name)
    if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
        raise ValueError(f"deal must be a whole number >= 0, not {deal!r}")
    if deal is not None and not 0 <= deal < 1 << 64:
        raise ValueError(f"deal must be a whole number from 0 to 2**64 - 1, not {deal}")
    cls(**variant)._check_variant()
    return cls.new(deal, **variant)
