"""What an action did: the :class:`Outcome` every controller action returns, and
the questions and lines of play it may carry for the screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules import Move

CURSOR_ON = "Cursor on; arrows move it, Space picks up and drops"
Navigator = Callable[[str | None, int, int], str | None]
"""Where the cursor goes from a pile (None: not shown yet) for an arrow (dx, dy)."""


@dataclass
class Question:
    """A yes-or-no the player answers before an action happens (``then``)."""

    text: str
    then: Callable[[], Outcome]
    kind: str = "abandon"
    """``abandon`` (another deal), ``end`` (end the game now), ``way_back`` (undo
    to where a win was found)."""


@dataclass
class Outcome:
    """What an action did, for the screen to show."""

    message: str | None = None
    """The sentence for the status line (None: leave it as it is)."""
    refused: bool = False
    moved: bool = False
    """The position changed: redraw, save, ask the solver again."""
    marks: bool = False
    """Only the hand or the cursor changed: redraw."""
    new_game: bool = False
    """Another game is on the board (its title changed)."""
    finished: str | None = None
    """The game is over: the results panel's headline."""
    stuck: bool = False
    """No move leads anywhere new: offer undo, restart or a new deal."""
    ask: Question | None = None
    search: str | None = None
    """Search from here first (the solver's full search), then give ``hint``,
    ``solution`` or ``demo``: the screen asks the solver and hands the answer to
    :meth:`Controller.answered`."""
    solution: Line | None = None
    """A line to step through (or play as a demo) on a read-only copy."""
    finish: bool = False
    """Only foundation moves are left and they win: the screen has the controller
    play them, one by one (:meth:`Controller.finish_step`, which holds them;
    :mod:`.finish`)."""
    note: str | None = None
    """More than the status line holds, said once beside it (a toast): where a
    longer search may find what the board's did not."""
    save: bool = False
    """Nothing was played, but the save is due (a timed game's clock)."""


@dataclass
class Line:
    """A line of play from the board's position, to show on a read-only copy."""

    moves: tuple[Move, ...]
    heading: str = "Solution"
    demo: bool = False


def refused(reason: str) -> Outcome:
    return Outcome(message=reason, refused=True)
