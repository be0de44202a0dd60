"""Writing files so a crash never leaves half a file, and keeping broken ones aside."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path


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
