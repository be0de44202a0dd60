"""The settings screen: one row per setting, its choices side by side.

↑ ↓ choose a setting, ← → (or Enter, Space, a click) change it. A change
applies at once (card look on every open board, the theme, the menu's Spider
defaults, mouse reporting) and is saved at once; a file that cannot be written
gives a message on the screen and play goes on with the change in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from termsolitaire import textual_hooks
from termsolitaire.messages import SettingChanged
from termsolitaire.play.session import Services
from termsolitaire.rules import GameInfo, games
from termsolitaire.screens.dialogs.frames import AsciiFrames, ascii_look
from termsolitaire.screens.typeahead import KeysFollowTheScreen, TypeAheadMixin
from termsolitaire.storage.settings import Settings, choices
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.lists import ChoiceRows, choice_at

GENERAL_ROWS: list[tuple[str, str, str]] = [
    ("card_style", "Card style", "draw cards with box-drawing and suit glyphs, or ASCII only"),
    ("four_colour", "Four-colour deck", "♠ black ♥ red ♦ blue ♣ green, or two colours"),
    ("theme", "Theme", "the colours of panels, menus and text"),
    (
        "target_marks",
        "Target marks",
        "mark where the card in hand may go, or only name the places on the status line",
    ),
    ("confirm_abandon", "Confirm abandoning", "ask before leaving a game in progress"),
    ("mouse", "Mouse", "click and drag cards; off leaves the terminal's own selection"),
    (
        "winnable_only",
        "Winnable deals only",
        "new random deals: only ones the solver proves winnable",
    ),
    (
        "fair_hints",
        "Fair hints",
        "Spider, Stjernen: hints see only the cards you see (a match gives none)",
    ),
]


def rows() -> list[tuple[str, str, str]]:
    """Every row: the general settings, then each game's menu defaults (from its
    declaration: its variants, and its time limit when it has one)."""
    out = list(GENERAL_ROWS[:3])
    for g in games():
        for c in g.variants:
            out.append(
                (f"{g.name}.{c.key}", f"{g.title} {c.noun}s", f"the menu's default {c.help}")
            )
        if g.time_limits:
            out.append(
                (
                    f"{g.name}.time_limit",
                    f"{g.title} time limit",
                    f"the menu's default minutes on {g.title}'s clock",
                )
            )
    return out + GENERAL_ROWS[3:]


FAIR_HINTS_WORDS = {
    True: "hints see only the cards you see",
    False: "hints see every card (a match gives no hints at all)",
}
"""What the setting "Fair hints" on and off mean, once saved (this screen's note,
the command palette's toast)."""

NAMES = {"unicode": "Unicode", "ascii": "ASCII"}
LABEL_WIDTH = 20
CHOICES_WIDTH = 52


def value_text(name: str, value: Any) -> str:
    if name.endswith(".time_limit"):
        return GameInfo.limit_text(value)
    if name in (
        "four_colour",
        "target_marks",
        "mouse",
        "winnable_only",
        "solver_help",
        "fair_hints",
    ):
        return "on" if value else "off"
    if name == "confirm_abandon":
        return "yes" if value else "no"
    return NAMES.get(str(value), str(value))


def row_text(name: str, label: str, current: Any, ascii_only: bool = False) -> Text:
    """``Card style   [Unicode]  ASCII``: every choice, the current one marked;
    only ``‹ current ›`` (``< current >`` in ASCII) when the choices do not fit."""
    text = Text(f"{label:<{LABEL_WIDTH}}")
    values = choices(name)
    if sum(len(value_text(name, v)) + 3 for v in values) > CHOICES_WIDTH:
        left, right = "<>" if ascii_only else "‹›"
        text.append(f"{left} {value_text(name, current)} {right}", style="bold reverse")
        return text
    for v in values:
        shown = value_text(name, v)
        if v == current and type(v) is type(current):
            text.append(f"[{shown}]", style="bold reverse")
        else:
            text.append(f" {shown} ", style="dim")
        text.append(" ")
    return text


def value_at(name: str, current: Any, column: int) -> Any | None:
    """The choice of setting ``name`` drawn at ``column`` of its row
    (:func:`row_text`), None off every choice (on the label); on ``‹ current ›``,
    the one before (on ‹) or after it.

    >>> value_at("spider.time_limit", 0, 53)  # "[none]  5 min   10 min   15 min   20 min"
    20
    >>> value_at("spider.time_limit", 0, 52) is None  # between two choices
    True
    >>> value_at("spider.time_limit", 0, 3) is None  # on the label
    True
    """
    values = choices(name)
    position = values.index(current) if current in values else 0
    if column < LABEL_WIDTH:
        return None
    if sum(len(value_text(name, v)) + 3 for v in values) > CHOICES_WIDTH:
        if column >= LABEL_WIDTH + len(value_text(name, current)) + 4:
            return None
        return values[(position + (-1 if column == LABEL_WIDTH else 1)) % len(values)]
    index = choice_at(LABEL_WIDTH, [value_text(name, v) for v in values], column)
    return None if index is None else values[index]


class SettingsList(ChoiceRows):
    """The list of settings; ← → change the highlighted one (bound here, not on the
    screen, so they queue behind ↑ ↓ and the list's own sideways scrolling). A
    click on a choice chooses it; on the label, it only highlights the row
    (Textual's click changed the setting to its next choice wherever it fell:
    "20 min" clicked gave 5 min, and a click to read a row's help changed it)."""

    def clicked_at(self, index: int, column: int) -> None:
        screen = self.screen
        if isinstance(screen, SettingsScreen):
            screen.clicked(index, column)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "screen.change(1)", "Next choice", id="settings-next"),
        Binding("left,h", "screen.change(-1)", "Previous choice", id="settings-previous"),
    ]


class SettingsScreen(KeysFollowTheScreen, TypeAheadMixin, AsciiFrames, Screen[None]):
    CSS_PATH = "settings.tcss"
    AUTO_FOCUS = "#settings-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,Q,q", "close", "Back", id="settings-close"),
    ]

    def __init__(
        self, services: Services, fair_held: Callable[[], str | None] = lambda: None
    ) -> None:
        super().__init__()
        self.services = services
        self.fair_held = fair_held
        """Why fair hints cannot be turned off now (a match or a daily attempt on
        a board of the app: :meth:`SolitaireApp.fair_hints_held`), or None."""
        self.rows = rows()

    def compose(self) -> ComposeResult:
        with Vertical(id="settings"):
            yield Label("Settings", id="settings-title")
            yield SettingsList(
                *(Option(self.row(name, label), id=name) for name, label, _ in self.rows),
                id="settings-list",
            )
            yield Static("", id="settings-help")
            yield Static("", id="settings-note")
        yield KeyLine()

    @property
    def settings(self) -> Settings:
        return self.services.settings

    def row(self, name: str, label: str) -> Text:
        return row_text(name, label, self.settings.get(name), ascii_look(self))

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()
        self.show_help(0)
        arrows = "Left Right" if ascii_look(self) else "← →"
        self.note(f"{arrows} Enter change the setting; changes apply and are saved at once")

    noted = ""
    """The note under the list (kept when the screen is built again)."""

    def note(self, text: str) -> None:
        self.noted = text
        self.query_one("#settings-note", Static).update(text)

    async def look_changed(self) -> None:
        """The card style changed here: the screen is built again in it (its frame,
        the theme's ‹ ›), on the same row and with the same note."""
        index = self.query_one(OptionList).highlighted
        await self.built_again()
        options = self.query_one(OptionList)
        options.highlighted = index
        options.focus()
        self.show_help(index)
        self.note(self.noted)

    def show_help(self, index: int | None) -> None:
        text = self.rows[index][2] if index is not None else ""
        self.query_one("#settings-help", Static).update(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_help(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_change(1)

    def clicked(self, index: int, column: int) -> None:
        """A click on row ``index``, ``column`` cells into it: the choice there."""
        name, _, _ = self.rows[index]
        value = value_at(name, self.settings.get(name), column)
        if value is not None:
            self.choose(index, value)

    def action_change(self, step: int) -> None:
        options = self.query_one(OptionList)
        index = options.highlighted
        if index is None:
            return
        name, _, _ = self.rows[index]
        values = choices(name)
        current = self.settings.get(name)
        position = values.index(current) if current in values else 0
        self.choose(index, values[(position + step) % len(values)])

    def choose(self, index: int, value: Any) -> None:
        """Setting ``index`` set to ``value``, shown, saved and put into effect;
        fair hints stay on while a match or a daily attempt is under way (the
        note says so, as the palette's entry does)."""
        options = self.query_one(OptionList)
        name, label, _ = self.rows[index]
        if name == "fair_hints" and not value and (held := self.fair_held()):
            self.note(held)
            return
        self.settings.set(name, value)
        options.replace_option_prompt_at_index(index, self.row(name, label))
        failed = self.services.save_settings(name)
        self.note(failed or self.saved_note(name))
        self.post_message(SettingChanged(name))

    def saved_note(self, name: str) -> str:
        """What the player is told once setting ``name`` is saved (the app applies it)."""
        if name in ("card_style", "four_colour"):
            return "Saved; open boards redrawn"
        if name == "theme":
            return f"Saved; theme {self.settings.theme}"
        if "." in name:
            return "Saved; the menu's options follow"
        if name == "fair_hints":
            return f"Saved; {FAIR_HINTS_WORDS[self.settings.fair_hints]}"
        return "Saved"

    def action_close(self) -> None:
        self.app.pop_screen()


def set_mouse(app: Any, on: bool) -> str:
    """Turn the terminal's mouse reporting on or off now, where the driver allows it."""
    now = textual_hooks.set_mouse(app, on)
    return "mouse " + ("on" if on else "off") + (" now" if now else " from the next start")
