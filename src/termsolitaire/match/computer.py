"""The computer opponent at a table: its own process, its actions fed to its seat.

The computer is a player of the store like any other (``computer:<level>``),
seated at a private table its human opponent hosts, so the side panel, Watch,
the results, the replay and the record work as they do against a person. Its
moves are chosen in a **separate process** (a pure-Python search holds the
GIL: in a thread it would freeze the screen): the child reads the deal and
the actions played so far, then answers each ``next`` with one action and the
seconds that action takes at its level's pace. The parent
(:class:`ComputerDriver`, pumped a few times a second by the screen) plays
each action on the computer's :class:`~termsolitaire.match.seat.Seat` once its
time has come by the store's clock, so a test that steps the clock by hand
sets the pace, and a computer whose player went away plays no more (its clock
runs out, as any vanished player's does).

The child is ``python -m termsolitaire.match.computer``; its protocol is JSON
lines: it reads ``{"deal": N, "suits": S, "level": L, "seed": X, "actions":
[...]}`` then ``"next"`` lines, and writes ``{"action": TEXT, "delay": SECONDS}``
per ``next`` (``{"action": "end"}`` when it would press End), or ``{"error":
MESSAGE}``. It ends when its input closes, so it never outlives the app, even
one killed with SIGKILL.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .. import lifeline
from ..rules import Game, IllegalMove
from .errors import GameOver, MatchError, StoreError
from .identity import Player
from .replay import END, replay
from .seat import Seat

PREFIX = "computer:"
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


def child_main(stdin: Any = None, stdout: Any = None) -> int:
    """The child process: see the module docstring."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def send(**kw: Any) -> None:
        stdout.write(json.dumps(kw) + "\n")
        stdout.flush()

    first = stdin.readline()
    if not first:
        return 0
    try:
        setup = json.loads(first)
        game = replay(int(setup["deal"]), int(setup["suits"]), setup["actions"])
        factory = load_engine(str(setup.get("engine") or ENGINE))
        engine = factory(str(setup["level"]), game, int(setup.get("seed", 0)))
    except MatchError as e:
        send(error=e.reason)
        return 1
    except Exception as e:  # a broken engine: the app shows one line, never a traceback
        send(error=f"The computer opponent could not start: {e}")
        return 1
    for line in stdin:
        if line.strip() != '"next"':
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
    return 0


# ----------------------------------------------------------------- the parent


@dataclass
class _Due:
    action: str
    at: float
    """When it is played (the store's clock)."""


class ComputerDriver:
    """Plays the computer's seat: starts its process, asks it for actions and plays
    each on ``seat`` when its time has come. Call :meth:`pump` a few times a
    second; :meth:`stop` ends the process (the seat's clock goes on)."""

    def __init__(
        self, seat: Seat, level: str, *, engine: str = ENGINE, seed: int | None = None
    ) -> None:
        self.seat = seat
        self.level = level
        self.engine = engine
        self.seed = seed if seed is not None else seat.table_id
        self.problem: str | None = None
        """Why the computer stopped playing (shown once by the screen); None while it plays."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._asked = False
        self._due: _Due | None = None
        self._last = 0.0
        self._restarts = 0

    @property
    def running(self) -> bool:
        return self._proc is not None

    def start(self) -> None:
        """Start the computer's clock (if not yet) and its process."""
        if self.seat.finished:
            return
        self.seat.start()
        self._last = self.seat.store.now()
        self._spawn()

    def _spawn(self) -> None:
        self.stop()
        setup = {
            "deal": self.seat.deal,
            "suits": self.seat.suits,
            "level": self.level,
            "seed": self.seed,
            "engine": self.engine,
            "actions": list(self.seat.log),
        }
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "termsolitaire.match.computer"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError as e:
            self.problem = f"The computer opponent could not start: {e.strerror or e}"
            return
        assert proc.stdin is not None and proc.stdout is not None
        lifeline.adopt(proc.pid)
        os.set_blocking(proc.stdout.fileno(), False)
        self._proc = proc
        self._buffer = b""
        self._asked = False
        self._due = None
        self._send(setup)

    def _send(self, message: object) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            return
        try:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()
        except OSError:
            self._failed("The computer opponent's process ended")

    def _read(self) -> dict[str, Any] | None:
        """One message from the child, if a whole line has come."""
        proc = self._proc
        if proc is None or proc.stdout is None:
            return None
        if b"\n" not in self._buffer:
            try:
                chunk = proc.stdout.read(65536)
            except (BlockingIOError, InterruptedError):
                chunk = None
            if chunk == b"":
                self._failed("The computer opponent's process ended")
                return None
            if chunk:
                self._buffer += chunk
        if b"\n" not in self._buffer:
            return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self._failed("The computer opponent said something it should not")
            return None
        return message

    def _failed(self, why: str) -> None:
        """The child failed: start it again from the seat (a few times), else give up."""
        self.stop()
        if self.seat.finished:
            return
        if self._restarts < RESTARTS:
            self._restarts += 1
            self._spawn()
            return
        self.problem = f"{why}; it plays no more, and its clock runs out"

    def pump(self) -> bool:
        """Do what is due now; True when the computer's game changed (an action was
        played, or it has ended)."""
        seat = self.seat
        if seat.finished:
            self.stop()
            return False
        if seat.check_clock():
            self.stop()
            return True
        if self._proc is None:
            return False
        if self._due is None:
            if not self._asked:
                self._asked = True  # before sending: a failed send starts a new child
                self._send("next")
            message = self._read()
            if message is None:
                return False
            self._asked = False
            if "error" in message:
                self.problem = str(message["error"])
                self.stop()
                return False
            delay = max(0.0, float(message.get("delay", 0.0)))
            self._due = _Due(str(message["action"]), self._last + delay)
        now = seat.store.now()
        if now < self._due.at:
            return False
        action, self._due = self._due.action, None
        self._last = now
        try:
            seat.act(action)
        except GameOver:
            self.stop()
        except (IllegalMove, MatchError) as e:
            if isinstance(e, StoreError):  # pragma: no cover - Seat keeps these pending
                return False
            self._failed(f"The computer opponent's action {action!r} was refused")
            return False
        if seat.finished:
            self.stop()
        return True

    def stop(self) -> None:
        """End the child process (it also ends by itself when its input closes)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            if proc.stdin:
                proc.stdin.close()
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            proc.wait(timeout=2)
        lifeline.disown(proc.pid)
        if proc.stdout:
            with contextlib.suppress(OSError):
                proc.stdout.close()


def main(argv: Sequence[str] | None = None) -> int:
    # The child's stdout is the protocol; nothing else may write there.
    lifeline.die_with_parent(os.getppid())
    return child_main()


if __name__ == "__main__":
    raise SystemExit(main())
