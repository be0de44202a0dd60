"""What a board allows now: its policy (what kind of game it shows) and its mode.

A :class:`Policy` says what a kind of board allows at all: a solo game pauses,
restarts and gives hints; a match game does none of these (its clock never
stops); a replay, a watched game and a game open in another window are read
only. The :class:`Mode` is where the board is now: playing, paused, finished,
read only, or playing a match. Every action is asked of them first
(:meth:`~termsolitaire.play.controller.Controller.refusal`): an action the mode
does not allow returns its reason and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Mode(Enum):
    """Where a board is now."""

    PLAYING = "playing"
    PAUSED = "paused"
    FINISHED = "finished"
    READ_ONLY = "read-only"
    MATCH = "match"


@dataclass(frozen=True, slots=True)
class Policy:
    """What a kind of board allows."""

    kind: str
    """``solo``, ``match``, ``replay``, ``watch`` or ``view`` (another window's game)."""
    read_only: bool = False
    """Nothing can be played; the sentence for any try is :attr:`refusal`."""
    clock_stops: bool = True
    """The clock stands still while the board is paused or hidden (a match's never does)."""
    hints: bool = True
    """The solver's verdict, hints, solution and demo."""
    fair: bool = False
    """The help sees only what the player sees, whatever the setting "fair hints"."""
    new_deals: bool = True
    """Restart, a new deal, a deal by number."""
    saves: bool = True
    """Saved after every action and counted in the statistics."""
    refusal: str = ""


SOLO = Policy("solo")
MATCH = Policy("match", clock_stops=False, hints=False, fair=True, new_deals=False, saves=False)
REPLAY = Policy(
    "replay",
    read_only=True,
    hints=False,
    new_deals=False,
    saves=False,
    refusal="A replay is read only: → next, ← previous, End the end, Q quit",
)
WATCH = Policy(
    "watch",
    read_only=True,
    hints=False,
    new_deals=False,
    saves=False,
    refusal="You are watching: nothing can be played here (Q goes back)",
)
VIEW = Policy(
    "view",
    read_only=True,
    hints=False,
    new_deals=False,
    saves=False,
    refusal="This game is open in another window: here it is read only (Q goes back)",
)

PLAY = frozenset(
    {"pile", "grab", "foundation", "undo", "redo", "deal", "turn", "collect", "end", "click"}
)
"""Actions that change the game."""
NEW = frozenset({"restart", "new_game", "deal_number"})
"""Actions that put another deal on the board."""
HELP = frozenset({"hint", "solution", "demo"})
"""The solver's help."""
HAND = frozenset({"cursor", "more", "fewer", "cancel", "drag"})
"""Actions that move only the selection and the cursor."""
ALWAYS = frozenset({"help", "rules", "quit", "results", "watch", "four_colour"})
"""Actions every mode allows (they change nothing of the game)."""
