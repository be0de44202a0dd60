"""The match lobby (``termsolitaire match``): the tables on this host.

One row per table this player may see (their own first, then invitations,
then friends' tables, then the newest): its number, suits and limit, public
or private, who is seated, and where it stands. Below: what Enter does on
the highlighted table, invitations, and one line for what went wrong (a
refusal from the store, never a traceback).

Keys: Enter plays (back to one's own game, join a free seat, the results of
a finished table), ``n`` New (a table, the computer, hot-seat), ``i``
Invite, ``c`` a code, ``p`` Info, ``f`` friends and ignore lists, ``w``
Watch (a table where one does not sit: as a spectator, :mod:`.spectate`; ``v``
lets someone watch, ``o`` turns watching one's games on or off), ``x``
decline an invitation, ``l`` leave a table not started, ``a``
finished tables too, ``g`` the solo games (the menu; its Escape comes back
here), ``q`` quit. The list follows the store: it is read
again when the store changes: as soon as anyone writes, with PostgreSQL
(pushed); polled every second with the file backend.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from termsolitaire.match import MatchError, Seat, TableInfo, codes
from termsolitaire.match.errors import TableFull, hot_seat_kept
from termsolitaire.match.services import MatchServices, NewGame
from termsolitaire.match.shares import shared_game_by
from termsolitaire.play.session import Services, describe, played
from termsolitaire.replay import Replay, replay_of
from termsolitaire.rules.sharecode import normal
from termsolitaire.screens.boards.replay import replay_screen
from termsolitaire.screens.dialogs.ask import AskScreen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.dialogs.stack import pop_to
from termsolitaire.screens.match.home import LobbyHome
from termsolitaire.screens.match.lobby_text import COLUMNS, detail_text, row_cells
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.newgame import NewGameScreen
from termsolitaire.screens.match.players import PlayersScreen
from termsolitaire.screens.match.polling import Follow, while_shown
from termsolitaire.screens.match.spectate import invite_spectator, spectate, toggle_watching
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.screens.notices import tell
from termsolitaire.widgets.cards import CardLook, app_look
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.line import TextLine

POLL = 1.0
"""Seconds between two looks at the store's revision (the file backend: PostgreSQL
pushes every change)."""
GAP = 0.5
"""Seconds between two reads of the list when many changes are pushed (every
session's lobby reads it again on each write anywhere)."""
REREAD = 10.0
"""Seconds after which the list is read again anyway (clocks run out unwritten)."""


AWAY = 3600.0
"""A game of this player's that ran out of time this many seconds ago or less, and
after they were last seen, is told at the lobby's first show, once
(:meth:`LobbyScreen.tell_ended_away`)."""

SHARE_CODE_MOST = 8192
"""The longest code the lobby's ``c`` takes: a self-contained share code grows
with the game (a Spider game of 800 actions, 351 characters); the answer's
usual 64 cut one short, and it was refused as no code at all."""


class LobbyScreen(LobbyHome):
    CSS_PATH = "lobby.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play", id="lobby-play"),
        Binding("n", "new", "New", id="lobby-new"),
        Binding("i", "invite", "Invite", id="lobby-invite"),
        Binding("c", "code", "Code", id="lobby-code"),
        Binding("p", "info", "Info", id="lobby-info", show=False),
        Binding("f", "lists", "Friends", id="lobby-lists", show=False),
        Binding("w", "watch", "Watch", id="lobby-watch"),
        Binding("v", "invite_spectator", "Spectator", id="lobby-spectator", show=False),
        Binding("o", "watching", "Watching on/off", id="lobby-watching", show=False),
        Binding("g", "games", "Games", id="lobby-games"),
        Binding("d", "daily", "Daily", id="lobby-daily"),
        Binding("x", "decline", "Decline", id="lobby-decline", show=False),
        Binding("l", "leave", "Leave", id="lobby-leave", show=False),
        Binding("a", "all", "Finished too", id="lobby-all", show=False),
        Binding("question_mark,f1", "help", "Help", id="lobby-help"),
        Binding("q", "quit", "Quit", id="lobby-quit"),
        Binding("escape", "back", "Back", id="lobby-back", show=False),
    ]

    def __init__(
        self,
        services: Services,
        match: MatchServices,
        look: CardLook | None = None,
        *,
        join: str | None = None,
    ) -> None:
        super().__init__()
        self.services = services
        self.match = match
        self.look = look or CardLook()
        self.join_code = join
        self.tables: list[TableInfo] = []
        self.revision = -1
        self.read_at = 0.0
        self.finished_too = False
        self.last_new = NewGame()
        self.opponents: dict[int, str | None] = {}
        """Who sat opposite this player at each of their open tables, as last read."""
        self.declines_told: set[tuple[int, str]] = set()
        """The declined invitations already told: (table, player id)."""
        self.going: set[int] = set()
        """This player's tables where their game was going at the last read
        (:meth:`tell_ran_out`)."""

    @property
    def me(self) -> str:
        return self.match.me.id

    def compose(self) -> ComposeResult:
        yield TextLine("", id="lobby-title")
        yield TextLine("", id="lobby-daily")
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True, id="tables")
        for name, width in COLUMNS:
            table.add_column(name, width=width, key=name)
        yield table
        yield Static("", id="detail")
        yield Static("", id="invites")
        yield TextLine("", fit=True, id="status")
        yield KeyLine()

    def on_mount(self) -> None:
        tell(self, self.match.store.messages)
        self.changes = Follow(self, self.match.store, self.poll, POLL, GAP)
        self.reload()
        self.query_one(DataTable).focus()
        if self.changes.pushed:
            self.set_interval(REREAD, self.poll)
        self.app.set_interval(0.25, self.match.pump)  # the computer plays on any screen
        self.say(self.saved_games_line())
        self.tell_ended_away()
        if self.join_code:
            code, self.join_code = self.join_code, None
            self.join_by_code(code)
        self._fresh = True
        self.call_after_refresh(self._after_first_paint)

    _fresh = False
    """Mounted, and not shown yet: the list was just read (:meth:`on_mount`)."""

    def _after_first_paint(self) -> None:
        self._fresh = False

    def on_unmount(self) -> None:
        self.changes.stop()

    def on_screen_resume(self) -> None:
        if self._fresh:  # shown for the first time: the list and the line are the mount's
            self._fresh = False
            return
        self.reload()
        status = self.query_one("#status", TextLine).text
        if not status or status.startswith("Saved: "):  # a message stays until replaced
            self.say(self.saved_games_line())

    def look_changed(self) -> None:
        """The card style changed (the settings over the lobby): the lobby's lines
        are written again in it, and the boards it opens next are drawn in it."""
        self.look = app_look(self)
        if self.is_mounted:
            self.reload()

    def saved_games_line(self) -> str:
        """A reminder of the solo games in progress (over SSH the lobby is the home
        screen: a player coming back must see their game was kept). A deal left
        without a move is not one: the menu has no Resume line for it either."""
        saved = [s for s in self.services.saves.all()[0] if played(s.game)]
        if not saved:
            return ""
        saved.sort(key=lambda s: s.saved_at, reverse=True)
        more = f" (and {len(saved) - 1} more)" if len(saved) > 1 else ""
        return f"Saved: {describe(saved[0])}{more} · g to resume"

    # ------------------------------------------------------------ reading

    def say(self, text: str) -> None:
        self.query_one("#status", TextLine).set(self.look.words(text))

    @while_shown
    def poll(self) -> None:
        """Read the list again when the store has changed, or after :data:`REREAD`.
        Not while another screen covers the lobby (a board played from it): nobody
        sees the list then, and :meth:`on_screen_resume` reads it on the way back.
        With 50 players on boards, each lobby below re-read the tables at every
        write by anyone, about one query per player per move."""
        if not self.is_active:  # another screen (a board, a dialog) is on top
            return
        revision = self.revision
        if self.changes.due():
            try:
                revision = self.match.store.revision()
            except MatchError as e:
                self.say(e.reason)
                return
        if revision != self.revision or self.match.now() - self.read_at > REREAD:
            self.reload()

    def reload(self) -> None:
        """Read the tables and invitations again and show them, keeping the row."""
        store = self.match.store
        try:
            revision = store.revision()
        except MatchError as e:  # (the store away: the reread or its return says when)
            self.say(e.reason)
            return
        try:
            with self.changes.reading():  # busy, away for a moment: again at the next look
                self.tables = store.tables(include_finished=self.finished_too)
                invitations = store.invitations()
        except MatchError as e:
            self.say(e.reason)
            return
        self.revision = revision  # what was read: after the read, never before
        self.read_at = self.match.now()
        me = self.me
        table = self.query_one(DataTable)
        keep = self.selected()
        table.clear()
        for t in self.tables:
            cells, height = row_cells(t, me, self.waiting_guest(t))
            table.add_row(*cells, key=str(t.id), height=height)
        self.tell_arrivals()
        self.tell_declines()
        self.tell_ran_out()
        if keep is not None:
            self.select(keep.id)
        shown = len(self.tables)
        what = "table" if self.finished_too else "open table"
        self.query_one("#lobby-title", TextLine).set(
            self.look.words(
                f"Spider match lobby · you are {self.match.me.name} · {shown} {what}"
                + ("" if shown == 1 else "s")
            )
        )
        self.query_one("#invites", Static).update(
            "\n".join(
                f"{i.host.name} invites you to table {i.table_id} ({i.suits} suit"
                f"{'s' if i.suits > 1 else ''}, {int(i.limit // 60)} min): Enter there "
                "joins, x declines"
                for i in invitations[:2]
            )
        )
        self.show_detail()
        self.show_daily()

    def show_daily(self) -> None:
        """The daily most played today, under the title (``d`` opens them all)."""
        from termsolitaire.match.daily import Daily
        from termsolitaire.screens.daily import headline

        try:
            line = headline(Daily(self.match.store))
        except MatchError:
            line = ""
        text = f"{line} · d: dailies" if line else ""
        self.query_one("#lobby-daily", TextLine).set(self.look.words(text))

    def on_click(self, event: events.Click) -> None:
        """A click on the daily line opens the dailies, as its ``d: dailies`` says
        ``d`` does: it did nothing (playtest40b)."""
        line = self.query_one("#lobby-daily", TextLine)
        if event.widget is line and str(line.text).strip():
            self.action_daily()

    def action_daily(self) -> None:
        """The daily deals and their leaderboards, on this lobby's store."""
        from termsolitaire.match.daily import Daily
        from termsolitaire.screens.daily import DailyScreen

        try:
            daily = Daily(self.match.store)
        except MatchError as e:
            self.say(e.reason)
            return
        self.app.push_screen(DailyScreen(daily, self.look))

    def tell_ended_away(self) -> None:
        """At the lobby's first show (a login), say which of this player's games ran
        out of time in the last :data:`AWAY` seconds and have finished: the lobby
        lists finished tables only after ``a``, so a match whose clock ran out
        while its player was away (hung up, the server restarting) was simply
        gone, its results nowhere said."""
        if self.finished_too:
            return
        try:
            tables = self.match.store.tables(include_finished=True)
        except MatchError:
            return
        now = self.match.now()
        ended = [
            t.id
            for t in tables
            if t.state == "finished"
            and (at := self.ran_out_unseen(t)) is not None
            and now - at < AWAY
        ]
        self.tell_ended(ended)

    def ran_out_unseen(self, t: TableInfo) -> float | None:
        """When this player's game at ``t`` ran out of time, if it did after they were
        last seen (:attr:`MatchStore.away_since`: told once, not again at a later
        login); else None."""
        mine, since = t.seat_of(self.me), self.match.store.away_since
        if mine is None or mine.reason != "time" or mine.finished_at is None:
            return None
        return mine.finished_at if since is None or mine.finished_at > since else None

    def tell_ended(self, ended: list[int], listed: bool = False) -> None:
        """Say that this player's games at tables ``ended`` ran out of time (a toast,
        10 s), and note it in the store: not told again (:meth:`MatchStore.seen`).
        ``listed``: the tables are still in the list (the opponent plays on), for
        now: the opponent's clock may run out a second later and take it off, so
        the words hold either way."""
        if not ended:
            return
        with contextlib.suppress(MatchError):  # not noted: told again, no worse
            self.match.store.seen()
        which = ", ".join(str(i) for i in sorted(ended))
        games = "Your game at table" if len(ended) == 1 else "Your games at tables"
        where = (
            "Enter on its row shows the results (a lists finished tables)"
            if listed
            else "a lists finished tables, Enter there shows the results"
        )
        self.notify(f"{games} {which} ran out of time and ended: {where}", timeout=10)

    def tell_ran_out(self) -> None:
        """Say so when this player's game runs out of time while the lobby shows (they
        left the board with Q): the table left the list, nothing said. Not a game
        whose results they were shown (:attr:`MatchStore.away_since`), nor one
        told already."""
        me, store = self.me, self.match.store
        by_id = {t.id: t for t in self.tables}
        going = {t.id for t in self.tables if (m := t.seat_of(me)) is not None and m.playing}
        gone: list[int] = []
        listed: list[int] = []
        for table_id in sorted(self.going - going):
            t = by_id.get(table_id)
            if t is None:  # finished (or closed): read alone, the list has no more of it
                try:
                    t = store.table(table_id)
                except MatchError:
                    continue
            if self.ran_out_unseen(t) is not None:
                (listed if table_id in by_id else gone).append(table_id)
        self.going = going
        self.tell_ended(gone)
        self.tell_ended(listed, listed=True)

    def tell_arrivals(self) -> None:
        """Say so when someone sits down at a table where this player waits (their
        own, or one they joined), once, on the first read that shows them."""
        me = self.me
        seen: dict[int, str | None] = {}
        for t in self.tables:
            mine = t.seat_of(me)
            if mine is None or mine.finished:
                continue
            other = t.opponent_of(me)
            seen[t.id] = other.player.id if other else None
            if other is not None and t.id in self.opponents and self.opponents[t.id] is None:
                more = "start your game" if not mine.started else "back to your game"
                self.say(f"{other.player.name} sat down at your table {t.id}: Enter, {more}")
        self.opponents = seen

    def tell_declines(self) -> None:
        """Say so when someone this player invited declines (once per lobby shown)."""
        try:
            declined = self.match.store.declined()
        except MatchError:
            return
        told = self.declines_told
        self.declines_told = {(table_id, who.id) for table_id, who in declined}
        for table_id, who in declined:  # (one invited again and declining again: again)
            if (table_id, who.id) not in told:
                self.say(
                    f"{who.name} declined your invitation to table {table_id}: "
                    "i invites someone else"
                )

    def selected(self) -> TableInfo | None:
        table = self.query_one(DataTable)
        if not self.tables or table.cursor_row is None or table.row_count == 0:
            return None
        row = min(table.cursor_row, len(self.tables) - 1)
        return self.tables[row]

    def select(self, table_id: int) -> None:
        for row, t in enumerate(self.tables):
            if t.id == table_id:
                self.query_one(DataTable).move_cursor(row=row)
                break
        self.show_detail()

    def show_detail(self) -> None:
        t = self.selected()
        new = "n: open one, against a person, the computer or hot-seat"
        if t is not None:
            text = detail_text(t, self.me, self.waiting_guest(t), self.playing_guest(t))
        elif self.finished_too:
            text = f"No table on this host, open or finished.\n{new}"
        else:
            # A match that ended while its player was away leaves the open list:
            # where its results are is said here, not only in the help.
            text = f"No table is open on this host; a: finished tables too.\n{new}"
        self.query_one("#detail", Static).update(self.look.words(text))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_play()

    # ------------------------------------------------------------ playing

    def board(self, seat: Seat, **kw: Any) -> MatchScreen:
        """The board of ``seat``, which the lobby shows next. Its line forgets what it
        said: "Enter, start your game" stayed there, false, after the player had
        started and come back; back from the board the line starts afresh."""
        self.say("")
        return MatchScreen(seat, self.match, self.look, **kw)

    def action_play(self) -> None:
        t = self.selected()
        if t is None:
            self.say("No table here: n opens one")
            return
        try:
            if t.seat_of(self.me) is not None:
                self.app.push_screen(self.own_board(t))
            else:
                self.app.push_screen(self.board(self.match.store.join(t.id)))
        except TableFull as e:  # a click on a game to see it: the way to is w
            self.say(f"{e.reason}; w watches both players live")
        except MatchError as e:
            self.say(e.reason)

    def waiting_guest(self, t: TableInfo) -> str | None:
        """The name of this player's hot-seat guest who plays second at ``t`` and has
        not sat down yet (the lobby said "root vs (free)", "seat free" while the
        seat was theirs)."""
        if t.host.id != self.me or len(t.seats) > 1 or t.state == "finished":
            return None
        return self.guest_name(t)

    def playing_guest(self, t: TableInfo) -> str | None:
        """The name of this player's hot-seat guest playing their game at ``t`` now
        (Enter brings their board back)."""
        other = t.opponent_of(self.me)
        if t.host.id != self.me or other is None or not other.started or other.finished:
            return None
        return self.guest_name(t)

    def guest_name(self, t: TableInfo) -> str | None:
        """The name of the hot-seat guest at ``t`` (None: none, or not readable now)."""
        try:
            guest = self.match.guest_of(t)
        except MatchError:
            return None
        return None if guest is None else guest.name

    def own_board(self, t: TableInfo) -> MatchScreen:
        """This player's seat at ``t`` (hot-seat: the seat whose turn it is)."""
        seat = self.match.store.seat(t.id)
        guest = self.match.guest_of(t)
        if guest is None:
            return self.board(seat)
        if not seat.finished:
            return self.board(seat, next_player=guest)
        other = t.opponent_of(self.me)
        if other is not None and other.finished:
            return self.board(seat)  # both done: the results
        if other is not None:
            return self.board(self.match.hand_over(t.id, guest), hidden=True)
        return self.board(seat, next_player=guest)  # the hand-over, again

    def action_new(self) -> None:
        def chosen(new: NewGame | None) -> None:
            if new is None:
                return
            self.last_new = new
            try:
                seat = self.match.open(new)
                info = seat.info()
                guest = self.match.guest_of(info) if new.kind == "hotseat" else None
            except MatchError as e:
                self.say(e.reason)
                return
            self.reload()
            self.select(seat.table_id)
            if new.kind == "table":
                self.say(
                    f"Table {seat.table_id} is open (code {info.code}): Enter starts your game, "
                    "i invites a player"
                )
                return
            self.app.push_screen(self.board(seat, next_player=guest))

        self.app.push_screen(NewGameScreen(self.last_new), chosen)

    def action_code(self) -> None:
        """A table's code joins it; a share code (this host's or a self-contained
        one) shows its game's replay: over SSH the lobby is where a player opens
        what the share panel gave them (they have no shell for ``replay``)."""
        joined: list[Seat] = []
        replays: list[Replay] = []

        def submit(text: str) -> str | None:
            try:
                if len(normal(text)) in (0, codes.LENGTH):  # a table's (share codes: 7, 70+)
                    joined.append(self.match.store.join_code(text))
                else:  # a host code's replay names who shared it, as ``replay CODE``'s
                    replays.append(replay_of(*shared_game_by(self.match.store, text)))
            except MatchError as e:
                return e.reason
            return None

        def done(answer: str | None) -> None:
            if joined:
                self.app.push_screen(self.board(joined[0]))
            elif replays:
                self.app.push_screen(replay_screen(replays[0], self.look))

        self.app.push_screen(
            AskScreen(
                "Join a table by its code, or open a shared game",
                submit,
                placeholder="ABCD-EFGH, or a share code",
                max_length=SHARE_CODE_MOST,
                lines=True,
            ),
            done,
        )

    def join_by_code(self, code: str) -> None:
        """``termsolitaire match --join CODE``."""
        try:
            seat = self.match.store.join_code(code)
        except MatchError as e:
            self.say(e.reason)
            return
        self.app.push_screen(self.board(seat))

    def action_invite(self) -> None:
        t = self.selected()
        if t is None or t.host.id != self.me:
            self.say("Highlight a table of yours first (n opens one)")
            return
        if t.full:
            self.say(f"Table {t.id} is full: both seats are taken")
            return
        guest = self.waiting_guest(t)
        if guest is not None:  # the store would refuse whoever came
            self.say(str(hot_seat_kept(t.id, guest)))
            return

        def submit(text: str) -> str | None:
            try:
                self.invited = self.match.store.invite(t.id, text)
            except MatchError as e:
                return e.reason
            return None

        def done(answer: str | None) -> None:
            if answer is not None:
                self.say(f"Invited {self.invited.name} to table {t.id}; they see it in their lobby")
                self.reload()

        self.app.push_screen(
            AskScreen(
                f"Invite a player to table {t.id} (or give them the code {t.code})",
                submit,
                placeholder="their name or id",
            ),
            done,
        )

    def action_decline(self) -> None:
        t = self.selected()
        if t is None or not t.invited:
            self.say("Highlight a table you are invited to, then x declines")
            return
        try:
            self.match.store.decline(t.id)
        except MatchError as e:
            self.say(e.reason)
            return
        self.say(f"Declined {t.host.name}'s invitation to table {t.id}")
        self.reload()

    def action_leave(self) -> None:
        t = self.selected()
        if t is None or t.seat_of(self.me) is None:
            self.say("Highlight a table where you sit, then l leaves it")
            return
        try:
            self.match.store.seat(t.id).leave()
        except MatchError as e:
            self.say(e.reason)
            return
        self.say(f"You left table {t.id}")
        self.reload()

    def action_watch(self) -> None:
        from termsolitaire.screens.match.watch import WatchScreen

        t = self.selected()
        if t is None:
            self.say("No table here to watch")
            return
        if t.seat_of(self.me) is None:
            return spectate(self, t.id)  # a spectator: both boards, live
        target = t.opponent_of(self.me)
        if target is None:
            self.say(f"Nobody else sits at table {t.id} yet")
            return
        try:
            watcher = self.match.store.watch(t.id, target.number)
        except MatchError as e:
            self.say(e.reason)
            return
        self.app.push_screen(WatchScreen(watcher, self.look))

    def action_invite_spectator(self) -> None:
        invite_spectator(self, self.selected())

    def action_watching(self) -> None:
        toggle_watching(self)

    def action_info(self) -> None:
        t = self.selected()
        other = t.opponent_of(self.me) if t is not None else None
        self.app.push_screen(PlayersScreen(self.match, other.player if other else None))

    def action_lists(self) -> None:
        self.app.push_screen(PlayersScreen(self.match))

    def action_all(self) -> None:
        self.finished_too = not self.finished_too
        self.reload()
        self.say("Finished tables shown too" if self.finished_too else "Open tables only")

    def action_help(self) -> None:
        keys = [
            ("↑ ↓", "choose a table"),
            ("Enter", "play: your game, a free seat, or a finished table's results"),
            ("n", "new game: a table, the computer, or hot-seat at this terminal"),
            ("i", "invite a player to your table"),
            ("c", "join a table by its code"),
            ("p", "info: the highlighted opponent's match record (then p: anyone's)"),
            ("f", "your record, friends and ignore lists"),
            ("w", "watch the highlighted table: your opponent, or both players live"),
            ("v", "let a player watch your table (a private table's spectators)"),
            ("o", "watching on/off: whether others may watch your games"),
            ("x", "decline the highlighted invitation"),
            ("l", "leave a table where you have not started"),
            ("a", "show finished tables too (their results and replays)"),
            ("g", "the solo games: the menu of all four (Escape there comes back)"),
            ("d", "the daily deals (one attempt a day) and their leaderboards"),
            ("? F1", "this help"),
            ("q", "quit (back to the menu when opened from it)"),
            ("Escape", "back to the menu when opened from it (never quits)"),
        ]
        self.app.push_screen(HelpScreen(keys, "Match lobby"))

    def action_games(self) -> None:
        """The menu of the solo games: back to it when the lobby was opened from it."""
        if pop_to(self.app, MenuScreen) is None:
            self.app.push_screen(MenuScreen(self.services))

    def action_quit(self) -> None:
        """Leave (after a question when a match game of this player's is running);
        opened from the menu, back to it."""
        if any(isinstance(s, MenuScreen) for s in self.app.screen_stack):
            self.action_games()
        else:
            self.app.quit_app()  # type: ignore[attr-defined]

    def action_back(self) -> None:
        """Escape: back to the menu when the lobby was opened from it; never quits."""
        if any(isinstance(s, MenuScreen) for s in self.app.screen_stack):
            self.action_games()
