"""The warm process's objects made immortal before the first fork (Python 3.12 and 3.13).

A forked session shares the warm process's pages until it writes to them, and
CPython writes to every object it touches: its reference count goes up and down
at each use. So a session copied the pages of every warm object it used, even
those it only read (strings, functions, tuples, the parsed CSS): most of its
private memory (docs/journal/2026-12-05-pss.md).

Python 3.12 made some objects *immortal* (PEP 683): their reference count is a
marker the interpreter never changes, so using them writes nothing. Only the
interpreter's own objects and interned strings are made so. :func:`immortalize`
gives the same marker to every object the warm process holds when it is ready
(everything reachable from the collector's objects, and the constants and names
of every code object): a session then writes to a warm object only where it
changes it. These objects are never freed (the warm process keeps them for its
life anyway; in a session, what it drops of them stays as shared pages, never
as its own).

Done only on the interpreters whose marker is known and tested: CPython 3.12 and
3.13, 64-bit, with the GIL (``IMMORTAL``); elsewhere nothing is done.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import sysconfig
from types import CodeType

IMMORTAL_ENV = "TERMSOLITAIRE_IMMORTAL"
"""Set to 0 in the server's environment: the warm process makes nothing immortal
(for measuring; a session then costs what it does on Python 3.11)."""

IMMORTAL = 0xFFFFFFFF
"""``_Py_IMMORTAL_REFCNT`` of CPython 3.12 and 3.13 on 64-bit builds: the low
32 bits of the count all set. ``Py_INCREF`` leaves a count whose low 32 bits
would wrap to zero, ``Py_DECREF`` one whose low 32 bits are negative as a
signed int."""


def supported() -> bool:
    """Whether this interpreter's immortal marker is the one written here."""
    return (
        sys.implementation.name == "cpython"
        and sys.version_info[:2] in ((3, 12), (3, 13))
        and sys.maxsize > 2**32
        and not sysconfig.get_config_var("Py_GIL_DISABLED")
    )


def wanted() -> bool:
    """Whether the server's setting leaves the warm objects to be made immortal
    (:data:`IMMORTAL_ENV` not 0): the warm process asks it, and the server's log."""
    return os.environ.get(IMMORTAL_ENV) != "0"


def _code_parts(code: CodeType) -> tuple[object, ...]:
    """What a code object holds or is asked for (code objects are not traversed by
    the collector). ``co_varnames``, ``co_freevars`` and ``co_cellvars`` are made
    at the first asking and kept with the code (CPython 3.12): asked here, they
    are made in the warm process once, not in every session that inspects a
    function's signature (1.2 MiB less a session's private memory; asking for
    ``co_code`` as well saved nothing more)."""
    return (
        code.co_consts,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        code.co_filename,
        code.co_name,
        code.co_qualname,
        code.co_linetable,
        code.co_exceptiontable,
    )


def immortalize() -> int:
    """Make every object reachable from the collector's objects immortal; how many
    were made so (0 where :func:`supported` is false).

    An object is marked when first found and only then traversed, so the marker
    itself says what was seen (an object immortal already, such as an interned
    string or a small integer, is not traversed: it holds nothing mortal)."""
    if not supported():
        return 0
    stack: list[object] = []
    made = 0

    def mark(obj: object) -> None:
        nonlocal made
        count = ctypes.c_ssize_t.from_address(id(obj))
        if ctypes.c_int32(count.value & 0xFFFFFFFF).value < 0:  # immortal already
            return
        count.value = IMMORTAL
        made += 1
        stack.append(obj)

    for obj in gc.get_objects():
        mark(obj)
    while stack:
        obj = stack.pop()
        for held in gc.get_referents(obj):
            mark(held)
        if type(obj) is CodeType:
            for held in _code_parts(obj):
                mark(held)
    return made
