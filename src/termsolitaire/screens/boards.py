"""Which board screen plays which game: the map, filled by importing the boards.

Each board screen names its game (``BoardScreen.GAME``); defining it puts it in
:data:`~.board.BOARDS`. A game's board lives in the module of this package
named after the game (``screens/<name>.py``), imported when that game's board is
first asked for (or, when the map is read whole, for every game the rules
registry knows); a program may also define a board of its own anywhere.
"""

from __future__ import annotations

import importlib
import importlib.util

from termsolitaire.rules import games
from termsolitaire.session import GameSession
from termsolitaire.widgets.cards import CardLook

from .board import BOARDS, BoardScreen


def load_board(name: str) -> None:
    """Import the board module of game ``name`` (``screens/<name>.py``), if it has one."""
    module = f"{__package__}.{name}"
    if not dict.__contains__(BOARDS, name) and importlib.util.find_spec(module) is not None:
        importlib.import_module(module)


def load_boards() -> None:
    """Import the board module of every registered game."""
    for g in games():
        load_board(g.name)


def board_class(name: str) -> type[BoardScreen]:
    """The board screen class of game ``name``; ValueError when it has none."""
    try:
        return BOARDS[name]
    except KeyError:
        raise ValueError(f"no board plays {name!r}") from None


def has_board(name: str) -> bool:
    """Whether game ``name`` has a board, without importing it (the menu lists the
    games before any board is needed)."""
    return dict.__contains__(BOARDS, name) or (
        importlib.util.find_spec(f"{__package__}.{name}") is not None
    )


def board_screen(
    session: GameSession, look: CardLook | None = None, *, notice: str | None = None
) -> BoardScreen:
    """The board of the session's game, playing it."""
    return board_class(session.game.name)(session, look, notice=notice)
