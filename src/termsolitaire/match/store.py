"""The shared store of Spider matches, as one player sees and uses it.

:class:`MatchStore` is the lobby's one object: it lists the tables this player
may see, opens, joins and invites, keeps friends and ignore lists and the
match record, and hands out a :class:`~termsolitaire.match.seat.Seat` to play
at a table. Every method acts as ``store.me``; the store never lets one player
act for another.

>>> import tempfile
>>> from termsolitaire.match import MatchStore, Player
>>> tmp = tempfile.TemporaryDirectory()
>>> d = tmp.name
>>> ann = MatchStore(Player.make("ann"), d, now=lambda: 1000.0)
>>> seat = ann.open_table(suits=2, minutes=5, public=True, deal=7)
>>> [(t.id, t.state, t.minutes, [s.player.name for s in t.seats]) for t in ann.tables()]
[(1, 'waiting', 5, ['ann'])]
>>> bob = MatchStore(Player.make("bob"), d, now=lambda: 1010.0)
>>> bob.join(1).number
2
>>> bob.table(1).state
'playing'
>>> ann.close(); bob.close(); tmp.cleanup()
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..rules.deal import MAX_RANDOM_DEAL
from ..storage.paths import paths
from . import codes
from .clock import DEFAULT_LIMIT, JOIN_WINDOW, LIMITS, START_GRACE, SUITS
from .db import BUSY_MS, MatchDatabase, match_dir, open_database
from .errors import (
    BadChoice,
    BadCode,
    CodeExpired,
    MatchError,
    NotAllowed,
    NotInvited,
    StoreError,
    TableClosed,
    TableFull,
    TooManyTries,
    hot_seat_kept,
)
from .identity import (
    LOCAL_MARK,
    MAX_NAME,
    Player,
    current_player,
    is_local,
    looks_alike,
)
from .model import Invitation, TableInfo
from .results import Reading
from .rows import (
    hot_seat_guest,
    is_invited,
    players_by_id,
    seat_infos,
    seat_rows,
    select_in,
    table_row,
    table_state,
)
from .watching import Spectating, has_watched, watch_invited, watching

if TYPE_CHECKING:
    from .seat import Seat

MAX_HOSTED = 5
"""Tables one player may host at once that are not finished."""
CODE_TRIES = 10
CODE_TRY_WINDOW = 600.0
"""At most CODE_TRIES wrong codes per player in CODE_TRY_WINDOW seconds."""
HORIZON = JOIN_WINDOW + START_GRACE + max(LIMITS) * 60.0
"""After this long every game at a table has ended, whatever happened."""

Now = Callable[[], float]


def local_player_names(directory: str | Path | None = None) -> list[str]:
    """The names of the local players the match database in ``directory`` has seen,
    read without registering anyone (the SSH server keeps them from new keys);
    empty when there is no database yet."""
    rows = _read_existing(
        directory, "read the players", lambda db: db.execute("SELECT id, name FROM players")
    )
    return [row["name"] for row in rows or () if is_local(row["id"])]


def _read_existing(
    directory: str | Path | None, what: str, query: Callable[[sqlite3.Connection], Any]
) -> Any:
    """``query``'s rows, all fetched, from the match database in ``directory`` opened
    for this one read and never created; None when there is none or it cannot be
    read (the SSH server asks, and must not stop for a store it does not own)."""
    try:
        db = open_database(match_dir(directory), create=False)
    except StoreError:
        return None
    try:
        with db.read(what) as conn:
            return query(conn).fetchall()
    except StoreError:
        return None
    finally:
        db.close()


def watching_now(directory: str | Path | None, player_id: str, now: float | None = None) -> bool:
    """Whether ``player_id`` is watching a table at this moment (their spectator
    screen renewed its presence within :data:`~.watching.EXPIRY`): the SSH server
    asks before it ends a session for want of keys, since a spectator types
    nothing. False when there is no database or it cannot be read."""
    when = time.time() if now is None else now
    return bool(
        _read_existing(directory, "see who watches", lambda db: watching(db, player_id, when))
    )


def guest_gone(directory: str | Path | None, guest: Player, now: Now = time.time) -> int:
    """A guest of ``serve --open`` whose session has ended (nobody can come back as
    them: a guest is a new id at every connection): a table of theirs that nobody
    has joined closes, a seat of theirs not started is given up, and a game of
    theirs that someone else shares ends now (End), so nobody waits for the
    guest's clock to run out. How many seats it left; 0 when there is no
    database or it cannot be written (the SSH server asks, and must not stop for
    a store it does not own)."""
    rows = _read_existing(
        directory,
        "read the guest's seats",
        lambda db: db.execute(
            "SELECT table_id FROM seats JOIN tables ON tables.id = seats.table_id "
            "WHERE player = ? AND finished_at IS NULL AND closed_at IS NULL",
            (guest.id,),
        ),
    )
    if not rows:
        return 0
    left = 0
    try:
        store = MatchStore(guest, directory, now=now, create=False, keep_dir=None)
    except MatchError:
        return 0
    try:
        for row in rows:
            seat = store.seat(row["table_id"])
            if seat.finished:
                continue
            try:
                seat.leave()
            except NotAllowed:  # playing, or someone sat down at their table
                seat.end()
            left += 1
    except MatchError:
        pass
    finally:
        store.close()
    return left


class MatchStore(Spectating, Reading):
    """The match database in ``directory`` (see :func:`~termsolitaire.match.db.match_dir`),
    used by ``player`` (default: :func:`~termsolitaire.match.identity.current_player`).

    ``now`` is the wall clock (injectable for tests). ``create=False`` refuses
    to create a missing database. Raises
    :class:`~termsolitaire.match.errors.StoreError` when the database cannot be
    opened at all; a read-only one opens for reading, with a message in
    :attr:`messages`.
    """

    def __init__(
        self,
        player: Player | None = None,
        directory: str | Path | None = None,
        *,
        now: Now = time.time,
        create: bool = True,
        busy_ms: int = BUSY_MS,
        keep_dir: Path | bool | None = True,
    ) -> None:
        self.me = player if player is not None else current_player()
        self.now = now
        self.keep_dir: Path | None = (
            paths().data / "unshared" if keep_dir is True else keep_dir or None
        )
        """Where a seat keeps the actions the store could not take yet (the player's
        own data directory; None: nowhere)."""
        self.db: MatchDatabase = open_database(match_dir(directory), create=create, busy_ms=busy_ms)
        self.messages: list[str] = list(self.db.messages)
        """Messages for the player about the store itself (shown once by the lobby)."""
        self.away_since: float | None = None
        """When this player was last seen before this store was opened (the
        ``last_seen`` of their row: their last login, or the last results they
        were shown, :meth:`seen`); None for a new player or a read-only store.
        What ended after it ended while they were away (the lobby tells it once)."""
        if not self.db.read_only:
            try:
                self._hello()
            except StoreError as e:
                self.messages.append(e.reason)

    @property
    def path(self) -> Path:
        """The database file."""
        return self.db.path

    def close(self) -> None:
        self.db.close()

    def _hello(self) -> None:
        """Register this player (or update their name). Local and SSH players share
        one lobby: a local player whose name looks like an SSH player's who came
        first is shown with :data:`~.identity.LOCAL_MARK` (the SSH server never
        lets a key take a local account's name)."""
        now = self.now()
        with self.db.write("register you") as db:
            name = self.me.name
            if is_local(self.me.id):
                rows = db.execute("SELECT name FROM players WHERE id != ?", (self.me.id,))
                if any(looks_alike(row["name"], name) for row in rows):
                    name = (name[: MAX_NAME - len(LOCAL_MARK)] + LOCAL_MARK).strip()
                    self.me = Player(self.me.id, name)
            row = db.execute("SELECT last_seen FROM players WHERE id = ?", (self.me.id,)).fetchone()
            self.away_since = float(row["last_seen"]) if row is not None else None
            db.execute(
                "INSERT INTO players VALUES (?, ?, ?, ?) ON CONFLICT (id) "
                "DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen",
                (self.me.id, name, now, now),
            )

    def seen(self) -> None:
        """This player has been shown what ended until now (the results of their
        game, the lobby's word on games that ran out while they were away): it is
        not told them again, in this session (:attr:`away_since`) or at a later
        login (their ``last_seen``). A quiet write: no screen shows it."""
        now = self.now()
        with self.db.write("note that you were here", quiet=True) as db:
            db.execute("UPDATE players SET last_seen = ? WHERE id = ?", (now, self.me.id))
        self.away_since = now

    # ------------------------------------------------------------ reading tables

    def _players(self, db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, Player]:
        return players_by_id(db, ids)

    def _info(
        self,
        t: sqlite3.Row,
        seats: Sequence[sqlite3.Row],
        players: dict[str, Player],
        now: float,
        invited: bool = False,
        friends: frozenset[str] = frozenset(),
    ) -> TableInfo:
        infos = seat_infos(t, seats, players, now)
        state = table_state(t, infos, now)
        mine = any(s.player.id == self.me.id for s in infos)
        can_join = (
            not mine and state in ("waiting", "started") and (bool(t["public"]) or invited)
        ) and now < t["opened_at"] + JOIN_WINDOW
        return TableInfo(
            id=t["id"],
            host=players[t["host"]],
            suits=t["suits"],
            limit=float(t["limit_s"]),
            public=bool(t["public"]),
            deal=t["deal"],
            opened_at=t["opened_at"],
            state=state,
            seats=infos,
            code=codes.show(t["code"]) if mine else None,
            can_join=can_join,
            invited=invited and not mine,
            friends=tuple(s.player.id for s in infos if s.player.id in friends),
            revision=int(t["revision"]),
        )

    def table(self, table_id: int) -> TableInfo:
        """One table as this player sees it now (NoSuchTable, or NotInvited for a
        private table this player has no business seeing)."""
        now = self.now()
        with self.db.snapshot() as db:
            t = table_row(db, table_id)
            seats = seat_rows(db, table_id)
            invited = is_invited(db, table_id, self.me.id)
            players = self._players(db, [t["host"], *(s["player"] for s in seats)])
            friends = frozenset(self._list(db, "friends"))
            spectator = watch_invited(db, table_id, self.me.id)
        seated = any(s["player"] == self.me.id for s in seats)
        if not t["public"] and not invited and not seated and not spectator:
            raise NotInvited(f"Table {table_id} is private")
        return self._info(t, seats, players, now, invited, friends)

    def tables(self, include_finished: bool = False) -> list[TableInfo]:
        """The lobby: tables this player may see, their own first, then invitations,
        then friends' tables, then the newest.

        Shown: public tables, private tables this player is seated at or invited
        to; never a table where someone this player ignores is seated; closed
        tables never; finished ones only with ``include_finished`` (their own
        last 50, and others' from the last day).
        """
        now = self.now()
        since = now - HORIZON
        me = self.me.id
        with self.db.snapshot() as db:
            rows = db.execute(
                "SELECT * FROM tables WHERE closed_at IS NULL AND opened_at >= ? "
                "UNION SELECT * FROM tables WHERE id IN "
                "(SELECT table_id FROM seats WHERE player = ? ORDER BY table_id DESC LIMIT 50) "
                "ORDER BY id DESC",
                (since, me),
            ).fetchall()
            ids = [r["id"] for r in rows]
            seats: dict[int, list[sqlite3.Row]] = {i: [] for i in ids}
            for s in select_in(db, "SELECT * FROM seats WHERE table_id IN ({}) ORDER BY seat", ids):
                seats[s["table_id"]].append(s)
            invited = {
                r["table_id"]
                for r in db.execute(
                    "SELECT table_id FROM invitations WHERE guest = ? AND answer IS NULL", (me,)
                )
            }
            ignored = set(self._list(db, "ignores"))
            friends = frozenset(self._list(db, "friends"))
            spectating = {
                r["table_id"]
                for r in db.execute("SELECT table_id FROM watch_invitations WHERE guest = ?", (me,))
            }
            players = self._players(
                db, [*(r["host"] for r in rows), *(s["player"] for v in seats.values() for s in v)]
            )
        out: list[TableInfo] = []
        for t in rows:
            seated = {s["player"] for s in seats[t["id"]]}
            if t["closed_at"] is not None or seated & ignored:
                continue
            inv = t["id"] in invited
            info = self._info(t, seats[t["id"]], players, now, inv, friends)
            watcher = t["id"] in spectating and info.state not in ("finished", "closed")
            if not info.public and me not in seated and not info.can_join and not watcher:
                continue  # private: its players, the invited while it has room, spectators
            if info.state == "finished" and not include_finished:
                continue
            out.append(info)
        out.sort(key=lambda i: (i.seat_of(me) is None, not i.invited, not i.friends, -i.id))
        return out

    # ------------------------------------------------------------ opening and joining

    def open_table(
        self,
        suits: int = 1,
        minutes: int = DEFAULT_LIMIT,
        public: bool = True,
        *,
        deal: int | None = None,
    ) -> Seat:
        """Open a table and take its first seat; the deal is drawn at random
        (``deal`` is for tests and replays). Returns the host's seat, not started."""
        if suits not in SUITS or isinstance(suits, bool):
            raise BadChoice(f"A table is for 1, 2 or 4 suits, not {suits!r}")
        if minutes not in LIMITS or isinstance(minutes, bool):
            raise BadChoice(f"The time limit is 5, 10, 15 or 20 minutes, not {minutes!r}")
        if deal is None:
            deal = secrets.randbelow(MAX_RANDOM_DEAL + 1)
        now = self.now()
        with self.db.write("open a table") as db:
            hosted = db.execute(
                "SELECT * FROM tables WHERE host = ? AND closed_at IS NULL AND opened_at >= ?",
                (self.me.id, now - HORIZON),
            ).fetchall()
            players = self._players(db, [self.me.id])
            unfinished = 0
            for t in hosted:
                seats = seat_rows(db, t["id"])
                players.update(self._players(db, [s["player"] for s in seats]))
                if table_state(t, seat_infos(t, seats, players, now), now) != "finished":
                    unfinished += 1
            if unfinished >= MAX_HOSTED:
                raise NotAllowed(
                    f"You already host {unfinished} tables that are not finished; "
                    "play or close one first"
                )
            while True:
                try:
                    cur = db.execute(
                        "INSERT INTO tables (host, suits, limit_s, public, deal, code, opened_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (self.me.id, suits, minutes * 60, int(public), deal, codes.new_code(), now),
                    )
                    break
                except sqlite3.IntegrityError:  # pragma: no cover - a code drawn twice
                    continue
            table_id = int(cur.lastrowid or 0)
            db.execute(
                "INSERT INTO seats (table_id, seat, player, taken_at) VALUES (?, 1, ?, ?)",
                (table_id, self.me.id, now),
            )
        return self.seat(table_id)

    def seat(self, table_id: int) -> Seat:
        """This player's seat at a table, with its game rebuilt from the store (to
        resume after a crash or a dropped connection)."""
        from .seat import Seat

        return Seat(self, table_id)

    def join(self, table_id: int) -> Seat:
        """Take the free seat of a table: public, or private with an invitation.

        Already seated there: the same as :meth:`seat`. Refusals: NoSuchTable,
        TableFull, TableClosed, NotInvited.
        """
        return self._join(table_id, by_code=False)

    def join_code(self, text: str) -> Seat:
        """Take the free seat of the table whose code is ``text`` (public or private).

        Refusals: BadCode (not a code, or no table has it), CodeExpired,
        TableFull, TooManyTries (after 10 wrong codes in 10 minutes).
        """
        code = codes.normalise(text)
        now = self.now()
        with self.db.read("check the code") as db:
            tries = db.execute(
                "SELECT count(*) FROM code_tries WHERE player = ? AND at > ?",
                (self.me.id, now - CODE_TRY_WINDOW),
            ).fetchone()[0]
            row = db.execute("SELECT id FROM tables WHERE code = ?", (code,)).fetchone()
        if tries >= CODE_TRIES:
            raise TooManyTries("Too many wrong codes: wait ten minutes, then try again")
        if row is None:
            try:
                with self.db.write("note a wrong code") as db:
                    db.execute("INSERT INTO code_tries VALUES (?, ?)", (self.me.id, now))
            except StoreError:
                pass
            raise BadCode(
                f"No table has the code {codes.show(code)}; check it with the player who gave it"
            )
        return self._join(int(row["id"]), by_code=True, code=code)

    def _join(self, table_id: int, by_code: bool, code: str = "") -> Seat:
        now = self.now()
        with self.db.write("join the table") as db:
            t = table_row(db, table_id)
            seats = seat_rows(db, table_id)
            if all(s["player"] != self.me.id for s in seats):
                self._check_joinable(db, t, seats, now, by_code, code)
                db.execute(
                    "INSERT INTO seats (table_id, seat, player, taken_at) VALUES (?, 2, ?, ?)",
                    (table_id, self.me.id, now),
                )
                db.execute(
                    "UPDATE invitations SET answer = 'accepted' WHERE table_id = ? AND guest = ?",
                    (table_id, self.me.id),
                )
                db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (table_id,))
        return self.seat(table_id)

    def _check_joinable(
        self,
        db: sqlite3.Connection,
        t: sqlite3.Row,
        seats: Sequence[sqlite3.Row],
        now: float,
        by_code: bool,
        code: str,
    ) -> None:
        table_id = t["id"]
        shown = codes.show(code) if by_code else ""
        players = self._players(db, [t["host"], *(s["player"] for s in seats)])
        state = table_state(t, seat_infos(t, seats, players, now), now)
        if len(seats) == 2:
            raise TableFull(f"Table {table_id} is full: both seats are taken")
        kept = hot_seat_guest(db, table_id, t["host"])  # invited at opening
        if kept is not None and kept.id != self.me.id:  # a code or another invitation
            raise hot_seat_kept(table_id, kept.name)
        if t["closed_at"] is not None:
            if by_code:
                raise CodeExpired(f"Code {shown} has expired: its table was closed")
            raise TableClosed(f"Table {table_id} was closed by its host")
        if now >= t["opened_at"] + JOIN_WINDOW or state in ("finished", "closed"):
            if by_code:
                raise CodeExpired(f"Code {shown} has expired: its table no longer takes players")
            raise TableClosed(
                f"Table {table_id} no longer takes players (tables take players for a day)"
            )
        if not t["public"] and not by_code and not is_invited(db, table_id, self.me.id):
            raise NotInvited(f"Table {table_id} is private: you need an invitation or its code")
        if has_watched(db, table_id, self.me.id):
            raise NotAllowed(
                f"You watched table {table_id}: you have seen its deal, so you cannot play it"
            )

    # ------------------------------------------------------------ invitations

    def invite(self, table_id: int, who: str) -> Player:
        """Invite a player (by id or name) to this player's table; they see it in
        their lobby until they join or decline, or the table fills."""
        guest = self.find_player(who)
        now = self.now()
        with self.db.write("send the invitation") as db:
            t = table_row(db, table_id)
            if t["host"] != self.me.id:
                raise NotAllowed("Only the table's host invites players to it")
            if guest.id == self.me.id:
                raise NotAllowed("You are already at this table")
            seats = seat_rows(db, table_id)
            if any(s["player"] == guest.id for s in seats):
                raise NotAllowed(f"{guest.name} is already at this table")
            if len(seats) == 2:
                raise TableFull(f"Table {table_id} is full: both seats are taken")
            players = self._players(db, [t["host"], *(s["player"] for s in seats)])
            state = table_state(t, seat_infos(t, seats, players, now), now)
            if state in ("closed", "finished") or now >= t["opened_at"] + JOIN_WINDOW:
                raise TableClosed(f"Table {table_id} no longer takes players")
            db.execute(
                "INSERT INTO invitations VALUES (?, ?, ?, ?, NULL) ON CONFLICT (table_id, guest)"
                " DO UPDATE SET sent_at = excluded.sent_at, answer = NULL",
                (table_id, guest.id, self.me.id, now),
            )
        return guest

    def invitations(self) -> list[Invitation]:
        """Unanswered invitations to tables that still take players, newest first;
        none from players this player ignores (nor to tables where they sit)."""
        open_ones = {t.id: t for t in self.tables() if t.invited and t.can_join}
        with self.db.read("read your invitations") as db:
            rows = db.execute(
                "SELECT table_id, sent_at FROM invitations WHERE guest = ? AND answer IS NULL "
                "ORDER BY sent_at DESC",
                (self.me.id,),
            ).fetchall()
        return [
            Invitation(t.id, t.host, t.suits, t.limit, r["sent_at"])
            for r in rows
            if (t := open_ones.get(r["table_id"])) is not None
        ]

    def declined(self) -> list[tuple[int, Player]]:
        """Who declined this player's invitations to their tables that still wait for
        a second player (open, nobody else seated), as ``(table, player)``: the host
        is told, instead of waiting for someone who said no."""
        with self.db.read("read the declined invitations") as db:
            rows = db.execute(
                "SELECT i.table_id, i.guest FROM invitations i "
                "JOIN tables t ON t.id = i.table_id "
                "WHERE i.host = ? AND i.answer = 'declined' AND t.closed_at IS NULL "
                "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = i.table_id "
                "AND s.player != i.host) ORDER BY i.table_id, i.sent_at",
                (self.me.id,),
            ).fetchall()
            players = self._players(db, [r["guest"] for r in rows])
        return [(int(r["table_id"]), players[r["guest"]]) for r in rows]

    def decline(self, table_id: int) -> None:
        """Decline an invitation: it is no longer shown."""
        with self.db.write("decline the invitation") as db:
            cur = db.execute(
                "UPDATE invitations SET answer = 'declined' "
                "WHERE table_id = ? AND guest = ? AND answer IS NULL",
                (table_id, self.me.id),
            )
            if cur.rowcount == 0:
                raise NotAllowed(f"You have no invitation to table {table_id}")
