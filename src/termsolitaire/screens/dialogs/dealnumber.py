"""The deal-number prompt (``#`` on a board): type a number, Enter plays that deal.

Anything but a whole number from 0 to 18446744073709551615 is refused with a message and the
prompt stays open; Escape leaves the game as it is. Its own key line says so
(the board's showed through it, keys that type into the prompt here).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.screens.typeahead import TypeAheadMixin
from termsolitaire.widgets.keyline import KeyLine

LIMIT = 1 << 64
RANGE = f"a whole number from 0 to {LIMIT - 1}"


def parse_deal(text: str) -> tuple[int | None, str]:
    """The deal number in ``text``, or None and why not."""
    text = text.strip()
    if not text:
        return None, "Type a deal number (Escape: never mind)"
    if not text.isdigit() or not text.isascii():
        return None, f"A deal number is {RANGE}, not {text!r}"
    value = int(text)
    if value >= LIMIT:
        return None, f"A deal number is {RANGE}"
    return value, ""


class DealInput(Input):
    """The number's input, its Enter named on the key line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Play that deal", id="deal-number-play"),
    ]


class DealNumberScreen(AsciiFrames, TypeAheadMixin, ModalScreen[int | None]):
    """Dismisses with the deal number, or None (Escape). Digits typed with the ``#``
    in one burst land in its input (:mod:`.typeahead`)."""

    CSS_PATH = "dealnumber.tcss"
    AUTO_FOCUS = "#deal-input"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Never mind", id="deal-number-cancel"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.game_title = title

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static(f"{self.game_title}: play deal number", id="headline")
            yield DealInput(
                placeholder="a whole number: 0, 5, 123456…", max_length=24, id="deal-input"
            )
            yield Static("Enter: play that deal; Escape: never mind", id="why")
        yield KeyLine()  # its own keys over the board's, which do nothing under it

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        deal, why = parse_deal(event.value)
        if deal is None:
            self.query_one("#why", Static).update(why)
            return
        self.dismiss(deal)

    def action_cancel(self) -> None:
        self.dismiss(None)
