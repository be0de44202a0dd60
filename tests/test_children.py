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

from termsolitaire.children import PARENT, Child, ChildGone, child_env
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
    "served app, server under nohup": 1,  # its apps must still take the hang-up
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
            kind.startswith("served app") or all(map(watching, family))
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


def test_a_child_gets_a_clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the locale, the paths, the program's own settings and a PYTHONPATH that
    finds this code: nothing else of the parent's environment (an SSH session's, a
    shell's secrets)."""
    monkeypatch.setenv("SOME_TOKEN", "not for children")
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "1")
    with Child.spawn("tests.child_parent:echo") as child:
        channel = child.lines()
        channel.send("env")
        env = channel.receive(timeout=START)
    assert "SOME_TOKEN" not in env
    assert env["TERMSOLITAIRE_SOLVER_HELP"] == "1"
    assert env[PARENT] == str(os.getpid())
    assert str(Path(__file__).parents[1]) in env["PYTHONPATH"].split(os.pathsep)


@pytest.mark.parametrize("framing", ["lines", "frames"])
def test_the_channels_carry_values_and_say_when_the_child_is_gone(framing: str) -> None:
    child = Child.spawn("tests.child_parent:echo", framing)
    channel = child.frames() if framing == "frames" else child.lines()
    value = {"moves": ["t1-t2"] * 1000, "deal": 7}
    channel.send(value)
    assert channel.receive(timeout=START) == value
    if framing == "frames":
        channel.send((1, b"bytes", frozenset({2})))  # what only a pickle carries
        assert channel.receive(timeout=START) == (1, b"bytes", frozenset({2}))
    with pytest.raises(TimeoutError):
        channel.receive(timeout=0.05)  # nothing was asked
    os.kill(child.pid, signal.SIGKILL)
    with pytest.raises(ChildGone):
        channel.receive(timeout=START)
    child.stop()
    assert child.wait(timeout=START) == -signal.SIGKILL


def test_stop_returns_at_once_and_kills_after_the_grace() -> None:
    """A child that does not end when its input closes is killed after the grace,
    in the background: stop itself never waits."""
    child = Child.spawn("tests.child_parent:spin")
    end = time.monotonic() + START
    while not watching(child.pid):
        assert time.monotonic() < end, "the child never started"
        time.sleep(0.02)
    child.stop(grace=0.5)
    assert not child.alive and alive(child.pid)  # asked to stop, not waited for
    assert child.wait(timeout=START) == -signal.SIGKILL
    assert not os.path.exists(f"/proc/{child.pid}")  # reaped


async def test_an_event_loop_hears_of_the_end_without_waiting_for_it() -> None:
    child = Child.spawn("tests.child_parent:echo")
    channel = await child.async_lines()
    await channel.send([1, 2, 3])
    assert await channel.receive() == [1, 2, 3]
    child.stop()  # its input closes: it ends by itself
    assert await child.ended() == 0
