"""The instructions a session forked from the warm process runs, a figure the load
does not move (bench/screens.py's CPU times moved by half from run to run on a
shared machine).

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python bench/login_instructions.py
    python bench/login_instructions.py --profile FILE   # the child's calls

The process prepares as the warm process does (:func:`termsolitaire.serve.warm
.prepare`: imports, the rehearsal, ``gc.freeze()``) and forks; the child runs
the rehearsal's own headless login once more (the match lobby, ``g`` to the
menu, down and Enter to a Penguin board, then a board of each game: the
warm-up's ``_login``) and exits. valgrind prints the instructions ("I refs") of
the child, then of the parent: the child's count includes what the parent ran
before the fork, so the session's own is the first figure less the second.
Compile the modules first (``python -m compileall -q src``) so that neither
side compiles a module from source. Not part of the test suite; about a minute.

``--profile FILE``: the child's login under cProfile instead (not under
valgrind): it writes the profile to FILE and prints the Python calls it counted
(primitive and all), the figure to compare between two trees.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from termsolitaire.serve import warmup
from termsolitaire.serve.warm import prepare, session_collector


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="", help="write the child's cProfile here")
    args = ap.parse_args()
    os.environ["TERMSOLITAIRE_SOLVER_HELP"] = "0"
    prepare(False)
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    session_collector()
    with warmup.scratch_environment() as home:
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
