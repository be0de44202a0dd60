"""Results, the record and Watch: everything here is replayed from the store.

A seat's figures are never taken on trust: :func:`table_results` replays each
seat's stored actions from the deal through the rules core, so both players
(and anyone else) get the same figures and the same winner. Once both games
have ended the outcome is written once per player (``outcomes``), which is
what the match record counts.

Writing is serialised with playing: the results are worked out again inside
a write transaction whenever something must be written (a game that ran out
of time and is not yet marked so, or an outcome not yet recorded), so an
action being appended at the last moment is either in the results or refused.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..rules import Game
from .clock import credit_of, status
from .errors import NotAllowed, StoreBusy, StoreReadOnly
from .identity import Player
from .model import Action, Figures, Record, Results, SeatInfo, TableInfo, Tally
from .ratings import Rating, read_ratings
from .replay import apply, figures, fresh, replay
from .rows import players_by_id, seat_infos, seat_rows, table_row
from .social import Social
from .watching import check_spectator, note_watched


def read_actions(
    db: sqlite3.Connection, table_id: int, number: int, since: int = 0
) -> list[Action]:
    rows = db.execute(
        "SELECT n, action, at FROM actions WHERE table_id = ? AND seat = ? AND n >= ? ORDER BY n",
        (table_id, number, since),
    ).fetchall()
    return [Action(r["n"], r["action"], r["at"]) for r in rows]


def _work_out(
    db: sqlite3.Connection, table_id: int, now: float
) -> tuple[Results, list[tuple[int, float, float]]]:
    """The results at ``now``, and the seats whose time ran out unrecorded:
    ``(seat, started_at, finished_at)``."""
    t = table_row(db, table_id)
    seats = seat_rows(db, table_id)
    players = players_by_id(db, [s["player"] for s in seats])
    limit = float(t["limit_s"])
    out: list[Figures] = []
    late: list[tuple[int, float, float]] = []
    for s in seats:
        other = next((o for o in seats if o["seat"] != s["seat"]), None)
        start, end, reason, used = status(s, other, limit, now)
        if reason == "time" and s["finished_at"] is None and start is not None and end is not None:
            late.append((s["seat"], start, end))
        game = replay(
            t["deal"], t["suits"], (a.text for a in read_actions(db, table_id, s["seat"]))
        )
        score, runs, moves = figures(game)
        player = players[s["player"]]
        out.append(Figures(player, score, runs, moves, used, reason, credit_of(s)))  # type: ignore[arg-type]
    final = len(out) == 2 and all(f.finished for f in out)
    winner = None
    if final and out[0].score != out[1].score:
        winner = max(out, key=lambda f: f.score).player
    return Results(table_id, tuple(out), final, winner), late


def _recorded(db: sqlite3.Connection, table_id: int) -> bool:
    row = db.execute("SELECT 1 FROM outcomes WHERE table_id = ?", (table_id,)).fetchone()
    return row is not None


def table_results(store: Reading, table_id: int) -> Results:
    """The results of a table (see the module docstring); a store that cannot be
    written still gives them, just without recording."""
    now = store.now()
    with store.db.snapshot("read the results") as db:
        res, late = _work_out(db, table_id, now)
        done = not late and (not res.final or _recorded(db, table_id))
    if done:
        return res
    try:
        with store.db.write("record the results") as db:
            res, late = _work_out(db, table_id, now)
            for number, start, end in late:
                db.execute(
                    "UPDATE seats SET started_at = coalesce(started_at, ?), finished_at = ?, "
                    "reason = 'time' WHERE table_id = ? AND seat = ? AND finished_at IS NULL",
                    (start, end, table_id, number),
                )
            if res.final:
                a, b = res.seats
                for me, them in ((a, b), (b, a)):
                    outcome = res.outcome_for(me.player.id)
                    db.execute(
                        "INSERT INTO outcomes VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (
                            table_id,
                            me.player.id,
                            them.player.id,
                            outcome,
                            me.score,
                            them.score,
                            now,
                        ),
                    )
            db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (table_id,))
    except (StoreReadOnly, StoreBusy):
        pass
    return res


def settle_player(store: Reading, player_id: str) -> None:
    """Record every match of ``player_id`` that has ended but is not yet recorded."""
    now = store.now()
    with store.db.snapshot("read the record") as db:
        ids = [
            r["table_id"]
            for r in db.execute(
                "SELECT s.table_id FROM seats s WHERE s.player = ? "
                "AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.table_id = s.table_id) "
                "AND (SELECT count(*) FROM seats t WHERE t.table_id = s.table_id) = 2",
                (player_id,),
            )
        ]
        ended = []
        for table_id in ids:
            t = table_row(db, table_id)
            seats = seat_rows(db, table_id)
            infos = seat_infos(t, seats, players_by_id(db, []), now)
            if all(s.finished for s in infos):
                ended.append(table_id)
    for table_id in ended:
        table_results(store, table_id)


def check_watch(store: Reading, table_id: int, number: int) -> SeatInfo:
    """The seat to watch, if this player may watch it now; NotAllowed otherwise."""
    info = store.table(table_id)
    target = next((s for s in info.seats if s.number == number), None)
    if target is None:
        raise NotAllowed(f"Seat {number} at table {table_id} is empty")
    mine = info.seat_of(store.me.id)
    if target.player.id == store.me.id or (mine is not None and mine.finished):
        return target
    if info.state == "finished" and (info.public or mine is not None):
        return target
    if mine is not None:
        raise NotAllowed("You can watch your opponent once your own game has ended")
    with store.db.read("see who may be watched") as db:  # a spectator (docs/match.md, "Spectators")
        check_spectator(db, info, target, store.me.id)
    if not info.full:
        note_watched(store, table_id)  # seen the deal: may not take the free seat
    return target


class Watcher:
    """A seat's game rebuilt from the store and brought up to date by :meth:`refresh`:
    a live Watch (poll ``store.revision()``, then ``refresh()``), or a replay
    after the match (``actions`` with their times; ``game.log`` for the replay
    screen)."""

    def __init__(self, store: Reading, table_id: int, number: int) -> None:
        self.store = store
        self.table_id = table_id
        self.number = number
        self.info: SeatInfo = check_watch(store, table_id, number)
        with store.db.read("read the game") as db:
            t = table_row(db, table_id)
        self.game: Game = fresh(t["deal"], t["suits"])
        self.actions: list[Action] = []
        self.refresh()

    def refresh(self) -> bool:
        """Apply the actions stored since the last refresh; True when there were any."""
        with self.store.db.read("read the game") as db:
            new = read_actions(db, self.table_id, self.number, len(self.actions))
        for a in new:
            apply(self.game, a.text)
            self.actions.append(a)
        seat = self.store.table(self.table_id)
        self.info = next(s for s in seat.seats if s.number == self.number)
        return bool(new)


class Reading(Social):
    """The record, results and Watch, as the store offers them (mixed into
    MatchStore, which says what :meth:`table` is)."""

    keep_dir: Path | None
    """Where a seat keeps the actions the store would not take (the store's)."""

    def table(self, table_id: int) -> TableInfo:
        """One table as this player sees it now (the store's)."""
        raise NotImplementedError

    def revision(self, table_id: int | None = None) -> int:
        """A number that grows with every change anyone makes (with ``table_id``:
        every change at that table: a seat taken or left, a clock started, an
        action, a game ended). A screen polls it, one cheap query, and reads
        again only when it has moved. Clocks need no polling: a screen works
        them out from ``started_at`` (``SeatInfo.remaining_at(now)``)."""
        if table_id is None:
            return self.db.revision()
        with self.db.read("see what changed") as db:
            return int(table_row(db, table_id)["revision"])

    # ------------------------------------------------------------ record

    def record(self, who: str | None = None) -> Record:
        """A player's match record (default: this player): wins, losses and draws,
        overall and per opponent. Matches that have ended but were not yet
        recorded are recorded first."""
        player = self.me if who is None else self.find_player(who)
        settle_player(self, player.id)
        with self.db.read("read the record") as db:
            rows = db.execute(
                "SELECT o.opponent AS id, coalesce(p.name, o.opponent) AS name, "
                "count(*) FILTER (WHERE o.result = 'win') AS w, "
                "count(*) FILTER (WHERE o.result = 'loss') AS l, "
                "count(*) FILTER (WHERE o.result = 'draw') AS d FROM outcomes o "
                "LEFT JOIN players p ON p.id = o.opponent WHERE o.player = ? "
                "GROUP BY o.opponent, p.name ORDER BY count(*) DESC, name",
                (player.id,),
            ).fetchall()
        per = tuple((Player(r["id"], r["name"]), Tally(r["w"], r["l"], r["d"])) for r in rows)
        overall = Tally(
            sum(t.wins for _, t in per), sum(t.losses for _, t in per), sum(t.draws for _, t in per)
        )
        return Record(player, overall, per)

    def rating(self, who: str | None = None) -> Rating:
        """A player's Glicko-2 rating (default: this player's), worked out from every
        recorded match (:mod:`.ratings`); this player's ended matches are recorded
        first."""
        pid = self.me.id if who is None else who
        settle_player(self, pid)
        with self.db.read("read the ratings") as db:
            return read_ratings(db).get(pid, Rating())

    # ------------------------------------------------------------ results and watching

    def results(self, table_id: int) -> Results:
        """Both players' figures, replayed from the store, and the winner once both
        games have ended. Every process computes it the same way."""
        return table_results(self, table_id)

    def actions(self, table_id: int, number: int, since: int = 0) -> list[Action]:
        """The stored actions of seat ``number`` from action ``since`` on (for a live
        Watch or a replay). Same permission as :meth:`watch`."""
        check_watch(self, table_id, number)
        with self.db.read("read the game") as db:
            return read_actions(db, table_id, number, since)

    def watch(self, table_id: int, number: int) -> Watcher:
        """Seat ``number``'s game, rebuilt from the store and kept up to date by
        ``refresh()``. Allowed for one's own seat, for the opponent once one's own
        game has ended, for anyone seated (or, at a public table, anyone)
        once the match is over, and live for a spectator seated nowhere at the
        table (:mod:`.watching`); NotAllowed otherwise, so nobody sees a deal's
        hidden cards while still playing it."""
        return Watcher(self, table_id, number)
