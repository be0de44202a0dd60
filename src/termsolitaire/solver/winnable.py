"""Winnable deals only: draw deal numbers until the solver proves one winnable."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from termsolitaire.rules import new_game
from termsolitaire.rules.deal import MAX_RANDOM_DEAL

from .base import Budget, Result


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
) -> WinnableDeal | None:
    """The first deal the solver wins within ``budget`` (per deal), or ``None``
    after ``tries`` deals. Deal numbers are drawn at random (from ``seed``, if
    given, else the system's randomness) from the range random deals use, or
    taken in order from ``deals``."""
    from . import solve

    if not isinstance(budget, Budget):
        budget = Budget(seconds=float(budget))
    numbers = iter(deals) if deals is not None else _random_deals(seed)
    for _, deal in zip(range(tries), numbers, strict=False):
        result = solve(new_game(name, deal, **dict(variant or {})), budget)
        if result.verdict == "won":
            return WinnableDeal(deal, result)
    return None


def _random_deals(seed: int | None) -> Iterator[int]:
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    while True:
        yield rng.randint(0, MAX_RANDOM_DEAL)
