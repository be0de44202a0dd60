"""A server restart's credit: the time the host was down, given back to the clocks
of the games its players could not play meanwhile (docs/match.md, "A server
restart").

A match clock never pauses for the player (one who leaves loses their time);
a host that stops is not the player leaving. When ``serve`` starts again it
knows which players had a session on it and when it went quiet (its last
heartbeat, or its clean stop): :func:`credit_restart` adds the seconds since
then, at most :data:`CAP`, to ``seats.credit_s`` of each running game of
those players, and of the computer's or a hot-seat guest's game at their
tables (those play in the player's own app). A clock reads
``now - started_at - credit_s`` (:mod:`.clock`), so ``started_at`` stays when
the game began and the results can say what was given back.

Not credited: a seat that had ended, or whose time had run out before the host
went quiet; a game not started; a player who played on meanwhile (an action
of theirs stored more than :data:`ELSEWHERE` seconds after it, through
another host or a local login).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from .clock import JOIN_WINDOW, LIMITS, START_GRACE, credit_of, deadline
from .identity import COMPUTER, guests_of

CAP = 5 * 60.0
"""The most one restart gives back, in seconds: a host down for an hour does not
revive its games."""
ELSEWHERE = 30.0
"""An action stored this long after the host went quiet was played elsewhere (the
host's last heartbeat can be up to its period old when it dies, and a stopping
host's apps save for a few seconds): its player is not credited."""
HORIZON = JOIN_WINDOW + START_GRACE + max(LIMITS) * 60.0
"""Tables opened longer ago than this have no game going."""


@dataclass(frozen=True, slots=True)
class Credit:
    """One seat given back ``seconds``."""

    table_id: int
    seat: int
    player: str
    seconds: float


def credit_restart(
    db: sqlite3.Connection, quiet_since: Mapping[str, float], now: float
) -> list[Credit]:
    """Inside a write transaction: give back to the running games of each player in
    ``quiet_since`` (player id: when their host went quiet) the time since, at most
    :data:`CAP`. Each seat once, whoever else sits at its table; the seats credited."""
    found: dict[tuple[int, int], Credit] = {}
    for player, since in sorted(quiet_since.items()):
        if now <= since or _played_since(db, player, since + ELSEWHERE):
            continue
        tables = db.execute(
            "SELECT s.table_id, t.limit_s FROM seats s JOIN tables t ON t.id = s.table_id "
            "WHERE s.player = ? AND t.closed_at IS NULL AND t.opened_at >= ?",
            (player, now - HORIZON),
        ).fetchall()
        driven = guests_of(player)
        for t in tables:
            seats = db.execute(
                "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (t["table_id"],)
            ).fetchall()
            for s in seats:
                who = str(s["player"])
                ours = who == player or who.startswith(COMPUTER) or who.startswith(driven)
                key = (int(s["table_id"]), int(s["seat"]))
                if not ours or key in found or not _running(s, float(t["limit_s"]), since):
                    continue
                if s["last_at"] is not None and float(s["last_at"]) > since + ELSEWHERE:
                    continue
                seconds = min(CAP, now - max(since, float(s["started_at"])))
                if seconds > 0:
                    found[key] = Credit(key[0], key[1], who, seconds)
    for c in found.values():
        db.execute(
            "UPDATE seats SET credit_s = credit_s + ? "
            "WHERE table_id = ? AND seat = ? AND finished_at IS NULL",
            (c.seconds, c.table_id, c.seat),
        )
        db.execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (c.table_id,))
    return sorted(found.values(), key=lambda c: (c.table_id, c.seat))


def _running(s: sqlite3.Row, limit: float, since: float) -> bool:
    """Started, not ended, and its time not run out when the host went quiet."""
    if s["started_at"] is None or s["finished_at"] is not None:
        return False
    return deadline(float(s["started_at"]), credit_of(s), limit) > since


def _played_since(db: sqlite3.Connection, player: str, after: float) -> bool:
    """Whether ``player`` stored an action after ``after`` (played on elsewhere)."""
    row = db.execute(
        "SELECT 1 FROM seats WHERE player = ? AND last_at > ? LIMIT 1", (player, after)
    ).fetchone()
    return row is not None
