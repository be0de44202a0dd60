"""A game in play and the services around it: saves, statistics, settings, the clock.

No textual import: the app composes a :class:`Services` and hands it to its
screens; a board screen keeps one :class:`GameSession` for the game on it,
which saves after every action, keeps the clock, and records the game in the
statistics once.

- :meth:`GameSession.record`: a finished game into the statistics, once (its id
  makes it once);
- :meth:`GameSession.abandon`, :func:`abandon`: a game that gives way to another
  deal counts as lost if it had any action;
- :func:`describe`: the Resume line of a saved game.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..rules import Game, info
from ..storage import lastgame
from ..storage.backend import FileStorage, Storage, open_storage
from ..storage.files import StorageError
from ..storage.locks import SaveLock
from ..storage.paths import Paths
from ..storage.saves import Saved, SaveStore, new_game_id
from ..storage.settings import Settings

if TYPE_CHECKING:
    from ..solver.worker import SolverWorker
    from ..storage.stats import Stats


SOLVER_ENV = "TERMSOLITAIRE_SOLVER_HELP"

PROOF = "lost"
"""The save's option that keeps the solver's proof of loss (:mod:`.proof`)."""

WON_LINE = "won_line"
"""The save's option that keeps the winning line the solver found (:mod:`.proof`)."""


def clock_text(seconds: float) -> str:
    """``4:05``; from an hour on ``1:02:03``.

    >>> clock_text(245.9), clock_text(3723)
    ('4:05', '1:02:03')
    """
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60:d}:{s % 60:02d}"


class Clock:
    """Where a board's time comes from. ``running=False`` stands it still (tests,
    snapshots); ``now`` may be replaced by a clock a test steps by hand."""

    def __init__(self, running: bool = True, now: Callable[[], float] = time.monotonic) -> None:
        self.running = running
        self.now = now


@dataclass
class Services:
    """What the screens use besides the game: one typed object, handed down."""

    paths: Paths
    saves: SaveStore
    settings: Settings
    clock: Clock = field(default_factory=Clock)
    messages: list[str] = field(default_factory=list)
    """Problems met while opening the stores, for the player (shown once)."""
    winnable: bool = False
    """This run asked for winnable deals only (``--winnable``), whatever the setting."""
    _solver: SolverWorker | None = field(default=None, repr=False)
    storage: Storage | None = field(default=None, repr=False)
    """Where saves, statistics and settings are kept (files or a database)."""

    def backend(self) -> Storage:
        """Where saves, statistics and settings are kept: the files under
        :attr:`paths` when none was given."""
        if self.storage is None:
            self.storage = FileStorage(self.paths)
        return self.storage

    @property
    def stats(self) -> Stats:
        """The finished games' statistics: the store's, opened when first asked (a
        board's first frame does without SQLite)."""
        return self.backend().stats

    @property
    def solver_help(self) -> bool:
        """The verdict and hints: the setting, unless ``TERMSOLITAIRE_SOLVER_HELP=0``
        turns them off for this run (a busy server, the test suite)."""
        return self.settings.solver_help and os.environ.get(SOLVER_ENV, "1") != "0"

    @property
    def winnable_only(self) -> bool:
        """New random deals must be proved winnable (the setting, or ``--winnable``)."""
        return self.winnable or self.settings.winnable_only

    def solver(self) -> SolverWorker:
        """The solver's worker processes (started on first use; one per app)."""
        if self._solver is None:
            from ..solver.worker import SolverWorker

            self._solver = SolverWorker()
        return self._solver

    async def close(self) -> None:
        """Stop what runs in other processes (the solver's searches)."""
        if self._solver is not None:
            await self._solver.close()
            self._solver = None

    @classmethod
    def open(cls, data_dir: str | None = None, clock: Clock | None = None) -> Services:
        try:
            storage = open_storage(data_dir)
            settings, messages = storage.load_settings()
        except (ValueError, StorageError) as e:  # an unknown URL, or no database
            raise SystemExit(f"termsolitaire: {e}") from None
        return cls(
            storage.paths,
            storage.saves,
            settings,
            clock or Clock(),
            messages,
            storage=storage,
        )

    def save_settings(self, name: str | None = None) -> str | None:
        """Write the settings; the message for the player when that failed.

        With ``name``, the one setting the player just changed goes into the
        settings as they are kept now, the others as they are there: a second
        window (or SSH login) of the same player changes a setting of its own
        without writing back every other one as it was when that window opened
        (a change made meanwhile in the first window was silently undone)."""
        try:
            backend = self.backend()
            settings = self.settings
            if name is not None:
                kept, problems = backend.load_settings()
                if not problems:
                    kept.set(name, settings.get(name))
                    settings = kept
            backend.save_settings(settings)
        except StorageError as e:
            return f"Settings not saved: {e}"
        return None


def played(game: Game) -> bool:
    """Whether the player did anything in this game (a move, even one taken back)."""
    return bool(game.log)


def record(stats: Stats | None, game_id: str, game: Game, won: bool, minutes: int = 0) -> list[str]:
    """Record ``game``, played with a time limit of ``minutes`` (0: none), as won or
    lost under ``game_id``; messages for the player."""
    if stats is None:
        return []
    messages: list[str] = []
    try:
        stats.record(
            game_id,
            game.name,
            dict(game.variant),
            game.deal,
            won,
            game.score,
            game.moves,
            game.elapsed,
            minutes,
        )
    except StorageError as e:
        messages.append(f"Statistics not kept: {e}")
    messages[:0] = stats.messages
    stats.messages.clear()
    return messages


def abandon(services: Services, saved: Saved | None) -> list[str]:
    """A saved game gives way to another deal: lost, once, if it had an action
    (the statistics are opened only then)."""
    if saved is not None and played(saved.game):
        return record(services.stats, saved.id, saved.game, False, time_limit_of(saved))
    return []


def kept_record(saved: Saved, key: str) -> dict[str, Any] | None:
    """What the solver found, kept with a saved game under ``key`` (:data:`PROOF`,
    :data:`WON_LINE`), as the save holds it (unchecked: :mod:`.proof` checks it)."""
    found = saved.options.get(key)
    return found if isinstance(found, dict) else None


def time_limit_of(saved: Saved) -> int:
    """The minutes on a saved game's clock (0: none)."""
    limit = saved.options.get("time_limit", 0)
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0 else 0


def describe(saved: Saved) -> str:
    """``Penguin — deal 5, 12 moves, 3:04``; a game with variants adds them, and under
    a time limit the time left shows (``Spider 2 suits — deal 7, 30 moves, 4:10 left``).

    The moves are the header's figure, so the line and the board resumed agree.
    Spider's counts card moves only (a deal is no move, RULES.md): a Spider game
    of deals alone says what was done, ``1 row dealt``, not "0 moves", which read
    as a game never played; so does a game whose every move was taken back
    (``every move taken back``: it is in progress all the same)."""
    g = saved.game
    name = " ".join(filter(None, (g.title, info(g.name).variant_text(g.variant))))
    clock = clock_text(g.elapsed)
    limit = time_limit_of(saved)
    if limit:
        clock = f"{clock_text(max(0.0, limit * 60 - g.elapsed))} left"
    n = g.moves
    done = f"{n} move{'' if n == 1 else 's'}"
    rows = sum(m.kind == "deal" for m in g.history)
    if n == 0 and rows:
        done = f"{rows} row{'' if rows == 1 else 's'} dealt"
    elif n == 0 and g.log:  # in progress (a move, even one taken back: ``played``)
        done = "every move taken back"
    return f"{name} — deal {g.deal}, {done}, {clock}"


class GameSession:
    """The game on a board: its id in the save and the statistics, its clock and
    time limit, and whether it is over. Saving and recording go through here."""

    def __init__(
        self,
        services: Services | None,
        game: Game,
        game_id: str | None = None,
        time_limit: int = 0,
        lock: SaveLock | None = None,
        proof: dict[str, Any] | None = None,
        won_line: dict[str, Any] | None = None,
    ) -> None:
        self.services = services
        self.game = game
        self.proof = proof
        """The solver's proof of loss saved with the game (:mod:`.proof`): read from
        the save on resume (the controller checks it before trusting it), and
        written with every save."""
        self.won_line = won_line
        """The winning line the solver found, saved with the game the same way."""
        self.lock = lock
        """The lock of this game's save slot, held while the game is open (None: not
        locked, as in a replay)."""
        self.id = game_id or new_game_id()
        self.time_limit = time_limit * 60
        """Seconds on the clock (0: the clock counts up with no limit)."""
        self.over = False
        self.save_error: str | None = None
        """Why the last autosave failed; None while saving works."""
        self.save_seconds: list[float] = []
        """How long each autosave took (the last hundred)."""
        self._tick_at = self._now()

    def _now(self) -> float:
        return self.services.clock.now() if self.services else time.monotonic()

    @property
    def clock_running(self) -> bool:
        return self.services.clock.running if self.services else True

    # ---------------------------------------------------------------- clock

    def restart_clock(self) -> None:
        """The clock counts from now (a new game, the first frame)."""
        self._tick_at = self._now()

    def advance(self, active: bool = True) -> None:
        """Add the time since the last call to ``game.elapsed`` when the clock runs
        and the game is ``active`` (on screen, not over, not paused)."""
        now = self._now()
        step, self._tick_at = now - self._tick_at, now
        if active and not self.over and self.clock_running:
            self.game.elapsed += step

    @property
    def seconds_shown(self) -> float:
        """What the clock shows: time played, or under a limit the time left."""
        if self.time_limit:
            return max(0.0, self.time_limit - self.game.elapsed)
        return self.game.elapsed

    @property
    def time_is_up(self) -> bool:
        return bool(self.time_limit) and self.game.elapsed >= self.time_limit

    # --------------------------------------------------------------- saving

    def options(self) -> dict[str, Any]:
        """What the save needs besides the game to continue exactly: the time limit,
        and what the solver found: a proof of loss (``lost``), a winning line
        (``won_line``; :mod:`.proof`)."""
        options: dict[str, Any] = {"time_limit": self.time_limit // 60}
        if self.proof is not None:
            options[PROOF] = self.proof
        if self.won_line is not None:
            options[WON_LINE] = self.won_line
        return options

    def autosave(self) -> str | None:
        """Write this game's save; a message the first time saving fails (play goes on)."""
        if self.services is None or self.over:
            return None
        start = time.perf_counter()
        try:
            self.services.saves.save(self.game, self.id, self.options())
        except StorageError as e:
            first = self.save_error is None
            self.save_error = str(e)
            return f"Not saving: {e}" if first else None
        self.save_error = None
        self.save_seconds = [*self.save_seconds[-99:], time.perf_counter() - start]
        return None

    def forget(self) -> str | None:
        """Delete the save (the game is over); a message when that failed."""
        if self.services is None:
            return None
        try:
            self.services.saves.delete(self.game.name, self.game.variant)
        except StorageError as e:
            return str(e)
        return None

    def record(self, won: bool) -> list[str]:
        """This game into the statistics (once: its id makes it once)."""
        stats = self.services.stats if self.services else None
        return record(stats, self.id, self.game, won, self.time_limit // 60)

    def finish(self) -> list[str]:
        """The game is over (won, time up, ended): recorded, its save removed."""
        if self.over:
            return []
        messages = self.record(won=self.game.is_won) if self.game.log else []
        self.over = True
        problem = self.forget()
        kept = lastgame.keep(self.services.paths, self.game) if self.services else None
        return [*messages, *(p for p in (problem, kept) if p)]

    def follow(self, game: Game) -> GameSession:
        """A session for the next game on the same board (restart, new deal): the
        same services, time limit and lock (the same save slot), a fresh id."""
        return GameSession(self.services, game, None, self.time_limit // 60, self.lock)

    def release(self) -> None:
        """The game is closed: let another copy of the program open it."""
        if self.lock is not None:
            self.lock.release()

    def abandon(self) -> list[str]:
        """The game gives way to another deal: lost, when it had a move."""
        if not self.over and played(self.game):
            return self.record(won=False)
        return []

    def confirm_abandon(self) -> bool:
        """Whether leaving this game for another deal needs the player's yes."""
        settings = self.services.settings if self.services else None
        return bool(not self.over and played(self.game) and settings and settings.confirm_abandon)
