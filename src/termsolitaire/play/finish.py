"""Auto-finish: when the cards left can all go home by foundation moves alone,
there is nothing left to decide, and the board plays those moves itself (each
one shown), as PySolFC's auto drop does at the end of a game.

>>> from termsolitaire.rules import new_game
>>> finishing_line(new_game("penguin", 5)) is None
True
"""

from __future__ import annotations

from ..rules import Game, Move


def finishing_line(game: Game) -> tuple[Move, ...] | None:
    """The foundation moves that win ``game`` from here, one card at a time, when
    such moves alone win it; None when anything else is needed (a deal, a
    face-down card, a move between piles) or the game is over already."""
    if not game.foundations or game.is_won:
        return None
    if any(not up for name in game.pile_names for _, up in game.pile(name)):
        return None  # a face-down card (a stock) is not known to be free yet
    home = set(game.foundations)

    def homeward(g: Game) -> Move | None:
        return next((m for m in g.legal_moves() if m.kind == "move" and m.dst in home), None)

    move = homeward(game)  # after most moves there is none: no copy needed
    if move is None:
        return None
    g, line = game.copy(), []
    while move is not None:
        g.play(move)
        line.append(move)
        if g.is_won:
            return tuple(line)
        move = homeward(g)
    return None
