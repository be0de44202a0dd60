"""What the match store refuses, each with the sentence shown to the player.

Every refusal is a :class:`MatchError`; ``reason`` (also ``str(e)``) is short,
names what was wrong and, where there is one, says what to do instead. A
refusal changes nothing: the store, the seat and the local game stay as they
were. The rules' own :class:`~termsolitaire.rules.IllegalMove` passes through
unchanged for a move the rules refuse.
"""

from __future__ import annotations


class MatchError(Exception):
    """Something the player asked for cannot be done; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadName(MatchError):
    """A player id or display name that cannot be used."""


class BadChoice(MatchError):
    """A table setting that is not offered (suits, time limit)."""


class UnknownPlayer(MatchError):
    """No player of that name or id has used the lobby on this host (or two share the name)."""


class NoSuchTable(MatchError):
    """The table does not exist (any more) in this store."""


class TableFull(MatchError):
    """Both seats are taken."""


def hot_seat_kept(table_id: int, guest: str) -> TableFull:
    """The refusal of a hot-seat table's second seat to anyone but ``guest`` (its
    name), who sits down once the host has played."""
    return TableFull(f"Table {table_id} is a hot-seat match: its second seat is {guest}'s")


class TableClosed(MatchError):
    """The table takes no more players: closed by its host, finished, or too old."""


class NotInvited(MatchError):
    """A private table, and no invitation for this player."""


class BadCode(MatchError):
    """A join code that is not one, or that no table has."""


class CodeExpired(BadCode):
    """A code that was good once: its table is finished, closed or too old."""


class TooManyTries(MatchError):
    """Too many wrong codes in a short while; the player must wait."""


class NotAllowed(MatchError):
    """An action this player may not take here (not their table, not yet, ...)."""


class GameOver(MatchError):
    """The seat's game has ended; no more actions. ``why`` is its finish reason."""

    def __init__(self, reason: str, why: str) -> None:
        super().__init__(reason)
        self.why = why


class TimeUp(GameOver):
    """The clock ran out before this action."""

    def __init__(self, reason: str = "Time is up: your game has ended") -> None:
        super().__init__(reason, "time")


class SeatMoved(MatchError):
    """The seat's game moved on elsewhere (the same player in another window);
    the seat has been brought up to date from the store."""


class StoreError(MatchError):
    """The shared database cannot be used as asked. The local game goes on."""


class StoreGone(StoreError):
    """The database file (or its directory) has disappeared."""


class StoreReadOnly(StoreError):
    """The database can be read but not written."""


class StoreBusy(StoreError):
    """Another player held the database for longer than the busy timeout."""


class StoreDamaged(StoreError):
    """The database is not one termsolitaire can use (damaged, or from a newer version)."""
