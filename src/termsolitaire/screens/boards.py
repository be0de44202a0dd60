"""Which board screen plays which game: the map, filled by importing the boards.

Each board screen names its game (``BoardScreen.GAME``); importing it puts it in
:data:`~.board.BOARDS`. A new game's board joins by being imported here.
"""

from __future__ import annotations

from termsolitaire.session import GameSession
from termsolitaire.widgets.cards import CardLook

from . import napoleon, penguin, spider, stjernen  # noqa: F401  (they register their boards)
from .board import BOARDS, BoardScreen


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
