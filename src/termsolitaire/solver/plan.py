"""A winning line kept while the player follows it, so hints never loop.

The screens ask the solver once, keep the answer as a :class:`Plan`, and ask
the plan for the next move after every move of the player: as long as the
position is one the line passes through (the player followed it, or undid
back along it), the rest of the same line is the hint, so a hint can never send
a card back and forth. Only when the player leaves the line is a new search
needed.

>>> from termsolitaire.rules import new_game
>>> from termsolitaire.solver import solve
>>> g = new_game("napoleon", deal=6)
>>> plan = Plan.of(g, solve(g, 10).moves)
>>> g.play(plan.next(g)) == plan.moves[0]
True
>>> plan.remaining(g) == plan.moves[1:]
True
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from termsolitaire.rules import Game, Move

from .base import board, position_key
from .games import declaration

__all__ = ["Plan", "board", "cards_home"]


def cards_home(game: Game) -> int:
    """What :attr:`~termsolitaire.solver.Result.best` counts, for ``game``'s
    position: the cards in the piles its solver declares home
    (:attr:`~.base.SolverInfo.home`: Spider's done runs), else the game's score
    (the cards on its foundations)."""
    found = declaration(game.name)
    if found is not None and found.home:
        return sum(len(game.pile(name)) for name in found.home)
    return game.score


@dataclass(frozen=True)
class Plan:
    """A line of moves from a position, with every position it passes through."""

    moves: tuple[Move, ...]
    keys: tuple[Hashable, ...] = field(repr=False)
    """``keys[k]``: the position after ``moves[:k]`` (``keys[0]``: the start), as
    :func:`~.base.position_key` (equal exactly when the :func:`~.base.board` is,
    without writing the text)."""

    @classmethod
    def of(cls, game: Game, moves: tuple[Move, ...] | list[Move]) -> Plan:
        """The plan of ``moves`` from ``game``'s position (replayed on a copy;
        :class:`~termsolitaire.rules.IllegalMove` if a move does not fit)."""
        g = game.copy()
        keys = [position_key(g)]
        for m in moves:
            g.play(m)
            keys.append(position_key(g))
        return cls(tuple(moves), tuple(keys))

    def remaining(self, game: Game) -> tuple[Move, ...] | None:
        """The rest of the line from ``game``'s position, or ``None`` when the
        line does not pass through it (the latest passage, if several)."""
        here = position_key(game)
        for k in range(len(self.keys) - 1, -1, -1):
            if self.keys[k] == here:
                return self.moves[k:]
        return None

    def next(self, game: Game) -> Move | None:
        """The hint: the line's next move from ``game``'s position (``None`` off
        the line, or at its end)."""
        rest = self.remaining(game)
        return rest[0] if rest else None
