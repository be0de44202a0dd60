"""The rules core: the four games as plain Python (no textual, no rich).

>>> from termsolitaire.rules import new_game
>>> g = new_game("penguin", deal=5)
>>> g.play(g.legal_moves()[0]) in g.history
True
"""

from .cards import Card
from .game import Game
from .info import Choice, GameInfo
from .moves import IllegalMove, Move, UndoForbidden, format_move_list, parse_move_list
from .registry import GAMES, game_class, games, info, new_game, register
from .text import from_json, from_text

__all__ = [
    "GAMES",
    "Card",
    "Choice",
    "Game",
    "GameInfo",
    "IllegalMove",
    "Move",
    "UndoForbidden",
    "format_move_list",
    "from_json",
    "from_text",
    "game_class",
    "games",
    "info",
    "new_game",
    "parse_move_list",
    "register",
]
