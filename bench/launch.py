"""A local launch's cost to its first frame, beside the bare Textual app, in CPU
time and in instructions (the figure the load does not move).

    python bench/launch.py [--runs 5] [--game penguin] [--valgrind]

Each program starts in a fresh Python, headless at 80x24, and stops (``os._exit``)
the moment its first screen's first paint is done: the board through the console
script's own path (:func:`termsolitaire.entry.main`: the collector paused and the
dataclasses' methods deferred from the first import, the app imported quietly;
a scratch TERMSOLITAIRE_HOME, the solver's help off), once the board's paint with
its key line is written; the bare app (bench/bare.py) once its screen with the
Static is painted. Printed: the CPU time each used to that paint
(``time.process_time()``; min and median of ``--runs``) and with ``--valgrind`` the
instructions each ran to it (valgrind's cachegrind, one run each: the same within
0.1% from run to run whatever the machine is doing; each run takes some 20 s).
Stopping at the paint, not at the program's exit, keeps out what either does after
its first frame (the bare app's exit alone was some 40 ms). The modules are run as
they are found: compile them first (``python -m compileall -q src``) to measure
with bytecode, as an install has it. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

BOARD = """
import os, sys, time
from termsolitaire import collector, entry

# as entry.main does, before the command line's imports (a tree before launch25
# only paused the collector)
getattr(entry, "launching", collector.pause)()
from termsolitaire import cli

quietly = cli._quietly


def _quietly(name):
    module = quietly(name)
    module.no_terminal = lambda: False  # headless on pipes: let the terminal check pass
    from termsolitaire.app import SolitaireApp
    from termsolitaire.screens.styled import StyledOnce

    def run(self, **kw):
        return super(SolitaireApp, self).run(headless=True, size=(80, 24))

    paint = StyledOnce._compositor_refresh

    def painted(self):
        first = self._first_paint_due
        paint(self)
        if first and self.query("KeyLine"):
            print("CPU", time.process_time(), file=sys.stderr, flush=True)
            os._exit(0)

    SolitaireApp.run = run
    StyledOnce._compositor_refresh = painted
    return module


cli._quietly = _quietly
sys.exit(entry.main())
"""

BARE = f"""
import os, sys, time
sys.path.insert(0, {str(HERE)!r})
from textual.screen import Screen
from bare import Bare

paint = Screen._compositor_refresh


def painted(self):
    paint(self)
    if self.query("Static"):
        print("CPU", time.process_time(), file=sys.stderr, flush=True)
        os._exit(0)


Screen._compositor_refresh = painted
Bare().run(headless=True, size=(80, 24))
"""


def launch(program: str, argv: list[str], valgrind: bool) -> float:
    """CPU seconds to the first frame, or with ``valgrind`` the instructions run."""
    home = tempfile.mkdtemp(prefix="ts-launch-")
    env = {**os.environ, "TERMSOLITAIRE_HOME": home, "TERMSOLITAIRE_SOLVER_HELP": "0"}
    cmd = [sys.executable, "-c", program, *argv]
    if valgrind:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
        cmd += ["--cachegrind-out-file=/dev/null", sys.executable, "-c", program, *argv]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if valgrind:
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if found is None:
            raise RuntimeError(done.stderr[-500:])
        return float(found.group(1).replace(",", ""))
    return float(re.findall(r"^CPU (\S+)$", done.stderr, re.M)[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--game", default="penguin")
    ap.add_argument("--valgrind", action="store_true")
    args = ap.parse_args()
    programs = {args.game: (BOARD, [args.game, "--deal", "5"]), "bare": (BARE, [])}
    print(f"load {os.getloadavg()[0]:.1f}")
    cpu: dict[str, list[float]] = {name: [] for name in programs}
    for _ in range(args.runs):  # alternated, so that a change of load hits both
        for name, (program, argv) in programs.items():
            cpu[name].append(launch(program, argv, False))
    for name, values in cpu.items():
        low, middle = min(values), statistics.median(values)
        print(f"  {name:<9} CPU to first frame {low * 1000:.0f} ms min, {middle * 1000:.0f} median")
    print(f"  ratio     {min(cpu[args.game]) / min(cpu['bare']):.2f}x (min)")
    if args.valgrind:
        ir = {name: launch(p, argv, True) for name, (p, argv) in programs.items()}
        for name, count in ir.items():
            print(f"  {name:<9} instructions {count / 1e6:,.1f}M")
        print(f"  ratio     {ir[args.game] / ir['bare']:.2f}x (instructions)")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
