"""Issue 33: the warm process rehearses a login before it forks (serve/warmup.py),
so that every forked session inherits the CSS parsed and Textual's and Rich's
caches filled. The rehearsal must leave nothing a session could notice: no
thread (the warm process forks only with one), no environment variable, no
file; and it must cover the screens of a login: the lobby, the menu and every
game's board."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import json, os, threading
before = dict(os.environ)
from termsolitaire.serve.warm import prepare
from termsolitaire import textual_hooks
failed, problems = prepare(False)
parsed = sorted({os.path.basename(k[1][0]) for k in textual_hooks._PARSED
                 if isinstance(k[1], tuple) and k[1][1] == ""})
print(json.dumps({"failed": failed, "problems": problems, "parsed": parsed,
                  "threads": threading.active_count(), "same_env": dict(os.environ) == before}))
"""


def test_the_rehearsal_parses_a_logins_css_and_leaves_nothing_behind(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # What a warm process killed in its rehearsal leaves (pid 0x7fffffff: none).
    (scratch / "termsolitaire-warm-2147483647-abc" / "saves").mkdir(parents=True)
    env = {**os.environ, "TMPDIR": str(scratch), "TERMSOLITAIRE_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["problems"] == []
    assert result["threads"] == 1
    assert result["same_env"]
    assert list(scratch.iterdir()) == []  # its data directory, and the dead one's, are gone
    assert not (tmp_path / "home").exists()  # the player's was never touched
    for screen in ("lobby", "menu", "board", "penguin", "spider", "napoleon", "stjernen"):
        assert f"{screen}.tcss" in result["parsed"]
