"""The stuck offer: no move leads anywhere new. Undo, restart or take a new deal."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class StuckScreen(ModalScreen[str]):
    """Dismisses with ``"undo"``, ``"restart"``, ``"new"`` or ``None`` (keep looking)."""

    CSS_PATH = "stuck.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("z", "choose('undo')", "Undo", id="stuck-undo"),
        Binding("R", "choose('restart')", "Restart", id="stuck-restart"),
        Binding("N", "choose('new')", "New deal", id="stuck-new"),
        Binding("escape", "choose('')", "Keep looking", id="stuck-close"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static("Stuck: no move leads anywhere new.", id="headline")
            with Horizontal(id="buttons"):
                yield Button("Undo (z)", id="undo", variant="primary")
                yield Button("Restart (R)", id="restart")
                yield Button("New deal (N)", id="new")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
