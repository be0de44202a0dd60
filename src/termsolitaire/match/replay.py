"""A seat's game, rebuilt from the deal by replaying its stored actions.

The store keeps no board: only the table's deal and suits, and each seat's
actions in API.md notation (moves, ``deal``, ``turn tN``, ``undo``, ``redo``,
``end``). Replaying them through the rules core gives the same game in every
process, which is why both players compute the same results, and why a
watcher or a player who comes back sees exactly the game that was played.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules import Game, IllegalMove, Move, new_game
from ..rules.actions import END, apply
from ..rules.spider import Spider
from .errors import StoreDamaged

__all__ = ["END", "apply", "canonical", "figures", "fresh", "replay"]


def fresh(deal: int, suits: int) -> Game:
    """The table's game before any action."""
    return new_game(Spider.info.name, deal=deal, suits=suits)


def canonical(action: str) -> str:
    """The one text of an action (``T3-T7:1`` -> ``t3-t7``), or IllegalMove."""
    word = action.strip().lower()
    if word in ("undo", "redo", END):
        return word
    return str(Move.parse(action))


def replay(deal: int, suits: int, actions: Iterable[str]) -> Game:
    """The game after ``actions``; :class:`StoreDamaged` if one does not replay."""
    game = fresh(deal, suits)
    for i, action in enumerate(actions):
        try:
            apply(game, action)
        except IllegalMove as e:
            raise StoreDamaged(
                f"A stored game does not replay: action {i + 1} ({action!r}): {e.reason}"
            ) from None
    return game


def figures(game: Game) -> tuple[int, int, int]:
    """``(score, runs, moves)`` of a Spider game."""
    assert isinstance(game, Spider)
    return game.score, game.runs, game.moves
