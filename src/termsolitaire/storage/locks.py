"""One open copy of a game at a time: an advisory lock beside its save.

A board holds the lock of its game's save while it is open (``flock`` on
``saves/SLOT.lock``, which also names the holder: process, host, since when).
The operating system drops it when the process ends, however it ends (exit,
a hang-up, a kill), so a crash never leaves a game locked. A second copy of
the program that wants the same game finds it held and says where.

Where ``fcntl`` does not exist (Windows) the lock is always granted.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import stat
import time
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from .files import NOFOLLOW

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


def where(env: Mapping[str, str] | None = None) -> str:
    """Who holds a lock, as the one who finds it held reads it: ``process 123 on box``;
    under ``serve`` (the player's key in ``TERMSOLITAIRE_PLAYER_ID``) ``an SSH
    session``: the server's host name and a pid meant nothing to the player (and
    were the host's to keep).

    >>> where({"TERMSOLITAIRE_PLAYER_ID": "SHA256:abc"})
    'an SSH session'
    """
    env = os.environ if env is None else env
    if env.get("TERMSOLITAIRE_PLAYER_ID", "").startswith("SHA256:"):
        return "an SSH session"
    return f"process {os.getpid()} on {socket.gethostname()}"


class SaveLock:
    """The lock of one save slot."""

    _here: ClassVar[set[Path]] = set()
    """The slots this process holds: a second lock of one of them is refused as
    another process's would be (flock), though the game is open right here."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self.problem: str | None = None
        """Why the lock could not be taken (a link in its place): play goes on unlocked."""

    @property
    def held(self) -> bool:
        """Whether this process holds it."""
        return self._fd is not None

    def held_here(self) -> bool:
        """Whether this process holds the slot through another lock of it (the
        game is open here already: the player asked for it twice)."""
        return self.path in SaveLock._here

    def acquire(self) -> bool:
        """Take the lock without waiting; False when another process holds it.
        A lock that cannot be made at all (an unwritable directory) is granted:
        saving will say what is wrong, and play goes on."""
        if self._fd is not None:
            return True
        if fcntl is None:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | NOFOLLOW, 0o644)
        except OSError as e:
            if e.errno == errno.ELOOP:
                self.problem = (
                    f"{self.path} is a symbolic link: left alone, and this game is not "
                    "locked against a second copy (remove the link)"
                )
            return True
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            self.problem = f"{self.path} is not a regular file: left alone"
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        note = f"{where()} since {time.strftime('%H:%M')}"
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, note.encode(), 0)
        self._fd = fd
        SaveLock._here.add(self.path)
        return True

    def holder(self) -> str:
        """Who holds it, as the holder wrote it (``process 123 on box since 14:02``)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | NOFOLLOW)
        except OSError:
            return "another copy"
        with os.fdopen(fd, "rb") as f:
            return f.read(200).decode(errors="replace").strip() or "another copy"

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        SaveLock._here.discard(self.path)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing drops the flock
