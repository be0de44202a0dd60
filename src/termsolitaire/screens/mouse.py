"""Mouse play for the board screens: click then click, drag and drop, double click.

The piles post what happened where (:mod:`termsolitaire.messages`); this turns
it into the same calls the keys make. A drag picks up the cards under the
pointer, a floating copy follows the pointer, and letting go over a pile plays
the move there; let go anywhere else and the cards go back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from termsolitaire.messages import DragDropped, DragMoved, PileClicked

if TYPE_CHECKING:
    from termsolitaire.rules import Game
    from termsolitaire.widgets.board import Board

    from .selection import Hand


class MouseMixin:
    """Mixed into :class:`~termsolitaire.screens.board.BoardScreen`."""

    hand: Hand
    game: Game
    board: Board
    dragging: bool

    if TYPE_CHECKING:  # given by the board screen it is mixed into

        def redraw(self) -> None: ...
        def pick(self, name: str, count: int | None) -> None: ...
        def play(self, move: Any) -> bool: ...
        def action_pile(self, name: str) -> None: ...
        def to_foundation(self, src: str) -> None: ...

    def on_pile_clicked(self, message: PileClicked) -> None:
        hand, name = self.hand, message.pile
        if message.chain >= 2:
            self.to_foundation(name)
            return
        if hand.src is None:
            self.pick(name, message.count or None)
        elif hand.src == name:
            if message.count and message.count != hand.shown_count():
                hand.pick(name, message.count)
                self.redraw()
            else:
                self.action_pile(name)
        else:
            self.play(hand.move_to(name))

    def on_drag_moved(self, message: DragMoved) -> None:
        if not self.dragging:
            cards = self.game.pile(message.pile)
            if not cards or not cards[-1][1]:
                return
            self.dragging = True
            self.hand.pick(message.pile, min(message.count, self.hand.movable(message.pile)))
            self.redraw()
        count = self.hand.shown_count()
        self.board.show_ghost(self.game.pile(message.pile)[-count:], message.x, message.y)

    def on_drag_dropped(self, message: DragDropped) -> None:
        if not self.dragging:
            return
        self.dragging = False
        self.board.hide_ghost()
        dst = self.board.pile_at(message.x, message.y)
        if dst is None or dst == self.hand.src:
            self.hand.drop()
            self.redraw()
            return
        self.play(self.hand.move_to(dst))
