"""A child autosaving after every action is killed with SIGKILL at random
moments: the file always loads, and at most the last action is missing."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import SaveStore

from ..conftest import FULL

ACTIONS = 1000 if FULL else 300
"""Actions the child plays; it is killed at a random one of them (each autosave
is an fsync, so the size of the run is the test's time)."""

CHILD = """
import random, sys
from termsolitaire.rules import new_game
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import SaveStore

def actions():
    g = new_game("penguin", deal=7)
    rng = random.Random(5)
    for _ in range({n}):
        moves = g.legal_moves()
        r = rng.random()
        if g.can_undo and (r < 0.3 or not moves):
            g.undo()
        elif g.can_redo and r < 0.4:
            g.redo()
        else:
            g.play(rng.choice(moves))
        yield g

if __name__ == "__main__":
    store = SaveStore(paths(sys.argv[1]))
    for i, g in enumerate(actions(), start=1):
        g.elapsed = float(i)
        store.save(g, "kill-test")
        print(i, flush=True)
"""


def expected_logs():
    ns: dict = {}
    exec(CHILD.format(n=ACTIONS), ns)
    return [list(g.log) for g in ns["actions"]()]


def test_sigkill_during_autosave_loses_at_most_the_last_action(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(n=ACTIONS))
    logs = [None, *expected_logs()]
    rng = random.Random(1)
    runs = 20 if FULL else 5
    for run in range(runs):
        home = tmp_path / f"home{run}"
        child = subprocess.Popen(
            [sys.executable, str(script), str(home)], stdout=subprocess.PIPE, text=True
        )
        # Kill at a random point of the run: once the child reports a random
        # save count, after a random pause of up to a few saves.
        target = rng.randint(1, ACTIONS - 10)
        done = 0
        assert child.stdout is not None
        while done < target:
            line = child.stdout.readline()
            if not line:
                break
            done = int(line)
        time.sleep(rng.uniform(0, 0.01))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        printed = [int(x) for x in out.split()]
        done = printed[-1] if printed else done
        assert done < ACTIONS, "the child finished before it was killed"
        saved, message = SaveStore(paths(home)).load("penguin")
        assert message is None
        if saved is None:
            assert done == 0
            continue
        n = int(saved.game.elapsed)
        assert done <= n <= done + 1, (done, n)
        assert list(saved.game.log) == logs[n]
