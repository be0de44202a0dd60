"""Cursor mode for the board screens: arrows/hjkl, space/Enter, +/-.

Left and right go from pile to pile along a row of ``NAV``; up and down go
along a pile (over one more or one fewer of its face-up cards) and, at its
end, to the row above or below. Space or Enter picks up the cards under the
cursor, or drops the cards in hand on the cursor's pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .selection import Hand


class CursorMixin:
    """Mixed into :class:`~termsolitaire.screens.board.BoardScreen`."""

    NAV: list[list[str]]
    hand: Hand

    if TYPE_CHECKING:  # given by the board screen it is mixed into

        def redraw(self) -> None: ...
        def say(self, text: str) -> None: ...
        def pick(self, name: str, count: int | None) -> None: ...
        def play(self, move: Any) -> bool: ...

    def _where(self) -> tuple[int, int]:
        cursor = self.hand.cursor
        for r, row in enumerate(self.NAV):
            if cursor in row:
                return r, row.index(cursor)
        return len(self.NAV) - 1, 0

    def action_cursor(self, dx: int, dy: int) -> None:
        hand = self.hand
        if hand.cursor is None:
            r, c = self._where()
            hand.cursor, hand.cursor_count = self.NAV[r][c], None
            self.redraw()
            return
        r, c = self._where()
        if dx:
            row = self.NAV[r]
            hand.cursor = row[(c + dx) % len(row)]
            hand.cursor_count = None
        elif dy < 0 and (hand.cursor_count or 1) < hand.movable(hand.cursor):
            hand.cursor_count = (hand.cursor_count or 1) + 1
        elif dy > 0 and (hand.cursor_count or 1) > 1:
            hand.cursor_count = (hand.cursor_count or 1) - 1
        else:
            r2 = r + dy
            if 0 <= r2 < len(self.NAV):
                row = self.NAV[r2]
                hand.cursor = row[min(c, len(row) - 1)]
                hand.cursor_count = None
        self.redraw()

    def action_grab(self) -> None:
        """Space / Enter: pick up the cards under the cursor, or drop the hand there."""
        hand = self.hand
        if hand.cursor is None:
            self.action_cursor(0, 0)
            self.say("Cursor on; arrows move it, Space picks up and drops")
            return
        if hand.src is None:
            self.pick(hand.cursor, hand.cursor_count)
        elif hand.src == hand.cursor:
            hand.drop()
            self.say("Put back")
            self.redraw()
        else:
            self.play(hand.move_to(hand.cursor))

    def action_more(self) -> None:
        self._resize(1)

    def action_fewer(self) -> None:
        self._resize(-1)

    def _resize(self, step: int) -> None:
        hand = self.hand
        if hand.src is not None:
            hand.resize(step)
            hand.cursor_count = hand.count if hand.cursor == hand.src else hand.cursor_count
            n = hand.shown_count()
            self.say(f"{n} card{'s' if n > 1 else ''} in hand")
        elif hand.cursor is not None:
            top = max(1, hand.movable(hand.cursor))
            hand.cursor_count = min(top, max(1, (hand.cursor_count or 1) + step))
        else:
            self.say("Pick up cards first, then + or - changes how many")
        self.redraw()


class NearestCursorMixin(CursorMixin):
    """Cursor mode for boards laid out by geometry (the circle, the star): an arrow
    goes to the nearest pile that way (:func:`termsolitaire.widgets.nav.nearest`);
    the first arrow shows the cursor on ``CURSOR_START`` (or the pile in hand)."""

    CURSOR_START: str = ""
    board: Any

    def action_cursor(self, dx: int, dy: int) -> None:
        from termsolitaire.widgets.nav import nearest

        hand = self.hand
        hand.cursor_count = None
        if hand.cursor is None or (dx, dy) == (0, 0):
            hand.cursor = hand.cursor or hand.src or self.CURSOR_START
            self.say("Cursor on; arrows move it, Space picks up and drops")
        else:
            hand.cursor = nearest(self.board.centres(), hand.cursor, dx, dy) or hand.cursor
        self.redraw()
