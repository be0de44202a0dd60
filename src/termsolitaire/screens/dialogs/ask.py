"""A one-line question: a player's name, a table's code.

The lobby hands it what to do with the answer (``submit``): the store's
refusal comes back as one line under the input, the question stays open and
nothing has changed; a good answer closes it. Escape: never mind. What would
make the answer longer than it may be (a 10 kB paste, a key at the limit) is
refused whole, and the line under the input says so (over SSH the bell the
input rings instead may never be heard).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine

Submit = Callable[[str], str | None]
"""Does what the answer asks; returns why not (the dialog stays open), or None."""


WHY = "Enter: go; Escape: never mind"


class Answer(Input):
    """The answer's input: a refusal is said, not only rung; its Enter is named on
    the key line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Go", id="ask-go"),
    ]

    def restricted(self) -> None:
        super().restricted()
        if isinstance(self.screen, AskScreen):
            self.screen.too_long()


class LinesInput(Answer):
    """An input that takes a paste of several lines whole, joined by spaces: a
    share code copied from the share panel at 80 columns spans two or more
    lines, and a plain input keeps the first only (the codes ignore spaces)."""

    def _on_paste(self, event: events.Paste) -> None:
        joined = " ".join(line.strip() for line in event.text.splitlines() if line.strip())
        if joined:
            super()._on_paste(events.Paste(joined))
        event.stop()
        event.prevent_default()  # not Input's own paste too (Textual calls each class's)


class AskScreen(AsciiFrames, ModalScreen[str | None]):
    """Dismisses with the accepted answer, or None (Escape)."""

    CSS_PATH = "ask.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Never mind", id="ask-cancel"),
    ]

    def __init__(
        self,
        question: str,
        submit: Submit,
        *,
        placeholder: str = "",
        value: str = "",
        max_length: int = 64,
        lines: bool = False,
    ) -> None:
        super().__init__()
        self.question = question
        self.submit = submit
        self.placeholder = placeholder
        self.value = value
        self.max_length = max_length
        """The longest answer taken (a name, a table's code; a share code is longer)."""
        self.lines = lines
        self.refused = False
        """The line under the input says the last key or paste was too long."""
        """A paste of several lines is taken whole, joined by spaces (a share code
        copied over the lines it was shown on); else its first line only."""

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static(self.question, id="question")
            yield (LinesInput if self.lines else Answer)(
                self.value, placeholder=self.placeholder, max_length=self.max_length, id="answer"
            )
            yield Static(WHY, id="why")
        yield KeyLine()  # its own keys over the lobby's, which type into the answer here

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        why = self.submit(text)
        if why:
            self.query_one("#why", Static).update(why)
            return
        self.dismiss(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.refused:  # what went in since is taken
            self.refused = False
            self.query_one("#why", Static).update(WHY)

    def too_long(self) -> None:
        self.refused = True
        self.query_one("#why", Static).update(
            f"Too long (at most {self.max_length} characters): nothing was put in"
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
