"""The results panel of a solo game: won, time up, or ended with End.

Score, runs completed (Spider), moves and the time used; New deal or Quit.
A match has its own panel with both players (:mod:`.match_results`).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from termsolitaire.play.session import clock_text
from termsolitaire.screens.dialogs.frames import AsciiFrames


class ResultsScreen(AsciiFrames, ModalScreen[str]):
    """Dismisses with ``"new"`` or ``"quit"`` (back to where the board was opened
    from: the menu, the lobby; ``None``: Escape, look at the board).

    ``runs`` is shown when the game counts completed runs (Spider)."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New deal", id="results-new"),
        Binding("q", "choose('quit')", "Back", id="results-quit"),
        Binding("escape", "choose('')", "Look at the board", id="results-close"),
    ]

    def __init__(
        self, headline: str, score: int, moves: int, seconds: int, *, runs: int | None = None
    ) -> None:
        super().__init__()
        self.headline = headline
        self.score = score
        self.runs = runs
        self.moves = moves
        self.seconds = seconds

    def figures_text(self) -> str:
        rows = [("Score", str(self.score))]
        if self.runs is not None:
            rows.append(("Runs", f"{self.runs} of 8"))
        rows += [("Moves", str(self.moves)), ("Time used", clock_text(self.seconds))]
        return "\n".join(f"{name:<10} {value}" for name, value in rows)

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static(self.headline, id="headline")
            yield Static(self.figures_text(), id="figures")
            with Horizontal(id="buttons"):
                yield Button("New deal (n)", id="new", variant="primary")
                yield Button("Back (q)", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
