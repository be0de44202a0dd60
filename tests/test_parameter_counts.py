"""Issue 33: Textual counts a callback's parameters before each call (its ``invoke``
passes only as many arguments as the callback takes); the app has it count them
from the function's code once (textual_hooks.count_parameters). The counts are
inspect's, for every function and method of the app, and for any signature."""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
from types import FunctionType, MethodType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import termsolitaire
from termsolitaire import textual_hooks


def inspects(func: Any) -> int:
    return len(inspect.signature(func).parameters)


def the_apps_functions() -> list[Any]:
    """Every function of the program's modules, and every method of its classes."""
    found: dict[int, Any] = {}
    for module_info in pkgutil.walk_packages(termsolitaire.__path__, "termsolitaire."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, FunctionType):
                found[id(value)] = value
            elif isinstance(value, type) and value.__module__ == module.__name__:
                for attribute in vars(value).values():
                    if isinstance(attribute, (staticmethod, classmethod)):
                        attribute = attribute.__func__
                    if isinstance(attribute, FunctionType):
                        found[id(attribute)] = attribute
    return list(found.values())


def test_the_counts_are_inspects_for_the_apps_own_callbacks() -> None:
    assert textual_hooks.parameters_once()
    functions = the_apps_functions()
    assert len(functions) > 1000
    holder = object()
    for func in functions:
        try:
            expected = inspects(func)
        except (TypeError, ValueError):
            continue
        assert textual_hooks.count_parameters(func) == expected, func
        assert textual_hooks.count_parameters(func) == expected, func  # from what was kept
        if expected:
            bound = MethodType(func, holder)
            assert textual_hooks.count_parameters(bound) == expected - 1, func


def test_textual_counts_with_it() -> None:
    """The app installs it where Textual's invoke and reactive watchers count."""
    from textual import _callback, reactive

    import termsolitaire.app  # noqa: F401  (installs it)

    assert _callback.count_parameters is textual_hooks.count_parameters
    assert getattr(reactive, "count_parameters") is textual_hooks.count_parameters  # noqa: B009


def test_wrapped_partial_and_callable_objects_are_counted_as_textual_does() -> None:
    assert textual_hooks.parameters_once()

    def three(a: int, b: int, c: int) -> int:
        return a + b + c

    @functools.wraps(three)
    def wrapper(*args: Any, **kwargs: Any) -> int:
        return three(*args, **kwargs)

    class Callable:
        def __call__(self, x: int) -> int:
            return x

    assert textual_hooks.count_parameters(wrapper) == 3  # the signature of what it wraps
    assert textual_hooks.count_parameters(functools.partial(three, 1)) == 2
    assert textual_hooks.count_parameters(functools.partial(three, 1, c=2)) == 1
    assert textual_hooks.count_parameters(functools.partial(Callable().__call__)) == 1
    assert textual_hooks.count_parameters(Callable()) == 1
    assert textual_hooks.count_parameters(lambda: None) == 0
    for _ in range(3):  # a closure made anew at each call: its code is the same
        assert textual_hooks.count_parameters(lambda event, other=None: event) == 2


names = st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8)


@given(
    names=names,
    positional_only=st.integers(0, 3),
    keyword_only=st.integers(0, 3),
    args=st.booleans(),
    kwargs=st.booleans(),
    defaults=st.integers(0, 3),
    bound=st.booleans(),
    instance=st.booleans(),
)
def test_any_signature_is_counted_as_inspect_counts_it(
    names: list[str],
    positional_only: int,
    keyword_only: int,
    args: bool,
    kwargs: bool,
    defaults: int,
    bound: bool,
    instance: bool,
) -> None:
    assert textual_hooks.parameters_once()
    positional_only = min(positional_only, len(names))
    keyword_only = min(keyword_only, len(names) - positional_only)
    ordinary = names[: len(names) - keyword_only]
    parts = []
    for at, name in enumerate(ordinary):
        default = "=0" if at >= len(ordinary) - defaults else ""
        parts.append(name + default)
        if at == positional_only - 1:
            parts.append("/")
    if args:
        parts.append("*rest")
    elif keyword_only:
        parts.append("*")
    parts.extend(names[len(names) - keyword_only :])
    if kwargs:
        parts.append("**more")
    space: dict[str, Any] = {}
    exec(f"def f({', '.join(parts)}): pass", space)
    func = space["f"]
    expected = inspects(func)
    if bound and ordinary:  # a method: its first parameter is the instance
        func = MethodType(func, object())
        expected = inspects(func)
    elif instance and ordinary:  # an object whose class's __call__ it is
        func = type("Called", (), {"__call__": func})()
        expected = inspects(func)
    assert textual_hooks.count_parameters(func) == expected
    assert textual_hooks.count_parameters(func) == expected  # from what was kept


async def test_textuals_awaitables_are_counted_without_inspect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Textual's AwaitMount and AwaitRemove, made at each mount and removal and
    invoked as callbacks: their count from their class's __call__, not from
    inspect.signature (Textual's count asks it for each new one)."""
    from textual import _callback
    from textual.await_remove import AwaitRemove
    from textual.widget import AwaitMount, Widget

    assert textual_hooks.parameters_once()
    made = [AwaitMount(Widget(), []), AwaitRemove([])]
    expected = [inspects(awaitable) for awaitable in made]

    def refused(func: Any) -> Any:
        raise AssertionError(f"inspect.signature asked for {func!r}")

    monkeypatch.setattr(_callback, "signature", refused)
    assert [textual_hooks.count_parameters(awaitable) for awaitable in made] == expected == [0, 0]


def test_a_callable_object_with_a_signature_of_its_own_is_inspects() -> None:
    assert textual_hooks.parameters_once()

    class Declared:
        def __call__(self, a: int, b: int) -> int:
            return a + b

    declared = Declared()
    declared.__signature__ = inspect.signature(lambda a: a)  # type: ignore[attr-defined]
    assert textual_hooks.count_parameters(declared) == inspects(declared) == 1
