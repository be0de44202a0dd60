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
failed, problems, _ = prepare(False)
parsed = sorted({os.path.basename(k[1][0]) for k in textual_hooks.stylesheet._PARSED
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


GATHERED = """
import gc, json, sys, types
from termsolitaire.serve.warm import prepare
from termsolitaire.serve import warmup
from termsolitaire.screens.match.lobby import LobbyScreen
prepare(False)
gc.unfreeze()
kept = {(c.co_filename, c.co_firstlineno, c.co_qualname): c for c in warmup.KEPT}
pairs = {}  # original -> the copy (the same code) its functions now run
for obj in gc.get_objects():
    if type(obj) is types.FunctionType:
        code = obj.__code__
        original = kept.get((code.co_filename, code.co_firstlineno, code.co_qualname))
        if original is not None and original is not code and original == code:
            pairs[id(original)] = (original, code)
pairs = list(pairs.values())

def pages(codes):
    return len({a // 4096 for c in codes for a in (id(c), id(c) + sys.getsizeof(c) - 1)})

compose = LobbyScreen.compose.__code__
print(json.dumps({
    "kept": len(kept), "moved": len(pairs),
    "pages_before": pages(o for o, _ in pairs), "pages_after": pages(c for _, c in pairs),
    "lobby_compose_copied": any(compose is c and o is not c for o, c in pairs),
    "profile": sys.getprofile() is None,
}))
"""


def test_the_code_a_login_runs_is_gathered_in_pages_of_its_own(tmp_path: Path) -> None:
    """serve/warmup.py's gather_code: every function the rehearsal ran now runs a
    copy of its code (the same code), the copies packed together so that the pages a
    session writes to as it runs them are fewer; the originals are kept (freed, they
    would leave holes a session's new objects would fill, copying those pages)."""
    env = {**os.environ, "TERMSOLITAIRE_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-c", GATHERED], env=env, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["kept"] > 1000  # a login runs some 2,000 functions
    assert result["moved"] > 1000
    assert result["lobby_compose_copied"]
    assert result["profile"]  # the rehearsal's profile hook is gone
    assert result["pages_after"] < 0.7 * result["pages_before"]


SPECIALIZED = """
import dis, json, sys
from termsolitaire.serve import warmup
warmup.SPECIALIZE = {on}
from termsolitaire.serve.warm import prepare
from termsolitaire.screens.match.lobby import LobbyScreen
from textual.widget import Widget
prepare(False)

def specialized(function):
    code = function.__code__
    plain = [i.opname for i in dis.get_instructions(code)]
    adaptive = [i.opname for i in dis.get_instructions(code, adaptive=True)]
    return sum(a != p for a, p in zip(plain, adaptive))

print(json.dumps([specialized(f) for f in (
    LobbyScreen.compose, Widget.render_lines, Widget.__init__,
)]))
"""


def test_the_code_a_login_runs_is_specialized_before_the_fork(tmp_path: Path) -> None:
    """serve/warmup.py: the login is shown a second time in the gathered code, so
    that what Python 3.11 specializes as a function is first called (its bytecode's
    instructions for the types it meets) is done once, in the warm process, not in
    every session; shown once, the gathered copies start unspecialized."""
    env = {**os.environ, "TERMSOLITAIRE_HOME": str(tmp_path / "home")}
    counts = {}
    for on in (True, False):
        out = subprocess.run(
            [sys.executable, "-c", SPECIALIZED.format(on=on)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        counts[on] = json.loads(out.stdout.splitlines()[-1])
    assert all(n > 0 for n in counts[True]), counts
    if sys.version_info[:2] == (3, 11):
        assert counts[False] == [0, 0, 0], counts
    else:  # 3.12 forms some instructions when it makes the code, before any call
        assert all(t > f for t, f in zip(counts[True], counts[False], strict=True)), counts
