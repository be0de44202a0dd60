"""Panels that open by themselves take no button press in their first moment.

A game's results, the match's results and the stuck offer open without the
player asking: after the move that ends the game, or the opponent's. A player
who follows hints by pressing Enter (or Space) again and again would otherwise
choose the panel's default button (New deal, Leave, Undo) with the next press,
meant for the board, and never see the results. For :data:`ARM_SECONDS` after
the panel opens, Enter, Space and a click on its buttons do nothing; its
letter keys (``n``, ``q``, ``z``...) and Escape work at once, as they are
chosen on purpose.
"""

from __future__ import annotations

import time
from typing import Any

from textual.widgets import Button

ARM_SECONDS = 0.5
"""How long a panel that opened by itself ignores presses of its buttons."""


class Unasked:
    """Mixed in first among a panel's bases: :meth:`too_soon` says whether a
    button press comes within :data:`ARM_SECONDS` of the panel's opening."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._opened = time.monotonic()

    def too_soon(self, event: Button.Pressed) -> bool:
        """True when ``event`` comes too early to be meant for this panel; the
        press then goes no further (not to a base class's handler either:
        Textual calls each class's own ``on_button_pressed`` along the MRO)."""
        if time.monotonic() - self._opened >= ARM_SECONDS:
            return False
        event.stop()
        event.prevent_default()
        return True
