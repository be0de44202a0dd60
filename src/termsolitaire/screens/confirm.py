"""Asking before a game in progress is abandoned (the ``confirm_abandon`` setting).

``y`` or Enter abandons, ``n`` or Escape keeps playing. Shown only when the game
on the board has a move and is not finished: an abandoned game counts as lost.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmAbandonScreen(ModalScreen[bool]):
    """Dismisses with True (abandon) or False (keep playing)."""

    CSS_PATH = "confirm.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes, abandon", id="confirm-yes"),
        Binding("n,escape", "answer(False)", "No, keep playing", id="confirm-no"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static(f"{self.what}?", id="headline")
            yield Static("The game in progress will count as lost.")
            yield Static("y / Enter: yes    n / Escape: keep playing", id="keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
