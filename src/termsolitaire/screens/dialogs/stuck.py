"""The stuck offer: no move leads anywhere new. Undo, restart or take a new deal."""

from __future__ import annotations

from termsolitaire.screens.dialogs.choice import ChoiceScreen


class StuckScreen(ChoiceScreen[str]):
    """Dismisses with ``"undo"``, ``"restart"``, ``"new"`` or ``None`` (keep looking)."""

    def __init__(self) -> None:
        super().__init__(
            "Stuck: no move leads anywhere new.",
            ["Escape keeps looking at the board."],
            [("z", "Undo", "undo"), ("R", "Restart", "restart"), ("N", "New deal", "new")],
        )
