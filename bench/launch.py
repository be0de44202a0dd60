"""A local launch's cost to its first frame, beside the bare Textual app, in CPU
time and in instructions (the figure the load does not move).

    python bench/launch.py [--runs 5] [--game penguin] [--valgrind]

Each program starts in a fresh Python, headless at 80x24, and exits at its first
full frame: the board through the command line's own path (``termsolitaire GAME
--deal 5``, :func:`termsolitaire.cli.main`, a scratch TERMSOLITAIRE_HOME, the
solver's help off) once its title and key line are on the screen; the bare app
(bench/bare.py) once it is mounted. Printed: the CPU time each used (``time
.process_time()`` at the first frame; min and median of ``--runs``) and with
``--valgrind`` the instructions each ran to its exit (valgrind's cachegrind, one
run each: the same within 0.1% from run to run whatever the machine is doing;
each run takes some 20 s). The modules are run as they are found: compile them
first (``python -m compileall -q src``) to measure with bytecode, as an install
has it. Not part of the test suite.
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
import sys, time
from termsolitaire import cli
from termsolitaire.app import SolitaireApp

def run(self, **kw):
    return super(SolitaireApp, self).run(headless=True, size=(80, 24))

mount = SolitaireApp.on_mount

def on_mount(self):
    mount(self)

    def first_frame():
        if self.screen.query("KeyLine") and self.screen.query("#title"):
            print("CPU", time.process_time(), file=sys.stderr)
            self.exit(0)

    self.set_interval(0.01, first_frame)

SolitaireApp.run = run
SolitaireApp.on_mount = on_mount
sys.exit(cli.main(sys.argv[1:]))
"""

BARE = f"""
import sys, time
sys.path.insert(0, {str(HERE)!r})
from bare import Bare

class FirstFrame(Bare):
    def on_mount(self):
        self.set_interval(0.01, self.first_frame)

    def first_frame(self):
        print("CPU", time.process_time(), file=sys.stderr)
        self.exit()

FirstFrame().run(headless=True, size=(80, 24))
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
