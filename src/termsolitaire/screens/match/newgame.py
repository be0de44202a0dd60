"""The New dialog of the lobby: who against, suits, time limit, public or private.

One row per choice, its values side by side as in the settings: ↑ ↓ choose a
row, ← → change it, Enter starts; with the mouse, a click on a value chooses it
and the Start button starts. Against a person at a table (public or
private), the computer (at a level), or hot-seat at this terminal (the second
player's name below). Suits 1 or 2, 4 as an extra; 5, 10, 15 or 20 minutes,
10 by default (RULES.md: "no limit" is for solo play only).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from termsolitaire.match import LIMITS, SUITS
from termsolitaire.match.computer import LEVELS
from termsolitaire.match.services import NewGame
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.lists import ChoiceRows, choice_at

LABEL_WIDTH = 10
KINDS = {"table": "a player (table)", "computer": "the computer", "hotseat": "hot-seat here"}

ROWS: list[tuple[str, str, tuple[Any, ...]]] = [
    ("kind", "Against", tuple(KINDS)),
    ("level", "Level", LEVELS),
    ("suits", "Suits", SUITS),
    ("minutes", "Limit", LIMITS),
    ("public", "Table", (True, False)),
]
"""(field of NewGame, label, values)."""


def value_text(name: str, value: Any) -> str:
    if name == "kind":
        return KINDS[value]
    if name == "minutes":
        return f"{value} min"
    if name == "suits":
        return f"{value}" if value != 4 else "4 (extra)"
    if name == "public":
        return "public" if value else "private"
    return str(value)


def applies(name: str, kind: str) -> bool:
    """Whether a row means anything for this kind of game."""
    return not (name == "level" and kind != "computer") and not (
        name == "public" and kind != "table"
    )


def row_text(name: str, label: str, current: Any, active: bool = True) -> Text:
    text = Text(f"{label:<{LABEL_WIDTH}}")
    values = dict((n, v) for n, _, v in ROWS)[name]
    for v in values:
        shown = value_text(name, v)
        if v == current and active:
            text.append(f"[{shown}]", style="bold reverse")
        elif v == current:
            text.append(f"({shown})", style="dim")
        else:
            text.append(f" {shown} ", style="dim")
        text.append(" ")
    return text


def value_at(name: str, column: int) -> Any | None:
    """The choice of row ``name`` drawn at ``column`` of it (:func:`row_text`), or
    None (the label, a gap).

    >>> value_at("suits", 10), value_at("suits", 15), value_at("suits", 3)
    (1, 2, None)
    """
    values = dict((n, v) for n, _, v in ROWS)[name]
    index = choice_at(LABEL_WIDTH, [value_text(name, v) for v in values], column)
    return None if index is None else values[index]


class NewGameList(ChoiceRows):
    """The rows; ← → change the highlighted one, Enter starts. A click on a choice
    chooses it, on a label it highlights the row (Textual's click started the
    game: a click on Suits' "2" opened a 1-suit table at once)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "screen.change(1)", "Next choice", id="new-next"),
        Binding("left,h", "screen.change(-1)", "Previous choice", id="new-previous"),
    ]

    def action_cursor_down(self) -> None:
        """↓ on the last row goes on to hot-seat's name field where it shows: it
        went round to the first row, and the name typed then went nowhere (the
        rows take no letters; playtest40b)."""
        guest = self.screen.query_one("#guest", Input)
        if guest.display and self.highlighted == self.option_count - 1:
            guest.focus()
            return
        super().action_cursor_down()

    def clicked_at(self, index: int, column: int) -> None:
        value = value_at(ROWS[index][0], column)
        screen = self.screen
        if value is not None and isinstance(screen, NewGameScreen):
            screen.choose(index, value)


class NewGameScreen(AsciiFrames, ModalScreen[NewGame | None]):
    """Dismisses with the :class:`NewGame` chosen, or None (Escape)."""

    CSS_PATH = "newgame.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Never mind", id="new-cancel"),
        Binding("up", "rows", "Back to the choices", show=False),
    ]

    def __init__(self, choice: NewGame | None = None) -> None:
        super().__init__()
        self.choice = choice or NewGame()

    def compose(self) -> ComposeResult:
        with Vertical(id="panel"):
            yield Static("New game", id="headline")
            yield NewGameList(
                *(Option(self.row(name, label), id=name) for name, label, _ in ROWS),
                id="rows",
            )
            yield Static("Second player's name (hot-seat)", id="guest-label")
            yield Input(self.choice.guest, placeholder="their name", max_length=32, id="guest")
            yield Static("↑ ↓ choose, ← → change, Enter start, Escape never mind", id="why")
            with Horizontal(id="new-buttons"):
                yield Button("Start", id="new-start", compact=True)
                yield Button("Never mind", id="new-never", compact=True)
        yield KeyLine()  # its own keys over the lobby's, which do nothing under it

    def row(self, name: str, label: str) -> Text:
        active = applies(name, self.choice.kind)
        value = getattr(self.choice, name)
        if name == "public" and not active:
            value = False  # the computer's and a hot-seat game's tables are private
        return row_text(name, label, value, active)

    def on_mount(self) -> None:
        rows = self.query_one(OptionList)
        rows.highlighted = 0
        rows.focus()
        self.show_guest()

    def show_guest(self) -> None:
        hotseat = self.choice.kind == "hotseat"
        self.query_one("#guest").display = hotseat
        self.query_one("#guest-label").display = hotseat

    def action_change(self, step: int) -> None:
        rows = self.query_one(OptionList)
        index = rows.highlighted
        if index is None:
            return
        name, _, values = ROWS[index]
        current = getattr(self.choice, name)
        position = values.index(current) if current in values else 0
        self.choose(index, values[(position + step) % len(values)])

    def choose(self, index: int, value: Any) -> None:
        """Row ``index`` set to ``value`` (where it applies to the kind of game)."""
        rows = self.query_one(OptionList)
        name = ROWS[index][0]
        if not applies(name, self.choice.kind):
            self.say(f"{ROWS[index][1]} is not asked for this kind of game")
            return
        self.choice = replace(self.choice, **{name: value})
        for i, (n, label, _) in enumerate(ROWS):
            rows.replace_option_prompt_at_index(i, self.row(n, label))
        self.show_guest()
        self.say("↑ ↓ choose, ← → change, Enter start, Escape never mind")

    def say(self, text: str) -> None:
        self.query_one("#why", Static).update(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "new-start":
            self.start()
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start()

    def start(self) -> None:
        choice = replace(self.choice, guest=self.query_one("#guest", Input).value.strip())
        if choice.kind == "hotseat" and not choice.guest:
            self.say("Type the second player's name, then Enter")
            self.query_one("#guest", Input).focus()
            return
        self.dismiss(choice)

    def action_rows(self) -> None:
        """↑ from the name field (or the buttons) goes back to the last row: the
        rows handle their own ↑."""
        rows = self.query_one(OptionList)
        rows.highlighted = rows.option_count - 1
        rows.focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
