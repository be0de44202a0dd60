"""Winnable deals only: draw deal numbers until the solver proves one winnable.

Most games draw from the whole range random deals use: the solver decides a
Penguin, Napoleon or Spider deal in a second or two, and most are winnable.
Stjernen's solver wins about half the deals, many of them only after several
seconds, and takes the whole budget on the rest, so random numbers would keep
a player waiting ten or twenty seconds and sometimes find none. Its numbers
are drawn from a book instead (:data:`.stjernen.book.BOOK`: random deal
numbers its first beam was found to win), with a budget that beam needs; each
is still proved winnable when drawn. Each game's solver declares its book and
budget (:attr:`~.base.SolverInfo.book`, :attr:`~.base.SolverInfo.winnable_seconds`).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass

from termsolitaire.rules import new_game
from termsolitaire.rules.deal import MAX_RANDOM_DEAL

from .base import Budget, Result, SolverInfo
from .games import declaration, solve


def seconds_per_deal(name: str) -> float:
    """The budget :func:`find_winnable_deal` is best given per deal of game ``name``
    (its solver's declaration says; 2 s for a game without a solver)."""
    found = declaration(name)
    return (found or SolverInfo(solve)).winnable_seconds


@dataclass(frozen=True, slots=True)
class WinnableDeal:
    """A deal number and the solver's winning line from its start."""

    deal: int
    result: Result


def find_winnable_deal(
    name: str,
    variant: Mapping[str, int] | None = None,
    budget: Budget | float = 2.0,
    *,
    tries: int = 25,
    seed: int | None = None,
    deals: Iterable[int] | None = None,
    avoid: Collection[int] = (),
) -> WinnableDeal | None:
    """The first deal the solver wins within ``budget`` (per deal), or ``None``
    after ``tries`` deals. Deal numbers are drawn at random (from ``seed``, if
    given, else the system's randomness) from the game's book (its solver's
    :attr:`~.base.SolverInfo.book`) or else the range random deals use, or
    taken in order from ``deals``. A book's numbers in ``avoid`` (the deals
    the player has finished) come last."""
    if not isinstance(budget, Budget):
        budget = Budget(seconds=float(budget))
    found = declaration(name)
    book = found.book if found is not None else ()
    numbers = iter(deals) if deals is not None else _random_deals(seed, book, avoid)
    for _, deal in zip(range(tries), numbers, strict=False):
        result = solve(new_game(name, deal, **dict(variant or {})), budget)
        if result.verdict == "won":
            return WinnableDeal(deal, result)
    return None


def _random_deals(
    seed: int | None, book: tuple[int, ...] | None = None, avoid: Collection[int] = ()
) -> Iterator[int]:
    """Random deal numbers: from ``book`` (each once, in a random order, those in
    ``avoid`` last), or any."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    if book:
        drawn = rng.sample(book, len(book))
        seen = set(avoid)
        yield from sorted(drawn, key=lambda deal: deal in seen)
        return
    while True:
        yield rng.randint(0, MAX_RANDOM_DEAL)
