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
from termsolitaire.session import describe
from termsolitaire.storage.saves import Saved

from .help import HelpScreen

GAMES = [
    ("stjernen", "Stjernen", "the star: rings of piles round a centre, six rounds of stock", True),
    ("penguin", "Penguin", "seven columns, a flipper of seven cells, the beak rank", True),
    ("spider", "Spider", "ten piles, build K to A in suit; against the clock", True),
    ("napoleon", "Napoleon", "sixteen piles in a circle round the four aces", True),
]
SUITS = (1, 2, 4)
LIMITS = (0, 5, 10, 15, 20)


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

    @property
    def defaults(self) -> tuple[int, int]:
        """Spider's suits and time limit from the settings (1 and none without them)."""
        settings = getattr(self.app, "settings", None)
        return (
            getattr(settings, "spider_suits", 1) if settings else 1,
            getattr(settings, "spider_time_limit", 0) if settings else 0,
        )

    def apply_defaults(self) -> None:
        """The settings' Spider defaults changed: show them."""
        suits, limit = self.defaults
        self.query_one(f"#suits-{suits}", RadioButton).value = True
        self.query_one(f"#limit-{limit}", RadioButton).value = True

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Label("termsolitaire", id="menu-title")
            # Filled from the saves when the menu shows (on_mount, on_screen_resume).
            yield OptionList(id="resume")
            yield OptionList(
                *(
                    Option(f"{title:<9} {text}", id=name, disabled=not ready)
                    for name, title, text, ready in GAMES
                ),
                id="games",
            )
            with Horizontal(id="options"):
                with Vertical():
                    yield Label("Spider suits")
                    with RadioSet(id="suits"):
                        for s in SUITS:
                            yield RadioButton(str(s), value=s == self.defaults[0], id=f"suits-{s}")
                with Vertical():
                    yield Label("Spider time limit")
                    with RadioSet(id="limit"):
                        for t in LIMITS:
                            yield RadioButton(
                                f"{t} min" if t else "none",
                                value=t == self.defaults[1],
                                id=f"limit-{t}",
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
        self.saved: dict[str, Saved] = {}
        saves = getattr(self.app, "saves", None)
        for name, *_ in GAMES if saves is not None else ():
            saved, problem = saves.load(name)
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
        limit = saved.options.get("time_limit", 0)
        g = saved.game
        self.post_message(
            MenuChoice(g.name, g.deal, dict(g.variant), limit if isinstance(limit, int) else 0)
        )

    def choice(self) -> MenuChoice | None:
        games = self.query_one("#games", OptionList)
        if games.highlighted is None:
            return None
        option = games.get_option_at_index(games.highlighted)
        if option.disabled or option.id is None:
            return None
        suits = self.query_one("#suits", RadioSet).pressed_index
        limit = self.query_one("#limit", RadioSet).pressed_index
        text = self.query_one("#deal", Input).value.strip()
        deal = int(text) if text.isdigit() and int(text) < 1 << 64 else None
        variant = {"suits": SUITS[max(suits, 0)]} if option.id == "spider" else {}
        time_limit = LIMITS[max(limit, 0)] if option.id == "spider" else 0
        return MenuChoice(option.id, deal, variant, time_limit)

    def action_play(self) -> None:
        choice = self.choice()
        if choice is None:
            self.notify("That game opens in a later version", severity="warning")
            return
        self.post_message(choice)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "resume" and event.option.id is not None:
            self.post_message(MenuChoice(event.option.id, None, {}, resume=True))
            return
        self.action_play()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_play()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {
            "play": self.action_play,
            "help": self.action_help,
            "quit": self.action_quit,
            "statistics": self.app.action_statistics,  # type: ignore[attr-defined]
            "settings": self.app.action_settings,  # type: ignore[attr-defined]
        }[str(event.button.id)]()

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
