"""Reactive attributes: read from the node's ``__dict__``, and given their first
values, without Textual's failed look-ups.
"""

from __future__ import annotations

from typing import Any

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.reactive", "Reactive", "__get__"),
    ("textual.reactive", "Reactive", "_initialize_object"),
    ("textual.reactive", "Reactive", "_initialize_reactive"),
    ("textual.reactive", "Reactive", "_init"),
    ("textual.reactive", "Reactive", "_default"),
    ("textual.reactive", "Reactive", "_toggle_class"),
    ("textual.dom", "DOMNode", "_reactives"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


textuals_reactive_get: Any = None
"""Textual's own ``Reactive.__get__``, once :func:`reactive_reads` replaced it."""
_COMPUTES: dict[tuple[type, str], bool] = {}
"""By a node's class and a reactive's compute method's name: whether the class has
that method (Textual asks the node at every read)."""


def reactive_reads() -> bool:
    """Let a reactive attribute that has its value and no compute method be read
    from the node's ``__dict__``, without Textual's three ``hasattr`` a read; False
    (nothing changed) when this Textual's reactives store their values elsewhere.

    Textual's ``Reactive.__get__`` asks the node, at every read, whether it has an
    ``id`` (to word an error), its value, and a compute method: the last one fails
    for nearly every reactive, and a failed ``hasattr`` makes and drops an
    exception: 11,000 reads a login (issue 33). Whether a class has a compute
    method does not change while the program runs (Textual looks for it on the
    class when the reactive is declared, and calls it as a method); it is looked
    up once per class and name. A read that finds no value yet, or a compute
    method, is Textual's."""
    try:
        from textual.reactive import Reactive
    except ImportError:
        return False
    if getattr(Reactive, "_reads_from_dict", False):
        return True
    textuals_get = Reactive.__dict__.get("__get__")
    if not callable(textuals_get):
        return False
    probe: Any = Reactive(0)
    probe.__set_name__(type("Probe", (), {}), "probe")
    if not isinstance(getattr(probe, "internal_name", None), str) or not isinstance(
        getattr(probe, "compute_name", None), str
    ):
        return False

    def __get__(self: Any, obj: Any, obj_type: Any = None) -> Any:
        if obj is None:
            return self
        kind = type(obj)
        compute = _COMPUTES.get((kind, self.compute_name))
        if compute is None:
            compute = _COMPUTES[kind, self.compute_name] = hasattr(kind, self.compute_name)
        if not compute:
            try:
                return obj.__dict__[self.internal_name]
            except (KeyError, AttributeError):
                pass
        return textuals_get(self, obj, obj_type)

    global textuals_reactive_get
    textuals_reactive_get = textuals_get
    __get__.__doc__ = textuals_get.__doc__
    Reactive.__get__ = __get__  # type: ignore[method-assign]
    Reactive._reads_from_dict = True  # type: ignore[attr-defined]
    return True


textuals_initialize_object: Any = None
"""Textual's own ``Reactive._initialize_object``, once
:func:`reactives_set_at_once` replaced it."""
_PLAINLY_SET: dict[type, tuple[tuple[str, Any, str], ...]] = {}
"""By a node's class: the reactives whose initial value is set plainly (no watcher
called, no compute method, no class toggled), each as (name, reactive, the name
of its value in the node's ``__dict__``), in Textual's order; the others as
``(name, reactive, "")``: Textual's."""


def _plainly_set(kind: Any, initialize: Any, check: Any) -> tuple[tuple[str, Any, str], ...]:
    """:data:`_PLAINLY_SET` for ``kind``, found now and kept."""
    python: Any = object
    plain = (
        kind.__setattr__ is python.__setattr__
        and kind.__getattribute__ is python.__getattribute__
        and not hasattr(kind, "__getattr__")
    )
    plan = []
    for name, reactive in kind._reactives.items():
        internal = f"_reactive_{name}"
        ours = (
            plain
            and type(reactive)._initialize_reactive is initialize
            and getattr(type(reactive)._check_watchers, "__func__", None) is check
            and not reactive._init
            and reactive._toggle_class is None
            and not hasattr(kind, internal)
        )
        plan.append((name, reactive, internal if ours else ""))
    return tuple(plan)


def reactives_set_at_once() -> bool:
    """Let a node's reactive attributes get their first values without Textual's
    two failed look-ups each; False (nothing changed) when this Textual initializes
    them otherwise.

    Textual's ``Reactive._initialize_object`` (at every node's mount) asks, for each
    of the node's reactives (a widget has some twenty), ``hasattr`` of its value and
    ``getattr`` of its compute method, both nearly always missing: each a
    ``AttributeError`` made and dropped, 4,000 reactives a login (issue 33). For a
    reactive that calls no watcher at its start (``init=False``), toggles no class,
    on a class with Python's own attribute access and nothing of that name, the
    value is found in or put into the node's ``__dict__``, made from the default as
    Textual makes it; its compute method is not read (Textual reads it only to
    call it when ``init`` is set). Every other reactive is Textual's, in the same
    order."""
    try:
        from textual.reactive import Initialize, Reactive
    except ImportError:
        return False
    if getattr(Reactive, "_set_at_once", False):
        return True
    textuals = Reactive.__dict__.get("_initialize_object")
    initialize = Reactive.__dict__.get("_initialize_reactive")
    check = Reactive.__dict__.get("_check_watchers")
    if not isinstance(textuals, classmethod) or not callable(initialize):
        return False
    if not isinstance(check, classmethod):
        return False
    names = initialize.__code__.co_names
    if not {"_init", "_default", "_toggle_class", "compute_name"} <= set(names):
        return False  # a Textual whose reactives start otherwise
    check = check.__func__
    textuals_function = textuals.__func__

    def _initialize_object(cls: Any, obj: Any) -> None:
        kind = type(obj)
        if cls is not Reactive:
            textuals_function(cls, obj)
            return
        plan = _PLAINLY_SET.get(kind)
        if plan is None:
            plan = _PLAINLY_SET[kind] = _plainly_set(kind, initialize, check)
        values = obj.__dict__
        for name, reactive, internal in plan:
            if not internal:
                reactive._initialize_reactive(obj, name)
            elif internal not in values:
                default = reactive._default
                if callable(default):
                    default = default(obj) if isinstance(default, Initialize) else default()
                values[internal] = default

    global textuals_initialize_object
    textuals_initialize_object = textuals
    _initialize_object.__doc__ = textuals_function.__doc__
    Reactive._initialize_object = classmethod(_initialize_object)  # type: ignore[assignment,method-assign]
    Reactive._set_at_once = True  # type: ignore[attr-defined]
    return True
