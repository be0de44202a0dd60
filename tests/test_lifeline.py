"""Issue 36: a terminal closed at any moment ends the app, saved, children and all.

Real processes on real ptys (:mod:`termsolitaire.testing.terminal`), each the
app's controlling terminal, so closing it is what closing a window does: the
kernel sends SIGHUP (and SIGCONT), and reads end. Every wait is for a visible
effect (a process gone, text on the screen, a file) with a deadline.
"""

from __future__ import annotations

import random
import signal
import sys
import time
from pathlib import Path

import pytest

from termsolitaire.rules import new_game
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import SaveStore
from termsolitaire.testing.terminal import PtyTerminal, alive, app_command, children_of

from .conftest import FULL

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="needs a pty and /proc")

START = 60.0
"""Seconds a start may take on a loaded machine."""
GONE = 3.0
"""Seconds within which the app and every child must be gone after the hang-up."""


def start(home: Path, *args: str, help_on: bool = True) -> PtyTerminal:
    env = {"TERMSOLITAIRE_HOME": str(home)}
    if help_on:
        env["TERMSOLITAIRE_SOLVER_HELP"] = "1"  # the verdict's worker process runs too
    return PtyTerminal(app_command(*args), env=env)


def watch_family(term: PtyTerminal, until: float) -> set[int]:
    """The app's descendants seen until ``until`` (monotonic), the app included."""
    family = {term.pid}
    while time.monotonic() < until:
        family.update(children_of(term.pid))
        time.sleep(0.01)
    family.update(children_of(term.pid))
    return family


def all_gone(family: set[int], within: float) -> list[int]:
    """Wait up to ``within`` seconds for every pid of ``family`` to end; those left."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        left = [p for p in family if alive(p)]
        if not left:
            return []
        time.sleep(0.02)
    return [p for p in family if alive(p)]


def describe(pids: list[int]) -> str:
    """Each pid and its command line, for a failure's message."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().replace(b"\0", b" ").decode(errors="replace")
            out.append(f"{pid} ({argv})")
        except OSError:
            out.append(str(pid))
    return ", ".join(out)


def test_closing_the_terminal_in_the_first_moments_ends_everything(tmp_path: Path) -> None:
    """30 starts (12 in the default run; TERMSOLITAIRE_FULL=1 for all) of a Spider
    board (its solver worker running); a deal is typed at once and the terminal
    closed at a random moment of the first 1.5 s: before, during or after the first
    frame. Every process is gone within 3 s, and a game
    whose deal was drawn on screen was saved with it."""
    rng = random.Random(36)
    shared = tmp_path / "shared"
    runs = []
    for n in range(30 if FULL else 12):
        home = shared if n % 3 == 0 else tmp_path / f"home{n}"  # some share one home
        term = start(home, "spider", "--deal", "7")
        term.send("d")  # a deal: a move, saved at once once the board reads it
        runs.append((n, home, term))
        when = rng.choice(("start", "first byte", "first frame"))
        if when == "start":
            close_at = term.started + rng.uniform(0.0, 1.5)
        else:
            deadline = time.monotonic() + START
            while time.monotonic() < deadline and (
                term.first_byte is None if when == "first byte" else not term.shows("♠|Resume")
            ):
                time.sleep(0.005)
            close_at = time.monotonic() + rng.uniform(0.0, 0.4)
        family = watch_family(term, close_at)
        dealt = term.shows("moves 1")
        term.hang_up()
        left = all_gone(family, GONE)
        assert not left, f"run {n} ({when}): {describe(left)} still running {GONE} s on"
        term.close()
        if dealt:
            saved, problem = SaveStore(paths(home)).load("spider", {"suits": 1})
            assert problem is None, problem
            assert saved is not None and saved.game.log, f"run {n}: the deal was not saved"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize(
    "where", ["menu", "board", "dialog", "hint search", "match board"], ids=str
)
def test_a_signal_saves_and_ends_the_app_wherever_it_is(
    tmp_path: Path, sig: signal.Signals, where: str
) -> None:
    """SIGTERM or SIGHUP to an app on the menu, a board, a dialog, during a hint's
    search, or on a match board: it saves and its process (and every child) ends
    within 2 s."""
    home = tmp_path / "home"
    game = new_game("penguin", 5)
    move = next(m for m in game.legal_moves() if m.src[0] == m.dst[0] == "t")
    if where == "menu":
        term = start(home, help_on=False)
        term.wait_for("Penguin", timeout=START)
    elif where == "match board":
        term = PtyTerminal(
            app_command("match"),
            env={
                "TERMSOLITAIRE_HOME": str(home),
                "TERMSOLITAIRE_MATCH_DIR": str(tmp_path / "match"),
                "TERMSOLITAIRE_PLAYER": "ann",
                "TERMSOLITAIRE_PLAYER_ID": "ann",
            },
        )
        term.wait_for("match lobby", timeout=START)
        term.send("n")
        term.wait_for("Against", timeout=30)
        term.send("right", "enter")  # against the computer, the other choices as they are
        term.wait_for(r"Table \d", timeout=30)
    else:
        term = start(home, "penguin", "--deal", "5", help_on=where == "hint search")
        term.wait_for("deal 5", timeout=START)
        mark = term.received
        term.send(*_keys(move))
        term.wait_for("moves 1", since=mark, timeout=30)
        if where == "dialog":
            term.send("?")
            term.wait_for("Help|help", timeout=30)
        elif where == "hint search":
            term.send("H")
            term.wait_for("Looking|winning line|Best line", timeout=30)
    try:
        family = {term.pid, *children_of(term.pid)}
        term.signal(sig)
        left = all_gone(family, 2.0)
        assert not left, f"still running 2 s after {sig.name} on the {where}: {describe(left)}"
        assert term.wait(1) in (0, -sig)
    finally:
        term.close()
    if where not in ("menu", "match board"):
        saved, problem = SaveStore(paths(home)).load("penguin", {})
        assert problem is None, problem
        assert saved is not None and len(saved.game.log) == 1


def _keys(move: object) -> tuple[str, ...]:
    """The key chord of a Penguin move between columns (t1..t7 -> 1..7)."""
    src, dst = str(move).split("-")
    return (src[1:], dst[1:])
