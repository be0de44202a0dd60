"""The registry of games: one declaration per game, one way to start each.

A game's module ends with ``register(ItsClass)``, and its name is the game's
name. Asking for one game (:func:`game_class`, :func:`info`, :func:`new_game`)
imports that game's module only, so a board started from the command line
loads no other game's rules; asking for them all (:func:`games`) imports every
module of this package. So a new game is one new module here (and its board
screen, :mod:`termsolitaire.screens`): nothing else lists the games. A program
may :func:`register` a game of its own the same way, and it then appears
wherever games are listed.
"""

from __future__ import annotations

import importlib
from typing import Any

from .deal import DEAL_RANGE
from .game import Game
from .info import GameInfo

GAMES: tuple[str, ...] = ("napoleon", "penguin", "spider", "stjernen")
"""The built-in games, by the names used everywhere (API.md)."""

_CLASSES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Add a game class (with its ``info`` declaration) to the registry; returns it,
    so it can decorate the class. Registering the same class again changes nothing."""
    name = cls.info.name
    known = _CLASSES.get(name)
    if known is not None and known is not cls:
        raise ValueError(f"a game named {name!r} is already registered")
    if any(c.info.stream == cls.info.stream for n, c in _CLASSES.items() if n != name):
        raise ValueError(f"deal stream {cls.info.stream} of {name!r} is already in use")
    _CLASSES[name] = cls
    return cls


_PACKAGE = __package__ or "termsolitaire.rules"
_loaded_all = False


def _load_builtins() -> None:
    """Import every module of the rules package: the games among them register (a
    board started by name needs only its own: :func:`_load`)."""
    import pkgutil

    global _loaded_all
    if _loaded_all:
        return
    package = importlib.import_module(_PACKAGE)
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{_PACKAGE}.{module.name}")
    _loaded_all = True


def _load(name: str) -> None:
    """Import the module of built-in game ``name`` (it registers itself)."""
    if name in GAMES and name not in _CLASSES:
        importlib.import_module(f"{_PACKAGE}.{name}")


def games() -> tuple[GameInfo, ...]:
    """Every registered game's declaration, in menu order."""
    _load_builtins()
    return tuple(sorted((c.info for c in _CLASSES.values()), key=lambda g: (g.order, g.name)))


def info(name: str) -> GameInfo:
    """The declaration of game ``name``; ValueError for an unknown name."""
    return game_class(name).info


def game_class(name: str) -> type[Game]:
    """The class of game ``name``; ValueError for an unknown name."""
    _load(name)
    try:
        return _CLASSES[name]
    except KeyError:
        _load_builtins()
        if name in _CLASSES:
            return _CLASSES[name]
        known = ", ".join(_CLASSES)
        raise ValueError(f"unknown game {name!r} (games: {known})") from None


def new_game(name: str, deal: int | None = None, **variant: Any) -> Game:
    """A new game of ``name`` from deal number ``deal`` (``None``: a random deal).

    >>> g = new_game("napoleon", deal=7)
    >>> g.name, g.deal, g.variant, g.score
    ('napoleon', 7, {}, 4)
    """
    cls = game_class(name)
    if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int)):
        raise ValueError(f"deal must be {DEAL_RANGE}, not {deal!r}")
    if deal is not None and not 0 <= deal < 1 << 64:
        raise ValueError(f"deal must be {DEAL_RANGE}, not {deal}")
    cls(**variant).check_variant()
    return cls.new(deal, **variant)
