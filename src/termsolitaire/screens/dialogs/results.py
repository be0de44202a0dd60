"""The results panel of a solo game: won, time up, or ended with End.

Score, runs completed (Spider), moves and the time used; New deal or Quit;
``s`` shares the game as codes (:mod:`.share`).
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
from termsolitaire.rules import Game
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.screens.dialogs.unasked import Unasked
from termsolitaire.widgets.keyline import KeyLine


class ResultsScreen(Unasked, AsciiFrames, ModalScreen[str]):
    """Dismisses with ``"new"`` or ``"quit"`` (back to the menu, where every solo
    board is opened from; ``None``: Escape, look at the board). Opens by
    itself: its buttons wait a moment (:mod:`.unasked`).

    ``runs`` is shown when the game counts completed runs (Spider)."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New deal", id="results-new"),
        Binding("q", "choose('quit')", "Menu", id="results-quit"),
        Binding("s", "share", "Share", id="results-share"),
        Binding("escape", "choose('')", "Look at the board", id="results-close"),
    ]

    def __init__(
        self,
        headline: str,
        score: int,
        moves: int,
        seconds: int,
        *,
        runs: int | None = None,
        game: Game | None = None,
    ) -> None:
        super().__init__()
        self.game = game if game is not None and game.history else None
        """The game, for Share (``s``); None: nothing to share (a clock that ran
        out before the first move leaves a game with nothing to replay)."""
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
        text = "\n".join(f"{name:<10} {value}" for name, value in rows)
        return text + ("\n\ns shares this game as a code" if self.game is not None else "")

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static(self.headline, id="headline")
            yield Static(self.figures_text(), id="figures")
            with Horizontal(id="buttons"):
                yield Button("New deal (n)", id="new", variant="primary")
                yield Button("Menu (q)", id="quit")
        # Its own keys over the board's (which do nothing under the panel): Escape
        # looks at the board, which the panel does not say.
        yield KeyLine()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not self.too_soon(event):  # (an Enter meant for the board's last move)
            self.dismiss(event.button.id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.game is not None if action == "share" else True

    def action_share(self) -> None:
        """``s``: the game as share codes (:mod:`.share`)."""
        from termsolitaire.screens.dialogs.share import ShareScreen

        if self.game is not None:
            self.app.push_screen(ShareScreen(self.game))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
