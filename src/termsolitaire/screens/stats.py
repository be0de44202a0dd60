"""The statistics screen: the figures per game and variant, a sparkline of recent
scores per game, and the finished games, any of which can be dealt again.

It reads the same store as ``termsolitaire stats`` (:mod:`termsolitaire.stats_table`
prints the same figures as text). Enter on a finished game opens that game,
variant and deal from the start, through the same message the menu sends.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from termsolitaire.messages import MenuChoice
from termsolitaire.play.session import Services
from termsolitaire.rules import info
from termsolitaire.screens.dialogs.frames import ascii_look
from termsolitaire.screens.notices import tell
from termsolitaire.screens.typeahead import KeysFollowTheScreen, TypeAheadMixin
from termsolitaire.stats_table import (
    FINISHED_HEAD,
    FINISHED_RIGHT,
    SUMMARY_HEAD,
    SUMMARY_RIGHT,
    finished_row,
    game_title,
    summary_row,
    variant_dict,
)
from termsolitaire.storage.files import StorageError
from termsolitaire.storage.stats import Finished, Summary
from termsolitaire.widgets.keyline import KeyLine

RECENT = 30
"""Finished games per game in its sparkline."""
LISTED = 200
"""Finished games in the table (newest first)."""
EMPTY = (
    "No solo game finished yet. Play one from the menu: won and lost games show here.\n"
    "A daily's result is on its leaderboard (d), a match's in the match lobby (m)."
)
"""Said to a player who had just ended a daily and a match ("No finished games
yet"): those are kept on their own boards, not with the solo games."""


WON = "█"
"""A won game's bar: full."""
LOST = " ▁▂▃▄▅"
"""A lost game's bars, by score: never above ▅, so that a lost game reads as one
beside a win's full bar (a lone lost game at the best score drew ▇, next to █)."""
ASCII_WON, ASCII_LOST = "#", " .-="
"""The same under the ASCII look."""


def bars(games: list[tuple[float, bool]], ascii: bool = False) -> str:
    """One bar per finished game, oldest first: a won game is a full bar; a lost
    one is as tall as its score against the best score there (scaled from 0, or
    from the lowest score when that is below 0), at most five eighths of a full
    bar. A score of 0 is no bar at all. ``ascii``: ``#`` for a win, `` .-=`` for
    a loss.

    >>> bars([(0, False), (0, False)]), bars([(26, False), (52, True)]), bars([(52, False)])
    ('  ', '▂█', '▅')
    >>> bars([(0, False), (26, False), (52, False), (52, True)], ascii=True)
    ' -=#'
    """
    won, lost = (ASCII_WON, ASCII_LOST) if ascii else (WON, LOST)
    scores = [s for s, _ in games]
    low = min(0.0, *scores)
    high = max(low + 1, *scores)
    top = len(lost) - 1
    return "".join(won if w else lost[round((s - low) / (high - low) * top)] for s, w in games)


def cells(row: tuple[str, ...], right: frozenset[int]) -> list[Text]:
    return [Text(c, justify="right" if i in right else "left") for i, c in enumerate(row)]


def columns(names: tuple[str, ...], right: frozenset[int]) -> list[Text]:
    return cells(names, right)


class StatsScreen(KeysFollowTheScreen, TypeAheadMixin, Screen[None]):
    CSS_PATH = "stats.tcss"
    AUTO_FOCUS = "#finished"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play_selected", "Play this deal", id="stats-play"),
        Binding("escape,Q,q", "close", "Back", id="stats-close"),
    ]

    def __init__(self, services: Services, **kw: Any) -> None:
        super().__init__(**kw)
        self.services = services
        self.summaries: list[Summary] = []
        self.finished: list[Finished] = []
        self.problem = ""

    def load(self) -> None:
        stats = self.services.stats
        try:
            self.summaries = stats.summaries()
            self.finished = stats.finished(limit=LISTED)
        except StorageError as e:
            self.problem = str(e)
        tell(self, stats.messages)
        stats.messages.clear()

    def compose(self) -> ComposeResult:
        self.load()
        yield Label("Statistics", id="stats-title")
        if self.problem or not self.summaries:
            yield Static(self.problem or EMPTY, id="stats-empty")
            yield KeyLine()
            return
        summary: DataTable[str] = DataTable(
            id="summary", cursor_type="none", zebra_stripes=True, show_cursor=False
        )
        summary.can_focus = False
        yield summary
        with Vertical(id="sparklines"):
            for game, scores, won in self.recent():
                with Horizontal(classes="spark"):
                    yield Label(f"{game_title(game):<9}", classes="spark-game")
                    yield Label(bars(scores, ascii_look(self)), classes="spark-line")
                    best = max(score for score, _ in scores)
                    yield Label(
                        f" last {len(scores)}: {won} won, best score {best:.0f}",
                        classes="spark-note",
                    )
        yield Label("Finished games: Enter plays that deal again", id="finished-title")
        yield DataTable(id="finished", cursor_type="row", zebra_stripes=True)
        yield KeyLine()

    def recent(self) -> list[tuple[str, list[tuple[float, bool]], int]]:
        """Per game: (score, won) of its last ``RECENT`` finished games, oldest first,
        and how many of them were won."""
        per: dict[str, list[Finished]] = {}
        for f in self.finished:  # newest first
            rows = per.setdefault(f.game, [])
            if len(rows) < RECENT:
                rows.append(f)
        return [
            (
                game,
                [(float(f.score), f.result == "won") for f in reversed(rows)],
                sum(f.result == "won" for f in rows),
            )
            for game, rows in sorted(per.items())
        ]

    def on_mount(self) -> None:
        if self.problem or not self.summaries:
            return
        summary = self.query_one("#summary", DataTable)
        summary.add_columns(*columns(SUMMARY_HEAD, SUMMARY_RIGHT))
        for s in self.summaries:
            summary.add_row(*cells(summary_row(s), SUMMARY_RIGHT))
        table = self.query_one("#finished", DataTable)
        table.add_columns(*columns(FINISHED_HEAD, FINISHED_RIGHT))
        for f in self.finished:
            table.add_row(*cells(finished_row(f, seconds=False), FINISHED_RIGHT), key=f.id)
        table.focus()

    def selected(self) -> Finished | None:
        if not self.finished:
            return None
        table = self.query_one("#finished", DataTable)
        row = table.cursor_row
        return self.finished[row] if 0 <= row < len(self.finished) else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_play_selected()

    def action_play_selected(self) -> None:
        f = self.selected()
        if f is None:
            return
        if f.deal is None:
            self.notify("That game has no deal number to deal again", severity="warning")
            return
        try:
            limits = info(f.game).time_limits
        except ValueError:
            self.notify(f"This version does not play {f.game}", severity="warning")
            return
        limit = 0
        if limits:  # the limit it was played with; for a game kept before, the settings'
            limit = (
                f.minutes
                if f.minutes is not None
                else self.services.settings.game_default(f.game, "time_limit")
            )
        choice = MenuChoice(f.game, f.deal, variant_dict(f.variant), limit)
        self.dismiss()
        self.app.post_message(choice)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is offered only where there is a finished game to deal again."""
        if action == "play_selected":
            return bool(self.finished)
        return True

    def action_close(self) -> None:
        self.dismiss()
