"""A seat: one player's game at a table, its clock, and its actions in the store.

A :class:`Seat` does not care who plays it: a person through a screen, or the
computer opponent sending the same action texts. Every action is checked by
the rules on a copy of the game, appended to the store in one transaction
(with the seat's figures), and only then becomes the seat's game: a refused
action changes nothing, and a crash after the commit loses nothing, since a
seat is rebuilt from the store by replaying its actions.

When the store cannot be written (gone, read-only, busy) the game goes on
here: the action is kept in :attr:`Seat.pending` and in a small file in the
player's own data directory (so leaving the board, or a crash, loses nothing),
:attr:`Seat.problem` says what is wrong, and the next action or
:meth:`Seat.sync` (the board calls it on a timer) opens the store again and
shares them. Actions still pending when the clock runs out cannot be shared any
more (the results are what the store holds then); the problem then says so.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from ..rules import Game, Move
from ..storage.files import StorageError, write_atomic
from .clock import credit_of, deadline, status, used
from .errors import GameOver, NotAllowed, SeatMoved, StoreError, TimeUp
from .model import REASONS, Reason, Results, SeatInfo, TableInfo
from .replay import END, apply, canonical, figures, replay
from .results import Reading, Watcher, read_actions
from .rows import table_row

UNSHARED = "Not shared for now; your game goes on here"


class _Abort(Exception):
    """Leave a write transaction without writing anything."""

    def __init__(self, why: str) -> None:
        self.why = why


class Seat:
    """This player's seat at table ``table_id`` (NotAllowed if they have none)."""

    def __init__(self, store: Reading, table_id: int) -> None:
        self.store = store
        self.table_id = table_id
        self.problem: str | None = None
        """What is wrong with the store, for the screen to show; None when all is well."""
        self.pending: list[tuple[str, float]] = []
        """Actions played here but not yet in the store, with when they were played."""
        self._pending_start: float | None = None
        self._load()

    # ------------------------------------------------------------ reading

    def _load(self) -> None:
        """Read the seat and its actions from the store and rebuild the game."""
        now = self.store.now()
        with self.store.db.snapshot("read your game") as db:
            t = table_row(db, self.table_id)
            row = db.execute(
                "SELECT * FROM seats WHERE table_id = ? AND player = ?",
                (self.table_id, self.store.me.id),
            ).fetchone()
            if row is None:
                raise NotAllowed(f"You have no seat at table {self.table_id}")
            other = db.execute(
                "SELECT * FROM seats WHERE table_id = ? AND seat != ?", (self.table_id, row["seat"])
            ).fetchone()
            actions = [a.text for a in read_actions(db, self.table_id, row["seat"])]
        self.number: int = row["seat"]
        self.deal: int = t["deal"]
        self.suits: int = t["suits"]
        self.limit = float(t["limit_s"])
        """The time limit in seconds."""
        self.public = bool(t["public"])
        self.game: Game = replay(self.deal, self.suits, actions)
        self.log: list[str] = actions
        """The actions of this seat, stored ones then pending ones."""
        self._stored = len(actions)
        self._set_clock(row, other, now)
        self.pending = []
        self._pending_start = None
        self._restore_kept()

    def _set_clock(self, row: sqlite3.Row, other: sqlite3.Row | None, now: float) -> None:
        self._other = other
        start, end, reason, _ = status(row, other, self.limit, now)
        self.credit = credit_of(row)
        """Seconds given back to this clock for server restarts (docs/match.md)."""
        self.started_at: float | None = start
        """When the clock started (None: not yet)."""
        self.finished_at: float | None = end
        self.reason: Reason | None = reason  # type: ignore[assignment]
        """Why the game ended (``cleared``, ``time``, ``end``); None while it goes on."""

    @property
    def minutes(self) -> int:
        return int(self.limit // 60)

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def finished(self) -> bool:
        return self.reason is not None

    @property
    def figures(self) -> tuple[int, int, int]:
        """``(score, runs, moves)`` of this seat's game now."""
        return figures(self.game)

    def time_used(self, now: float | None = None) -> float:
        """Seconds used at ``now``: now - start - credit, capped at the limit; fixed
        once ended."""
        now = self.store.now() if now is None else now
        if self.started_at is None:
            return 0.0
        end = self.finished_at if self.finished_at is not None else now
        return used(self.started_at, end, self.credit, self.limit)

    def remaining(self, now: float | None = None) -> float:
        """Seconds left on this player's clock at ``now``."""
        return self.limit - self.time_used(now)

    def info(self) -> TableInfo:
        """The table now (both seats' clocks and cached figures): cheap, for a panel."""
        return self.store.table(self.table_id)

    def opponent(self) -> SeatInfo | None:
        """The other seat now (None while nobody has joined): their live score,
        runs, moves and remaining time for the side panel."""
        return self.info().opponent_of(self.store.me.id)

    def results(self) -> Results:
        return self.store.results(self.table_id)

    def watch(self) -> Watcher:
        """The opponent's game, once this player's own game has ended."""
        other = self.opponent()
        if other is None:
            raise NotAllowed("Nobody has joined your table yet")
        return Watcher(self.store, self.table_id, other.number)

    # ------------------------------------------------------------ playing

    def start(self) -> None:
        """Start this player's clock (when their board is first shown). Starting
        again, or after the clock started by itself, changes nothing."""
        if self.finished:
            return
        now = self.store.now()
        start = self.started_at if self.started_at is not None else now
        try:
            with self.store.db.write("start your clock") as db:
                db.execute(
                    "UPDATE seats SET started_at = coalesce(started_at, ?) "
                    "WHERE table_id = ? AND seat = ?",
                    (start, self.table_id, self.number),
                )
                self._bump(db)
                row = db.execute(
                    "SELECT started_at FROM seats WHERE table_id = ? AND seat = ?",
                    (self.table_id, self.number),
                ).fetchone()
            if row is not None and row["started_at"] is not None:
                start = float(row["started_at"])
            self._pending_start = None
        except StoreError as e:
            self._pending_start = start
            self.problem = f"{UNSHARED}: {e.reason}"
            self.started_at = start
            self._keep()
        self.started_at = start

    def act(self, action: str) -> Move | None:
        """Play one action in API.md notation: a move (``t3-t7:4``, ``deal``,
        ``turn t5``), ``undo``, ``redo`` or ``end``. Returns the move played
        (None for ``end``).

        Refusals change nothing: IllegalMove (the rules' reason), GameOver (the
        game has ended), TimeUp (the clock ran out: the game ends now),
        NotAllowed (the clock has not started), SeatMoved (the same player
        played on in another window: the seat now shows that game).
        """
        now = self.store.now()
        if self.finished:
            why = self.reason or "end"
            raise GameOver(f"Your game has ended ({REASONS[why]})", why)
        if self.started_at is None:
            raise NotAllowed("Start your game first: the clock starts with it")
        if now >= deadline(self.started_at, self.credit, self.limit):
            self._time_up()
            raise TimeUp()
        text = canonical(action)
        game = self.game.copy()
        move = apply(game, text)
        finish: Reason | None = "end" if text == END else ("cleared" if game.is_won else None)
        self._write([*self.pending, (text, now)], game, finish, now, new=True)
        return move

    def play(self, move: Move | str) -> Move:
        """Play a move (or ``deal``, ``turn tN``); see :meth:`act`."""
        played = self.act(str(move))
        assert played is not None
        return played

    def undo(self) -> Move | None:
        return self.act("undo")

    def redo(self) -> Move | None:
        return self.act("redo")

    def end(self) -> None:
        """End this player's game now (the End key, after its confirm)."""
        if self.started_at is None and not self.finished:
            self.start()
        self.act(END)

    def _write(
        self,
        batch: list[tuple[str, float]],
        game: Game,
        finish: Reason | None,
        now: float,
        *,
        new: bool,
    ) -> None:
        """Append ``batch`` (pending actions, then the ``new`` one if any) to the
        store, and make ``game`` (the game after them) this seat's game."""
        score, runs, moves = figures(game)
        try:
            with self.store.db.write("save your move") as db:
                row = self._row(db)
                if row["finished_at"] is not None:
                    raise _Abort("over")
                if row["actions"] != self._stored:
                    raise _Abort("moved")
                other = self._other_row(db)
                start, _, _, _ = status(row, other, self.limit, now)
                if start is None:
                    start = self._pending_start if self._pending_start is not None else now
                if now >= deadline(start, credit_of(row), self.limit):
                    self._write_time_up(db, start, credit_of(row))
                    late = True
                else:
                    late = False
                    db.executemany(
                        "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                        [
                            (self.table_id, self.number, self._stored + i, text, at)
                            for i, (text, at) in enumerate(batch)
                        ],
                    )
                    db.execute(
                        "UPDATE seats SET actions = ?, score = ?, runs = ?, moves = ?, "
                        "last_at = ?, started_at = coalesce(started_at, ?), "
                        "finished_at = ?, reason = ? WHERE table_id = ? AND seat = ?",
                        (
                            self._stored + len(batch),
                            score,
                            runs,
                            moves,
                            now,
                            start,
                            batch[-1][1] if finish else None,
                            finish,
                            self.table_id,
                            self.number,
                        ),
                    )
                    self._bump(db)
        except _Abort as abort:
            self._load()
            if abort.why == "moved":
                raise SeatMoved(
                    "Your game moved on in another window; it is shown here as it is now"
                ) from None
            if self.reason == "time":
                raise TimeUp() from None
            why = self.reason or "end"
            raise GameOver(f"Your game has ended ({REASONS[why]})", why) from None
        except StoreError as e:
            # The game goes on here; the store gets the actions when it can.
            self.game = game
            if new:
                self.log.append(batch[-1][0])
            self.pending = batch
            self.problem = f"{UNSHARED}: {e.reason}"
            if finish:
                self.reason, self.finished_at = finish, batch[-1][1]
            self._keep()
            return
        if late:
            self._load()
            self._lost_pending(len(batch) - 1 if new else len(batch))
            raise TimeUp()
        self.game = game
        if new:
            self.log.append(batch[-1][0])
        self._stored += len(batch)
        had = bool(self.pending)
        self.pending = []
        self._pending_start = None
        self.problem = None
        if finish:
            self.reason, self.finished_at = finish, batch[-1][1]
        if had or not new:
            self._keep()

    def _row(self, db: sqlite3.Connection) -> sqlite3.Row:
        row = db.execute(
            "SELECT * FROM seats WHERE table_id = ? AND seat = ?", (self.table_id, self.number)
        ).fetchone()
        if row is None:
            raise NotAllowed(f"Your seat at table {self.table_id} is not in the store any more")
        return row  # type: ignore[no-any-return]

    def _other_row(self, db: sqlite3.Connection) -> sqlite3.Row | None:
        return db.execute(  # type: ignore[no-any-return]
            "SELECT * FROM seats WHERE table_id = ? AND seat != ?", (self.table_id, self.number)
        ).fetchone()

    def _bump(self, db: sqlite3.Connection) -> None:
        db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (self.table_id,))

    def _write_time_up(self, db: sqlite3.Connection, start: float, credit: float) -> None:
        db.execute(
            "UPDATE seats SET started_at = coalesce(started_at, ?), finished_at = ?, "
            "reason = 'time' WHERE table_id = ? AND seat = ? AND finished_at IS NULL",
            (start, deadline(start, credit, self.limit), self.table_id, self.number),
        )
        self._bump(db)

    def _lost_pending(self, count: int) -> None:
        if count > 0:
            self.problem = (
                f"{count} action{'s' if count > 1 else ''} played while the match database "
                "was unavailable could not be shared before your time ran out"
            )

    def _time_up(self) -> None:
        """The clock has run out: the game ends (reason ``time``), written when possible."""
        assert self.started_at is not None
        self.reason, self.finished_at = "time", deadline(self.started_at, self.credit, self.limit)
        lost = len(self.pending)
        try:
            with self.store.db.write("end your game") as db:
                self._write_time_up(db, self.started_at, self.credit)
        except StoreError as e:
            self.problem = e.reason
            return
        self._lost_pending(lost)
        self.pending = []
        self._pending_start = None
        self._keep()
        with contextlib.suppress(StoreError):
            self._load()  # the game as the store holds it: what the results count

    def check_clock(self) -> bool:
        """Call on every clock tick: True when time has just run out (the game has
        then ended with reason ``time``)."""
        if self.started_at is None:
            self._refresh_clock()
        if self.finished or self.started_at is None:
            return False
        if self.store.now() >= deadline(self.started_at, self.credit, self.limit):
            self._time_up()
            return True
        return False

    def _refresh_clock(self) -> None:
        """Re-read the seats (the clock may start by itself once the opponent has started)."""
        try:
            with self.store.db.snapshot("read your clock") as db:
                row, other = self._row(db), self._other_row(db)
        except StoreError as e:
            self.problem = e.reason
            return
        self._set_clock(row, other, self.store.now())

    def sync(self) -> None:
        """Share pending actions if the store takes them again, and catch up with the
        store (another window of the same player, a finish written elsewhere)."""
        if self.store.db.broken:
            try:
                self.store.db.reconnect()
            except StoreError as e:
                self.problem = f"{UNSHARED}: {e.reason}"
                return
        now = self.store.now()
        if (
            self.pending
            and self.started_at is not None
            and now >= deadline(self.started_at, self.credit, self.limit)
        ):
            self._time_up()
            return
        if self.pending:
            finish = self.reason if self.reason in ("end", "cleared") else None
            try:
                self._write(self.pending, self.game, finish, now, new=False)
            except (TimeUp, GameOver, SeatMoved) as e:
                self.problem = e.reason
                return
            if self.pending:
                return
        elif self._pending_start is not None:
            self.start()
            if self._pending_start is not None:
                return
            self._keep()
        try:
            self._load()
        except StoreError as e:
            self.problem = e.reason
            return
        self.problem = None

    def leave(self) -> None:
        """Leave the table. Before starting: the seat is given up (the host's table
        closes if nobody else sits there). A game that is going on must be ended
        first (NotAllowed); after the end, leaving changes nothing in the store."""
        if self.finished:
            return
        if self.started_at is not None:
            raise NotAllowed("Your game is still going: press End first")
        with self.store.db.write("leave the table") as db:
            row = self._row(db)
            if row["started_at"] is not None:
                raise NotAllowed("Your game is still going: press End first")
            other = self._other_row(db)
            if self.number == 1:
                if other is not None:
                    name = self.store.find_player(other["player"]).name
                    raise NotAllowed(
                        f"{name} has sat down at your table: start your game, or End it"
                    )
                db.execute(
                    "UPDATE tables SET closed_at = ? WHERE id = ?",
                    (self.store.now(), self.table_id),
                )
            else:
                db.execute(
                    "DELETE FROM seats WHERE table_id = ? AND seat = ?",
                    (self.table_id, self.number),
                )
            self._bump(db)

    # ------------------------------------------------------------ kept here

    @property
    def kept_path(self) -> Path | None:
        """The file in the player's own directory that keeps the actions not yet
        shared (None: the store keeps none)."""
        keep = self.store.keep_dir
        return None if keep is None else keep / f"table{self.table_id}-seat{self.number}.json"

    def _keep(self) -> None:
        """Write the pending actions to :attr:`kept_path` (or remove it: none)."""
        path = self.kept_path
        if path is None:
            return
        if not self.pending and self._pending_start is None:
            with contextlib.suppress(OSError):
                path.unlink()
            return
        record = {
            "player": self.store.me.id,
            "stored": self._stored,
            "pending": self.pending,
            "start": self._pending_start,
            "finish": [self.reason, self.finished_at] if self.reason else None,
        }
        with contextlib.suppress(StorageError):
            write_atomic(path, json.dumps(record))

    def _restore_kept(self) -> None:
        """Put back the actions kept here that the store does not have yet."""
        path = self.kept_path
        if path is None:
            return
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            if record["player"] != self.store.me.id:
                return
            pending = [(str(a), float(at)) for a, at in record["pending"]]
            stored, start = int(record["stored"]), record["start"]
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError):
            with contextlib.suppress(OSError):
                path.unlink()
            return
        if stored != self._stored or (self.finished and not pending):
            with contextlib.suppress(OSError):
                path.unlink()  # the store moved on (another window shared them)
            return
        game = self.game.copy()
        try:
            for text, _ in pending:
                apply(game, text)
        except Exception:
            return  # cannot be played on this game: keep the file, show the store's
        self.game = game
        self.log.extend(text for text, _ in pending)
        self.pending = pending
        if start is not None and self.started_at is None:
            self._pending_start = self.started_at = float(start)
        finish = record.get("finish")
        if finish and finish[0] in ("end", "cleared"):
            self.reason, self.finished_at = finish[0], float(finish[1])
        self.problem = f"{UNSHARED} ({len(pending)} actions kept)"

    def __repr__(self) -> str:
        return (
            f"<Seat table={self.table_id} seat={self.number} player={self.store.me.id!r} "
            f"actions={len(self.log)} reason={self.reason}>"
        )
