"""The match board: the player's own Spider game at a table, the opponent beside it.

The Spider board with its keys, played through the player's
:class:`~termsolitaire.match.Seat`: every action goes to the shared store
before the board shows it, so a crash loses nothing and the opponent sees it.
The clock counts down from the table's limit by the store's clock and never
pauses (a player who leaves the board keeps losing time); at 0:00 the game
ends. The side panel shows the opponent's live score, runs, moves and time
left, read again only when the table's revision moves (a cheap query, a few
times a second). ``e`` ends the game after a yes; then the results show, and
Watch (``w``) follows the opponent's board.

Hot-seat: the first player's finish hands the terminal over to the second
(:class:`~.handover.HandOverScreen`, no figures shown); the second player's
panel hides the first player's result until their own game has ended.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import PurePath
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from termsolitaire.match import (
    MatchError,
    Player,
    Seat,
    SeatInfo,
    StoreError,
)
from termsolitaire.match.services import MatchServices
from termsolitaire.play.hand import Hand
from termsolitaire.play.modes import MATCH
from termsolitaire.play.session import GameSession, clock_text
from termsolitaire.play.tables import SeatTable
from termsolitaire.screens.boards.bindings import key_actions
from termsolitaire.screens.boards.registry import board_css
from termsolitaire.screens.boards.spider import SpiderScreen
from termsolitaire.screens.match.polling import Follow, while_shown
from termsolitaire.screens.match.spectate import WatchCount, watching_text
from termsolitaire.screens.typeahead import TYPED_ON
from termsolitaire.widgets.board import min_width
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.line import TextLine
from termsolitaire.widgets.opponent import PANEL_WIDTH, panel_text

POLL = 0.25
"""Seconds between two looks at the clock and the table."""
SHARE_EVERY = 2.0
"""Seconds between two tries to share actions the store could not take."""


class MatchScreen(SpiderScreen):
    """The player's game at a table. ``hidden``: the opponent's figures stay hidden
    until this game has ended (hot-seat, second player). ``next_player``: a
    hot-seat guest who plays this deal after this player."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [*board_css("board", "spider"), "match.tcss"]
    BINDINGS: ClassVar[list[Any]] = [
        Binding("w", "watch", "Watch", id="match-watch", tooltip="watch the opponent's board"),
        Binding("r", "results", "Results", id="match-results", tooltip="the results again"),
    ]
    POLICY = MATCH  # no pause, no restart, no hints: a clock that never stops

    def __init__(
        self,
        seat: Seat,
        match: MatchServices,
        look: CardLook | None = None,
        *,
        hidden: bool = False,
        next_player: Player | None = None,
    ) -> None:
        session = GameSession(None, seat.game, time_limit=seat.minutes)
        super().__init__(session, look, table=SeatTable(seat))
        self.seat = seat
        self.match = match
        self.panel_shown: str | None = None
        """The side panel's text as last drawn (drawn again only when it changes)."""
        self.hidden = hidden
        self.next_player = next_player
        self.opponent: SeatInfo | None = None
        self.revision = -1
        self.problem_shown: str | None = None
        self.shared_at = 0.0
        self.results_again = False
        """Show the results when this board is back on top (after Watch, a replay)."""
        self.spectators = WatchCount(seat.store, seat.table_id)
        self.watching = 0

    @property
    def min_size(self) -> tuple[int, int]:
        return min_width(self.SLOTS) + PANEL_WIDTH, self.MIN_HEIGHT

    # ------------------------------------------------------------ layout

    def felt(self) -> ComposeResult:
        """The board, and the opponent's side panel beside it."""
        with Horizontal(id="felt"):
            yield self.board
            yield Static("", id="opponent")

    def on_resize(self) -> None:
        width, height = self.app.size
        need_w, need_h = self.min_size
        self.query_one("#felt").display = width >= need_w and height >= need_h

    def on_mount(self) -> None:
        if not self.seat.finished:
            self.seat.start()
        self.start_computer()
        self.changes = Follow(self, self.seat.store, self.poll, POLL)
        if self.changes.pushed:  # the clock still ticks; the store is read on changes
            self.set_interval(POLL, self.poll)
        self.poll()
        if self.seat.finished:
            self.call_after_refresh(self.show_results, self.controller.end_headline())

    def on_unmount(self) -> None:
        self.changes.stop()

    def start_computer(self) -> None:
        """At a computer's table: its process starts (again) with this board."""
        info = self.table_info()
        try:
            driver = self.match.driver(info) if info is not None else None
            if driver is not None:
                self.match.start_driver(driver)
        except MatchError as e:
            self.say(e.reason)

    def title_text(self) -> str:
        parts = [  # no deal number while the match goes on (lobby_text.detail_text)
            f"Table {self.seat.table_id}",
            f"{self.seat.suits} suit{'s' if self.seat.suits > 1 else ''}",
            f"{self.seat.minutes} min",
        ]
        if self.hidden or self.next_player is not None:  # hot-seat: whose game this is
            parts[0] = f"{self.seat.store.me.name} plays"
        return self.sep.join(parts)

    def hint(self) -> str:
        if self.seat.finished:
            return "Your game has ended: r results, w watch, Q back to the lobby"
        return "Your clock is running: 1-0 piles, d deal, t+pile turn, e End, ? help"

    # ------------------------------------------------------------ the clock and the table

    def tick(self) -> None:
        """The board's one-second tick: the match clock is :meth:`poll`'s."""

    def show_clock(self) -> None:
        self.query_one("#clock", TextLine).set(clock_text(self.seat.remaining()))

    def table_info(self) -> Any:
        try:
            return self.seat.info()
        except MatchError as e:
            self.say(e.reason)
            return None

    @while_shown
    def poll(self) -> None:
        """A few times a second, and at once when the store changed: the clock, the
        opponent, the store's health."""
        seat = self.seat
        due = self.changes.due()
        waiting = seat.started_at is None  # the clock starts when the opponent does
        if not seat.finished and (due or not waiting) and seat.check_clock():
            self.take_game()
            self.do(self.controller.ended("Time is up"))
        self.share_pending()
        self.show_clock()
        try:
            revision = seat.store.revision(seat.table_id) if due else self.revision
        except MatchError:  # (the store away: the fallback or its return says when)
            revision = self.revision
        moved = revision != self.revision or (due and self.changes.anyway)
        if moved:
            self.read_table(revision)
        self.watching = self.spectators.update(moved)
        self.show_panel()
        if seat.problem != self.problem_shown:
            self.problem_shown = seat.problem
            if seat.problem:
                self.say(seat.problem)
        driver = self.match.drivers.get(seat.table_id)
        if driver is not None and driver.problem:
            self.say(driver.problem)
            driver.problem = None

    def read_table(self, revision: int) -> None:
        """Read the opponent again (the table is at ``revision`` or later), and
        remember the revision read with them, in the same snapshot: never one newer
        than what the panel shows. A read the store failed (busy, away for a
        moment) is tried again at the next tick; a refusal is an answer."""
        try:
            info = self.seat.info()
        except StoreError as e:
            self.say(e.reason)
            self.changes.missed()
            return
        except MatchError as e:
            self.say(e.reason)
            self.revision = revision
            return
        self.opponent = info.opponent_of(self.seat.store.me.id)
        self.revision = info.revision

    def share_pending(self) -> None:
        """Every few seconds while the store could not take this player's actions:
        open it again and share them (the player does nothing for it)."""
        seat = self.seat
        if not (seat.pending or (seat.problem and seat.store.db.broken)):
            return
        now = time.monotonic()
        if now - self.shared_at < SHARE_EVERY:
            return
        self.shared_at = now
        waiting = len(seat.pending)
        seat.sync()
        if seat.game is not self.game:
            self.take_game()
        if waiting and not seat.pending and seat.problem is None:
            s = "s" if waiting != 1 else ""
            self.problem_shown = None
            self.say(f"Shared: the {waiting} action{s} played meanwhile are in the match database")

    def show_panel(self) -> None:
        waiting = self.next_player if self.opponent is None else None
        hidden = self.hidden and not self.seat.finished
        text = panel_text(self.opponent, self.seat.store.now(), hidden=hidden, waiting_for=waiting)
        if self.watching:
            text += f"\n\n{watching_text(self.watching)}"
        panel = self.query_one("#opponent", Static)
        if self.panel_shown != text:
            self.panel_shown = text
            panel.update(text)

    # ------------------------------------------------------------ playing

    def take_game(self) -> None:
        """Show the seat's game (each action makes a new game object)."""
        c = self.controller
        if c.hand.game is not self.seat.game:
            c.hand = Hand(self.seat.game, cursor=c.hand.cursor)
        self.redraw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "results":
            return bool(self.over)
        if action == "watch" and not self.seat.finished:
            # Dimmed while the player's own game goes on: it lit "w Watch" as a key
            # that works, and w said "You can watch your opponent once …" (playtest40b).
            return None
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """``r`` before the game has ended says why no results show (the footer
        hides it then), and ``w`` why there is nothing to watch yet (dimmed): a key
        the screen refuses would otherwise do nothing."""
        action = key_actions(type(self)).get(event.key)
        if self.over or not self.is_current or action not in ("results", "watch"):
            return  # the board's own on_key runs next
        setattr(event, TYPED_ON, self)
        event.stop()
        event.prevent_default()
        if action == "results":
            self.action_results()
        else:
            self.action_watch()

    def show_results(self, headline: str) -> None:
        """The game has ended: the results, or hot-seat's hand-over first."""
        self.take_game()
        self.update_footer()
        if self.next_player is not None:
            with contextlib.suppress(MatchError):  # seen how it ended (as the results note)
                self.match.store.seen()
            self.hand_over()
        else:
            self.action_results(headline)

    def action_results(self, headline: str | None = None) -> None:
        from termsolitaire.screens.match.match_results import MatchResultsScreen

        if not self.over:
            self.say("The results show when your game has ended (e ends it)")
            return
        screen = MatchResultsScreen(
            self.seat, self.match, headline or self.controller.end_headline()
        )
        self.app.push_screen(screen, self.on_results_choice)

    def on_results_choice(self, choice: str | None) -> None:
        from termsolitaire.screens.match.home import back_to_lobby

        if choice == "watch":
            self.action_watch()
        elif choice in ("mine", "theirs"):
            self.replay(choice)
        elif choice in ("leave", "new"):
            back_to_lobby(self.app, new_game=choice == "new")
        else:
            self.say("Your game has ended: r results, w watch, Q back to the lobby")

    def action_watch(self) -> None:
        from termsolitaire.screens.match.watch import WatchScreen

        if not self.seat.finished:
            self.say("You can watch your opponent once your own game has ended (e ends it)")
            return
        try:
            watcher = self.seat.watch()
        except MatchError as e:
            self.say(e.reason)
            return
        self.results_again = True
        self.app.push_screen(WatchScreen(watcher, self.look))

    def on_screen_resume(self) -> None:
        """Back from Watch or a replay: the results again."""
        if self.results_again and self.over and self.app.screen is self:
            self.results_again = False
            self.action_results()

    def replay(self, whose: str) -> None:
        from termsolitaire.screens.match.watch import match_replay

        try:
            screen = match_replay(self.seat, whose == "mine", self.look)
        except MatchError as e:
            self.say(e.reason)
            return
        self.results_again = True
        self.app.push_screen(screen)

    def hand_over(self) -> None:
        """Hot-seat: the first player is done; the second takes the keyboard."""
        from termsolitaire.screens.match.handover import HandOverScreen

        guest = self.next_player
        assert guest is not None
        me = self.seat.store.me

        def answered(go: bool | None) -> None:
            from termsolitaire.screens.match.home import back_to_lobby

            if not go:
                back_to_lobby(self.app)
                return
            try:
                seat = self.match.hand_over(self.seat.table_id, guest)
            except MatchError as e:
                back_to_lobby(self.app)
                self.app.notify(e.reason, severity="warning", timeout=10)
                return
            self.app.switch_screen(MatchScreen(seat, self.match, self.look, hidden=True))

        self.app.push_screen(HandOverScreen(me, guest, self.seat.reason), answered)

    def action_quit(self) -> None:
        from termsolitaire.screens.match.home import back_to_lobby

        if not self.seat.finished:
            self.app.notify(
                "Your clock keeps running: Enter on your table in the lobby brings you back",
                timeout=8,
            )
        back_to_lobby(self.app)
