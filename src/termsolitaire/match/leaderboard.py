"""The daily's leaderboards: today's (or any day's), a week's, all-time records,
read from the match store as one player sees them (docs/daily.md, "The
leaderboards").

Plain Python: no textual or rich import.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass, replace
from typing import Literal

from .identity import Player
from .ratings import Rating, read_ratings

Board = Literal["day", "week", "all"]
BOARDS: tuple[Board, ...] = ("day", "week", "all")


def week_of(day: str) -> tuple[str, str]:
    """The first and last day (Monday, Sunday) of ``day``'s week.

    >>> week_of("2026-12-03")
    ('2026-11-30', '2026-12-06')
    """
    d = dt.date.fromisoformat(day)
    monday = d - dt.timedelta(days=d.weekday())
    return monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat()


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a leaderboard. ``won`` is None for an attempt still going on
    (its figures are not shown); a week's line adds up its ``days``."""

    rank: int
    player: Player
    won: bool | None
    score: int
    seconds: float
    moves: int
    rating: Rating
    mine: bool
    day: str = ""
    days: int = 1
    wins: int = 0


def order(won: int, score: int, seconds: float, moves: int, name: str) -> tuple[object, ...]:
    """Won first, then the higher score (cards home), the shorter time, fewer moves."""
    return (-won, -score, seconds, moves, name.lower())


def read_board(
    db: sqlite3.Connection, me: str, game: str, variant: str, which: Board, day: str
) -> list[Line]:
    """A leaderboard as player ``me`` sees it (players they ignore left out):
    ``day``: that day's daily, won first, then score, time, fewer moves, the
    attempts still going on last; ``week``: the week of ``day`` (Monday to
    Sunday), dailies won, then total score, time, moves; ``all``: each player's
    best daily ever, by the day's rule. ``variant`` is the store's key
    (``suits=2``)."""
    ignored = {r["other"] for r in db.execute("SELECT other FROM ignores WHERE player = ?", (me,))}
    ratings = read_ratings(db)
    if which == "day":
        rows = db.execute(
            "SELECT a.player, a.day, coalesce(p.name, a.player) AS name, r.won, r.score, "
            "r.seconds, r.moves FROM daily_attempts a "
            "LEFT JOIN daily_results r ON r.player = a.player AND r.game = a.game "
            "AND r.variant = a.variant AND r.day = a.day "
            "LEFT JOIN players p ON p.id = a.player "
            "WHERE a.game = ? AND a.variant = ? AND a.day = ?",
            (game, variant, day),
        ).fetchall()
    else:
        first, last = week_of(day) if which == "week" else ("0000-00-00", "9999-99-99")
        rows = db.execute(
            "SELECT r.player, r.day, coalesce(p.name, r.player) AS name, r.won, r.score, "
            "r.seconds, r.moves FROM daily_results r "
            "LEFT JOIN players p ON p.id = r.player "
            "WHERE r.game = ? AND r.variant = ? AND r.day >= ? AND r.day <= ?",
            (game, variant, first, last),
        ).fetchall()
    return rank(which, [r for r in rows if r["player"] not in ignored], ratings, me)


def rank(which: Board, rows: list[sqlite3.Row], ratings: dict[str, Rating], me: str) -> list[Line]:
    """The lines of a leaderboard, ranked (equal results share a rank)."""
    keyed: list[tuple[tuple[object, ...], Line]] = []
    if which == "week":
        per: dict[str, list[sqlite3.Row]] = {}
        for r in rows:
            per.setdefault(r["player"], []).append(r)
        for pid, mine in per.items():
            wins = sum(int(r["won"]) for r in mine)
            score = sum(int(r["score"]) for r in mine)
            seconds = sum(float(r["seconds"]) for r in mine)
            moves = sum(int(r["moves"]) for r in mine)
            name = mine[0]["name"]
            line = Line(
                0,
                Player(pid, name),
                wins > 0,
                score,
                seconds,
                moves,
                ratings.get(pid, Rating()),
                pid == me,
                days=len(mine),
                wins=wins,
            )
            keyed.append((order(wins, score, seconds, moves, name), line))
    else:
        best: dict[str, tuple[tuple[object, ...], Line]] = {}
        for r in rows:
            pid, name = r["player"], r["name"]
            playing = r["won"] is None
            line = Line(
                0,
                Player(pid, name),
                None if playing else bool(r["won"]),
                0 if playing else int(r["score"]),
                0.0 if playing else float(r["seconds"]),
                0 if playing else int(r["moves"]),
                ratings.get(pid, Rating()),
                pid == me,
                day=r["day"],
                wins=0 if playing else int(r["won"]),
            )
            key = (
                (1, name.lower())
                if playing
                else (0, *order(int(r["won"]), line.score, line.seconds, line.moves, name))
            )
            if pid not in best or key < best[pid][0]:
                best[pid] = (key, line)
        keyed = list(best.values())
    keyed.sort(key=lambda kl: kl[0])
    out: list[Line] = []
    for i, (key, line) in enumerate(keyed):
        same = out and keyed[i - 1][0][:-1] == key[:-1]  # equal but for the name
        rank = out[-1].rank if same else i + 1
        out.append(replace(line, rank=rank))
    return out
