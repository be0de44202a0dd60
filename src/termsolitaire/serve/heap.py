"""The warm process's C heap, its free chunks taken before the first fork (and,
where its objects are immortal, its small-object allocator's free blocks:
:func:`fill_blocks`).

Python puts objects of more than 512 bytes (a widget's attribute dict, a deque's
block, a long list) in the C library's heap. When the warm process is ready its
heap has some 1.2 MiB of free chunks between the chunks it keeps (what its
imports and its rehearsal made and dropped). A forked session's first large
objects went into those chunks, a few on each page, and each such page, shared
until then, was copied whole into the session: 5.1 MiB of a session's heap
pages were copies, with 1.2 MiB of the session's data on them.

:func:`fill_holes` takes every free chunk below the top of the heap for good,
once, in the warm process (the chunks are never written; only glibc's own
headers are). A session's large objects then come from the top of the heap, one
after the other on pages of their own: 0.7-0.8 MiB less a session
(``bench/session_pages.py``, docs/journal/scaling.md). glibc on Linux only; elsewhere
nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import tempfile

LARGEST = 1 << 16
"""The largest chunk taken at a time (a larger free chunk is taken in pieces)."""
SMALLEST = 32
"""glibc's smallest chunk."""

KEPT: list[int] = []
"""The chunks taken (their addresses), kept for the life of the process."""


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (glibc 2.33 and newer)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = MallInfo2
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = [ctypes.c_size_t]
        libc.sbrk.restype = ctypes.c_void_p
        libc.sbrk.argtypes = [ctypes.c_ssize_t]
    except (OSError, AttributeError):  # not glibc, or older than 2.33
        return None
    return libc


def holes() -> int | None:
    """Bytes free in the heap below its top chunk (None without glibc)."""
    libc = _libc()
    if libc is None:
        return None
    info = libc.mallinfo2()
    return int(info.fordblks - info.keepcost)


def fill_holes() -> int:
    """Take the heap's free chunks below its top, largest first; how many bytes.

    Chunks of 64 KiB are taken while one comes from below the top of the heap
    (a free chunk), then of 32 KiB, and so on down to 32 bytes. The last chunk of
    each size comes from the top (there was no free one left); it is kept too.
    The small free chunks count: each lies on a page of its own, which a
    session's next small ``malloc`` would copy."""
    libc = _libc()
    if libc is None:
        return 0
    info = libc.mallinfo2()
    budget = info.fordblks - info.keepcost + LARGEST  # a safety net: never more
    taken = 0
    size = LARGEST
    while size >= SMALLEST and taken < budget:
        info = libc.mallinfo2()
        top = (libc.sbrk(0) or 0) - info.keepcost
        chunk = libc.malloc(size - 8)  # glibc adds 8 bytes of header, rounds to 16
        if not chunk:
            break
        KEPT.append(chunk)
        if chunk >= top:  # from the top: no free chunk of this size is left
            size //= 2
        else:
            taken += size
    return taken


MERGE_ENV = "TERMSOLITAIRE_MERGE_PAGES"
"""Set to 1 in the server's environment: :func:`merge_pages` in the warm process."""
PR_SET_MEMORY_MERGE = 67
"""Linux's ``prctl`` for same-page merging of a whole process (Linux 6.4 and newer)."""


def merge_pages() -> bool:
    """Offer every page of this process, and of the children it forks, to the
    kernel's same-page merging (KSM); whether the kernel took the offer.

    Python 3.11 writes the reference count of every object a session touches, so
    a session copies pages it then holds unchanged (a count up, then down) or
    holds with the same content as the other sessions (the code it ran, the
    same objects touched the same way): 10-11 MiB of a session's 20 at its board
    (``bench/session_pages.py``). The kernel's merging daemon, ``ksmd``, finds
    such pages and shares them again. It runs only where the host has it on
    (``echo 1 > /sys/kernel/mm/ksm/run``) and costs CPU to scan (docs/journal/scaling.md);
    merged pages are copied again when written. Off unless asked for."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


BLOCKS_KEPT: list[object] = []
"""The objects :func:`fill_blocks` made, kept for the life of the process."""


def free_blocks() -> dict[int, int]:
    """Python's small-object allocator: block size -> blocks free in its pools in use
    (``sys._debugmallocstats``; empty where it is not CPython's)."""
    debug = getattr(sys, "_debugmallocstats", None)
    if debug is None:
        return {}
    found: dict[int, int] = {}
    with tempfile.TemporaryFile() as out:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            debug()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        for line in out.read().decode(errors="replace").splitlines():
            parts = line.split()
            if len(parts) == 5 and all(p.isdigit() for p in parts):
                found[int(parts[1])] = int(parts[4])
            elif found and not parts:
                break
    return found


def fill_blocks() -> int:
    """Take every free block in the small-object allocator's pools in use; how many.

    Python puts a new object of up to 512 bytes in a free block of a pool already
    in use (16 KiB of one block size) before it opens a new pool. A session's
    first small objects went into the free blocks the warm process had left
    (some 3 MiB in 34,000 blocks), a few on each page, and each such page was
    copied into the session. Where the warm objects are immortal
    (:mod:`.immortal`), those pages would otherwise stay shared: taken here, once
    (the blocks hold objects never used), a session's small objects fill pools
    of their own, and an app's private pages at its board are 0.7 MiB fewer
    (10.4-10.5 MiB against 11.1-11.2 on Python 3.12, ``bench/session_pages.py``).
    On 3.11, where a session copies those pages anyway to write the counts of
    the warm objects on them, it saves nothing (20.1-20.2 either way) and is not
    done (:func:`termsolitaire.serve.warm.prepare`)."""
    made = 0
    for size, free in free_blocks().items():
        if size == 16:
            BLOCKS_KEPT.extend(object() for _ in range(free))
        elif size == 32:
            BLOCKS_KEPT.extend(float(i) + 0.5 for i in range(free))
        else:
            BLOCKS_KEPT.extend(bytes(size - 33) for _ in range(free))
        made += free
    return made
