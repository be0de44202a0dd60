"""The daily deals and their leaderboards (from the menu and the lobby: ``d``).

A list of every game's daily (each Spider suit count has its own) with how many
players won it so far and where this player stands; below it the highlighted
daily's leaderboard: today's (``t``), this week's (``w``) or all-time records
(``a``); ``[`` and ``]`` step through the days. Enter starts the daily, or
resumes it: its board is the game's own with the daily's policy
(:data:`~termsolitaire.play.modes.DAILY`: no pause, restart or hints), every
action kept in the match store first.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from termsolitaire.board_table import board_table
from termsolitaire.match import MatchError
from termsolitaire.match.daily import Attempt, Board, Daily, dailies, title_of, variant_key
from termsolitaire.play.modes import DAILY
from termsolitaire.play.session import GameSession
from termsolitaire.play.tables import DailyTable
from termsolitaire.screens.boards.registry import board_class
from termsolitaire.screens.dialogs import results as results_module
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.widgets.cards import CardLook, app_look
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.line import TextLine
from termsolitaire.widgets.lists import LookFirstList

if TYPE_CHECKING:
    from termsolitaire.screens.boards.board import BoardScreen

    _Board = BoardScreen
else:
    _Board = object


def headline(daily: Daily) -> str:
    """The daily most played today, for the menu and the lobby: ``Daily: Penguin ·
    3 of 41 players won so far`` (the first game's when nobody has played yet)."""
    played = daily.played_today()  # one query: the menu and the lobby show it often
    best: tuple[int, str, dict[str, int]] | None = None
    for game, variant in dailies():
        players = played.get((game, variant_key(variant)), 0)
        if best is None or players > best[0]:
            best = (players, game, variant)
    if best is None:
        return ""
    return daily.line(best[1], best[2])


REREAD = 5.0
"""Seconds between two reads of the dailies while the screen is shown."""


class DailyResults(ResultsScreen, inherit_bindings=False):
    """The results of a daily attempt: the leaderboard, not a new deal, comes next.

    Its own keys alone, in its own order: merged, the solo results' came first, and
    the key line showed the inherited ``n`` for the Leaderboard, not the ``l`` its
    button names (and neither New deal nor Share has a place here)."""

    CSS_PATH = str(Path(results_module.__file__).with_name("results.tcss"))

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "choose('quit')", "Leaderboard", id="daily-results-board"),
        # n and q (the solo results' New deal and Back) lead there too, unshown
        Binding("n", "choose('quit')", "Leaderboard", show=False, id="daily-results-new"),
        Binding("q", "choose('quit')", "Back", show=False, id="daily-results-quit"),
        Binding("escape", "choose('')", "Look at the board", id="daily-results-close"),
    ]

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal, Vertical
        from textual.widgets import Button

        with Vertical(id="panel"):
            yield Static(self.headline, id="headline")
            yield Static(self.figures_text(), id="figures")
            with Horizontal(id="buttons"):
                yield Button("Leaderboard (l)", id="quit", variant="primary")
        yield KeyLine()  # its own keys over the board's (as the solo results)


class DailyBoard(_Board):
    """What a game's board does differently in a daily (mixed in before it): the
    title names the day, not the deal; the results lead to the leaderboard."""

    attempt: Attempt

    def title_text(self) -> str:
        a = self.attempt
        return self.sep.join((title_of(a.name, a.variant), f"daily {a.day}"))

    def results_screen(self, headline: str) -> ResultsScreen:
        """The time is the one stored with the result (the end's own moment, which
        the attempt put on its game), not the clock read again: that could read a
        second more than the leaderboard."""
        g, a = self.game, self.attempt
        return DailyResults(
            headline, g.score, g.moves, int(a.game.elapsed if a.finished else a.seconds())
        )

    def on_results_choice(self, choice: str | None) -> None:
        self.answered()
        if choice in ("new", "quit"):
            self.leave()

    def action_end(self) -> None:
        """End the attempt now, after a yes (a daily that is stuck ends so)."""
        self.do(self.controller.end())


END_KEY = Binding("E", "end", "End", id="daily-end", tooltip="end your daily now, as it stands")
"""End, on the boards that have none of their own (Spider's is ``e``)."""


_CLASSES: dict[type[Any], type[Any]] = {}


def daily_board(attempt: Attempt, look: CardLook | None = None) -> BoardScreen:
    """The board of ``attempt``: the game's own board with the daily's policy and the
    attempt as its table."""
    base = board_class(attempt.name)
    cls = _CLASSES.get(base)
    if cls is None:
        from termsolitaire.screens.boards.bindings import key_actions

        own = {} if "end" in key_actions(base).values() else {"BINDINGS": [END_KEY]}
        cls = _CLASSES[base] = type(f"Daily{base.__name__}", (DailyBoard, base), own)
    screen: BoardScreen = cls(
        GameSession(None, attempt.game), look, policy=DAILY, table=DailyTable(attempt)
    )
    screen.attempt = attempt  # type: ignore[attr-defined]
    return screen


PROMPT = "Enter plays the highlighted daily: one attempt a day, no hints, no restart"


class DailyScreen(Screen[None]):
    CSS_PATH = "daily.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", id="daily-play"),
        Binding("t", "today", "Today", id="daily-today"),
        Binding("w", "show('week')", "Week", id="daily-week"),
        Binding("a", "show('all')", "All-time", id="daily-all"),
        Binding("left_square_bracket", "step(-1)", "Day before", id="daily-before"),
        Binding("right_square_bracket", "step(1)", "Day after", id="daily-after"),
        Binding("question_mark,f1", "help", "Help", id="daily-help"),
        Binding("q,escape", "back", "Back", id="daily-back"),
    ]

    def __init__(self, daily: Daily, look: CardLook | None = None) -> None:
        super().__init__()
        self.daily = daily
        self.look = look or CardLook()
        self.which: Board = "day"
        self.day = daily.today()
        self.choices = dailies()

    def compose(self) -> ComposeResult:
        yield TextLine("", id="daily-title")
        # A click shows a daily's leaderboard, a second one plays it: Textual's list
        # played at the first, and a player looking at the leaderboards spent the
        # day's one attempt.
        yield LookFirstList(id="dailies")
        with VerticalScroll(id="board-box"):
            yield Static("", id="board")
        yield TextLine("", fit=True, id="status")
        yield KeyLine()

    def on_mount(self) -> None:
        self.reload()
        self.set_interval(REREAD, self.reread)
        dailies = self.query_one("#dailies", OptionList)
        dailies.highlighted = 0
        dailies.focus()
        self.say(PROMPT)

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            # Back from an attempt: the line said what it said before it, such as
            # "You played today's Penguin daily…" under Napoleon's just left (before
            # the reload, which may have worse to say).
            self.say(PROMPT)
            self.day = self.daily.today()
            self.reload()

    def look_changed(self) -> None:
        """The card style changed (the settings over this screen): the lines and the
        leaderboard are drawn again in it, and the daily it plays next is too (its
        board came in the old style: Unicode on a terminal that asked for ASCII)."""
        self.look = app_look(self)
        if self.is_mounted:
            self.reload()

    def say(self, text: str) -> None:
        self.query_one("#status", TextLine).set(text)

    def reread(self) -> None:
        """Others play meanwhile: read the lines and the board again while shown."""
        if self.is_current:
            self.reload()

    def reload(self) -> None:
        """The dailies' lines and the highlighted one's leaderboard, read again."""
        store = self.daily.store
        zone = getattr(self.daily.tz, "key", None) or str(self.daily.tz)
        try:
            rating = store.rating().text()
            lines = [self.daily.line(g, v) for g, v in self.choices]
        except MatchError as e:
            self.say(e.reason)
            return
        self.query_one("#daily-title", TextLine).set(
            self.look.words(
                f"Daily deals · {self.daily.today()} ({zone}) · you are {store.me.name} · "
                f"rating {rating}"
            )
        )
        options = self.query_one("#dailies", OptionList)
        keep = options.highlighted
        options.clear_options()
        options.add_options(
            [
                Option(self.look.words(line.removeprefix("Daily: ")), id=f"{g}:{variant_key(v)}")
                for line, (g, v) in zip(lines, self.choices, strict=True)
            ]
        )
        if keep is not None and keep < options.option_count:
            options.highlighted = keep
        self.show_board()

    def chosen(self) -> tuple[str, dict[str, int]] | None:
        i = self.query_one("#dailies", OptionList).highlighted
        return self.choices[i] if i is not None and i < len(self.choices) else None

    def show_board(self) -> None:
        chosen = self.chosen()
        if chosen is None:
            return
        game, variant = chosen
        try:
            lines = self.daily.board(game, variant, self.which, self.day)
        except MatchError as e:
            self.say(e.reason)
            return
        table = board_table(lines, self.which, game, variant, self.day, ascii_only=self.look.ascii)
        self.query_one("#board", Static).update(table)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_board()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_play()

    def action_show(self, which: Board) -> None:
        self.which = which
        self.show_board()

    def action_today(self) -> None:
        """Today's leaderboard (whatever day ``[`` and ``]`` had stepped to)."""
        self.day = self.daily.today()
        self.action_show("day")

    def action_step(self, days: int) -> None:
        """The leaderboards of the day (or week) before or after, up to today."""
        if self.which == "all":
            self.say("The all-time records have no day before or after: t or w shows one")
            return
        week = self.which == "week"
        day = dt.date.fromisoformat(self.day) + dt.timedelta(days=days * (7 if week else 1))
        later = min(day.isoformat(), self.daily.today())
        if later == self.day:  # ``]`` on today (or this week) once changed nothing, silently
            self.say(
                "No week after this one yet: [ goes back a week"
                if week
                else "No daily after today's yet: [ goes back a day"
            )
            return
        self.day = later
        self.show_board()

    def action_play(self) -> None:
        chosen = self.chosen()
        if chosen is None:
            return
        game, variant = chosen
        if self.day != self.daily.today():
            # A past day's board shown ("[", perhaps one's own line "playing" there,
            # which is never resumed): Enter started today's attempt at once, the
            # day's one, for a player who may have meant that day's (playtest40b).
            # Today's board first; the next Enter plays.
            self.action_today()
            self.say(f"Today's {title_of(game, variant)} daily: Enter plays it, one attempt a day")
            return
        try:
            attempt = self.daily.attempt(game, variant)
        except MatchError as e:
            self.say(e.reason)
            return
        self.app.push_screen(daily_board(attempt, self.look))

    def action_help(self) -> None:
        from termsolitaire.screens.dialogs.help import HelpScreen

        keys = [
            ("↑ ↓", "choose a daily (each Spider suit count has its own)"),
            ("Enter", "play it, or go on with your attempt: one a day"),
            ("t w a", "the leaderboard of today, of the week, all-time records"),
            ("[ ]", "the day (or week) before, after"),
            ("q Escape", "back"),
            ("rating", "your Spider match rating, ± how sure; ? until 10 rated matches"),
        ]
        self.app.push_screen(HelpScreen(keys, "Daily deals"))

    def action_back(self) -> None:
        self.app.pop_screen()
