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

import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from termsolitaire.match import (
    GameOver,
    MatchError,
    Player,
    Seat,
    SeatInfo,
    SeatMoved,
)
from termsolitaire.match.services import MatchServices
from termsolitaire.rules import IllegalMove, Move
from termsolitaire.session import GameSession, clock_text
from termsolitaire.widgets.board import min_width
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.line import TextLine
from termsolitaire.widgets.opponent import PANEL_WIDTH, panel_text

from .polling import while_shown
from .selection import Hand
from .spider import SpiderScreen

POLL = 0.25
"""Seconds between two looks at the clock and the table."""
SHARE_EVERY = 2.0
"""Seconds between two tries to share actions the store could not take."""


class MatchScreen(SpiderScreen):
    """The player's game at a table. ``hidden``: the opponent's figures stay hidden
    until this game has ended (hot-seat, second player). ``next_player``: a
    hot-seat guest who plays this deal after this player."""

    CSS_PATH: ClassVar[list[str]] = ["board.tcss", "spider.tcss", "match.tcss"]
    BINDINGS: ClassVar[list[Any]] = [
        Binding("w", "watch", "Watch", id="match-watch", tooltip="watch the opponent's board"),
        Binding("r", "results", "Results", id="match-results", tooltip="the results again"),
    ]
    NOT_IN_A_MATCH = ("restart", "new_game", "deal_number")
    SOLVER_HELP = False  # no hint, verdict or solution: the solver sees hidden cards

    def __init__(
        self,
        seat: Seat,
        match: MatchServices,
        look: CardLook | None = None,
        *,
        hidden: bool = False,
        next_player: Player | None = None,
    ) -> None:
        super().__init__(GameSession(None, seat.game, time_limit=seat.minutes), look)
        self.seat = seat
        self.match = match
        self.hidden = hidden
        self.next_player = next_player
        self.opponent: SeatInfo | None = None
        self.revision = -1
        self.problem_shown: str | None = None
        self.shared_at = 0.0
        self.results_again = False
        """Show the results when this board is back on top (after Watch, a replay)."""

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
        self.set_interval(POLL, self.poll)
        self.poll()
        if self.seat.finished:
            self.call_after_refresh(self.finish, self.end_headline())

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
        g = self.game
        parts = [
            f"Table {self.seat.table_id}",
            f"{self.seat.suits} suit{'s' if self.seat.suits > 1 else ''}",
            f"deal {g.deal}",
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
        """A few times a second: the clock, the opponent, the store's health."""
        seat = self.seat
        if not seat.finished and seat.check_clock():
            self.take_game()
            self.finish("Time is up")
        self.share_pending()
        self.show_clock()
        try:
            revision = seat.store.revision(seat.table_id)
        except MatchError:
            revision = self.revision
        if revision != self.revision:
            self.revision = revision
            try:
                self.opponent = seat.opponent()
            except MatchError as e:
                self.say(e.reason)
        self.show_panel()
        if seat.problem != self.problem_shown:
            self.problem_shown = seat.problem
            if seat.problem:
                self.say(seat.problem)
        driver = self.match.drivers.get(seat.table_id)
        if driver is not None and driver.problem:
            self.say(driver.problem)
            driver.problem = None

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
        panel = self.query_one("#opponent", Static)
        if getattr(panel, "shown", None) != text:
            panel.shown = text  # type: ignore[attr-defined]
            panel.update(text)

    # ------------------------------------------------------------ playing

    def take_game(self) -> None:
        """Show the seat's game (each action makes a new game object)."""
        if self.game is not self.seat.game:
            cursor = self.hand.cursor
            self.game = self.seat.game
            self.hand = Hand(self.game, cursor=cursor)
        self.redraw()

    def act(self, action: str, done: str | Callable[[], str]) -> bool:
        """Play ``action`` through the seat; say ``done`` (or what it returns,
        asked after the action), or why not."""
        self.hand.drop()
        try:
            self.seat.act(action)
        except IllegalMove as e:
            self.say(e.reason)
            self.redraw()
            return False
        except GameOver as e:
            self.take_game()
            self.say(e.reason)
            self.finish(self.end_headline())
            return False
        except SeatMoved as e:
            self.take_game()
            self.say(e.reason)
            return False
        except MatchError as e:
            self.say(e.reason)
            self.redraw()
            return False
        self.take_game()
        self.say(self.seat.problem or (done if isinstance(done, str) else done()))
        self.after_change()
        return True

    def play(self, move: Move) -> bool:
        return self.act(str(move), f"Played {self.named_move_text(move)}")

    def action_undo(self) -> None:
        last = self.game.history[-1] if self.game.history else None
        if last is None:
            self.act("undo", "")  # the seat says why not
            return
        # Named once it is taken back: its cards are then where it started.
        self.act("undo", lambda: f"Took back {self.named_move_text(last)}")

    def action_redo(self) -> None:
        nxt = self.game.redo_list[-1] if self.game.redo_list else None
        text = self.named_move_text(nxt) if nxt else ""
        self.act("redo", f"Played {text} again")

    def after_change(self) -> None:
        self.redraw()
        if self.seat.finished:
            self.finish(self.end_headline())
        elif self.game.is_stuck:
            self.say("No move leads anywhere new: undo (z), or End (e)")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.NOT_IN_A_MATCH:
            return False
        if action in ("deal", "turn", "undo", "redo", "end"):
            return not self.over
        if action == "results":
            return self.over
        return super().check_action(action, parameters)

    # ------------------------------------------------------------ the end

    def end_question(self) -> str:
        return (
            f"Your game ends with score {self.game.score}; "
            "the opponent plays on until their own game ends."
        )

    def end_game(self) -> None:
        self.act("end", "You ended your game")

    def end_headline(self) -> str:
        reason = self.seat.reason
        if reason == "time":
            return "Time is up"
        if reason == "cleared":
            return "All cards discarded!"
        return "You ended your game"

    def autosave(self) -> None:
        """Every action is in the store already: nothing to save."""

    def abandon(self) -> None:
        """A match game is never abandoned for another deal."""

    def finish(self, headline: str) -> None:
        if self.over:
            return
        self.over = True
        self.hand.drop()
        self.take_game()
        self.refresh_bindings()
        if self.next_player is not None:
            self.hand_over()
        else:
            self.action_results(headline)

    def action_results(self, headline: str | None = None) -> None:
        from .match_results import MatchResultsScreen

        if not self.over:
            self.say("The results show when your game has ended (e ends it)")
            return
        screen = MatchResultsScreen(self.seat, self.match, headline or self.end_headline())
        self.app.push_screen(screen, self.on_results_choice)

    def on_results_choice(self, choice: str | None) -> None:
        from .lobby import back_to_lobby

        if choice == "watch":
            self.action_watch()
        elif choice in ("mine", "theirs"):
            self.replay(choice)
        elif choice in ("leave", "new"):
            back_to_lobby(self.app, new_game=choice == "new")
        else:
            self.say("Your game has ended: r results, w watch, Q back to the lobby")

    def action_watch(self) -> None:
        from .watch import WatchScreen

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
        from .watch import match_replay

        try:
            screen = match_replay(self.seat, whose == "mine", self.look)
        except MatchError as e:
            self.say(e.reason)
            return
        self.results_again = True
        self.app.push_screen(screen)

    def hand_over(self) -> None:
        """Hot-seat: the first player is done; the second takes the keyboard."""
        from .handover import HandOverScreen

        guest = self.next_player
        assert guest is not None
        me = self.seat.store.me

        def answered(go: bool | None) -> None:
            from .lobby import back_to_lobby

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
        from .lobby import back_to_lobby

        if not self.seat.finished:
            self.app.notify(
                "Your clock keeps running: Enter on your table in the lobby brings you back",
                timeout=8,
            )
        back_to_lobby(self.app)
