"""The solver: winning lines, proofs of loss, hints. Plain Python, no UI import.

Every game with a solver has its package here (``termsolitaire.solver.<game
name>``) with a compact state of its own, a ``solve(game, budget)`` function
and its declaration, ``SOLVER`` (:class:`SolverInfo`); :func:`solve` picks it
by the game's name (:mod:`.games`). A line the search returns is replayed
through the rules core (:func:`verify`) before anyone sees it. Shared
machinery sits beside the packages: :mod:`.search` (the searches Penguin and
Napoleon share), :mod:`.plan` (hints that follow a line), :mod:`.winnable`
and :mod:`.worker` (searches in a
child process). :mod:`.opponent` is the Spider computer opponent.
:func:`compiled_modules` tells which modules run compiled (an optional mypyc
build, README "Faster solver"; pure Python is the default and the reference).
"""

from __future__ import annotations

from .base import Budget, Result, SolverInfo, Verdict, verify
from .compiled import compiled_modules, solver_kind
from .games import has_solver, solve
from .plan import Plan
from .winnable import WinnableDeal, find_winnable_deal

__all__ = [
    "Budget",
    "Plan",
    "Result",
    "SolverInfo",
    "Verdict",
    "WinnableDeal",
    "compiled_modules",
    "find_winnable_deal",
    "has_solver",
    "solve",
    "solver_kind",
    "verify",
]
