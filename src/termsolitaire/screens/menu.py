"""The main menu: Resume lines for the saved games, the games, their options
(from each game's declaration: Spider's suits and time limit), the deal number.

One list holds the Resume lines and the games, so ↑ ↓ go through both; the
first line is highlighted. Enter on a Resume line continues that game; on a
game, starts it (asking first when a game of that kind is in progress).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.rule import Rule
from rich.table import Table
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, RadioButton, RadioSet
from textual.widgets.option_list import Option, OptionDoesNotExist

from termsolitaire.messages import MenuChoice
from termsolitaire.play.session import Services, describe, played, time_limit_of
from termsolitaire.rules import GameInfo, games
from termsolitaire.screens.boards import has_board
from termsolitaire.screens.dialogs.frames import AsciiFrames, radio_button, room_inside
from termsolitaire.screens.notices import tell
from termsolitaire.screens.styled import StyledOnce
from termsolitaire.screens.typeahead import KeysFollowTheScreen
from termsolitaire.storage.saves import Saved, slot
from termsolitaire.widgets.cards import app_look
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.lists import LookFirstList, ValueRow

RESUME = "resume:"
"""The id prefix of a Resume line (then the save slot)."""


def playable() -> list[GameInfo]:
    """The games that have a board, in menu order."""
    return [g for g in games() if has_board(g.name)]


def option_sets() -> list[tuple[str, str, str, tuple[int, ...], int]]:
    """The menu's option radio sets, from the games' declarations: (game, key,
    label, values, default); ``key`` is a variant key or ``time_limit``."""
    out = []
    for g in playable():
        for c in g.variants:
            out.append((g.name, c.key, f"{g.title} {c.noun}s", c.values, c.default))
        if g.time_limits:
            out.append(
                (g.name, "time_limit", f"{g.title} time limit", g.time_limits, g.time_limit_default)
            )
    return out


LABEL_WIDTH = 19
"""The option labels' column (menu.tcss; 13 where the menu is tight, the labels
wrapped)."""


SHORT = 24
"""Screen rows under which the menu drops its blank lines (menu.tcss): at 67×18,
the smallest screen a board fits, its buttons were cut off."""


def row_width(
    values: tuple[int, ...], key: str, label: int, gap: int = 2, unit: str = "minutes"
) -> int:
    """The columns an option row takes: its ``label``'s, each choice's button
    (three columns, its value with a space either side) and the ``gap`` after
    it, and the time limit's unit.

    >>> row_width((0, 5, 10, 15, 20), "time_limit", 19)
    72
    >>> row_width((0, 5, 10, 15, 20), "time_limit", 19, gap=1, unit="min")
    63
    """
    buttons = sum(5 + len(value_label(key, v)) + gap for v in values)
    return label + buttons + (len(unit) if key == "time_limit" else 0)


@dataclass(frozen=True, slots=True)
class GameLine:
    """A game's line: its name, then its blurb, which wraps under itself where
    the menu is narrow (not back under the name); as text, the line itself."""

    title: str
    blurb: str

    def __str__(self) -> str:
        return f"{self.title:<9} {self.blurb}"

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=9, no_wrap=True)
        grid.add_column()
        grid.add_row(self.title, self.blurb)
        yield grid


def value_label(key: str, value: int) -> str:
    """A choice as the menu shows it: ``none`` or the number (the row says its unit)."""
    return "none" if key == "time_limit" and not value else str(value)


class MenuScreen(StyledOnce, KeysFollowTheScreen, AsciiFrames, Screen[None]):
    CSS_PATH = "menu.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", id="menu-play", priority=False),
        Binding("r", "rules", "Rules", id="menu-rules"),
        Binding("question_mark,f1", "help", "Help", id="menu-help"),
        Binding("q", "quit", "Quit", id="menu-quit"),
        Binding("escape", "back", "Back", id="menu-back", show=False),
        Binding("s", "app.statistics", "Statistics", id="menu-statistics"),
        Binding("o", "app.settings", "Settings", id="menu-settings"),
        Binding("m", "app.match", "Match", id="menu-match"),
        Binding("d", "app.daily", "Daily", id="menu-daily"),
        Binding(
            "R",
            "restart_saved",
            "Restart",
            id="menu-restart",
            show=False,
            tooltip="on a Resume line: that deal again from the start",
        ),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.options = option_sets()
        self.saved: dict[str, Saved] = {}
        self.back_from: str | None = None
        """The save slot of the game the player just left (its line is highlighted)."""

    def on_resize(self) -> None:
        """Where the menu is narrower than its widest row (under 76 columns the
        time limit's "minutes" was cut off, under 70 its "20", and under 66 the
        Quit button), the choices and the buttons close up and the unit reads
        "min" (or nothing, under 67 columns, where only Napoleon's board fits);
        under 64 the labels wrap in a narrower column ("Spider time" over
        "limit"), or the "20" was cut again."""
        menu = self.query_one("#menu")
        room = room_inside(menu, self.size.width)
        rows = [(values, key, LABEL_WIDTH) for _, key, _, values, _ in self.options]
        narrow = any(row_width(*row) > room for row in rows)
        close = all(row_width(*row, gap=1, unit="min") <= room for row in rows)
        word = "min" if close else ""
        tight = any(row_width(*row, gap=1, unit="") > room for row in rows)
        menu.set_class(narrow, "narrow")
        menu.set_class(tight, "tight")
        menu.set_class(self.size.height < SHORT, "short")
        for unit in self.query(".option-unit").results(Label):
            unit.update(word if narrow else "minutes")

    def default(self, game: str, key: str) -> int:
        """The settings' default for an option of ``game``."""
        return self.services.settings.game_default(game, key)

    def apply_defaults(self) -> None:
        """The settings' defaults changed: show them."""
        for game, key, _, _, _ in self.options:
            value = self.default(game, key)
            self.query_one(f"#{game}-{key}-{value}", RadioButton).value = True

    async def look_changed(self) -> None:
        """The card style changed (in the settings, over the menu): the menu is
        built again in it, the player's choices, deal number and line kept."""
        pressed = {
            f"#{game}-{key}": self.query_one(f"#{game}-{key}", RadioSet).pressed_index
            for game, key, _, _, _ in self.options
        }
        deal = self.query_one("#deal", Input).value
        line = self.query_one("#games", OptionList).highlighted
        await self.built_again()
        for where, index in pressed.items():
            buttons = list(self.query_one(where, RadioSet).query(RadioButton))
            if 0 <= index < len(buttons):
                buttons[index].value = True
        self.query_one("#deal", Input).value = deal
        self.on_resize()
        self.refresh_lines()
        games = self.query_one("#games", OptionList)
        if line is not None and line < games.option_count:
            games.highlighted = line
        self.show_daily()

    def compose(self) -> ComposeResult:
        radio = radio_button(self)
        with Vertical(id="menu"):
            yield Label("termsolitaire", id="menu-title")
            yield Label("", id="menu-daily")
            # Filled from the saves when the menu shows (on_mount, on_screen_resume).
            # A click highlights a game (then its options, Play); a click on the
            # highlighted line plays it (the first click dealt Spider before its
            # suits could be chosen).
            yield LookFirstList(id="games")
            for game, key, label, values, _ in self.options:
                with Horizontal(classes="option"):
                    yield Label(label, classes="option-label")
                    with ValueRow(id=f"{game}-{key}"):
                        chosen = self.default(game, key)
                        for v in values:
                            yield radio(
                                value_label(key, v), value=v == chosen, id=f"{game}-{key}-{v}"
                            )
                    if key == "time_limit":
                        yield Label("minutes", classes="option-unit")
            with Horizontal(classes="option"):
                yield Label("Deal number", classes="option-label")
                yield Input(placeholder="random", restrict=r"\d*", max_length=20, id="deal")
            with Horizontal(id="buttons"):
                for name in ("Play", "Rules", "Help", "Statistics", "Settings", "Quit"):
                    yield Button(name, id=name.lower(), compact=True)
        yield KeyLine()

    _fresh = False
    """Mounted, and not shown yet: the saves were just read (:meth:`on_mount`)."""

    def on_mount(self) -> None:
        self.on_resize()
        self.refresh_lines()
        games = self.query_one("#games", OptionList)
        games.highlighted = 0
        games.focus()
        self.show_came_back()
        self._fresh = True
        self.call_after_refresh(self._after_first_paint)

    def _after_first_paint(self) -> None:
        """The daily line, unless the first resume has shown it (the menu as the app's
        first screen: after its first frame, which does not wait for the match store)."""
        if self._fresh:
            self._fresh = False
            self.show_daily()

    def on_screen_resume(self) -> None:
        if not self.is_mounted:
            return
        if self._fresh:  # shown for the first time: the lines are the mount's
            self._fresh = False
        else:
            self.refresh_lines()
            self.show_came_back()
        self.show_daily()

    def show_daily(self) -> None:
        """The daily most played today, under the title (``d`` opens them all);
        nothing when the match store cannot be read."""
        from termsolitaire.match import MatchError
        from termsolitaire.screens.daily import headline

        daily = getattr(self.app, "daily", lambda quiet: None)(quiet=True)
        try:
            line = headline(daily) if daily is not None else ""
        except MatchError:
            line = ""
        text = f"{line} · d: dailies" if line else ""
        self.query_one("#menu-daily", Label).update(app_look(self).words(text))

    def came_back(self, game: str, variant: dict[str, int]) -> None:
        """The player left a board of ``game``: its line is highlighted on return."""
        self.back_from = slot(game, variant)

    def show_came_back(self) -> None:
        """Back from a board: the line of the game just left (its Resume line, else
        the game) highlighted, the list focused, the deal number cleared."""
        back, self.back_from = self.back_from, None
        if back is None:
            return
        games = self.query_one("#games", OptionList)
        game = back.partition("-")[0]
        for wanted in (RESUME + back, game):
            try:
                games.highlighted = games.get_option_index(wanted)
                break
            except Exception:  # no such line (won, or left unplayed: no Resume line)
                continue
        self.query_one("#deal", Input).value = ""
        games.focus()

    def refresh_lines(self) -> None:
        """One Resume line per saved game (game and variant) that was played, then
        the games. A deal left without a move (nor one taken back) is nothing to
        resume: not listed (its game's line deals afresh, replacing it unasked, as
        :func:`~termsolitaire.play.opening.open_game` does). A broken save is kept
        aside by the storage layer and its message shown."""
        saves, problems = self.services.saves.all()
        tell(self, problems)
        names = [g.name for g in playable()]
        listed = (s for s in saves if s.game.name in names and played(s.game))
        saves = sorted(listed, key=lambda s: -s.saved_at)
        self.saved = {slot(s.game.name, s.game.variant): s for s in saves}
        games = self.query_one("#games", OptionList)
        keep = games.highlighted
        games.clear_options()
        look = app_look(self)
        lines: list[Option | None] = [
            Option(look.words(f"Resume {describe(s)}"), id=RESUME + key)
            for key, s in self.saved.items()
        ]
        if lines:
            # A separator: Textual draws it with ─, so under ASCII a line of - that
            # the cursor passes over, as over the separator.
            lines.append(
                Option(Rule(characters="-", style="none"), disabled=True) if look.ascii else None
            )
        lines += [Option(GameLine(g.title, g.blurb), id=g.name) for g in playable()]
        games.add_options(lines)
        if keep is not None and keep < games.option_count:
            games.highlighted = keep

    def highlighted(self) -> str | None:
        games = self.query_one("#games", OptionList)
        if games.highlighted is None:
            return None
        return games.get_option_at_index(games.highlighted).id

    def action_restart_saved(self) -> None:
        """R on a Resume line: that deal again from the start."""
        line = self.highlighted() or ""
        saved = self.saved.get(line.removeprefix(RESUME)) if line.startswith(RESUME) else None
        if saved is not None:
            g = saved.game
            self.post_message(MenuChoice(g.name, g.deal, dict(g.variant), time_limit_of(saved)))
        else:  # (the palette offers it anywhere; it did nothing, not a word)
            self.notify("R starts a saved game again: highlight its Resume line first")

    def choice(self) -> MenuChoice | None:
        line = self.highlighted()
        if line is None:
            return None
        text = self.query_one("#deal", Input).value.strip()
        deal = int(text) if text.isdigit() and int(text) < 1 << 64 else None
        if line.startswith(RESUME):
            # A deal number typed on a Resume line is that game's deal (asked about
            # first when the save has a move), not thrown away for the save.
            saved = self.saved[line.removeprefix(RESUME)]
            g = saved.game
            again = deal is not None
            return MenuChoice(g.name, deal, dict(g.variant), time_limit_of(saved), resume=not again)
        chosen: dict[str, int] = {}
        for game, key, _, values, default in self.options:
            if game == line:
                pressed = self.query_one(f"#{game}-{key}", RadioSet).pressed_index
                chosen[key] = values[pressed] if pressed >= 0 else default
        time_limit = chosen.pop("time_limit", 0)
        return MenuChoice(line, deal, chosen, time_limit)

    def action_play(self) -> None:
        choice = self.choice()
        if choice is not None:
            self.post_message(choice)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_play()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_play()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """The player chose a value of a game's option (by key or click: the row has
        focus): that game's line is highlighted, so that Enter plays what was just
        chosen (Spider's suits chosen with Penguin's line lit dealt Penguin)."""
        if not event.radio_set.has_focus:
            return  # the settings' defaults shown, the look changed
        self.light_game_of(event.radio_set)

    async def on_click(self, event: events.Click) -> None:
        """A click on a value already chosen changes nothing, so no ``Changed``: its
        game's line is lit here (a click on Spider's "1", then Enter, dealt the
        line lit before, Stjernen; playtest35). Tab through the rows lights
        nothing: it passes them on the way to the deal number.

        A click on the daily line under the title opens the dailies, as its
        ``d: dailies`` says ``d`` does: it did nothing (playtest40b)."""
        if event.widget is not None and event.widget.id == "menu-daily":
            if str(self.query_one("#menu-daily", Label).render()).strip():
                await self.run_action("app.daily")
            return
        for node in event.widget.ancestors_with_self if event.widget else ():
            if isinstance(node, ValueRow):
                self.light_game_of(node)
                return

    def light_game_of(self, row: RadioSet) -> None:
        """Highlight the line of the game whose option ``row`` is."""
        game = str(row.id).partition("-")[0]
        games = self.query_one("#games", OptionList)
        with contextlib.suppress(OptionDoesNotExist):
            games.highlighted = games.get_option_index(game)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        action = {"statistics": "app.statistics", "settings": "app.settings"}
        button = str(event.button.id)
        await self.run_action(action.get(button, button))

    def action_rules(self) -> None:
        """The rules of the highlighted game (of a Resume line's game too)."""
        line = self.highlighted() or ""
        if line.startswith(RESUME):
            line = self.saved[line.removeprefix(RESUME)].game.name
        from termsolitaire.screens.dialogs.rulebook import (
            RulesScreen,  # Markdown: imported when first opened
        )

        self.app.push_screen(RulesScreen(line or playable()[0].name))

    def action_help(self) -> None:
        keys = [
            ("↑ ↓", "choose a Resume line (a saved game) or a game"),
            ("Enter", "play it"),
            ("r", "the rules of the highlighted game"),
            ("R", "on a Resume line: that deal again from the start"),
            ("Tab", "go to the options, the deal number and the buttons"),
            ("← →", "on an option: choose the value beside (↑ ↓ the row above, below)"),
            ("s o", "statistics, settings"),
            ("m", "the Spider match lobby: the same deal against the computer or a person"),
            ("d", "the daily deals (one attempt a day, everyone the same deal) and leaderboards"),
            ("? F1", "this help"),
            ("q", "quit (back to the match lobby when opened from it)"),
            # (Opened from the lobby, as every SSH login: Escape goes back to it.)
            ("Escape", f"back to {self.back_to()} (never quits)"),
        ]
        from termsolitaire.screens.dialogs.help import (
            HelpScreen,  # Markdown: imported when first opened
        )

        self.app.push_screen(HelpScreen(keys, "Menu"))

    def action_quit(self) -> None:
        """Leave (after a question when a match game is running); opened from the
        match lobby, back to it."""
        if self.over_lobby:
            self.app.pop_screen()
        else:
            self.app.quit_app()  # type: ignore[attr-defined]

    @property
    def over_lobby(self) -> bool:
        """Whether the menu was opened from the match lobby (as at every SSH login):
        q and Escape go back to it."""
        return len(self.app.screen_stack) > 2

    def back_to(self) -> str:
        """Where Escape goes: the match lobby the menu was opened from, else the
        list of games."""
        return "the match lobby" if self.over_lobby else "the list of games"

    def action_back(self) -> None:
        """Escape: back to the list of games (opened from the lobby: back to it);
        never quits."""
        if self.over_lobby:
            self.app.pop_screen()
            return
        self.query_one("#deal", Input).value = ""
        self.query_one("#games", OptionList).focus()
