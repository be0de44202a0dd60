"""A server killed (kill -9) left its solver pool's directory in the temporary
directory for good, one a kill (playtest29). A new pool removes those of dead
servers, and never a live server's, another user's or anything else."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from termsolitaire.serve import solverpool
from termsolitaire.serve.solverpool import SolverPool


@pytest.fixture
def root() -> Iterator[Path]:
    """A short directory of its own (pytest's root can make a socket's path
    longer than the 107 bytes a Unix socket's may have)."""
    d = Path(tempfile.mkdtemp(prefix="ts-", dir="/tmp"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


def pool_dir(root: Path, name: str) -> Path:
    d = root / f"{solverpool.PREFIX}{name}"
    d.mkdir()
    return d


def dead_socket(d: Path) -> None:
    """The socket file a killed server leaves: bound, nobody listening."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.bind(str(d / "pool"))


def test_a_new_pool_clears_what_killed_servers_left(root: Path, monkeypatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(root))  # the pool's own goes here too
    killed = pool_dir(root, "killed")
    dead_socket(killed)
    old_empty = pool_dir(root, "oldempty")  # killed between mkdtemp and listen
    os.utime(old_empty, (time.time() - 3600, time.time() - 3600))
    pool_dir(root, "starting")  # a pool about to listen
    live = pool_dir(root, "live")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(live / "pool"))
    listener.listen()
    other = pool_dir(root, "other")  # something else in it: not ours to judge
    dead_socket(other)
    (other / "notes").write_text("x")
    os.utime(other, (time.time() - 3600, time.time() - 3600))
    unrelated = root / "termsolitaire-something"
    unrelated.mkdir()
    try:
        pool = SolverPool(1, 1)
        shutil.rmtree(pool.directory)
    finally:
        listener.close()
    left = sorted(p.name.removeprefix(solverpool.PREFIX) for p in root.iterdir())
    assert left == ["live", "other", "starting", "termsolitaire-something"]
    assert (live / "pool").exists() and (other / "notes").exists()


def test_another_users_directory_is_left(root: Path, monkeypatch) -> None:
    killed = pool_dir(root, "theirs")
    dead_socket(killed)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(killed).st_uid + 1)
    assert solverpool.clear_stale(root) == []
    assert (killed / "pool").exists()
