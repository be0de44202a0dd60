"""Which board screen plays which game: the map, filled as the boards are defined.

Each board screen names its game (``BoardScreen.GAME``); defining it puts it in
:data:`BOARDS`. A game's board lives in the module of this package named after
the game (``screens/boards/<name>.py``), imported when that game's board is
first asked for (or, when the map is read whole, for every game the rules
registry knows); a program may also define a board of its own anywhere.

Nothing here imports a board at import time (no circle): the modules are
loaded by name.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from termsolitaire.play.session import GameSession
from termsolitaire.rules import games
from termsolitaire.widgets.cards import CardLook

if TYPE_CHECKING:
    from termsolitaire.screens.boards.board import BoardScreen

PACKAGE = "termsolitaire.screens.boards"


class BoardMap(dict[str, "type[BoardScreen]"]):
    """Each game's board screen class, by game name, filled as the classes are
    defined. ``BOARDS[name]`` and ``name in BOARDS`` import that game's board only
    (``screens/boards/<name>.py``); iterating imports every registered game's."""

    def _one(self, name: object) -> None:
        if isinstance(name, str) and not dict.__contains__(self, name):
            load_board(name)

    def __getitem__(self, name: str) -> type[BoardScreen]:
        self._one(name)
        return dict.__getitem__(self, name)

    def __contains__(self, name: object) -> bool:
        self._one(name)
        return dict.__contains__(self, name)

    def __iter__(self) -> Iterator[str]:
        load_boards()
        return dict.__iter__(self)


BOARDS = BoardMap()
"""Each game's board screen class, by game name (see :class:`BoardMap`)."""


def board_css(*names: str) -> list[str | PurePath]:
    """The boards' style sheets by name, as absolute paths: a board defined in
    another package (the match's, a program's own game) finds them too."""
    return [str(Path(__file__).with_name(f"{name}.tcss")) for name in names]


def load_board(name: str) -> None:
    """Import the board module of game ``name`` (``screens/<name>.py``), if it has one."""
    module = f"{PACKAGE}.{name}"
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
        importlib.util.find_spec(f"{PACKAGE}.{name}") is not None
    )


def board_screen(
    session: GameSession, look: CardLook | None = None, *, notice: str | None = None
) -> BoardScreen:
    """The board of the session's game, playing it."""
    return board_class(session.game.name)(session, look, notice=notice)
