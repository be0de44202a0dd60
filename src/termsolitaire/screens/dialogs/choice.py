"""A question with a few answers, each on a key and a button: the one dialog shape.

The stuck offer, "abandon this game?", "resume, abandon or keep it?" and "this
game is open elsewhere" are all a :class:`ChoiceScreen`: a headline, a few
lines, and answers. Escape gives ``None`` (nothing chosen, nothing changes).
Its key line names each answer's key and Escape (the board's line, which
showed through below the panel, named keys that do nothing there).
"""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from termsolitaire import textual_hooks
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine

T = TypeVar("T")


class ChoiceScreen(AsciiFrames, ModalScreen[T | None], Generic[T]):
    """``answers``: (key, label, value) each; ``default`` (the first unless said)
    is the one Enter gives, shown as the primary button and focused;
    ``escape``: what Escape does, in the key line's words."""

    CSS_PATH = "choice.tcss"
    BINDINGS: ClassVar[list[BindingType]] = []
    """None of its own: the answers' keys, then Escape, are bound as it is made
    (:meth:`__init__`), in the order the key line shows them."""

    def __init__(
        self,
        headline: str,
        lines: list[str],
        answers: list[tuple[str, str, T]],
        default: int = 0,
        escape: str = "Never mind",
        **kw: str,
    ) -> None:
        super().__init__(**kw)
        self.headline = headline
        self.lines = lines
        self.answers = answers
        self.default = default
        for n, (key, label, _) in enumerate(answers):
            textual_hooks.bind_key(self, key, f"answer({n})", label)
        textual_hooks.bind_key(self, "escape", "cancel", escape)

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static(self.headline, id="headline")
            for line in self.lines:
                yield Static(line, classes="line")
            with Horizontal(id="buttons"):
                for n, (key, label, _) in enumerate(self.answers):
                    yield Button(
                        f"{label} ({key})",
                        id=self._button_id(n),
                        variant="primary" if n == self.default else "default",
                        compact=True,
                    )
        yield KeyLine()  # its own keys over the board's, which do nothing under it

    def _button_id(self, n: int) -> str:
        """The answer's value when it is a word (``#undo``), else ``answer-N``."""
        value = self.answers[n][2]
        return value if isinstance(value, str) and value.isidentifier() else f"answer-{n}"

    def on_mount(self) -> None:
        self.query_one(f"#{self._button_id(self.default)}", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ids = [self._button_id(n) for n in range(len(self.answers))]
        self.action_answer(ids.index(str(event.button.id)))

    def action_answer(self, index: int) -> None:
        self.dismiss(self.answers[index][2])

    def action_cancel(self) -> None:
        self.dismiss(None)
