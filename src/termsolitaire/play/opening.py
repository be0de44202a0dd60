"""Opening a game the player asked for: resume it, ask first, or deal a new one.

The policy, in one place (the app shell only shows what it decides):

- a game open in another copy of the program (its save is locked there) is
  offered read only, never played twice at once;
- the menu's Resume line continues the save; the bare game command continues
  a save with an action, and deals afresh over a deal left without one, as the
  menu's game line does (that deal has no Resume line: nothing to resume);
- a saved game with a move is never given up without the player's say: asked
  for another deal of the same game and variant, the player chooses to resume
  it, to abandon it (it counts as lost), or to keep it and go back; asked for
  the very deal in progress (``napoleon --deal 1`` while deal 1 is going), the
  question says so;
- otherwise a new game, the one replaced (with no move) silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..rules import new_game
from ..storage.locks import SaveLock
from ..storage.saves import Saved, SaveStore
from .session import (
    PROOF,
    WON_LINE,
    GameSession,
    Services,
    abandon,
    describe,
    kept_record,
    played,
    time_limit_of,
)


@dataclass(frozen=True)
class Request:
    """What the player asked for (the menu's line, or the command line)."""

    game: str
    deal: int | None = None
    variant: Mapping[str, int] = field(default_factory=dict)
    time_limit: int = 0
    resume: bool = False
    """Continue the save of this game and variant."""
    or_new: bool = False
    """With no save to continue (none, or a deal left without an action), deal a
    new game without a word (the bare command)."""


@dataclass
class Opening:
    """What to show for a :class:`Request`."""

    kind: Literal["read_only", "resume", "ask", "new", "here"]
    """``here``: the game is open in this process already (asked for twice, as
    by a double click): nothing to open."""
    request: Request
    lock: SaveLock | None = None
    saved: Saved | None = None
    notice: str | None = None
    holder: str = ""
    """Who holds the game (``read_only``)."""
    question: tuple[str, list[str]] = ("", [])
    """The headline and lines of the question (``ask``)."""


def open_game(services: Services, request: Request, notice: str | None = None) -> Opening:
    """Decide how to open ``request`` (see the module's notes). The save's lock is
    taken here; a ``read_only`` opening holds none."""
    saves = services.saves
    lock = saves.lock(request.game, dict(request.variant))
    if not lock.acquire():
        if lock.held_here():
            return Opening("here", request)
        return Opening("read_only", request, holder=lock.holder())
    saved, problem = saves.load(request.game, dict(request.variant))
    notice = "; ".join(m for m in (notice, lock.problem, problem) if m) or None
    if request.resume and saved is not None and (played(saved.game) or not request.or_new):
        return Opening("resume", request, lock, saved, notice)
    if request.resume and not request.or_new:  # the menu's Resume line, its save since gone
        return Opening("new", request, lock, None, notice or "The saved game is gone; a new deal")
    if saved is not None and played(saved.game):
        if request.deal is not None and request.deal == saved.game.deal:
            headline = f"Deal {saved.game.deal} is in progress: {describe(saved)}."
            lines = ["Resume it, or start it again from the start (it counts as lost)?"]
        else:
            headline = f"In progress: {describe(saved)}."
            lines = ["Resume it, or abandon it for a new deal (it counts as lost)?"]
        return Opening("ask", request, lock, saved, notice, question=(headline, lines))
    return Opening("new", request, lock, saved, notice)


def latest_variant(saves: SaveStore, name: str) -> tuple[dict[str, int] | None, list[str]]:
    """The variant of the game ``name`` saved last, if any (the bare command
    continues it, whichever variant it is), and messages about broken saves. A
    game with an action comes before a deal left without one: a 4-suit Spider
    deal opened and left at once does not hide the 2-suit game in progress."""
    found, problems = saves.all()
    mine = [s for s in found if s.game.name == name]
    mine = [s for s in mine if played(s.game)] or mine
    if not mine:
        return None, problems
    return dict(max(mine, key=lambda s: s.saved_at).game.variant), problems


def resumed(services: Services, saved: Saved, lock: SaveLock | None) -> GameSession:
    """The session of a saved game, continued exactly (its id, clock and limit, and
    what the solver found, kept with it)."""
    proof, line = kept_record(saved, PROOF), kept_record(saved, WON_LINE)
    return GameSession(services, saved.game, saved.id, time_limit_of(saved), lock, proof, line)


def dealt(
    services: Services, request: Request, saved: Saved | None, lock: SaveLock | None
) -> tuple[GameSession, list[str]]:
    """The session of a new game as ``request`` asks, and messages for the player:
    the ``saved`` game it replaces counts as lost when it had a move."""
    messages = abandon(services, saved)
    game = new_game(request.game, request.deal, **dict(request.variant))
    return GameSession(services, game, None, request.time_limit, lock), messages
