"""The boards: one screen class per game (``<name>.py``), the shared
:class:`~.board.BoardScreen` that renders the play controller, its actions
(:mod:`.actions`), the words it names piles by (:mod:`.words`), the solver's
link (:mod:`.solving`), the read-only replay (:mod:`.replay`), and the
registry of which board plays which game (:mod:`.registry`)."""

from termsolitaire.screens.boards.registry import (
    BOARDS,
    board_class,
    board_screen,
    has_board,
    load_board,
    load_boards,
)

__all__ = ["BOARDS", "board_class", "board_screen", "has_board", "load_board", "load_boards"]
