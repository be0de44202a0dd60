"""Calling a callback (Textual's ``invoke``): its parameters counted from its code
once, a None result not checked against ``Awaitable``.
"""

from __future__ import annotations

from functools import partial
from types import FunctionType, MethodType
from typing import Any

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual._callback", "count_parameters", "__call__"),
    ("textual.reactive", "count_parameters", "__call__"),
    ("textual", "_callback", "isawaitable"),
    ("textual", "reactive", "isawaitable"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


_PARAMETERS: dict[int, tuple[int, Any]] = {}
"""By the identity of a function's code object: how many parameters its signature
has (and the code, so the identity stays its). By identity: a code object's hash
is computed anew each time, from its constants and names. A function's
``__dict__`` is not read (it would be made for each function that has none, and
written in a session for each warm one that has: pages copied)."""
_VARARGS = 4  # CO_VARARGS
_VARKEYWORDS = 8  # CO_VARKEYWORDS


def count_parameters(func: Any) -> int:
    """How many parameters ``func`` takes (as ``len(inspect.signature(func)
    .parameters)``, less one for a bound method), read from its code object once.

    Textual counts a callback's parameters before every call (``invoke``: each
    message handler, timer and ``call_later``): from an attribute it sets on the
    function, else from ``inspect.signature``, which it asks again for every new
    function object (a lambda or a closure made at each call: 600 a login).
    A plain function's count depends only on its code; one whose signature is
    not its code's (``functools.wraps``, ``__signature__``) is counted by
    ``inspect`` once, kept on the function as its count unbound (Textual keeps
    its count less one there when it first meets it bound, and then counts
    one too few for it unbound). ``functools.partial`` and other callables are
    counted as Textual counts them (a partial: what it wraps, less what it
    gives; other callables: by Textual)."""
    if type(func) is MethodType:
        function = func.__func__
        less = 1
    else:
        function = func
        less = 0
    if type(function) is FunctionType:
        if (
            getattr(function, "__wrapped__", None) is not None
            or getattr(function, "__signature__", None) is not None
        ):
            count = getattr(function, "_signature_count", None)
            if count is None:
                from inspect import signature

                count = len(signature(function).parameters)
                function._signature_count = count  # type: ignore[attr-defined]
            return int(count) - less
        code = function.__code__
        known = _PARAMETERS.get(id(code))
        if known is None:
            flags = code.co_flags
            known = _PARAMETERS[id(code)] = (
                code.co_argcount
                + code.co_kwonlyargcount
                + bool(flags & _VARARGS)
                + bool(flags & _VARKEYWORDS),
                code,
            )
        return known[0] - less
    if type(func) is partial:
        return count_parameters(func.func) - len(func.args) - len(func.keywords)
    call = _CALLS.get(type(func), _CALL_UNKNOWN)
    if call is _CALL_UNKNOWN:
        call = _CALLS[type(func)] = _plain_call(type(func))
    if call is not None and func.__dict__.get("__signature__") is None:
        # an instance whose class's __call__ is a plain function (Textual's
        # AwaitMount, AwaitRemove: a new one at each mount): its parameters less
        # self, as inspect.signature counts them
        return count_parameters(call) - 1
    return int(_textuals_count(func))


_CALLS: dict[type, Any] = {}
"""By a callable object's class: its ``__call__`` when that is a plain function and
nothing else changes how ``inspect.signature`` reads an instance (else None)."""
_CALL_UNKNOWN = object()


def _plain_call(kind: type) -> Any:
    """``kind.__call__`` when ``inspect.signature`` of an instance of ``kind`` is
    that function's less its first parameter; None otherwise (a class, a class with
    a ``__signature__``, slots, no ``__dict__``, a wrapped or partial ``__call__``)."""
    if isinstance(kind, type) and issubclass(kind, type):
        return None  # a class: signature reads __init__ or __new__
    if type(kind) is not type or "__dict__" not in dir(kind):
        return None  # a metaclass's __call__, or no __dict__ to look for __signature__ in
    if any("__signature__" in vars(k) for k in kind.__mro__):
        return None
    call = getattr(kind, "__call__", None)  # noqa: B004  (the class's, not a check)
    if type(call) is not FunctionType or getattr(call, "__wrapped__", None) is not None:
        return None
    if getattr(call, "__signature__", None) is not None:
        return None
    code = call.__code__
    if code.co_argcount < 1:
        return None  # no self to drop: inspect would fail
    return call


_textuals_count: Any = None
"""Textual's own ``count_parameters``, once :func:`parameters_once` replaced it."""


def parameters_once() -> bool:
    """Let Textual count a callback's parameters with :func:`count_parameters`;
    False (nothing changed) when this Textual counts them elsewhere."""
    global _textuals_count
    try:
        from textual import _callback, reactive
    except ImportError:
        return False
    if _callback.count_parameters is count_parameters:
        return True
    if not callable(getattr(_callback, "count_parameters", None)):
        return False
    if getattr(reactive, "count_parameters", None) is not _callback.count_parameters:
        return False
    _textuals_count = _callback.count_parameters
    _callback.count_parameters = count_parameters
    setattr(reactive, "count_parameters", count_parameters)  # noqa: B010  (not exported)
    return True


def _awaitable(value: Any) -> bool:
    """``inspect.isawaitable(value)``, None answered at once (what nearly every
    handler returns), without the ``Awaitable`` ABC's check."""
    return value is not None and _isawaitable(value)


_isawaitable: Any = None
"""``inspect.isawaitable``, once :func:`none_is_not_awaited` is installed."""


def none_is_not_awaited() -> bool:
    """Let Textual's callback and watcher invocation see that a callback returned
    None without asking ``inspect.isawaitable``; False (nothing changed) when this
    Textual asks elsewhere.

    ``invoke`` asks ``isawaitable`` of every callback's result (each message
    handler, timer, ``call_later``: 2,900 a login, issue 33); for None, nearly
    always, that is two ``isinstance`` and then the ``collections.abc.Awaitable``
    check, a Python-level ``__instancecheck__``. None is never awaitable: the
    answer is the same."""
    global _isawaitable
    import inspect

    try:
        from textual import _callback, reactive
    except ImportError:
        return False
    if getattr(_callback, "isawaitable", None) is _awaitable:
        return True
    users = [m for m in (_callback, reactive) if getattr(m, "isawaitable", None) is not None]
    if not users or any(m.isawaitable is not inspect.isawaitable for m in users):
        return False
    _isawaitable = inspect.isawaitable
    for module in users:
        setattr(module, "isawaitable", _awaitable)  # noqa: B010  (not exported)
    return True
