"""Asking before End: the player's game ends now, with the score it has.

``y`` ends the game; ``n``, Escape and Enter play on (Enter is the safe
answer, as for abandoning: a reflexive Enter after a stray ``e`` never ends a
game). In a match the opponent's game goes on; ending cannot be taken back.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine


class ConfirmEndScreen(AsciiFrames, ModalScreen[bool]):
    """Dismisses with True (end the game now) or False (play on)."""

    CSS_PATH = "confirm_end.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes, end it", id="end-yes"),
        Binding("n,escape,enter", "answer(False)", "No, play on", id="end-no"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static("End this game now?", id="headline")
            yield Static(self.what, id="what")
            yield Static("y: end it    n / Escape / Enter: play on", id="keys")
        yield KeyLine()  # its own keys over the board's, which do nothing under it

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
