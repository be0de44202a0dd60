"""Napoleon's cards as the solver codes them, and the tables it looks them up in.

A card is its :attr:`termsolitaire.rules.Card.code` (suit index × 13 + rank − 1,
suits in the order S H D C). A card's *hosts* are the two cards it may be put on
(one rank higher, the other colour).
"""

from __future__ import annotations

from typing import Final

from termsolitaire.rules.napoleon import FOUNDATIONS, POSITIONS

PILES: Final = 16
NAMES: Final = POSITIONS + FOUNDATIONS
"""Pile index -> the rules core's pile name."""

RANK: Final = [c % 13 + 1 for c in range(52)]
SUIT: Final = [c // 13 for c in range(52)]
BYTE: Final = [bytes((c,)) for c in range(52)]
OTHER_COLOUR: Final = ((1, 2), (0, 3), (0, 3), (1, 2))
"""For each suit index (S H D C), the two suits of the other colour."""
SAME_COLOUR: Final = (3, 2, 1, 0)
"""For each suit index, the other suit of its colour."""
HOSTS: Final = [
    tuple(s * 13 + RANK[c] for s in OTHER_COLOUR[SUIT[c]]) if RANK[c] < 13 else ()
    for c in range(52)
]
TWIN: Final = [SAME_COLOUR[SUIT[c]] * 13 + RANK[c] - 1 for c in range(52)]
"""The other card of the same rank and colour: the two share their hosts and
their guests."""
GUESTS: Final = [tuple(g for g in range(52) if c in HOSTS[g]) for c in range(52)]
"""The two cards that may be put on each card (none on an ace)."""
INFO: Final = [(SUIT[c], RANK[c], *(HOSTS[c] or (c, c))) for c in range(52)]
"""Each card's suit, rank and two hosts (a king: itself twice, never used)."""
SEP: Final = b"\xff"
HOME: Final = 255
"""``loc`` of a card on its foundation."""
NapoleonMove = tuple[int, int]
Compound = tuple[NapoleonMove, ...]
"""What the search plays at once: sideways moves, then the move they serve."""
Weights = tuple[int, int, int]
