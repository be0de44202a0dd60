"""Reproducible deals: the project's own PRNG driving a Fisher-Yates shuffle.

Python's ``random.shuffle`` may change between versions, so deals never use it.
The generator is **PCG32** (PCG-XSH-RR, 64-bit state, 32-bit output; M. E.
O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically Good
Algorithms for Random Number Generation", 2014):

- state' = state * 6364136223846793005 + inc  (mod 2**64)
- output = rotr32(((state ^ (state >> 18)) >> 27) mod 2**32, state >> 59)

Seeding follows the reference ``pcg32_srandom_r(initstate, initseq)``:
``inc = (initseq << 1) | 1``; ``state = 0``; step; ``state += initstate``; step.
A deal uses ``initstate = deal number`` and ``initseq`` = a fixed stream number
per game, declared in its :class:`~termsolitaire.rules.info.GameInfo` (Napoleon
1, Penguin 2, Spider 3, Stjernen 4; so deal 7 of Napoleon and deal 7 of
Penguin are unrelated).

A number below ``n`` is drawn without bias by rejection: draw ``x``; reject while
``x < 2**32 mod n``; return ``x mod n``. The shuffle is the classic Fisher-Yates
(Durstenfeld) from the top: for ``i`` from ``len - 1`` down to 1, swap item
``i`` with item ``below(i + 1)``. The shuffled list is then dealt from index 0
("the first card dealt"), as each game module describes.

>>> rng = Pcg32(42, 54)
>>> [rng.next() for _ in range(3)]
[2707161783, 2068313097, 3122475824]
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MULT = 6364136223846793005
_MASK64 = (1 << 64) - 1

DEAL_RANGE = f"a whole number from 0 to {(1 << 64) - 1}"
"""What a deal number may be, as messages say it to a player (not ``2**64 - 1``)."""
MAX_RANDOM_DEAL = 999_999_999
"""Random deals are drawn from 0..MAX_RANDOM_DEAL so they are easy to note down."""


class Pcg32:
    """PCG-XSH-RR 64/32, seeded like the reference ``pcg32_srandom_r``."""

    __slots__ = ("inc", "state")

    def __init__(self, initstate: int, initseq: int) -> None:
        self.state = 0
        self.inc = ((initseq << 1) | 1) & _MASK64
        self.next()
        self.state = (self.state + initstate) & _MASK64
        self.next()

    def next(self) -> int:
        """The next 32-bit output."""
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, ``1 <= n <= 2**32``."""
        threshold = (1 << 32) % n
        while True:
            x = self.next()
            if x >= threshold:
                return x % n


def shuffle(items: MutableSequence[T], rng: Pcg32) -> None:
    """Fisher-Yates in place, from the top down."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def shuffled(items: list[T], stream: int, deal: int) -> list[T]:
    """A copy of ``items`` shuffled for ``deal`` of the game whose deals use ``stream``.

    >>> shuffled(list(range(6)), 1, 0)  # Napoleon's stream
    [3, 4, 2, 0, 1, 5]
    """
    if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < 1 << 64:
        raise ValueError(f"deal must be {DEAL_RANGE}, not {deal!r}")
    out = list(items)
    shuffle(out, Pcg32(deal, stream))
    return out
