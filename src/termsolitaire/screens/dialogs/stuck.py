"""The stuck offer: no move leads anywhere new. Undo, restart or take a new deal."""

from __future__ import annotations

from textual.widgets import Button

from termsolitaire.screens.dialogs.choice import ChoiceScreen
from termsolitaire.screens.dialogs.unasked import Unasked


class StuckScreen(Unasked, ChoiceScreen[str]):
    """Dismisses with ``"undo"``, ``"restart"``, ``"new"`` or ``None`` (keep looking).
    Opens by itself after a move: its buttons wait a moment (:mod:`.unasked`)."""

    def __init__(self, deal: int | None) -> None:
        # the key line already says what Escape does; the line says what the
        # buttons' words do not: how far Undo goes, and that Restart is this deal
        which = "this deal" if deal is None else f"deal {deal}"
        super().__init__(
            "Stuck: no move leads anywhere new.",
            [f"Undo goes back a move at a time; Restart plays {which} again."],
            [("z", "Undo", "undo"), ("R", "Restart", "restart"), ("N", "New deal", "new")],
            escape="Look at the board",
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        # ChoiceScreen's own handler answers next, unless this one says too soon
        self.too_soon(event)
