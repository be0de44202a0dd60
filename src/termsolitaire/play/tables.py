"""Where a board's actions go: the game itself (solo), or a seat at a match table.

The controller plays every action through a :class:`Table`: an action text in
API.md notation (a move, ``deal``, ``turn tN``, ``undo``, ``redo``, ``end``).
A solo table plays it on the game; a :class:`DailyTable` appends it to this
player's daily attempt in the match store first; a :class:`SeatTable` sends it
to the shared match store first (:class:`~termsolitaire.match.Seat`), so the opponent sees
it and a crash loses nothing. Both raise the same exceptions: the rules'
:class:`~termsolitaire.rules.IllegalMove`, :class:`Refused` (the store or the
table said no), :class:`Ended` (the game is over), :class:`Replaced` (the game
moved on elsewhere: the table's game is now that one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..rules import Game, IllegalMove, Move
from ..rules.actions import apply
from .session import GameSession

if TYPE_CHECKING:  # a solo board starts without the match's modules
    from ..match import Seat
    from ..match.daily import Attempt


class Refused(Exception):
    """The table refused the action; ``reason`` is the sentence for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Ended(Refused):
    """The game is over (a match game that ended meanwhile, by time or elsewhere)."""


class Replaced(Refused):
    """The game moved on elsewhere (the same player in another window)."""


class Table(Protocol):
    """What the controller plays through."""

    @property
    def game(self) -> Game: ...

    @property
    def problem(self) -> str | None:
        """What the player should read after an action besides its own sentence
        (the match store could not share it, say); None when all is well."""

    @property
    def finished(self) -> bool:
        """The table says the game is over (a match seat that ended)."""

    def act(self, action: str) -> Move | None:
        """Play ``action``; the move it played or took back (None for ``end``)."""


class SoloTable:
    """A solo game: the actions are played on the game itself."""

    problem: str | None = None
    finished = False

    def __init__(self, session: GameSession) -> None:
        self.session = session

    @property
    def game(self) -> Game:
        return self.session.game

    def act(self, action: str) -> Move | None:
        return apply(self.game, action)


class ViewTable:
    """A game someone else keeps (a replay's position, a watched player's seat),
    shown read only: nothing is played through it."""

    problem: str | None = None
    finished = False

    def __init__(self, source: Callable[[], Game]) -> None:
        self.source = source

    @property
    def game(self) -> Game:
        return self.source()

    def act(self, action: str) -> Move | None:
        raise Refused("Nothing can be played here")


class SeatTable:
    """A match game: every action goes through the seat to the shared store."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    @property
    def game(self) -> Game:
        return self.seat.game

    @property
    def problem(self) -> str | None:
        return self.seat.problem

    @property
    def finished(self) -> bool:
        return self.seat.finished

    def act(self, action: str) -> Move | None:
        return _in_the_store(self.seat.act, action)


class DailyTable:
    """Today's daily: every action goes to the attempt in the match store before
    the board shows it, so a killed app resumes the same attempt."""

    problem: str | None = None

    def __init__(self, attempt: Attempt) -> None:
        self.attempt = attempt

    @property
    def game(self) -> Game:
        return self.attempt.game

    @property
    def finished(self) -> bool:
        return self.attempt.finished

    @property
    def headline(self) -> str:
        """Why the attempt ended, for the results."""
        return "Won!" if self.game.is_won else "Your daily has ended"

    def act(self, action: str) -> Move | None:
        return _in_the_store(self.attempt.act, action)


def _in_the_store(act: Callable[[str], Move | None], action: str) -> Move | None:
    """``act(action)`` through the match store, its refusals as the table's own:
    the game over (:class:`Ended`), the seat or attempt taken on elsewhere
    (:class:`Replaced`), any other (:class:`Refused`); an illegal move as it is."""
    from ..match import GameOver, MatchError, SeatMoved  # loaded with the store

    try:
        return act(action)
    except IllegalMove:
        raise
    except GameOver as e:
        raise Ended(e.reason) from None
    except SeatMoved as e:
        raise Replaced(e.reason) from None
    except MatchError as e:
        raise Refused(e.reason) from None
