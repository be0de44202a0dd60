"""Hot-seat: the first player's game is over; the second player takes the keyboard.

No figure of the first game is shown: its result stays hidden until the
second player has played the same deal. Enter starts the second player's game
(their clock starts with it); Escape goes back to the lobby, where Enter on the
table hands over later.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from termsolitaire.match import Player
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine


class HandOverScreen(AsciiFrames, ModalScreen[bool]):
    """Dismisses with True (the second player starts now) or False (later)."""

    CSS_PATH = "handover.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", "Start", id="handover-start"),
        Binding("escape", "answer(False)", "Later", id="handover-later"),
    ]

    def __init__(self, first: Player, second: Player, reason: str | None = None) -> None:
        super().__init__()
        self.first = first
        self.second = second

    def compose(self) -> ComposeResult:
        first, second = self.first.name, self.second.name
        with Vertical(id="panel"):
            yield Static(f"{first}'s game is over", id="headline")
            yield Static(
                f"Its result stays hidden until {second} has played the same deal.\n\n"
                f"{second}: take the keyboard. Your clock starts when you press Enter."
            )
            yield Static("Enter: start    Escape: later (back to the lobby)", id="keys")
        yield KeyLine()  # its two keys, on the foot line as on every other screen

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
