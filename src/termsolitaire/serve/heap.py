"""The warm process's C heap, its free chunks taken before the first fork.

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
import sys

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
