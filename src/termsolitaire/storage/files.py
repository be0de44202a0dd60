"""Writing files so a crash never leaves half a file, and keeping broken ones aside."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class StorageError(Exception):
    """A file could not be read or written; ``str(e)`` is the message for the player."""


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` always holds either the old or the
    new content: a temp file in the same directory, flushed, fsynced, renamed over
    ``path``, and the directory fsynced. Raises :class:`StorageError`."""
    raw = data.encode() if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _fsync_dir(path.parent)
    except OSError as e:
        raise StorageError(f"cannot write {path}: {e.strerror or e}") from e


def refuse_links(paths: Iterable[Path], what: str) -> None:
    """StorageError, with the sentence the player reads, when one of ``paths`` is a
    symbolic link or not a regular file. Nothing is done to it: a link in a shared
    directory may point at anyone's file. Paths that do not exist are fine.

    Opening by path after this check leaves a moment in which the file could be
    swapped; where a file is created, :func:`create_exclusive` closes it."""
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode):
            raise StorageError(
                f"{what} {path} is a symbolic link: refused and left alone "
                "(a link there could point at anyone's file; its owner should remove it)"
            )
        if not stat.S_ISREG(st.st_mode):
            raise StorageError(f"{what} {path} is not a regular file: refused and left alone")


def sqlite_files(path: Path) -> list[Path]:
    """A SQLite database and the files SQLite keeps beside it."""
    return [path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))]


def create_exclusive(path: Path, mode: int = 0o644) -> bool:
    """Create ``path`` empty unless something is there already (never through a
    link); True when it was created here."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, mode)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def keep_aside(path: Path) -> Path | None:
    """Rename a broken file to ``NAME.corrupt-<timestamp>`` and return the new path
    (None when it could not be moved; it is then left where it is)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target
