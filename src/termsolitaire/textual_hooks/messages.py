"""The message pump: a message's handlers found once per class, no log line made
for no one, ``prevent`` without a generator, no exception when no message hook
is set, a cache miss or an empty queue without an exception.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._shared import _MATCHED_MOST, _MISSING

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.message_pump", "MessagePump", "_get_dispatch_methods"),
    ("textual.message_pump", "MessagePump", "_decorated_handlers"),
    ("textual.message", "Message", "_no_default_action"),
    ("textual.message", "Message", "_sender"),
    ("textual", "message_pump", "log"),
    ("textual", "_context", "active_app"),
    ("textual", "constants", "LOG_FILE"),
    ("textual.app", "App", "_is_devtools_connected"),
    ("textual.message_pump", "MessagePump", "prevent"),
    ("textual.message_pump", "MessagePump", "_prevent_message_types_stack"),
    ("textual", "_context", "message_hook"),
    ("textual.cache", "FIFOCache", "_cache"),
    ("textual.message_pump", "MessagePump", "_peek_message"),
    ("textual.message_pump", "MessagePump", "_pending_message"),
    ("textual.message_pump", "MessagePump", "_closed"),
    ("textual._queue", "Queue", "values"),
    ("textual", "app", "message_hook_context_var"),
    ("textual", "message_pump", "message_hook_context_var"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


_DISPATCH: dict[tuple[type, type, str], tuple[tuple[type, tuple[Any, ...], Any], ...]] = {}
"""By a message pump's class, a message's class and a handler's name: for each
class in the pump's MRO that handles it, its decorated handlers (``@on``: the
function and its selectors) and its handler by name (``_on_key`` or
``on_key``; None when none or when decorated), in the order Textual tries them."""


def _dispatch_plan(
    pump_class: type, message_class: type, method_name: str
) -> tuple[tuple[type, tuple[Any, ...], Any], ...]:
    """What Textual's ``_get_dispatch_methods`` reads of the classes, found once."""
    from textual.message import Message

    message_mro = [kind for kind in message_class.__mro__ if issubclass(kind, Message)]
    plan = []
    for cls in pump_class.__mro__:
        decorated_handlers = cls.__dict__.get("_decorated_handlers")
        decorated: list[Any] = []
        if decorated_handlers:
            for message_kind in message_mro:
                decorated.extend(decorated_handlers.get(message_kind, ()))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None
        if decorated or method is not None:
            plan.append((cls, tuple(decorated), method))
    found = tuple(plan)
    if len(_DISPATCH) >= _MATCHED_MOST:
        _DISPATCH.clear()
    _DISPATCH[pump_class, message_class, method_name] = found
    return found


textuals_dispatch: Any = None
"""Textual's own ``_get_dispatch_methods``, once :func:`dispatch_once` replaced it."""


def dispatch_once() -> bool:
    """Let Textual find a message's handlers in a widget's classes once per widget
    class and message class, not at every message; False (nothing changed) when
    this Textual's message pump has no ``_get_dispatch_methods``.

    Textual walks the widget's MRO (some 20 classes) and each one's decorated
    handlers for every message it dispatches (5,000 a login). The classes do not
    change while the program runs, so what it finds there is kept
    (:data:`_DISPATCH`); what depends on the message is still asked of it, as
    Textual does: whether its default action was prevented (before each class),
    and for a handler with selectors (``@on(Button.Pressed, "#ok")``), whether its
    sender matches them."""
    try:
        from textual._on import OnNoWidget
        from textual.css.match import match
        from textual.message_pump import MessagePump
        from textual.widget import Widget
    except ImportError:
        return False
    if getattr(MessagePump, "_dispatch_once", False):
        return True
    if not hasattr(MessagePump, "_get_dispatch_methods"):
        return False

    def _get_dispatch_methods(self: Any, method_name: str, message: Any) -> Iterable[Any]:
        plan = _DISPATCH.get((type(self), type(message), method_name))
        if plan is None:
            plan = _dispatch_plan(type(self), type(message), method_name)
        methods_dispatched: set[Any] = set()
        for cls, decorated, by_name in plan:
            if message._no_default_action:
                break
            for method, selectors in decorated:
                if method in methods_dispatched:
                    continue
                if not selectors:
                    yield cls, method.__get__(self, cls)
                    methods_dispatched.add(method)
                    continue
                if not message._sender:
                    continue
                for attribute, selector in selectors.items():
                    node = getattr(message, attribute)
                    if node is None:
                        break
                    if not isinstance(node, Widget):
                        raise OnNoWidget(
                            f"on decorator can't match against {attribute!r} as it is not a widget."
                        )
                    if not match(selector, node):
                        break
                else:
                    yield cls, method.__get__(self, cls)
                    methods_dispatched.add(method)
            if by_name is not None:
                yield cls, by_name.__get__(self, cls)

    global textuals_dispatch
    textuals_dispatch = MessagePump._get_dispatch_methods
    _get_dispatch_methods.__doc__ = textuals_dispatch.__doc__
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
    MessagePump._dispatch_once = True  # type: ignore[attr-defined]
    return True


class _Unheard:
    """An event logger that no one hears: its verbosities are itself, a call does
    nothing (Textual's ``Logger`` when there is no log file and the app has no
    devtools connected)."""

    def verbosity(self, verbose: bool) -> _Unheard:
        return self

    def __call__(self, *args: object, **kwargs: object) -> None:
        return None


_UNHEARD = _Unheard()


class _PumpLog:
    """Textual's ``log`` as the message pump reads it: its ``event`` logger a silent
    one while no one could hear it, Textual's own otherwise, and every other name
    Textual's."""

    def __init__(self, textuals: Any, constants: Any, active_app: Any) -> None:
        self._textuals = textuals
        self._constants = constants
        self._active_app = active_app

    @property
    def event(self) -> Any:
        if not self._constants.LOG_FILE:
            try:
                app = self._active_app.get()
            except LookupError:  # Textual's prints it in debug mode
                return self._textuals.event
            if not app._is_devtools_connected:
                return _UNHEARD
        return self._textuals.event

    def __call__(self, *args: object, **kwargs: object) -> None:
        self._textuals(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._textuals, name)


def unheard_events_not_logged() -> bool:
    """Let the message pump skip logging a message it handles when no one could
    read the line (no log file, no devtools connected); False (nothing changed)
    when this Textual's message pump logs otherwise.

    Textual's ``_on_message`` logs every message each handler gets, through
    ``log.event.verbosity(...)(...)``: two new loggers (each with a weak reference
    to the app), and the call that finds no log file and no devtools and returns:
    some ten Python calls a message, 1,700 messages a login (issue 33). With a
    log file or devtools (``textual run --dev``), or no active app, Textual's
    logger does it all as before."""
    try:
        from textual import Logger, constants, message_pump
        from textual._context import active_app
        from textual.app import App
    except ImportError:
        return False
    textuals = getattr(message_pump, "log", None)
    if isinstance(textuals, _PumpLog):
        return True
    if not isinstance(textuals, Logger) or not isinstance(
        getattr(App, "_is_devtools_connected", None), property
    ):
        return False
    if not hasattr(constants, "LOG_FILE"):
        return False
    setattr(message_pump, "log", _PumpLog(textuals, constants, active_app))  # noqa: B010
    return True


class _Prevented:
    """Textual's ``prevent`` as a plain context manager: ``message_types`` prevented
    from being posted on ``pump`` while the block runs (pushed on the pump's
    stack at the start, popped at the end, as Textual's generator does)."""

    __slots__ = ("_pump", "_stack", "_types")

    def __init__(self, pump: Any, message_types: tuple[type, ...]) -> None:
        self._pump = pump
        self._types = message_types

    def __enter__(self) -> None:
        stack = self._stack = self._pump._prevent_message_types_stack
        stack.append(stack[-1].union(self._types))

    def __exit__(self, *exc: object) -> None:
        self._stack.pop()


class _NothingPrevented:
    """Textual's ``prevent`` with no message types: a block that changes nothing."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NOTHING_PREVENTED = _NothingPrevented()
textuals_prevent: Any = None
"""Textual's own ``MessagePump.prevent``, once :func:`prevent_without_generator`
replaced it."""


def prevent_without_generator() -> bool:
    """Let a message pump's ``prevent`` be a plain context manager, not a generator
    wrapped by ``contextlib.contextmanager``; False (nothing changed) when this
    Textual's pumps prevent messages otherwise.

    Textual dispatches every message and every callback inside ``with
    self.prevent(*message._prevent)``, nearly always with no types to prevent:
    the wrapper, its ``__init__``, the generator started and finished, its
    ``__enter__`` and ``__exit__``, some seven Python frames each time, 3,500
    times a login (issue 33). The same stack pushed and popped, in three."""
    try:
        from textual.message_pump import MessagePump
    except ImportError:
        return False
    if getattr(MessagePump, "_prevent_without_generator", False):
        return True
    textuals = MessagePump.__dict__.get("prevent")
    if not callable(getattr(textuals, "__wrapped__", None)) or not isinstance(
        MessagePump.__dict__.get("_prevent_message_types_stack"), property
    ):
        return False

    def prevent(self: Any, *message_types: type) -> Any:
        if message_types:
            return _Prevented(self, message_types)
        return _NOTHING_PREVENTED

    global textuals_prevent
    textuals_prevent = textuals
    prevent.__doc__ = textuals.__doc__
    MessagePump.prevent = prevent  # type: ignore[method-assign]
    MessagePump._prevent_without_generator = True  # type: ignore[attr-defined]
    return True


def _no_message_hook(message: object) -> None:
    """The message hook of a pump with none set: nothing is done with the message."""
    return None


_message_hook: Any = None
"""The context variable :func:`message_hook_found_without_exception` put in place of
Textual's."""


def message_hook_found_without_exception() -> bool:
    """Let a message pump find that no message hook is set without an exception made
    and dropped at each message; False (nothing changed) when this Textual keeps
    its message hook elsewhere.

    Textual's ``_dispatch_message`` asks ``message_hook_context_var.get()`` for each
    message it dispatches; with no hook set (only the test pilot's
    ``run_test(message_hook=...)`` sets one) the context variable has no value and
    no default, so it raises ``LookupError``, caught there: 1,900 times a login
    (issue 33). The same context variable with a default that does nothing,
    shared by every module of Textual's that names it: a hook set is called as
    before."""
    try:
        from contextvars import ContextVar

        from textual import _context, message_pump
        from textual import app as app_module
    except ImportError:
        return False
    global _message_hook
    textuals = getattr(_context, "message_hook", None)
    if textuals is not None and textuals is _message_hook:
        return True
    if not isinstance(textuals, ContextVar):
        return False
    if textuals.get(None) is not None:  # a hook set already: leave Textual's as it is
        return False
    users = (message_pump, app_module)
    if any(getattr(m, "message_hook_context_var", None) is not textuals for m in users):
        return False
    found: ContextVar[Any] = ContextVar("message_hook", default=_no_message_hook)
    _context.message_hook = _message_hook = found
    for module in users:
        setattr(module, "message_hook_context_var", found)  # noqa: B010  (not exported)
    return True


textuals_fifo_get: Any = None
"""Textual's own ``FIFOCache.get``, once :func:`cache_misses_without_exceptions`
replaced it."""
textuals_peek_message: Any = None
"""Textual's own ``MessagePump._peek_message``, likewise."""


def cache_misses_without_exceptions() -> bool:
    """Let Textual's ``FIFOCache.get`` find a missing key without a ``KeyError`` made
    and caught, and a message pump peek at an empty queue without a ``QueueEmpty``;
    False (nothing changed) when this Textual keeps either otherwise.

    ``FIFOCache.get`` (a drawn line's caches, a widget's render caches) reads its
    dict in a ``try`` and counts a miss in the ``except KeyError``: 1,200 misses a
    login. ``MessagePump._peek_message`` asks its queue ``get_nowait``, which raises
    ``QueueEmpty`` when it has nothing: 700 times a login (issue 33). The same
    counts, the same values, the same message taken; a queue of another class than
    Textual's is asked as Textual asks it."""
    try:
        from textual._queue import Queue
        from textual.cache import FIFOCache
        from textual.message_pump import MessagePump, MessagePumpClosed
    except ImportError:
        return False
    if getattr(FIFOCache, "_misses_without_exceptions", False):
        return True
    textuals_get = FIFOCache.__dict__.get("get")
    textuals_peek = MessagePump.__dict__.get("_peek_message")
    if not callable(textuals_get) or not callable(textuals_peek):
        return False
    if not {"_cache", "hits", "misses"} <= set(getattr(FIFOCache, "__slots__", ())):
        return False
    probe: Any = Queue()
    if (
        not hasattr(probe, "values")
        or "_pending_message" not in MessagePump.__init__.__code__.co_names
    ):
        return False

    def get(self: Any, key: Any, default: Any = None) -> Any:
        result = self._cache.get(key, _MISSING)
        if result is _MISSING:
            self.misses += 1
            return default
        self.hits += 1
        return result

    def _peek_message(self: Any) -> Any:
        if self._pending_message is None:
            queue = self._message_queue
            if type(queue) is not Queue:
                return textuals_peek(self)
            if queue.values:
                message = queue.get_nowait()
                if message is None:
                    self._closed = True
                    raise MessagePumpClosed("The message pump is now closed")
                self._pending_message = message
        return self._pending_message

    global textuals_fifo_get, textuals_peek_message
    textuals_fifo_get, textuals_peek_message = textuals_get, textuals_peek
    get.__doc__ = textuals_get.__doc__
    _peek_message.__doc__ = textuals_peek.__doc__
    FIFOCache.get = get  # type: ignore[method-assign]
    MessagePump._peek_message = _peek_message  # type: ignore[method-assign]
    FIFOCache._misses_without_exceptions = True  # type: ignore[attr-defined]
    return True
