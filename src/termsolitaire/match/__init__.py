"""The Spider match: tables shared by the players of one host (RULES.md, "The
match" and "Tables"). Plain Python: no textual or rich import.

- :mod:`.store`: :class:`MatchStore`, the shared SQLite store as one player
  sees it: the lobby (tables, open, join, codes, invitations), friends and
  ignore lists, the record, results and Watch;
- :mod:`.seat`: :class:`Seat`, one player's game at a table: actions appended
  as they are played, the clock, End;
- :mod:`.clock`: the clocks, worked out from stored times;
- :mod:`.replay`: a seat's game rebuilt from the deal and its actions;
- :mod:`.identity`: who the player is (login name, or the SSH server's id);
- :mod:`.errors`: every refusal, with the sentence for the player.

See docs/match.md for the shared-host setup.
"""

from __future__ import annotations

from .clock import DEFAULT_LIMIT, JOIN_WINDOW, LIMITS, START_GRACE, SUITS
from .codes import normalise as normalise_code
from .db import ENV_DIR, match_dir
from .errors import (
    BadChoice,
    BadCode,
    BadName,
    CodeExpired,
    GameOver,
    MatchError,
    NoSuchTable,
    NotAllowed,
    NotInvited,
    SeatMoved,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreGone,
    StoreReadOnly,
    TableClosed,
    TableFull,
    TimeUp,
    TooManyTries,
    UnknownPlayer,
)
from .identity import ENV_ID, ENV_NAME, Player, current_player
from .model import (
    REASONS,
    Action,
    Figures,
    Invitation,
    Record,
    Results,
    SeatInfo,
    TableInfo,
    Tally,
)
from .results import Watcher
from .seat import Seat
from .store import MatchStore

__all__ = [
    "DEFAULT_LIMIT",
    "ENV_DIR",
    "ENV_ID",
    "ENV_NAME",
    "JOIN_WINDOW",
    "LIMITS",
    "REASONS",
    "START_GRACE",
    "SUITS",
    "Action",
    "BadChoice",
    "BadCode",
    "BadName",
    "CodeExpired",
    "Figures",
    "GameOver",
    "Invitation",
    "MatchError",
    "MatchStore",
    "NoSuchTable",
    "NotAllowed",
    "NotInvited",
    "Player",
    "Record",
    "Results",
    "Seat",
    "SeatInfo",
    "SeatMoved",
    "StoreBusy",
    "StoreDamaged",
    "StoreError",
    "StoreGone",
    "StoreReadOnly",
    "TableClosed",
    "TableFull",
    "TableInfo",
    "Tally",
    "TimeUp",
    "TooManyTries",
    "UnknownPlayer",
    "Watcher",
    "current_player",
    "match_dir",
    "normalise_code",
]
