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
    """``solo``, ``match``, ``daily``, ``replay``, ``watch`` or ``view`` (another
    window's game)."""
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
    no_help: str = "No hints in a match: both players play on their own, with what they see"
    """Why hints, the solution and the demo are off (when :attr:`hints` is False)."""
    no_new: str = "A match game is played to its end: no restart, no other deal"
    """Why restart and other deals are off (when :attr:`new_deals` is False)."""
    no_pause: str = "The match clock never stops: P is for solo games"
    """Why P does nothing (when the clock never stops)."""
    ending: str = ""
    """End's question when the game is not saved (``{score}``: the score now); empty:
    a match's."""
    fair_held: str = ""
    """Why the setting "fair hints" cannot be turned off while this board's game is
    under way (empty: it can)."""


SOLO = Policy("solo")
MATCH = Policy(
    "match",
    clock_stops=False,
    hints=False,
    fair=True,
    new_deals=False,
    saves=False,
    fair_held="Fair hints cannot be turned off in a match: the setting stays on",
)
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

DAILY = Policy(
    "daily",
    clock_stops=False,
    hints=False,
    new_deals=False,
    saves=False,
    no_help="No hints in the daily: everyone plays the same deal alone, with what they see",
    no_new="The daily is played once: no restart, no other deal (a new one comes tomorrow)",
    no_pause="The daily's clock never stops, as a match's: it counts from your start",
    ending="Your daily ends here with score {score}: it goes on the leaderboard as it stands.",
    fair_held="Fair hints cannot be turned off in the daily: the setting stays on",
)
"""Today's daily deal (:mod:`termsolitaire.match.daily`): one attempt, kept in the
match store (not the saves); no pause, no restart, no hints."""

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
ALWAYS = frozenset({"help", "rules", "quit", "results", "watch", "four_colour", "fair_hints"})
"""Actions every mode allows (they change nothing of the game)."""
