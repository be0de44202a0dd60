"""A dataclass's generated methods compiled at their first call, not as the class
is made (issue 33, the local launch).

``@dataclass`` writes each method it gives a class (``__init__``, ``__repr__``,
``__eq__``, a frozen class's ``__hash__``, ``__setattr__`` and ``__delattr__``) as
Python source and compiles it with ``exec``, one method at a time, when the
class is made. A board's launch makes some 70 dataclasses (Textual's, Rich's and
ours) and so compiled some 260 methods, 78M instructions of a Penguin board's
1,165M to its first paint; the first frame calls two of the 191 that are not an
``__init__`` (``CardLook.__eq__`` and ``Key.__eq__``).

After :func:`defer`, a new dataclass gets its ``__init__`` compiled at once (the
class's signature, and its docstring when it has none, are read from it; nearly
every class makes an instance) and, for each other method, a stand-in that
compiles the method from the same source at its first call, puts it in the
class in its own place and calls it. The class is the same dataclass: the same
fields, the same behaviour, and after a method's first call the same method in
the class. A ``__repr__`` stays behind the wrapper ``dataclasses`` puts around
it (a recursive repr prints ``...``), so its stand-in stays too, a call more
per repr.

The console script defers from its start (:func:`termsolitaire.entry.launching`).
The server's warm process does not: each session forked from it would compile
again what it calls. Where ``dataclasses`` has no ``_create_fn`` of the shape
this knows (Python 3.13 compiles a class's methods in one go), :func:`defer`
does nothing.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from types import FunctionType
from typing import Any, cast

_CREATE_FN: Callable[..., Any] | None = getattr(dataclasses, "_create_fn", None)
"""``dataclasses``' own: one method compiled from its source (Python 3.10-3.12)."""

EAGER = frozenset({"__init__"})
"""The methods compiled as the class is made."""


def _known_shape(create: Callable[..., Any] | None) -> bool:
    """Whether ``create`` takes what Python 3.10-3.12's ``_create_fn`` takes."""
    code = getattr(create, "__code__", None)
    if code is None:
        return False
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return bool(names == ("name", "args", "body", "globals", "locals", "return_type"))


def _deferred(
    name: str,
    args: Any,
    body: Any,
    *,
    globals: Any = None,
    locals: Any = None,
    return_type: Any = dataclasses.MISSING,
) -> Callable[..., Any]:
    """``dataclasses._create_fn`` with the compiling put off: a stand-in for the
    method ``name``, or the method itself for :data:`EAGER`."""
    create = cast("Callable[..., Any]", _CREATE_FN)  # set: defer() installed this
    if name in EAGER:
        made: Callable[..., Any] = create(
            name, args, body, globals=globals, locals=locals, return_type=return_type
        )
        return made
    method: Callable[..., Any] | None = None

    def stand_in(*a: Any, **kw: Any) -> Any:
        nonlocal method
        if method is None:
            method = create(
                name, args, body, globals=globals, locals=locals, return_type=return_type
            )
            method.__qualname__ = stand_in.__qualname__
            if a:
                _put_in_place(type(a[0]), name, stand_in, method)
        return method(*a, **kw)

    stand_in.__name__ = name
    stand_in.__module__ = (globals or {}).get("__name__", stand_in.__module__)
    return stand_in


_STAND_IN = _deferred("__repr__", ("self",), ["return ''"]).__code__
"""The code of every stand-in (:func:`waiting`)."""


def _put_in_place(kind: type, name: str, stand_in: Any, method: Any) -> None:
    """``method`` in the class of ``kind``'s MRO that holds ``stand_in`` as ``name``
    (none when the stand-in was called on an object of another class, or is
    wrapped: a ``__repr__``)."""
    for klass in kind.__mro__:
        if klass.__dict__.get(name) is stand_in:
            with contextlib.suppress(TypeError, AttributeError):  # a class that takes none
                setattr(klass, name, method)
            return


def defer() -> bool:
    """From now on, compile each new dataclass's methods other than ``__init__`` at
    their first call; whether this Python allows it (else nothing changes)."""
    if not _known_shape(_CREATE_FN):
        return False
    setattr(dataclasses, "_create_fn", _deferred)  # noqa: B010 (a private name)
    return True


def stop() -> None:
    """New dataclasses get all their methods compiled at once again (stand-ins made
    meanwhile keep waiting for their first call)."""
    if _CREATE_FN is not None:
        setattr(dataclasses, "_create_fn", _CREATE_FN)  # noqa: B010


def deferring() -> bool:
    """Whether :func:`defer` is in effect."""
    return getattr(dataclasses, "_create_fn", None) is _deferred


def waiting(method: object) -> bool:
    """Whether ``method`` (a class's attribute) is a stand-in whose method is not
    compiled yet."""
    function = getattr(method, "__wrapped__", method)  # a __repr__'s wrapper
    if getattr(function, "__code__", None) is not _STAND_IN:
        return False
    cells = cast("FunctionType", function).__closure__ or ()
    return cells[_STAND_IN.co_freevars.index("method")].cell_contents is None
