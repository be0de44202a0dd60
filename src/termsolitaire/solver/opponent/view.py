"""What the computer opponent may know of a Spider game: exactly what a player sees.

:func:`view_of` builds a :class:`View` from a rules game, reading only face-up
cards, the number of face-down cards on each pile and in the stock, and the
completed runs. The cards not seen are known as a set (the variant's cards
minus the visible ones), never by place. The opponent receives nothing else,
so it cannot read a hidden card by accident: fairness is in the types.

From a view the opponent may build a *sample* (:func:`sample`): the unseen cards
dealt at random into the face-down places and the stock, a full-knowledge
position it can search, one guess among many; or a *known state*
(:func:`known_state`), where each face-down card is a blank that fits nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from termsolitaire.rules.cards import pack
from termsolitaire.rules.spider import PACKS, TABLEAU, Spider

from ..spider.state import RUN, SpiderState, code

BLANK = 15
"""A card whose face is unknown: rank 15 fits on no card and takes none."""


@dataclass(frozen=True, slots=True)
class View:
    """A Spider position as its player sees it.

    ``piles[i]`` lists pile ``t{i+1}``'s face-up cards (integer codes, see
    :mod:`termsolitaire.solver.spider.state`), bottom to top, above ``down[i]`` face-down cards;
    ``stock`` counts the stock's cards; ``done`` is the suit of each completed
    run; ``unseen`` every card not visible (face-down or in the stock), sorted.
    """

    suits: int
    piles: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    stock: int
    done: tuple[int, ...]
    unseen: tuple[int, ...]
    score: int = 0
    moves: int = 0


def view_of(game: Spider) -> View:
    """The view of ``game``'s player: face-up cards only (face-down ones are counted)."""
    piles: list[tuple[int, ...]] = []
    down: list[int] = []
    seen: Counter[int] = Counter()
    for name in TABLEAU:
        up = [code(c) for c, face_up in game.pile(name) if face_up]
        piles.append(tuple(up))
        down.append(len(game.pile(name)) - len(up))
        seen.update(up)
    done = tuple(code(c) >> 4 for c, _ in game.pile("done")[::RUN])
    for suit in done:
        seen.update(range(suit * 16 + 1, suit * 16 + 14))
    unseen = Counter(code(c) for c in pack(PACKS[game.suits])) - seen
    return View(
        suits=game.suits,
        piles=tuple(piles),
        down=tuple(down),
        stock=len(game.pile("stock")),
        done=done,
        unseen=tuple(sorted(unseen.elements())),
        score=game.score,
        moves=game.moves,
    )


def known_state(view: View) -> SpiderState:
    """The view as a state whose face-down and stock cards are blanks."""
    piles = [[BLANK] * d + list(p) for p, d in zip(view.piles, view.down, strict=True)]
    return SpiderState(piles, list(view.down), [BLANK] * view.stock, list(view.done))


def sample(view: View, rng: random.Random) -> SpiderState:
    """One full-knowledge guess: the unseen cards shuffled into the hidden places."""
    cards = list(view.unseen)
    rng.shuffle(cards)
    piles = []
    for p, d in zip(view.piles, view.down, strict=True):
        piles.append(cards[:d] + list(p))
        del cards[:d]
    return SpiderState(piles, list(view.down), cards, list(view.done))
