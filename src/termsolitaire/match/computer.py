"""The computer opponent at a table: its own process, its actions fed to its seat.

The computer is a player of the store like any other (``computer:<level>``),
seated at a private table its human opponent hosts, so the side panel, Watch,
the results, the replay and the record work as they do against a person. Its
moves are chosen in a **separate process** (a pure-Python search holds the
GIL: in a thread it would freeze the screen): the child reads the deal and
the actions played so far, then answers each ``next`` with one action and the
seconds that action takes at its level's pace. The parent
(:class:`ComputerDriver`, a task on the app's event loop that never waits on
the process but for its next line) plays each action on the computer's
:class:`~termsolitaire.match.seat.Seat` once its time has come by the store's
clock, so a test that steps the clock by hand sets the pace, and a computer
whose player went away plays no more (its clock runs out, as any vanished
player's does).

The child is :func:`main`, started and ended by :mod:`termsolitaire.children`
(which also ends it with its parent); its protocol is JSON lines: it reads
``{"deal": N, "suits": S, "level": L, "seed": X, "actions": [...]}`` then
``"next"`` lines, and writes ``{"action": TEXT, "delay": SECONDS}`` per
``next`` (``{"action": "end"}`` when it would press End), or ``{"error":
MESSAGE}``. It ends when its input closes, so it never outlives the app, even
one killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from collections.abc import Callable
from typing import Any, Protocol

from .. import children
from ..children import Child, ChildGone, Lines
from ..rules import Game, IllegalMove
from .errors import GameOver, MatchError, StoreError
from .identity import COMPUTER, Player
from .replay import END, replay
from .seat import Seat

PREFIX = COMPUTER
LEVELS: tuple[str, ...] = ("beginner", "casual", "good", "expert")
"""The levels offered, weakest first: the opponent's own (a test checks), written
out so the lobby shows them without loading the solver."""
DEFAULT_LEVEL = "casual"
ENGINE = "termsolitaire.match.computer:opponent_engine"
"""Where the child finds its engine: ``module:function`` (see :class:`Engine`)."""
RESTARTS = 3
"""How often a child that failed is started again before the computer gives up."""


def computer_player(level: str) -> Player:
    """The player the computer is at ``level`` (one record per level).

    >>> computer_player("expert")
    Player(id='computer:expert', name='computer (expert)')
    """
    if level not in LEVELS:
        raise MatchError(f"The computer plays at {', '.join(LEVELS)}, not {level!r}")
    return Player(f"{PREFIX}{level}", f"computer ({level})")


def level_of(player: Player) -> str | None:
    """The level of a computer player; None for a person.

    >>> level_of(Player("computer:good", "computer (good)")), level_of(Player("ann", "ann"))
    ('good', None)
    """
    if player.id.startswith(PREFIX) and player.id[len(PREFIX) :] in LEVELS:
        return player.id[len(PREFIX) :]
    return None


# ------------------------------------------------------------------ the child


class Engine(Protocol):
    """What the child asks for each action: the action text (API.md notation) and
    the seconds it takes at the level's pace; None when it would press End."""

    def next_action(self) -> tuple[str, float] | None: ...


EngineFactory = Callable[[str, Game, int], Engine]
"""``factory(level, game, seed)``: an engine playing ``game`` (the table's game
after the actions so far; the engine sees only what a player sees)."""


class _OpponentEngine:
    """The solver's :class:`~termsolitaire.solver.opponent.Opponent` as an :class:`Engine`:
    it is shown only :func:`~termsolitaire.solver.opponent.view.view_of` the child's game
    (no face-down or stock card), and the child plays its choice on that game."""

    def __init__(self, level: str, game: Game, seed: int) -> None:
        from ..solver.opponent import Opponent
        from ..solver.opponent.view import view_of

        self.game = game
        self.view_of: Callable[[Any], Any] = view_of  # a Spider game: the only kind here
        self.opponent = Opponent(level, suits=int(game.variant["suits"]), seed=seed)

    def next_action(self) -> tuple[str, float] | None:
        if self.game.is_won:
            return None
        move = self.opponent.choose(self.view_of(self.game))
        if move is None:
            return None
        self.game.play(move)
        return str(move), float(self.opponent.pace)


def opponent_engine(level: str, game: Game, seed: int) -> Engine:
    """The computer opponent of :mod:`termsolitaire.solver.opponent`, at ``level``."""
    return _OpponentEngine(level, game, seed)


def load_engine(spec: str) -> EngineFactory:
    module, _, name = spec.partition(":")
    factory: EngineFactory = getattr(importlib.import_module(module), name)
    return factory


def child_main(channel: Lines | None = None) -> int:
    """The child process: see the module docstring."""
    channel = channel or children.stdio()

    def send(**kw: Any) -> None:
        channel.send(kw)

    try:
        setup = channel.receive()
    except (ChildGone, ValueError):
        return 0
    try:
        game = replay(int(setup["deal"]), int(setup["suits"]), setup["actions"])
        factory = load_engine(str(setup.get("engine") or ENGINE))
        engine = factory(str(setup["level"]), game, int(setup.get("seed", 0)))
    except MatchError as e:
        send(error=e.reason)
        return 1
    except Exception as e:  # a broken engine: the app shows one line, never a traceback
        send(error=f"The computer opponent could not start: {e}")
        return 1
    while True:
        try:
            request = channel.receive()
        except ChildGone:  # the input closed: the parent stopped it, or is gone
            return 0
        except ValueError:
            continue
        if request != "next":
            continue
        try:
            step = engine.next_action()
        except Exception as e:
            send(error=f"The computer opponent stopped: {e}")
            return 1
        if step is None:
            send(action=END, delay=0.0)
            return 0
        text, delay = step
        send(action=text, delay=float(delay))


# ----------------------------------------------------------------- the parent

TICK = 0.05
"""How often (seconds) the driver looks at the store's clock while an action waits
for its time."""


class ComputerDriver:
    """Plays the computer's seat: a task on the event loop starts its process, asks
    it for actions and plays each on ``seat`` when its time has come by the store's
    clock. :meth:`start` and :meth:`stop` return at once (the process is started,
    and ended and reaped, without the event loop waiting for it); :meth:`pump`,
    called a few times a second, ends the computer's game when its time is up."""

    def __init__(
        self, seat: Seat, level: str, *, engine: str = ENGINE, seed: int | None = None
    ) -> None:
        self.seat = seat
        self.level = level
        self.engine = engine
        self.seed = seed if seed is not None else seat.table_id
        self.problem: str | None = None
        """Why the computer stopped playing (shown once by the screen); None while it plays."""
        self.due: float | None = None
        """When (the store's clock) the action the computer has chosen is played; None
        while it has none waiting."""
        self._task: asyncio.Task[None] | None = None
        self._child: Child | None = None
        self._changed = False
        self._last = 0.0
        self._restarts = 0

    @property
    def running(self) -> bool:
        """Whether the computer plays (its task runs)."""
        return self._task is not None and not self._task.done()

    @property
    def pid(self) -> int | None:
        """The computer's process now, if there is one (for tests and diagnostics)."""
        return self._child.pid if self._child is not None else None

    def start(self) -> None:
        """Start the computer's clock (if not yet) and its process, on the running
        event loop; returns at once."""
        if self.seat.finished:
            return
        self.seat.start()
        self._last = self.seat.store.now()
        self.stop()
        self._task = asyncio.get_running_loop().create_task(
            self._play(), name=f"computer at table {self.seat.table_id}"
        )

    def pump(self) -> bool:
        """End the computer's game when its time is up; True when its game changed
        since the last call (an action was played, or it has ended)."""
        changed, self._changed = self._changed, False
        seat = self.seat
        if seat.finished:
            self.stop()
            return changed
        if seat.check_clock():
            self.stop()
            return True
        return changed

    def stop(self) -> None:
        """Stop playing: the task ends, the process's input closes and it is ended
        and reaped in the background (:meth:`termsolitaire.children.Child.stop`).
        Returns at once; the seat's clock goes on."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            with contextlib.suppress(RuntimeError):  # its event loop has closed
                task.cancel()
        child, self._child = self._child, None
        if child is not None:
            child.stop()
        self.due = None

    # ------------------------------------------------------------ the task

    async def _play(self) -> None:
        """Run children until the game ends; one that fails is started again from the
        stored actions (:data:`RESTARTS` times), then the computer gives up."""
        try:
            while not self.seat.finished:
                why = await self._one_child()
                if why is None or self.seat.finished:
                    return
                if self._restarts >= RESTARTS:
                    self.problem = f"{why}; it plays no more, and its clock runs out"
                    return
                self._restarts += 1
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the store failed under it: one line for the player
            self.problem = getattr(e, "reason", None) or f"The computer opponent stopped: {e}"

    async def _one_child(self) -> str | None:
        """One process, until the computer's game ends or the process stops playing
        (None), or it fails (why)."""
        seat = self.seat
        setup = {
            "deal": seat.deal,
            "suits": seat.suits,
            "level": self.level,
            "seed": self.seed,
            "engine": self.engine,
            "actions": list(seat.log),
        }
        try:
            # A session of its own: a scheduling group of its own, which a server's
            # fair share does not count against the player's app (serve/fairshare.py).
            child = Child.spawn("termsolitaire.match.computer:main", session=True)
        except OSError as e:
            self.problem = f"The computer opponent could not start: {e.strerror or e}"
            return None
        self._child = child
        try:
            channel = await child.async_lines()
            await channel.send(setup)
            while True:
                await channel.send("next")
                message = await channel.receive()
                if not isinstance(message, dict) or "action" not in message:
                    if isinstance(message, dict) and "error" in message:
                        self.problem = str(message["error"])
                        return None
                    return "The computer opponent said something it should not"
                action = str(message["action"])
                self.due = due = self._last + max(0.0, float(message.get("delay", 0.0)))
                while seat.store.now() < due:  # the store's clock: a test moves it
                    if seat.finished:
                        return None
                    await asyncio.sleep(TICK)
                self.due = None
                if seat.finished:
                    return None
                self._last = seat.store.now()
                try:
                    seat.act(action)
                except GameOver:
                    return None
                except StoreError:  # pragma: no cover - Seat keeps these pending
                    pass
                except (IllegalMove, MatchError):
                    return f"The computer opponent's action {action!r} was refused"
                self._changed = True
                if seat.finished:
                    return None
        except ChildGone:
            return "The computer opponent's process ended"
        except ValueError:
            return "The computer opponent said something it should not"
        finally:
            child.stop()
            if self._child is child:
                self._child = None


def main() -> int:
    """The computer's process (a child, :mod:`termsolitaire.children`)."""
    return child_main()


if __name__ == "__main__":
    raise SystemExit(children.main(["termsolitaire.match.computer:main"]))
