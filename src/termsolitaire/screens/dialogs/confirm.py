"""Asking before a game in progress is abandoned (the ``confirm_abandon`` setting).

``y`` abandons; ``n``, Escape or Enter keeps playing. Enter is the safe answer:
a player following hints with H, Enter who pressed ``R`` or ``N`` by mistake
must not lose the game to the next reflexive Enter. Shown only when the game on
the board has a move and is not finished: an abandoned game counts as lost.
"""

from __future__ import annotations

from termsolitaire.screens.dialogs.choice import ChoiceScreen


class ConfirmAbandonScreen(ChoiceScreen[bool]):
    """Dismisses with True (abandon) or None (keep playing)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what}?",
            ["The game in progress will count as lost."],
            [("y", "Yes, abandon", True), ("n", "No, keep playing", False)],
            default=1,
        )
