"""Which games have a solver, and solving any of them.

Each game's solver is a package, ``termsolitaire.solver.<game name>``, that
declares its facts once as ``SOLVER``, a :class:`~.base.SolverInfo`. Everything
here is derived from those declarations and the rules core's registry: no game
name is written down. A registered game without such a package (a fifth game
that brings no solver) has none, and :func:`solve` answers so instead of
failing.
"""

from __future__ import annotations

import dataclasses
import importlib

from termsolitaire.rules import Game, game_class

from .base import KNOWN_NOTES, Budget, Result, SolverInfo, verify
from .shorten import plays_for, shortened


def declaration(name: str) -> SolverInfo | None:
    """The ``SOLVER`` declared by game ``name``'s solver package, or ``None``
    when the game has no solver (or there is no such game)."""
    try:
        game_class(name)  # that game's rules only, not every game's
    except ValueError:
        return None
    module_name = f"{__package__}.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:
            raise
        return None
    found = getattr(module, "SOLVER", None)
    return found if isinstance(found, SolverInfo) else None


def has_solver(name: str) -> bool:
    """Whether game ``name`` has a solver (its package declares one)."""
    return declaration(name) is not None


def no_solver(game: Game) -> str:
    """What :func:`solve` says of a game without a solver."""
    return f"There is no solver for {game.title}."


def solve(game: Game, budget: Budget | float = 10.0, *, shorten: bool = True) -> Result:
    """Search from ``game``'s current position within ``budget`` (seconds, or a
    :class:`Budget`). ``won`` results carry a line replayed to a win through
    the rules core: the search's line is replayed by the shortening pass
    (:func:`~.shorten.shortened`) before it starts, and the line it gives, if
    shorter, once more at its end.

    ``shorten=False``: the search's line as it came, replayed to a win but not
    shortened, for an answer whose line nobody sees (the board's verdict: the
    pass is some 40% of a Penguin verdict's CPU, and a hint searches again).
    A game without a solver gets ``unknown`` at once, with a note saying so."""
    if not isinstance(budget, Budget):
        budget = Budget(seconds=float(budget))
    found = declaration(game.name)
    if found is None:
        return Result("unknown", notes=(no_solver(game),))
    result = found.solve(game, budget)
    if result.verdict == "won":  # the line the player sees, without its detours
        if shorten:
            moves = shortened(game, result.moves, plays_for(budget))
        else:
            moves = result.moves if verify(game, result.moves) else None
        if moves is None:
            raise AssertionError(f"the {game.name} solver returned a line that does not win")
        result = dataclasses.replace(result, moves=moves)
    if found.full_knowledge and not result.notes:
        result = dataclasses.replace(result, notes=(KNOWN_NOTES[result.verdict],))
    return result
