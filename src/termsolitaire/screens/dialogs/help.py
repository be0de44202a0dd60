"""The help screen: every key of the board as a table, then how to play (help.md)."""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from termsolitaire.screens.dialogs.frames import AsciiFrames, Page, markdown
from termsolitaire.screens.dialogs.rulebook import RulesScreen
from termsolitaire.screens.typeahead import KeysFollowTheScreen
from termsolitaire.widgets.cards import app_look
from termsolitaire.widgets.keyline import KeyLine


def key_table(keys: list[tuple[str, str]]) -> Table:
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0), expand=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in keys:
        table.add_row(key, what)
    return table


class HelpScreen(AsciiFrames, KeysFollowTheScreen, ModalScreen[None]):
    """Escape, q or ? closes it; its key line says so (over the board's)."""

    CSS_PATH = "help.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close help", id="help-close"),
        Binding("r", "rules", "Rules", id="help-rules"),
    ]

    def __init__(
        self,
        keys: list[tuple[str, str]],
        title: str,
        game: str | None = None,
        *,
        playing: bool = True,
    ) -> None:
        super().__init__()
        self.keys = [*keys, ("r", "the rules of this game")] if game else keys
        self.heading = title
        self.game = game
        """The game whose rules ``r`` shows (None: no rules here)."""
        self.playing = playing
        """Whether "Three ways to play" follows the keys: not where nothing is
        played (a replay, watching), where it taught keys that do nothing there;
        the keys alone then take the panel's height they need."""
        self.set_class(not playing, "keys-only")

    def compose(self) -> ComposeResult:
        with Page(id="help-body"):
            yield Static(f"{self.heading}: keys", id="help-title")
            words = app_look(self).words
            yield Static(key_table([(words(k), words(w)) for k, w in self.keys]), id="help-keys")
            if self.playing:
                general = files(__package__).joinpath("help.md").read_text(encoding="utf-8")
                yield markdown(self, general)
        yield KeyLine()  # its own keys over the board's, which do nothing here

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``r`` only where there is a game's rules to show (its key line says so)."""
        return self.game is not None if action == "rules" else True

    def action_close(self) -> None:
        self.dismiss(None)

    def action_rules(self) -> None:
        if self.game is not None:
            self.app.push_screen(RulesScreen(self.game))
