"""Reading the store's rows, and working out what they mean at a moment.

Shared by the store, the seat and the results; plain functions over a
connection, no state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from .clock import JOIN_WINDOW, credit_of, status
from .errors import NoSuchTable
from .identity import Player, guests_of
from .model import SeatInfo, TableState


def select_in(db: sqlite3.Connection, sql: str, values: Sequence[object]) -> list[sqlite3.Row]:
    """Run ``sql`` whose ``IN ({})`` takes ``values``, in chunks SQLite accepts."""
    rows: list[sqlite3.Row] = []
    for i in range(0, len(values), 500):
        chunk = values[i : i + 500]
        rows.extend(db.execute(sql.format(",".join("?" * len(chunk))), chunk).fetchall())
    return rows


def players_by_id(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, Player]:
    """The players with these ids (an id nobody registered stands for itself)."""
    wanted = sorted(set(ids))
    found = {
        r["id"]: Player(r["id"], r["name"])
        for r in select_in(db, "SELECT id, name FROM players WHERE id IN ({})", wanted)
    }
    return {i: found.get(i, Player(i, i)) for i in wanted}


def table_row(db: sqlite3.Connection, table_id: int) -> sqlite3.Row:
    row = db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise NoSuchTable(f"There is no table {table_id}")
    return row  # type: ignore[no-any-return]


def seat_rows(db: sqlite3.Connection, table_id: int) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
    ).fetchall()


def is_invited(db: sqlite3.Connection, table_id: int, player_id: str) -> bool:
    return (
        db.execute(
            "SELECT 1 FROM invitations WHERE table_id = ? AND guest = ? AND answer IS NULL",
            (table_id, player_id),
        ).fetchone()
        is not None
    )


def hot_seat_guest(db: sqlite3.Connection, table_id: int, host_id: str) -> Player | None:
    """The hot-seat guest of ``host_id`` invited to play second at this table and
    not yet seated (the invitation keeps who plays second), or None."""
    prefix = guests_of(host_id)
    row = db.execute(
        "SELECT i.guest AS id, coalesce(p.name, i.guest) AS name FROM invitations i "
        "LEFT JOIN players p ON p.id = i.guest "
        "WHERE i.table_id = ? AND i.host = ? AND i.answer IS NULL "
        "AND substr(i.guest, 1, ?) = ? ORDER BY i.sent_at DESC",
        (table_id, host_id, len(prefix), prefix),
    ).fetchone()
    return None if row is None else Player(row["id"], row["name"])


def seat_infos(
    t: sqlite3.Row, seats: Sequence[sqlite3.Row], players: dict[str, Player], now: float
) -> tuple[SeatInfo, ...]:
    """The seats of table ``t`` at ``now`` (clocks per :mod:`.clock`)."""
    out = []
    limit = float(t["limit_s"])
    for s in seats:
        other = next((o for o in seats if o["seat"] != s["seat"]), None)
        start, end, reason, used = status(s, other, limit, now)
        out.append(
            SeatInfo(
                number=s["seat"],
                player=players.get(s["player"], Player(s["player"], s["player"])),
                taken_at=s["taken_at"],
                started_at=start,
                finished_at=end,
                reason=reason,  # type: ignore[arg-type]
                limit=limit,
                score=s["score"],
                runs=s["runs"],
                moves=s["moves"],
                actions=s["actions"],
                time_used=used,
                credit=credit_of(s),
            )
        )
    return tuple(out)


def table_state(t: sqlite3.Row, seats: Sequence[SeatInfo], now: float) -> TableState:
    """Where a table stands at ``now`` (see :data:`~termsolitaire.match.model.TableState`)."""
    if t["closed_at"] is not None:
        return "closed"
    ended = all(s.finished for s in seats)
    if len(seats) == 2:
        return "finished" if ended else "playing"
    started = any(s.started for s in seats)
    if now >= t["opened_at"] + JOIN_WINDOW:
        if not started:
            return "closed"
        return "finished" if ended else "started"
    return "started" if started else "waiting"
