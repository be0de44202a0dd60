"""The results of a match: both players' score, runs, moves and time, and the winner.

Shown to each player when their own game ends, and kept up to date while the
opponent still plays (it reads the store again when the table's revision
moves): the results are replayed from the store, so both players see the same
figures and the same winner (the higher score; equal scores draw). From here:
Watch the opponent, replay either game, a new game, or back to the lobby.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import ClassVar

from rich.align import Align
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from termsolitaire.match import (
    Figures,
    MatchError,
    Player,
    Results,
    Seat,
    SeatInfo,
    Watcher,
)
from termsolitaire.match.hotseat import is_guest_of
from termsolitaire.match.services import MatchServices
from termsolitaire.play.controller import ENDED_YOURS
from termsolitaire.play.session import clock_text
from termsolitaire.screens.dialogs.frames import AsciiFrames, room_inside
from termsolitaire.screens.dialogs.unasked import Unasked
from termsolitaire.screens.match.polling import Follow, while_shown
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.opponent import ended_text

POLL = 0.5


def finish_text(f: Figures, clock: SeatInfo | None, now: float) -> str:
    """How a player's game stands in the Finish row: how it ended, or their clock.

    >>> from termsolitaire.match import Player
    >>> bob = Player("bob", "bob")
    >>> waiting = SeatInfo(2, bob, 0.0, None, None, None, 600.0, 0, 0, 0, 0, 0.0)
    >>> playing = SeatInfo(2, bob, 0.0, 10.0, None, None, 600.0, 0, 0, 0, 0, 0.0)
    >>> f = Figures(bob, 0, 0, 0, 0.0, None)
    >>> finish_text(f, waiting, 70.0), finish_text(f, playing, 70.0)
    ('not started (10:00)', 'playing, 9:00 left')
    """
    if f.reason:
        return ended_text(f.reason, f.player)
    if clock is None:
        return "playing"
    if not clock.started:
        return f"not started ({clock_text(clock.limit)})"
    return f"playing, {clock_text(clock.remaining_at(now))} left"


def figures_table(
    results: Results, me: str, clocks: Sequence[SeatInfo] = (), now: float = 0.0
) -> Table:
    """Both players side by side (this player first), one row per figure; ``clocks``:
    the seats of those whose game has not ended, read at ``now``."""
    by_id = {c.player.id: c for c in clocks}
    seats = sorted(results.seats, key=lambda f: f.player.id != me)
    table = Table(box=None, padding=(0, 1), expand=False)
    table.add_column("")
    for f in seats:
        who = f"{f.player.name} (you)" if f.player.id == me else f.player.name
        table.add_column(who, justify="right", no_wrap=True)
    rows: list[tuple[str, list[str]]] = [
        ("Score", [str(f.score) for f in seats]),
        ("Runs", [f"{f.runs} of 8" for f in seats]),
        ("Moves", [str(f.moves) for f in seats]),
        ("Time used", [clock_text(f.time_used) for f in seats]),
        ("Finish", [finish_text(f, by_id.get(f.player.id), now) for f in seats]),
    ]
    for name, values in rows:
        table.add_row(name, *values)
    return table


def credited_lines(results: Results, me: str) -> list[str]:
    """One line for each player whose clock a server restart gave time back to
    (this player first), shown under the figures across the panel's width."""
    seats = sorted(results.seats, key=lambda f: f.player.id != me)
    return [credit_text(f, f.player.id == me) for f in seats if f.credit > 0]


def credit_text(f: Figures, mine: bool) -> str:
    """What server restarts gave back to a player's clock (docs/match.md, "A server
    restart"): their time used is that much less than the time since they started.
    "Downtime", not "a restart": a clock may have been given back two restarts'.

    >>> from termsolitaire.match import Player
    >>> credit_text(Figures(Player("ann", "ann"), 0, 0, 0, 200.0, None, 30.0), True)
    'ann (you): 0:30 credited for server downtime'
    """
    who = f"{f.player.name} (you)" if mine else f.player.name
    return f"{who}: {clock_text(f.credit)} credited for server downtime"


def verdict(results: Results, me: str) -> str:
    """The winner line: who won and by how much, a draw, or who is still playing."""
    if len(results.seats) < 2:
        return "Nobody has joined yet: the table takes players for a day"
    if not results.final:
        playing = [f.player.name for f in results.seats if not f.finished]
        return f"Waiting for {' and '.join(playing)} to finish"
    if results.winner is None:
        return "A draw: equal scores"
    a, b = results.seats
    margin = abs(a.score - b.score)
    points = f"{margin} point{'s' if margin != 1 else ''}"
    if results.winner.id == me:
        return f"You win, by {points}"
    return f"{results.winner.name} wins, by {points}"


class MatchResultsScreen(Unasked, AsciiFrames, ModalScreen[str]):
    """Dismisses with ``watch``, ``mine`` / ``theirs`` (replay), ``new``, ``leave``,
    or None (Escape: look at the board)."""

    CSS_PATH = "match_results.tcss"
    # The key line at the foot shows what the buttons do not say (Escape): the five
    # buttons name their own keys, and the line had no room for them beside it.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "choose('watch')", "Watch", id="match-results-watch", show=False),
        Binding("y", "choose('mine')", "Replay yours", id="match-results-mine", show=False),
        Binding("o", "choose('theirs')", "Replay theirs", id="match-results-theirs", show=False),
        Binding("n", "choose('new')", "New game", id="match-results-new", show=False),
        Binding("q", "choose('leave')", "Leave", id="match-results-leave", show=False),
        Binding("s", "share", "Share", id="match-results-share", show=False),
        Binding("escape", "choose('')", "Look at the board", id="match-results-close"),
    ]

    def __init__(self, seat: Seat, match: MatchServices, headline: str) -> None:
        super().__init__()
        self.seat = seat
        self.match = match
        self.headline = headline
        self.results: Results | None = None
        self.revision = -1
        self.watcher: Watcher | None = None
        self.their_line = False
        """The opponent's game has a move to replay."""
        self.whose = "your"
        """Whose game ``s`` shares: "your", or at a hot-seat the seat's player's."""

    def compose(self) -> ComposeResult:
        s = self.seat
        with Vertical(id="panel"):
            yield Static(self.headline, id="headline")
            yield Static(
                f"Table {s.table_id} · deal {s.deal} · {s.suits} suit{'s' if s.suits > 1 else ''}"
                f" · {s.minutes} min",
                id="table",
            )
            yield Static("", id="figures")
            yield Static("", id="verdict")
            with Horizontal(id="buttons"):
                yield Button("Watch (w)", id="watch", compact=True)
                yield Button("Your replay (y)", id="mine", compact=True)
                yield Button("Their replay (o)", id="theirs", compact=True)
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Leave (q)", id="leave", compact=True, variant="primary")
        yield KeyLine()  # over the board's keys, which do nothing under the panel

    def on_resize(self) -> None:
        """The buttons in rows of three where one row does not fit: the match board
        needs 80 columns, but a terminal made narrower after the game keeps these.
        A resize that comes before the panel is composed (or after it is taken down)
        has nothing to arrange: the mount arranges it once the panel is there."""
        found = self.query("#buttons")
        if not found:
            return
        buttons = found.first()
        room = room_inside(self.query_one("#panel"), self.size.width)
        need = sum(len(str(b.label)) + 2 for b in buttons.query(Button))
        buttons.set_class(need > room, "narrow")

    def on_mount(self) -> None:
        self.call_after_refresh(self.on_resize)
        if self.seat.finished:  # seen how it ended: the lobby does not tell it again
            with contextlib.suppress(MatchError):
                self.match.store.seen()
        self.changes = Follow(self, self.seat.store, self.poll, POLL)
        self.poll()
        if self.changes.pushed:  # the clocks still tick; the results are read on changes
            self.set_interval(POLL, self.poll)

    def on_unmount(self) -> None:
        self.changes.stop()

    @while_shown
    def poll(self) -> None:
        """Read the results again when the table has changed or a clock ran out; the
        clocks of those still playing tick in between."""
        s = self.seat
        now = s.store.now()
        try:
            revision = s.store.revision(s.table_id) if self.changes.due() else self.revision
            final = self.results is not None and self.results.final
            if final and revision == self.revision:
                return
            going = [] if final else [i for i in s.info().seats if not i.finished]
            ran_out = any(i.playing and i.remaining_at(now) <= 0 for i in going)
            if revision != self.revision or ran_out or self.results is None:
                with self.changes.reading():
                    self.results = s.results()
                    self.their_line = self.their_replay()
                self.revision = revision  # what was read: after the read, never before
        except MatchError as e:
            self.query_one("#verdict", Static).update(e.reason)
            return
        me = s.store.me.id
        players = [f.player for f in self.results.seats]
        whose = "your"
        if any(is_guest_of(a, b.id) for a in players for b in players):
            me = ""  # hot-seat: both players read this screen, nobody is "you"
            whose = self.name_the_replays(players)
        figures: RenderableType = figures_table(self.results, me, going, now)
        credited = credited_lines(self.results, me)
        if credited:  # across the panel: under the table's columns they broke in two
            figures = Group(Align.center(figures), Text("\n".join(credited), justify="center"))
        self.query_one("#figures", Static).update(figures)
        over = self.results.final
        self.whose = whose
        shares = f" · s shares {whose} game" if over and s.finished and s.game.log else ""
        self.query_one("#verdict", Static).update(verdict(self.results, me) + shares)
        theirs = next((f for f in self.results.seats if f.player.id != me), None)
        self.query_one("#watch", Button).display = theirs is not None
        self.query_one("#theirs", Button).display = self.their_line
        self.query_one("#mine", Button).display = bool(s.game.history)
        self.refresh_bindings()

    def name_the_replays(self, players: list[Player]) -> str:
        """Hot-seat: the replay buttons by the players' names ("Your replay" and
        "Their replay" to two people reading one screen said nothing of whose); the
        owner of this seat's game, as the verdict's share hint names it (and the
        headline, where it said "You ended your game")."""
        mine = self.seat.store.me
        other = next((p.name for p in players if p.id != mine.id), "")
        if self.headline == ENDED_YOURS:  # "you" is whoever played last
            self.query_one("#headline", Static).update(f"{mine.name} ended their game")
        self.query_one("#mine", Button).label = f"{mine.name}'s replay (y)"
        if other:
            self.query_one("#theirs", Button).label = f"{other}'s replay (o)"
        self.on_resize()  # longer names may need the buttons in two rows
        return f"{mine.name}'s"

    def their_replay(self) -> bool:
        """Whether the opponent's game has a move to replay (read as the table moves)."""
        try:
            if self.watcher is None:
                self.watcher = self.seat.watch()
            else:
                self.watcher.refresh()
        except MatchError:  # nobody has joined, or the store cannot be read now
            return False
        return bool(self.watcher.game.history)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A replay is offered only when there is one (a game with a move)."""
        if action == "choose" and parameters == ("theirs",):
            return self.their_line
        if action == "choose" and parameters == ("mine",):
            return bool(self.seat.game.history)
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not self.too_soon(event):  # (it opens by itself: :mod:`..dialogs.unasked`)
            self.dismiss(event.button.id)

    def action_share(self) -> None:
        """``s``: this player's game as share codes (:mod:`..dialogs.share`)."""
        from termsolitaire.match.shares import check_match_over
        from termsolitaire.screens.dialogs.share import ShareScreen

        try:
            check_match_over(self.seat.store, self.seat.table_id)
        except MatchError as e:
            self.query_one("#verdict", Static).update(e.reason)
            return
        self.app.push_screen(ShareScreen(self.seat.game, self.seat.store, whose=self.whose))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
