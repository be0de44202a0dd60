"""The solver: winning lines, proofs of loss, hints. Plain Python, no UI import.

Every game has its own module here (``termsolitaire.solver.<game name>``) with a
compact state of its own and a ``solve(game, budget)`` function; :func:`solve`
picks it by the game's name. A line the search returns is replayed through the
rules core (:func:`verify`) before anyone sees it.
"""

from __future__ import annotations

import importlib
import importlib.util

from termsolitaire.rules import Game

from .base import Budget, Result, Verdict, verify
from .plan import Plan
from .winnable import WinnableDeal, find_winnable_deal

__all__ = [
    "Budget",
    "Plan",
    "Result",
    "Verdict",
    "WinnableDeal",
    "find_winnable_deal",
    "has_solver",
    "solve",
    "verify",
]


def has_solver(name: str) -> bool:
    """Whether game ``name`` has its solver module (``termsolitaire.solver.<name>``)."""
    return importlib.util.find_spec(f"{__name__}.{name}") is not None


def solve(game: Game, budget: Budget | float = 10.0) -> Result:
    """Search from ``game``'s current position within ``budget`` (seconds, or a
    :class:`Budget`). ``won`` results carry a line already replayed to a win."""
    if not isinstance(budget, Budget):
        budget = Budget(seconds=float(budget))
    module = importlib.import_module(f"{__name__}.{game.name}")
    result: Result = module.solve(game, budget)
    if result.verdict == "won" and not verify(game, result.moves):
        raise AssertionError(f"the {game.name} solver returned a line that does not win")
    return result
