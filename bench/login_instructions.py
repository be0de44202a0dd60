"""The instructions a session forked from the warm process runs, a figure the load
does not move (bench/screens.py's CPU times moved by half from run to run on a
shared machine).

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python bench/login_instructions.py

The process prepares as the warm process does (:func:`termsolitaire.serve.warm
.prepare`: imports, the rehearsal, ``gc.freeze()``) and forks; the child runs
the rehearsal's own headless login once more (the match lobby, ``g`` to the
menu, down and Enter to a Penguin board, then a board of each game: the
warm-up's ``_login``) and exits. valgrind prints the instructions ("I refs") of
the child, then of the parent: the child's count includes what the parent ran
before the fork, so the session's own is the first figure less the second.
Compile the modules first (``python -m compileall -q src``) so that neither
side compiles a module from source. Not part of the test suite; about a minute.
"""

from __future__ import annotations

import asyncio
import os
import sys

from termsolitaire.serve import warmup
from termsolitaire.serve.warm import prepare, session_collector


def main() -> None:
    os.environ["TERMSOLITAIRE_SOLVER_HELP"] = "0"
    prepare(False)
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    session_collector()
    with warmup.scratch_environment() as home:
        asyncio.run(warmup._login(home))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
