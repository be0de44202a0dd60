"""An action in API.md notation as a table plays it: a move, ``undo``, ``redo``
or ``end`` (a player's End in a match, which changes nothing on the board).

A solo board's table and a match seat both play their actions through
:func:`apply`, so the one reading of an action text is here, below both.

>>> from termsolitaire.rules import new_game
>>> g = new_game("penguin", deal=5)
>>> str(apply(g, "t7-t3")), str(apply(g, "undo")), apply(g, "end")
('t7-t3', 't7-t3', None)
"""

from __future__ import annotations

from .game import Game
from .moves import Move

END = "end"
"""The action a player's End appends; it changes nothing on the board."""


def apply(game: Game, action: str) -> Move | None:
    """Play one action on ``game``: a move, ``undo``, ``redo``, or ``end`` (nothing).

    Raises :class:`~termsolitaire.rules.IllegalMove` (nothing changed) when the
    rules refuse it.
    """
    word = action.strip().lower()
    if word == "undo":
        return game.undo()
    if word == "redo":
        return game.redo()
    if word == END:
        return None
    return game.play(action)
