"""What the player has in hand: the selected cards, the cursor, legal targets. No textual.

The one judge is ``game.legal_moves()``: the targets of a selection are the
destinations of the legal moves from its pile with its count. A count of
``None`` ("auto") means the player has not chosen one: any legal count may
go, and a drop takes the largest count that fits the destination.

>>> from termsolitaire.rules.penguin import Penguin
>>> hand = Hand(Penguin.new(5))
>>> hand.pick("t7")
>>> sorted(hand.targets())[:3], hand.shown_count()
(['c1', 'c2', 'c3'], 1)
>>> str(hand.move_to("t3"))
't7-t3'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from termsolitaire.rules import Game, Move


@dataclass
class Hand:
    """The selection and cursor over one game."""

    game: Game
    src: str | None = None
    count: int | None = None  # None: auto
    cursor: str | None = None
    cursor_count: int | None = None
    by_hint: bool = False
    """A hint picked these cards up, not the player (any pick or drop clears it)."""
    _legal: list[Move] = field(default_factory=list)
    _legal_key: int = -1

    def legal(self) -> list[Move]:
        key = len(self.game.log)
        if key != self._legal_key:
            self._legal = self.game.legal_moves()
            self._legal_key = key
        return self._legal

    def moves_from(self, src: str) -> list[Move]:
        return [m for m in self.legal() if m.kind == "move" and m.src == src]

    def pick(self, src: str, count: int | None = None) -> None:
        self.src, self.count, self.by_hint = src, count, False

    def drop(self) -> None:
        self.src, self.count, self.by_hint = None, None, False

    def movable(self, pile: str) -> int:
        """How many cards of ``pile`` could move together (the rules say)."""
        return self.game.movable(pile)

    def shown_count(self) -> int:
        """How many cards the selection covers on screen."""
        if self.src is None:
            return 0
        if self.count is not None:
            return self.count
        counts = [m.count for m in self.moves_from(self.src)]
        return max(counts, default=1) if self.game.pile(self.src) else 0

    def targets(self) -> set[str]:
        if self.src is None:
            return set()
        return {m.dst for m in self.moves_from(self.src) if self.count in (None, m.count)}

    def move_to(self, dst: str) -> Move:
        """The move the selection makes onto ``dst`` (legal if any legal one fits)."""
        assert self.src is not None
        if self.count is None:
            fits = [m for m in self.moves_from(self.src) if m.dst == dst]
            if fits:
                return max(fits, key=lambda m: m.count)
            return Move.transfer(self.src, dst, self.shown_count() or 1)
        return Move.transfer(self.src, dst, self.count)

    def resize(self, step: int) -> None:
        """``+1`` / ``-1``: one card more or fewer in the selection."""
        if self.src is None:
            return
        limit = max(1, self.movable(self.src))
        now = self.shown_count() or 1
        self.count = min(limit, max(1, now + step))
