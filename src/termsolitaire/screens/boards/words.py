"""How a board names its piles and cards in what the player reads.

A pile's key is the label the board shows on it; the rules' names (``t3``,
``o1``) are for files and ``solve`` only. :class:`BoardWords` is what the play
controller words its sentences with (:class:`~termsolitaire.play.words.Words`),
and it rewrites the rules' own reasons (``t1 is empty``) in the board's labels.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from textual.binding import Binding

from termsolitaire.play.words import ASCII_TEXT
from termsolitaire.rules import Card
from termsolitaire.widgets.board import Place
from termsolitaire.widgets.cards import CardLook


class BoardWords:
    """The words of one board: its places and keys, and the card look it draws."""

    def __init__(
        self, places: Mapping[str, Place], bindings: Sequence[Any], look: Callable[[], CardLook]
    ) -> None:
        self.places = places
        self.bindings = bindings
        self.look = look
        self.order = {name: i for i, name in enumerate(places)}

    @property
    def ascii(self) -> bool:
        return self.look().ascii

    def card(self, card: Card) -> str:
        return self.look().label(card)

    def pile_key(self, pile: str) -> str:
        """The label the board shows on a pile (its key)."""
        place = self.places.get(pile)
        return place.key if place is not None else pile

    def pile_title(self, pile: str) -> str:
        """A pile named for a sentence: its kind and its key (``Column 7``, ``Cell w``)."""
        for b in self.bindings:
            if isinstance(b, Binding) and b.id == f"pile-{pile}":
                return f"{b.description.partition(' ')[0]} {self.pile_key(pile)}"
        return self.pile_key(pile)

    def pile_order(self, pile: str) -> int:
        return self.order.get(pile, len(self.order))

    def action_key(self, action: str) -> str | None:
        for b in self.bindings:
            if isinstance(b, Binding) and b.action == action:
                return b.key.partition(",")[0]
        return None

    def named(self, text: str) -> str:
        """``text`` with the rules' pile names (``t3``, ``o1``) as the board labels
        them (``3``, ``8``; ``Pile 3`` when it begins the sentence)."""
        pattern = pile_pattern(tuple((n, p.key) for n, p in self.places.items()))
        if pattern is None:
            return text

        def label(m: re.Match[str]) -> str:
            name = m.group(0)
            return self.pile_title(name) if m.start() == 0 else self.pile_key(name)

        return pattern.sub(label, text)

    def status_text(self, text: str) -> str:
        """``text`` as the status line shows it: piles named by their labels, and
        the suits as letters on an ASCII terminal."""
        text = self.named(text)
        return text.translate(ASCII_TEXT) if self.ascii else text


@functools.lru_cache(maxsize=64)
def pile_pattern(keys: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    """The rules' names of a board's keyed piles (``(name, key)`` pairs), as one pattern."""
    names = [n for n, key in keys if n != key and len(key) == 1 and n.isalnum() and not n.isalpha()]
    names.sort(key=len, reverse=True)  # t10 before t1
    return re.compile(r"\b(" + "|".join(names) + r")\b") if names else None
