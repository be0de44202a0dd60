"""The instructions a session forked from the warm process runs, a figure the load
does not move (bench/screens.py's CPU times moved by half from run to run on a
shared machine).

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python bench/login_instructions.py
    python bench/login_instructions.py --profile FILE   # the child's calls

The process prepares as the warm process does (:func:`termsolitaire.serve.warm
.prepare`: imports, the rehearsal, ``gc.freeze()``) and forks; the child reads
a session's command line (``termsolitaire match``, through ``cli.main``), then
runs the rehearsal's own headless login once more instead of the app (the
match lobby, ``g`` to the menu, down and Enter to a Penguin board, then a board
of each game: the warm-up's ``_login``) and exits. (Before perf11 the child ran
the login alone, without the command line: 16M instructions fewer then.)
valgrind prints the instructions ("I refs") of the child, then of the parent:
the child's count includes what the parent ran before the fork, so the
session's own is the first figure less the second.
Compile the modules first (``python -m compileall -q src``) so that neither
side compiles a module from source. Not part of the test suite; about a minute.

``--profile FILE``: the child's login under cProfile instead (not under
valgrind): it writes the profile to FILE and prints the Python calls it counted
(primitive and all), the figure to compare between two trees.

``--terminal``: a session's login as the server runs it, not headless: the
child is ``termsolitaire match`` on an 80x24 pseudo-terminal (its controlling
terminal, ``TERM=xterm-256color``), with the terminal driver, its frame diff
and the bytes written, which a headless app skips; a second child plays the
player (``g`` once the lobby has been silent for a moment, down and Enter once
the menu has, then a hang-up once the board has: the app saves and leaves).
The parent only waits, so the session's own instructions are the app's count
less the parent's; the app's pid is printed to tell its count from the
player's. Its timers (the lobby's look at the store each second, the clock)
run the longer the slower the app goes: under valgrind, a few million
instructions from run to run.

``--valgrind``: runs this script under valgrind (with the other options) and
prints the session's own count, the subtraction done. It runs it with
``PYTHONHASHSEED=0`` unless the environment sets another: with a random seed
each run iterates its sets and dicts of strings in another order, and two runs
of one tree differed by up to 2M instructions (perf14; 0.5M with the seed fixed).
The login's waits still follow the wall clock: compare trees alternated.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time

from termsolitaire.serve import warmup
from termsolitaire.serve.warm import prepare, session_collector

STEPS = (
    (b"", (b"Spider match lobby", b"Quit")),
    (b"g", (b"seven columns", b"Quit")),
    (b"\x1b[B\r", ("Penguin · deal".encode(), b"Quit")),
)
"""The player's keys, each with what must have come before the next (bench/screens.py's)."""
QUIET = 1.0
"""Seconds of silence after a screen's markers before the next key (the app's work
on a screen ends before the player's next key, as a person types)."""


def headless_after_command_line(home: str) -> None:
    """Read a session's command line as its app does, then run nothing: the login
    that follows is the headless one (the caller's)."""
    from termsolitaire import cli

    real = cli._dispatch
    cli._dispatch = lambda args, parser: 0
    try:
        cli.main(["match"])
    finally:
        cli._dispatch = real


def valgrind(argv: list[str]) -> None:
    """This script under valgrind; the session's own instructions printed."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    run = subprocess.run(
        [*cmd, sys.executable, __file__, *argv], capture_output=True, text=True, check=True, env=env
    )
    counts = {
        int(pid): int(n.replace(",", ""))
        for pid, n in re.findall(r"==(\d+)== I\s+refs:\s+([\d,]+)", run.stderr)
    }
    app = re.search(r"^app (\d+)$", run.stdout, re.M)
    parent = int(re.findall(r"^==(\d+)== Command:", run.stderr, re.M)[0])
    child = int(app.group(1)) if app else next(p for p in counts if p != parent)
    own = counts[child] - counts[parent]
    print(f"{' '.join(argv) or 'headless'}: {own:,} instructions (child {child})")


def terminal() -> None:
    """The login on a pty, as a forked session of ``serve`` runs it (see above)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x18\x00\x50\x00\x00\x00\x00\x00")
    with warmup.scratch_environment():
        os.environ["TERM"] = "xterm-256color"
        app = os.fork()
        if app == 0:
            os.close(master)
            os.setsid()
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            session_collector()
            from termsolitaire.cli import main as cli

            status = cli(["match"])
            sys.stdout.flush()
            os._exit(status)
    player = os.fork()
    if player == 0:
        os.close(slave)
        status = play(master, app)
        os._exit(status)
    os.close(master)
    os.close(slave)
    _, played = os.waitpid(player, 0)
    _, ended = os.waitpid(app, 0)
    if played or ended:
        raise SystemExit(f"the login did not go through: player {played}, app {ended}")
    print(f"app {app}")


def play(fd: int, app: int) -> int:
    """The player: each step's key once the screen before is drawn and quiet, then a
    hang-up; 0, or 1 when a screen never came."""
    seen = b""
    for key, markers in STEPS:
        if key:
            os.write(fd, key)
        seen = b""
        end = time.monotonic() + 600
        while not all(m in seen for m in markers) and time.monotonic() < end:
            seen += read(fd, 1.0)
        while read(fd, QUIET):
            pass
        if not all(m in seen for m in markers):
            os.kill(app, signal.SIGKILL)
            return 1
    os.kill(app, signal.SIGHUP)
    while read(fd, 60.0):
        pass
    return 0


def read(fd: int, timeout: float) -> bytes:
    """What the app wrote within ``timeout`` seconds (b"": nothing, or it is gone)."""
    if not select.select([fd], [], [], timeout)[0]:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="", help="write the child's cProfile here")
    ap.add_argument("--terminal", action="store_true", help="the login on a pty, not headless")
    ap.add_argument("--valgrind", action="store_true", help="under valgrind: the count")
    args = ap.parse_args()
    if args.valgrind:
        valgrind([a for a in sys.argv[1:] if a != "--valgrind"])
        return
    os.environ["TERMSOLITAIRE_SOLVER_HELP"] = "0"
    prepare(False)
    if args.terminal:
        terminal()
        return
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    session_collector()
    with warmup.scratch_environment() as home:
        headless_after_command_line(home)
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            asyncio.run(warmup._login(home))
            profiler.disable()
            profiler.dump_stats(args.profile)
            stats = pstats.Stats(args.profile)
            print(f"calls {stats.total_calls:,} (primitive {stats.prim_calls:,})")  # type: ignore[attr-defined]
        else:
            asyncio.run(warmup._login(home))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
