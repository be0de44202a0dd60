"""The CPU an app spends building its screens, after its imports (as a forked session).

    python bench/screens.py [--runs 5] [--profile FILE] [--path login|board] [--as-before]

A session forked from the server's warm process (docs/serve.md) has imported
everything already: what a login still costs is the app building the screens a
player goes through. This bench starts a child on an 80x24 pseudo-terminal
that prepares as the warm process does (:func:`termsolitaire.serve.warm.prepare`:
the imports, the rehearsal of a login, ``gc.freeze()``) and forks; the forked
child notes its CPU time and runs the app as a session would (with a
session's collector, :func:`~termsolitaire.serve.warm.session_collector`):

- ``login`` (the server's path): ``termsolitaire match``, the lobby; ``g`` to
  the menu; down and Enter to a Penguin board (bench/serve_load.py's keys);
- ``board``: ``termsolitaire penguin --deal 5``, the board at once (a local
  launch's screen, its imports aside).

Each figure is the CPU of the forked child (user + system, from ``/proc``)
from the end of its parent's preparation to the screen's full frame (its
title and its footer's last key have come and the program has been silent
for 0.3 s: work done just after the first frame counts too), the median of
``--runs`` children, to the microsecond (the kernel's schedstat, summed over the
child's threads); ``ticks`` is the total as ``/proc/PID/stat`` counts it (10 ms
ticks, the figure of the sessions before); ``kernel`` is the system part of the
whole (page copies, mostly). ``--as-before``: no rehearsal and Python's own collector (the warm
process before issue 33's fifth session). ``--profile`` writes a cProfile of
the last child's screens (imports excluded) to FILE.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from term import Term  # noqa: E402

from termsolitaire.testing.terminal import cpu_of  # noqa: E402

STEPS = {
    "login": [
        ("lobby", b"", (b"Spider match lobby", b"Quit")),
        ("menu", b"g", (b"seven columns", b"Quit")),
        ("board", b"\x1b[B\r", ("Penguin · deal".encode(), b"Quit")),
    ],
    "board": [("board", b"", ("Penguin · deal".encode(), b"Quit"))],
}
ARGV = {"login": ["match"], "board": ["penguin", "--deal", "5"]}


def child(out: str, profile: str, argv: list[str], rehearse: bool) -> int:
    """The warm process's side: its imports and rehearsal, then a fork; the forked
    child runs the app, as a session would (its pid and CPU so far go to ``out``)."""
    from termsolitaire.serve.warm import prepare, session_collector

    prepare(False, rehearse=rehearse)
    pid = os.fork()
    if pid:
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status)
    if rehearse:  # not --as-before: a forked session's collector
        session_collector()
    experiment = os.environ.get("EXPERIMENT", "")
    if experiment:
        sys.path.insert(0, "/tmp/screens")
        __import__("experiments").apply(experiment.split(","))
    if profile:
        import cProfile

        profiler = cProfile.Profile()

        def dump(signum: int, frame: object) -> None:
            profiler.disable()
            profiler.dump_stats(profile)

        signal.signal(signal.SIGUSR1, dump)
        profiler.enable()
    Path(out).write_text(f"{os.getpid()} {time.process_time()!r}")
    from termsolitaire.cli import main

    return main(argv)


def cpu_seconds(pid: int, system: bool = False) -> float:
    """User plus system CPU time of ``pid`` so far (``system``: only the kernel's, in
    10 ms ticks); without ``system``, :func:`~termsolitaire.testing.terminal.cpu_of`
    (to the nanosecond, over the process's threads alive now)."""
    if not system:
        return cpu_of(pid)
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[12]) / os.sysconf("SC_CLK_TCK")


def _ticks(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far, in 10 ms ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_once(path: str, profile: str, rehearse: bool) -> dict[str, float]:
    """One child through ``path``: CPU seconds spent on each screen, imports excluded."""
    home = tempfile.mkdtemp(prefix="ts-screens-")
    out = os.path.join(home, "cpu-after-imports")
    env = {
        "TERMSOLITAIRE_HOME": home,
        "TERMSOLITAIRE_MATCH_DIR": os.path.join(home, "match"),
        "TERMSOLITAIRE_SOLVER_HELP": "0",
        "USER": "bench",
    }
    argv = [sys.executable, __file__, "--child", out, "--profile", profile]
    argv += [*([] if rehearse else ["--as-before"]), "--", *ARGV[path]]
    term = Term(argv, (80, 24), env)
    figures: dict[str, float] = {}
    try:
        before = None
        for name, key, markers in STEPS[path]:
            if key:
                term.send(key)
            data, at = term.until(*markers)
            if at is None:
                raise RuntimeError(f"{name}: no full frame ({data[-300:]!r})")
            term.rest(0.3, 0.3)
            if before is None:
                pid, cpu = Path(out).read_text().split()
                app, before = int(pid), float(cpu)
                previous = before
            now = cpu_seconds(app)
            figures[name] = now - previous
            previous = now
        figures["total"] = previous - (before or 0.0)
        figures["ticks"] = _ticks(app) - (before or 0.0)
        figures["kernel"] = cpu_seconds(app, system=True)  # its page copies, mostly
        if profile:
            os.kill(app, signal.SIGUSR1)
            time.sleep(0.5)
    finally:
        term.close()
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--path", choices=sorted(STEPS), default="login")
    ap.add_argument("--profile", default="")
    ap.add_argument(
        "--as-before",
        action="store_true",
        help="no rehearsal in the warm process, Python's collector in the session (as before)",
    )
    ap.add_argument("--child", default="")
    ap.add_argument("rest", nargs="*")
    args = ap.parse_args()
    if args.child:
        raise SystemExit(child(args.child, args.profile, args.rest, not args.as_before))
    runs = []
    for i in range(args.runs):
        last = i == args.runs - 1
        runs.append(run_once(args.path, args.profile if last else "", not args.as_before))
    load = os.getloadavg()[0]
    what = "imports" if args.as_before else "imports and rehearsal"
    print(f"{args.path}: CPU seconds after the {what}, median of {args.runs} (load {load:.1f})")
    for name in runs[0]:
        values = sorted(r[name] for r in runs)
        print(f"  {name:<6} {statistics.median(values):.3f}  ({values[0]:.3f}-{values[-1]:.3f})")


if __name__ == "__main__":
    main()
