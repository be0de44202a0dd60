"""Watch: the opponent's board, live and read only; and the replays of a match.

:class:`WatchScreen` is the Spider board showing a
:class:`~termsolitaire.match.Watcher`'s game: it polls the table's revision
and applies the opponent's new actions as they come, with their clock
counting down in the header. Nothing can be played: its controller is in the
read-only mode (:data:`~termsolitaire.play.modes.WATCH`), the board's keys are
not bound, and clicks and drags only say so. The store allows it only once the
player's own game has ended (nobody sees the deal's hidden cards while still
playing it).

:func:`match_replay` opens either game of a match on the replay screen, move
by move (its current line: what undo took back is not in it).
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from termsolitaire.match import MatchError, MatchStore, Seat, Watcher
from termsolitaire.match.replay import fresh
from termsolitaire.play.hand import Hand
from termsolitaire.play.modes import WATCH
from termsolitaire.play.session import GameSession, clock_text
from termsolitaire.play.tables import ViewTable
from termsolitaire.replay import Replay
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.replay import replay_screen
from termsolitaire.screens.boards.spider import SpiderScreen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.match.polling import Follow, while_shown
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.line import TextLine
from termsolitaire.widgets.opponent import ended_text

POLL = 0.5
WATCH_BINDINGS: list[BindingType] = [
    Binding("Q,escape,q", "quit", "Back", id="watch-back", tooltip="stop watching"),
    Binding("question_mark,f1", "help", "Help", id="watch-help", tooltip="this help"),
]
READ_ONLY = WATCH.refusal


class WatchScreen(SpiderScreen, inherit_bindings=False):
    """The opponent's game, following the store."""

    BINDINGS: ClassVar[list[BindingType]] = WATCH_BINDINGS
    POLICY = WATCH

    def __init__(self, watcher: Watcher, look: CardLook | None = None) -> None:
        limit = int(watcher.info.limit // 60)
        session = GameSession(None, watcher.game, time_limit=limit)
        super().__init__(session, look, table=ViewTable(lambda: watcher.game))
        self.watcher = watcher
        self.revision = -1
        self.said = ""

    def title_text(self) -> str:
        w = self.watcher
        return self.sep.join(
            [f"Watching {w.info.player.name}", f"deal {self.game.deal}", f"table {w.table_id}"]
        )

    def hint(self) -> str:
        """How the watched game stands (:meth:`poll`'s words), else read only."""
        return self.said or READ_ONLY

    def on_mount(self) -> None:
        self.changes = Follow(self, self.watcher.store, self.poll, POLL)
        if self.changes.pushed:  # the clock still ticks; the game is read on changes
            self.set_interval(POLL, self.poll)
        self.poll()

    def on_unmount(self) -> None:
        self.changes.stop()

    def tick(self) -> None:
        """The watched clock is :meth:`poll`'s."""

    def show_clock(self) -> None:
        now = self.watcher.store.now()
        self.query_one("#clock", TextLine).set(clock_text(self.watcher.info.remaining_at(now)))

    @while_shown
    def poll(self) -> None:
        w = self.watcher
        try:
            store = w.store
            assert isinstance(store, MatchStore)  # a live Watch reads the whole store
            revision = store.revision(w.table_id) if self.changes.due() else self.revision
            if revision != self.revision:
                with self.changes.reading():
                    changed = w.refresh()
                if changed:
                    self.controller.hand = Hand(w.game)
                    self.redraw()
                self.revision = revision  # what was read: after the read, never before
        except MatchError as e:
            self.say(e.reason)
            return
        self.show_clock()
        info = w.info
        text = (
            f"{info.player.name}'s game has ended "
            f"({ended_text(info.reason, info.player)}): Q goes back"
            if info.reason
            else f"{info.player.name} is playing: {len(w.actions)} actions so far (Q goes back)"
        )
        if text != self.said:
            self.said = text
            self.say(text)

    def action_quit(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        keys = [("Q Escape", "stop watching"), ("? F1", "this help")]
        self.app.push_screen(HelpScreen(keys, "Watch", playing=False))

    def update_footer(self) -> None:
        """Watching has the same two keys throughout."""


def match_replay(seat: Seat, mine: bool, look: CardLook | None = None) -> BoardScreen:
    """The replay screen of this player's game (``mine``) or of the opponent's (once
    this player's own game has ended: NotAllowed before)."""
    if mine:
        game, name = seat.game, seat.store.me.name
    else:
        watcher = seat.watch()
        game = watcher.game
        other = seat.opponent()
        name = other.player.name if other is not None else "the opponent"
    if not game.history:
        raise MatchError("That game has no move to replay")
    # Whose game, in the header: both replays (and a hot-seat's two players') read
    # "Replay · Spider · …" alike.
    replay = Replay(fresh(seat.deal, seat.suits), list(game.history))
    return replay_screen(replay, look, heading=f"Replay of {name}")
