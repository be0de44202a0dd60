"""Which board screen plays which game: the map, filled by importing the boards.

Each board screen names its game (``BoardScreen.GAME``); defining it puts it in
:data:`~.board.BOARDS`. A game's board lives in the module of this package
named after the game (``screens/<name>.py``), imported here for every game the
rules registry knows; a program may also define a board of its own anywhere.
"""

from __future__ import annotations

import importlib
import importlib.util

from termsolitaire.rules import games
from termsolitaire.session import GameSession
from termsolitaire.widgets.cards import CardLook

from .board import BOARDS, BoardScreen


def _load_boards() -> None:
    for g in games():
        name = f"{__package__}.{g.name}"
        if g.name not in BOARDS and importlib.util.find_spec(name) is not None:
            importlib.import_module(name)


def board_class(name: str) -> type[BoardScreen]:
    """The board screen class of game ``name``; ValueError when it has none."""
    try:
        return BOARDS[name]
    except KeyError:
        raise ValueError(f"no board plays {name!r}") from None


def has_board(name: str) -> bool:
    return name in BOARDS


def board_screen(
    session: GameSession, look: CardLook | None = None, *, notice: str | None = None
) -> BoardScreen:
    """The board of the session's game, playing it."""
    return board_class(session.game.name)(session, look, notice=notice)


_load_boards()
