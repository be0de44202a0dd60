"""The clocks of a table, worked out from the stored times alone.

Nothing ticks in the store: a seat holds when it was taken, when its clock
started and, once it has ended, when and why. Everything else follows from
those and ``now``, the same way in every process:

- time used = now - started_at - credit_s, capped at the limit; a player who
  is away keeps losing time, so one who comes back resumes with the clock as
  it would be; ``credit_s`` is the time a server restart gave back (0 but
  after one: :mod:`.credit`), so ``started_at`` stays when the game began;
- a started game whose time is used up has ended with reason ``time`` at
  started_at + credit_s + limit (:func:`deadline`), whether or not anyone has
  written that down yet (a vanished player's seat ends this way);
- a seat taken but never started starts by itself :data:`START_GRACE` after
  the opponent started (so a player who sits down and vanishes cannot hold
  the other's result back for ever);
- a free seat takes players for :data:`JOIN_WINDOW` after the table opened.

>>> row = {"taken_at": 0.0, "started_at": 100.0, "finished_at": None, "reason": None,
...        "credit_s": 0.0}
>>> status(row, None, limit=600, now=400.0)
(100.0, None, None, 300.0)
>>> status(row, None, limit=600, now=900.0)
(100.0, 700.0, 'time', 600.0)
>>> status({**row, "credit_s": 30.0}, None, limit=600, now=400.0)
(100.0, None, None, 270.0)
>>> status({**row, "credit_s": 30.0}, None, limit=600, now=900.0)
(100.0, 730.0, 'time', 600.0)
"""

from __future__ import annotations

from typing import Any, Protocol

START_GRACE = 10 * 60.0
"""Seconds a seated player has, once the opponent has started, to start their own clock."""
JOIN_WINDOW = 24 * 3600.0
"""Seconds after opening during which a table's free seat (and its code) takes a player."""
LIMITS = (5, 10, 15, 20)
"""The time limits a table may have, in minutes (RULES.md: 10 by default)."""
DEFAULT_LIMIT = 10
SUITS = (1, 2, 4)


class Row(Protocol):
    """A seat as stored: ``taken_at``, ``started_at``, ``finished_at``, ``reason``,
    ``credit_s`` (a :class:`sqlite3.Row` or a dict)."""

    def __getitem__(self, key: str, /) -> Any: ...


def credit_of(row: Row) -> float:
    """Seconds the seat's clock was given back for server restarts (:mod:`.credit`)."""
    return float(row["credit_s"] or 0.0)


def deadline(start: float, credit: float, limit: float) -> float:
    """When a clock started at ``start`` with ``credit`` seconds given back runs out."""
    return start + credit + limit


def used(start: float, end: float, credit: float, limit: float) -> float:
    """Seconds of the clock used from ``start`` to ``end``, ``credit`` given back,
    between none and the whole ``limit``."""
    return min(max(0.0, end - start - credit), limit)


def start_of(row: Row, other: Row | None, now: float) -> float | None:
    """When ``row``'s clock started (or started by itself), or None if it has not."""
    if row["started_at"] is not None:
        return float(row["started_at"])
    if other is not None and other["started_at"] is not None:
        auto = max(float(other["started_at"]), float(row["taken_at"])) + START_GRACE
        if now >= auto:
            return auto
    return None


def status(
    row: Row, other: Row | None, limit: float, now: float
) -> tuple[float | None, float | None, str | None, float]:
    """``(started_at, finished_at, reason, time_used)`` of a seat at ``now``."""
    start = start_of(row, other, now)
    if start is None:
        return None, None, None, 0.0
    credit = credit_of(row)
    if row["finished_at"] is not None:
        end = float(row["finished_at"])
        return start, end, str(row["reason"]), used(start, end, credit, limit)
    ends = deadline(start, credit, limit)
    if now >= ends:
        return start, ends, "time", float(limit)
    return start, None, None, used(start, now, credit, limit)
