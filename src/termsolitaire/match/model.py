"""What the lobby and the match screens are shown: plain frozen values.

They are snapshots read from the store at one moment (``now``); the clock
figures in them (``time_used``, ``remaining``) are for that moment, and a
screen that ticks works them out again with :meth:`SeatInfo.remaining_at`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .clock import used
from .identity import Player

Reason = Literal["cleared", "time", "end"]
TableState = Literal["waiting", "started", "playing", "finished", "closed"]
"""``waiting``: a free seat, nobody has started; ``started``: a free seat, the
first player has started (others may still join); ``playing``: both seats taken
and a game still going; ``finished``: every game at the table has ended (or the
table takes no more players and its games have ended); ``closed``: its host
closed it before anyone played."""

REASONS: dict[str, str] = {
    "cleared": "all cards discarded",
    "time": "time ran out",
    "end": "End pressed",
}
"""How each finish reason is said to the player."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat at one moment: who, their clock, and their figures so far."""

    number: int
    player: Player
    taken_at: float
    started_at: float | None
    """When the clock started (wall clock, seconds); None while not started."""
    finished_at: float | None
    """When the game ended (for ``time`` that is ``started_at`` + the limit)."""
    reason: Reason | None
    limit: float
    """The table's time limit in seconds."""
    score: int
    runs: int
    moves: int
    actions: int
    """How many actions are in the store for this seat (a watcher's cursor)."""
    time_used: float
    credit: float = 0.0
    """Seconds given back to this clock for server restarts (docs/match.md, "A
    server restart"): the clock reads now - started_at - credit."""

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def finished(self) -> bool:
        return self.reason is not None

    @property
    def playing(self) -> bool:
        return self.started and not self.finished

    @property
    def remaining(self) -> float:
        return max(0.0, self.limit - self.time_used)

    def remaining_at(self, now: float) -> float:
        """Seconds left at ``now`` (for a screen's clock between two reads)."""
        if self.started_at is None:
            return self.limit
        end = self.finished_at if self.finished_at is not None else now
        return self.limit - used(self.started_at, end, self.credit, self.limit)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One table as a player's lobby shows it."""

    id: int
    host: Player
    suits: int
    limit: float
    """The time limit in seconds (``limit // 60`` minutes)."""
    public: bool
    deal: int
    opened_at: float
    state: TableState
    seats: tuple[SeatInfo, ...]
    """The taken seats, seat 1 first (one or two)."""
    code: str | None
    """The join code (``ABCD-EFGH``), shown only to the players seated at the table."""
    can_join: bool
    """This player may take the free seat now."""
    invited: bool
    """This player has an unanswered invitation to this table."""
    friends: tuple[str, ...] = field(default=())
    """Ids of the seated players who are on this player's friends list."""
    revision: int = 0
    """The table's revision in the same read as everything above: what a screen
    remembers having read (a revision read in a statement of its own may be newer
    than the seats read after it, or belong to a read that failed)."""

    @property
    def minutes(self) -> int:
        return int(self.limit // 60)

    @property
    def full(self) -> bool:
        return len(self.seats) == 2

    def seat_of(self, player_id: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.player.id == player_id), None)

    def opponent_of(self, player_id: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.player.id != player_id), None)


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's result, as both sides compute it by replaying the store."""

    player: Player
    score: int
    runs: int
    moves: int
    time_used: float
    reason: Reason | None
    """None while that game is still going."""
    credit: float = 0.0
    """Seconds given back to this player's clock for server restarts."""

    @property
    def finished(self) -> bool:
        return self.reason is not None


@dataclass(frozen=True, slots=True)
class Results:
    """The match at a table: both players' figures and, once both have finished,
    the winner (the higher score; equal scores draw)."""

    table_id: int
    seats: tuple[Figures, ...]
    final: bool
    """Every seated game has ended and there are two players."""
    winner: Player | None
    """The winner once final; None while not final, and for a draw."""

    @property
    def draw(self) -> bool:
        return self.final and self.winner is None

    def outcome_for(self, player_id: str) -> Literal["win", "loss", "draw"] | None:
        """``win``, ``loss`` or ``draw`` for that player once final, else None."""
        if not self.final:
            return None
        if self.winner is None:
            return "draw"
        return "win" if self.winner.id == player_id else "loss"


@dataclass(frozen=True, slots=True)
class Invitation:
    """An unanswered invitation to a table that still takes players."""

    table_id: int
    host: Player
    suits: int
    limit: float
    sent_at: float


@dataclass(frozen=True, slots=True)
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class Record:
    """A player's match record: overall, and per opponent (most played first)."""

    player: Player
    overall: Tally
    opponents: tuple[tuple[Player, Tally], ...]


@dataclass(frozen=True, slots=True)
class Action:
    """One stored action of a seat: its number (from 0), its text and when it was played."""

    n: int
    text: str
    at: float
