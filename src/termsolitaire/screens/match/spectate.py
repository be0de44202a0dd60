"""A spectator at a table: both players' boards, live and read only.

Opened from the lobby (``w`` on a table where this player does not sit). Each
board is a :class:`~termsolitaire.match.Watcher`, the seat's game replayed
from the store and brought up to date when the table's revision moves
(:class:`~.polling.Follow`: pushed by PostgreSQL, else a poll): a spectator
reads the store, never a player's process, so watching cannot slow anyone.
Side by side where the window is wide enough for two Spider boards, else one
at a time (Tab shows the other). While the screen is up it renews this
player's presence in the store every :data:`~termsolitaire.match.watching.BEAT`
seconds; the players' side panels count the spectators.

:class:`WatchCount` is the players' half: how many watch their table, read
when the table changes and every few seconds (a killed spectator expires
without a write).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from termsolitaire.match import MatchError, MatchStore, SeatInfo, StoreError, Watcher
from termsolitaire.match.watching import BEAT
from termsolitaire.play.session import clock_text
from termsolitaire.rules.spider import RUN, Spider
from termsolitaire.screens.boards.spider import SpiderScreen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.match.polling import Follow, while_shown
from termsolitaire.widgets.board import Board, min_width
from termsolitaire.widgets.cards import CardLook, app_look
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.line import TextLine
from termsolitaire.widgets.opponent import ended_text

POLL = 0.5
COUNT_EVERY = 5.0
"""Seconds between two counts of the spectators on a player's screen (besides
every change of the table): a spectator whose process died stops counting
within :data:`~termsolitaire.match.watching.EXPIRY` plus this."""
WIDE = 2 * min_width(SpiderScreen.SLOTS) + 1
"""Columns from which both boards show side by side."""


def watching_text(count: int) -> str:
    """``1 watching`` (empty for none), for a player's side panel or status."""
    return f"{count} watching" if count else ""


class WatchCount:
    """How many watch a table, as a player's screen shows it: read again when
    the table's revision moved, else at most every :data:`COUNT_EVERY` seconds."""

    def __init__(self, store: object, table_id: int) -> None:
        self.store = store if isinstance(store, MatchStore) else None
        self.table_id = table_id
        self.count = 0
        self.read_at = -COUNT_EVERY

    def update(self, moved: bool) -> int:
        now = time.monotonic()
        if self.store is not None and (moved or now - self.read_at >= COUNT_EVERY):
            self.read_at = now
            with contextlib.suppress(MatchError):
                self.count = self.store.spectators(self.table_id)
        return self.count


def seat_line(info: SeatInfo, now: float) -> str:
    """One player's figures on one line, over their board."""
    state = f"ended: {ended_text(info.reason, info.player)}" if info.reason else "playing"
    if not info.started:
        state = "not started"
    return (
        f"{info.player.name}  score {info.score}  runs {info.runs}/8  moves {info.moves}  "
        f"left {clock_text(info.remaining_at(now))}  {state}"
    )


def spider_marks(game: Spider, pile: str) -> dict[str, Any]:
    """What a Spider pile shows (as :meth:`SpiderScreen.pile_marks`, no cursor)."""
    marks: dict[str, Any] = {"cards": game.pile(pile), "links": game.sequence_links(pile)}
    if pile == "stock":
        marks["badge"] = str(game.packets)
    elif pile == "done":
        marks.update(cards=game.pile("done")[::RUN], key=f"{game.runs}/8", links=())
    return marks


class SpectatorScreen(Screen[None]):
    """A table's boards as a spectator sees them (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "other", "Other board", id="spectate-other"),
        Binding("q,escape", "quit", "Back", id="spectate-back"),
        Binding("question_mark,f1", "help", "Help", id="spectate-help"),
    ]
    DEFAULT_CSS = """
    SpectatorScreen #spectate-head { height: 1; background: $panel; }
    SpectatorScreen #boards { height: 1fr; }
    SpectatorScreen .side { width: 1fr; height: 1fr; }
    SpectatorScreen .who { height: 1; }
    SpectatorScreen #spectate-status { height: 1; background: $panel; }
    """

    def __init__(self, store: MatchStore, table_id: int, look: CardLook | None = None) -> None:
        super().__init__()
        self.store = store
        self.table_id = table_id
        self.look = look or CardLook()
        seats = store.watch_seats(table_id)  # MatchError: the lobby says why
        self.watchers = [Watcher(store, table_id, s.number) for s in seats]
        self.boards = [
            Board(SpiderScreen.PLACES, SpiderScreen.SLOTS, SpiderScreen.SPLIT, self.look)
            for _ in self.watchers
        ]
        self.shown = 0
        """The board shown when only one fits."""
        self.stopped: set[int] = set()
        """Boards whose player turned watching off since this screen opened."""
        self.revision = -1
        self.count = 0
        self.beat_at = 0.0
        self.said = ""
        self.title_text = ""

    def compose(self) -> ComposeResult:
        info = self.store.table(self.table_id)
        suits = f"{info.suits} suit{'s' if info.suits > 1 else ''}"
        self.title_text = f"Watching table {self.table_id} · {suits} · {info.minutes} min"
        with Horizontal(id="spectate-head"):
            yield TextLine(self.look.words(self.title_text), id="spectate-title")
            yield TextLine("", align="right", id="spectate-count")
        with Horizontal(id="boards"):
            for i, board in enumerate(self.boards):
                with Vertical(classes="side", id=f"side-{i}"):
                    yield TextLine("", classes="who", id=f"who-{i}")
                    yield board
        yield TextLine("", fit=True, id="spectate-status")
        yield KeyLine()

    def look_changed(self) -> None:
        """The card style changed (the settings over this screen, by the palette):
        the boards, the title and the lines are drawn again in it (the boards kept
        the glyphs they opened with)."""
        self.look = app_look(self)
        for board in self.boards:
            board.set_look(self.look)
        if self.is_mounted:
            self.query_one("#spectate-title", TextLine).set(self.look.words(self.title_text))
            self.show_boards()
            self.said = ""
            self.poll()

    def on_mount(self) -> None:
        self.changes = Follow(self, self.store, self.poll, POLL)
        if self.changes.pushed:  # the clocks still tick; the store is read on changes
            self.set_interval(POLL, self.poll)
        self.lay_out()
        self.beat()
        self.poll()
        self.show_boards()

    def on_unmount(self) -> None:
        self.changes.stop()
        with contextlib.suppress(MatchError):  # else the presence expires by itself
            self.store.stop_spectating(self.table_id)

    def on_resize(self) -> None:
        self.lay_out()

    @property
    def wide(self) -> bool:
        return self.app.size.width >= WIDE

    def lay_out(self) -> None:
        """Both boards when they fit side by side, else the one chosen with Tab."""
        for i in range(len(self.boards)):
            self.query_one(f"#side-{i}").display = self.wide or i == self.shown
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "other":
            return len(self.boards) > 1 and not self.wide
        return True

    def beat(self) -> None:
        """This player is still watching (every BEAT seconds)."""
        self.beat_at = time.monotonic()
        try:
            self.count = self.store.spectate(self.table_id)
        except MatchError as e:
            self.say(e.reason)

    def say(self, text: str) -> None:
        self.query_one("#spectate-status", TextLine).set(self.look.words(text))

    def show_boards(self) -> None:
        for watcher, board in zip(self.watchers, self.boards, strict=True):
            game = watcher.game
            assert isinstance(game, Spider)
            for name, view in board.piles.items():
                view.show(**spider_marks(game, name))

    @while_shown
    def poll(self) -> None:
        if time.monotonic() - self.beat_at >= BEAT:
            self.beat()
        try:
            revision = self.store.revision(self.table_id) if self.changes.due() else self.revision
            if revision != self.revision:
                try:
                    with self.changes.reading():
                        self.read_boards()
                except StoreError:
                    raise
                except MatchError:  # a player turned watching off: an answer
                    self.revision = revision
                    raise
                self.revision = revision  # what was read: after the read, never before
        except MatchError as e:  # the store went away, or the refusal
            self.say(e.reason)
            return
        now = self.store.now()
        for i, w in enumerate(self.watchers):
            line = seat_line(w.info, now)
            if i in self.stopped:
                line = f"{w.info.player.name} turned watching off: this board stopped"
            self.query_one(f"#who-{i}", TextLine).set(line)
        self.query_one("#spectate-count", TextLine).set(watching_text(self.count))
        ended = all(w.info.finished for w in self.watchers)
        text = "The games have ended: Q goes back" if ended else "Watching live, read only"
        if len(self.watchers) > 1 and not self.wide:
            other = self.watchers[1 - self.shown].info.player.name
            text += f" · Tab: {other}'s board"
        if text != self.said:
            self.said = text
            self.say(text)

    def read_boards(self) -> None:
        """The boards still allowed, the games and the count, read again."""
        self.still_allowed()
        moved = [w.refresh() for i, w in enumerate(self.watchers) if i not in self.stopped]
        self.count = self.store.spectators(self.table_id)
        if any(moved):
            self.show_boards()

    def still_allowed(self) -> None:
        """A player who turned watching off since: their board stops following, with
        a sentence over it (MatchError, said on the status line, when no player
        may be watched any more)."""
        allowed = {s.number for s in self.store.watch_seats(self.table_id)}
        self.stopped = {i for i, w in enumerate(self.watchers) if w.number not in allowed}

    def action_other(self) -> None:
        self.shown = (self.shown + 1) % len(self.boards)
        self.said = ""
        self.lay_out()
        self.poll()

    def action_quit(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        keys = [("Tab", "the other player's board"), ("Q Escape", "stop watching")]
        self.app.push_screen(HelpScreen(keys, "Watching a table", playing=False))


# ------------------------------------------------------------ the lobby's keys


def spectate(lobby: Any, table_id: int) -> None:
    """``w`` in the lobby on a table where this player does not sit: watch it."""
    try:
        screen = SpectatorScreen(lobby.match.store, table_id, lobby.look)
    except MatchError as e:
        lobby.say(e.reason)
        return
    lobby.app.push_screen(screen)


def invite_spectator(lobby: Any, table: Any) -> None:
    """``v`` in the lobby: let a player watch the highlighted table (one of this
    player's; the way to a private table's spectators)."""
    from termsolitaire.screens.dialogs.ask import AskScreen

    if table is None or table.seat_of(lobby.me) is None:
        lobby.say("Highlight a table where you sit first")
        return
    invited: list[str] = []

    def submit(text: str) -> str | None:
        try:
            invited.append(lobby.match.store.invite_to_watch(table.id, text).name)
        except MatchError as e:
            return e.reason
        return None

    def done(answer: str | None) -> None:
        if answer is not None and invited:
            lobby.say(f"{invited[-1]} may watch table {table.id}; they see it in their lobby")

    lobby.app.push_screen(
        AskScreen(f"Who may watch table {table.id}?", submit, placeholder="their name or id"),
        done,
    )


def toggle_watching(lobby: Any) -> None:
    """``o`` in the lobby: let others watch this player's games, or not."""
    store = lobby.match.store
    try:
        allowed = not store.watchable()
        store.set_watchable(allowed)
    except MatchError as e:
        lobby.say(e.reason)
        return
    lobby.say(
        "Others may watch your games (o: no more)"
        if allowed
        else "Nobody may watch your games now (o: let them again)"
    )
