"""The main menu: the four games, Spider's suits and time limit, the deal number."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, RadioButton, RadioSet
from textual.widgets.option_list import Option

from termsolitaire.messages import MenuChoice
from termsolitaire.rules import GameInfo, games
from termsolitaire.session import Services, describe, time_limit_of
from termsolitaire.storage.saves import Saved

from .boards import has_board
from .help import HelpScreen


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


def value_label(key: str, value: int) -> str:
    return GameInfo.limit_text(value) if key == "time_limit" else str(value)


class MenuScreen(Screen[None]):
    CSS_PATH = "menu.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", id="menu-play", priority=False),
        Binding("question_mark,f1", "help", "Help", id="menu-help"),
        Binding("escape", "quit", "Quit", id="menu-quit"),
        Binding("s", "app.statistics", "Statistics", id="menu-statistics"),
        Binding("o", "app.settings", "Settings", id="menu-settings"),
        Binding("R", "restart_saved", "Restart", id="menu-restart", show=False),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.options = option_sets()
        self.saved: dict[str, Saved] = {}

    def default(self, game: str, key: str) -> int:
        """The settings' default for an option of ``game``."""
        return self.services.settings.game_default(game, key)

    def apply_defaults(self) -> None:
        """The settings' defaults changed: show them."""
        for game, key, _, _, _ in self.options:
            value = self.default(game, key)
            self.query_one(f"#{game}-{key}-{value}", RadioButton).value = True

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Label("termsolitaire", id="menu-title")
            # Filled from the saves when the menu shows (on_mount, on_screen_resume).
            yield OptionList(id="resume")
            yield OptionList(
                *(Option(f"{g.title:<9} {g.blurb}", id=g.name) for g in playable()),
                id="games",
            )
            with Horizontal(id="options"):
                for game, key, label, values, _ in self.options:
                    with Vertical():
                        yield Label(label)
                        with RadioSet(id=f"{game}-{key}"):
                            chosen = self.default(game, key)
                            for v in values:
                                yield RadioButton(
                                    value_label(key, v), value=v == chosen, id=f"{game}-{key}-{v}"
                                )
                with Vertical():
                    yield Label("Deal number")
                    yield Input(placeholder="random", restrict=r"\d*", max_length=19, id="deal")
            with Horizontal(id="buttons"):
                yield Button("Play", id="play", variant="primary")
                yield Button("Help", id="help")
                yield Button("Statistics", id="statistics")
                yield Button("Settings", id="settings")
                yield Button("Quit", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.highlighted = 1
        games.focus()
        if self.refresh_resume():
            self.query_one("#resume", OptionList).focus()

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.refresh_resume()

    def refresh_resume(self) -> bool:
        """One Resume line per game that has a save; whether there is any.
        A broken save is kept aside by the storage layer and its message shown."""
        self.saved = {}
        for g in playable():
            name = g.name
            saved, problem = self.services.saves.load(name)
            if problem:
                self.notify(problem, severity="warning", timeout=10)
            if saved is not None:
                self.saved[name] = saved
        resume = self.query_one("#resume", OptionList)
        resume.clear_options()
        resume.add_options(
            Option(f"Resume {describe(saved)}", id=name) for name, saved in self.saved.items()
        )
        resume.display = bool(self.saved)
        if self.saved:
            resume.highlighted = 0
        return bool(self.saved)

    def action_restart_saved(self) -> None:
        """R on a Resume line: that deal again from the start (the saved game is abandoned)."""
        resume = self.query_one("#resume", OptionList)
        if not resume.has_focus or resume.highlighted is None:
            return
        name = resume.get_option_at_index(resume.highlighted).id
        saved = self.saved.get(name or "")
        if saved is None:
            return
        g = saved.game
        self.post_message(MenuChoice(g.name, g.deal, dict(g.variant), time_limit_of(saved)))

    def choice(self) -> MenuChoice | None:
        games = self.query_one("#games", OptionList)
        if games.highlighted is None:
            return None
        option = games.get_option_at_index(games.highlighted)
        if option.id is None:
            return None
        name = option.id
        text = self.query_one("#deal", Input).value.strip()
        deal = int(text) if text.isdigit() and int(text) < 1 << 64 else None
        chosen: dict[str, int] = {}
        for game, key, _, values, default in self.options:
            if game == name:
                pressed = self.query_one(f"#{game}-{key}", RadioSet).pressed_index
                chosen[key] = values[pressed] if pressed >= 0 else default
        time_limit = chosen.pop("time_limit", 0)
        return MenuChoice(name, deal, chosen, time_limit)

    def action_play(self) -> None:
        choice = self.choice()
        if choice is not None:
            self.post_message(choice)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "resume" and event.option.id is not None:
            self.post_message(MenuChoice(event.option.id, None, {}, resume=True))
            return
        self.action_play()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_play()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        action = {"statistics": "app.statistics", "settings": "app.settings"}
        button = str(event.button.id)
        await self.run_action(action.get(button, button))

    def action_help(self) -> None:
        keys = [
            ("↑ ↓", "choose a game, or a Resume line (a saved game)"),
            ("R", "on a Resume line: that deal again from the start"),
            ("Tab", "go to the options, the deal number and the buttons"),
            ("Enter", "play the chosen game"),
            ("? F1", "this help"),
            ("Escape", "quit"),
        ]
        self.app.push_screen(HelpScreen(keys, "Menu"))

    def action_quit(self) -> None:
        self.app.exit(0)
