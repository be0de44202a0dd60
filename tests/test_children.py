"""Issue 29, acceptance 3: every kind of child process dies with its parent.

A parent (tests/child_parent.py) starts one kind of child as the program does:
the solver worker mid-search (with its Stjernen helper), the Stjernen helper
beside a search in the parent itself, the computer opponent waiting for its
next action, a child that never reads its input (those four through
:mod:`termsolitaire.children`), and a served app on its pty (which the kernel
hangs up when the server's end of the pty closes). The parent is killed with
SIGKILL (nothing of it runs after that: no atexit, no lifeline); every process
it had started must be gone within 2 s. The waits poll for the effect.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from termsolitaire.children import child_env
from termsolitaire.testing.terminal import alive, children_of

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="needs /proc")

GONE = 2.0
"""Seconds within which every child must be gone after its parent was killed."""
START = 60.0
"""Seconds a start may take on a loaded machine."""

KINDS = {
    "solver worker": 2,  # the worker and its Stjernen helper
    "stjernen helper": 1,
    "computer": 1,
    "served app": 1,  # on a pty: the kernel's hang-up, not the parent watch
    "a child that never reads": 1,
}
"""Each kind of parent, and how many descendants it has once ready."""


def watching(pid: int) -> bool:
    """Whether child ``pid`` is past its start: its parent watch (a thread of its
    own, started with the kernel's parent-death signal) runs. A child killed with
    its parent while still starting ends as soon as it gets there."""
    try:
        return len(os.listdir(f"/proc/{pid}/task")) > 1
    except OSError:
        return False


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_child_dies_with_its_parent(kind: str, tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-m", "tests.child_parent", kind, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(),
        cwd=Path(__file__).parents[1],
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "ready"
        end = time.monotonic() + START
        while len(family := children_of(parent.pid)) < KINDS[kind] or not (
            kind == "served app" or all(map(watching, family))
        ):
            assert time.monotonic() < end, f"only {family} started"
            time.sleep(0.02)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        end = time.monotonic() + GONE
        while left := [pid for pid in family if alive(pid)]:
            assert time.monotonic() < end, f"{left} still running {GONE} s after the parent died"
            time.sleep(0.02)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
