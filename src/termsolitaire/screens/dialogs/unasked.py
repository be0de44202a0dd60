"""Panels that open by themselves take no button press in their first moment.

A game's results, the match's results and the stuck offer open without the
player asking: after the move that ends the game, or the opponent's. A player
who follows hints by pressing Enter (or Space) again and again would otherwise
choose the panel's default button (New deal, Leave, Undo) with the next press,
meant for the board, and never see the results. Until the buttons have gone
unpressed for :data:`ARM_SECONDS` since the panel opened, Enter, Space and a
click on its buttons do nothing, and each such press starts the wait again: a
player who keeps pressing Enter (or holds it down) after the last move stays
on the results however long the presses go on, and the first press after a
pause chooses. The letter keys (``n``, ``q``, ``z``...) and Escape work at
once, as they are chosen on purpose.
"""

from __future__ import annotations

import time
from typing import Any

from textual.widgets import Button

ARM_SECONDS = 0.5
"""How long a panel that opened by itself must go without a press of its
buttons before it takes one."""


class Unasked:
    """Mixed in first among a panel's bases: :meth:`too_soon` says whether a
    button press comes within :data:`ARM_SECONDS` of the panel's opening or of
    the last press it refused."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._quiet_since = time.monotonic()

    def too_soon(self, event: Button.Pressed) -> bool:
        """True when ``event`` comes too early to be meant for this panel; the
        press then goes no further (not to a base class's handler either:
        Textual calls each class's own ``on_button_pressed`` along the MRO),
        and the wait starts again from it."""
        now = time.monotonic()
        if now - self._quiet_since >= ARM_SECONDS:
            return False
        self._quiet_since = now
        event.stop()
        event.prevent_default()
        return True
