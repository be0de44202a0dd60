"""The results panel: won, or the clock ran out. Score, moves, time; New deal or Quit."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ResultsScreen(ModalScreen[str]):
    """Dismisses with ``"new"`` or ``"quit"`` (``None``: Escape, look at the board)."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New deal", id="results-new"),
        Binding("q", "choose('quit')", "Quit", id="results-quit"),
        Binding("escape", "choose('')", "Look at the board", id="results-close"),
    ]

    def __init__(self, headline: str, score: int, moves: int, seconds: int) -> None:
        super().__init__()
        self.headline = headline
        self.score = score
        self.moves = moves
        self.seconds = seconds

    def compose(self) -> ComposeResult:
        m, s = divmod(self.seconds, 60)
        with Vertical(id="panel"):
            yield Static(self.headline, id="headline")
            yield Static(
                f"Score  {self.score}\nMoves  {self.moves}\nTime   {m}:{s:02d}", id="figures"
            )
            with Horizontal(id="buttons"):
                yield Button("New deal (n)", id="new", variant="primary")
                yield Button("Quit (q)", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
