"""Issue 33: a miss in Textual's FIFO caches and a look at an empty message queue
make no exception (textual_hooks.cache_misses_without_exceptions), and keep
Textual's contract: the same values, defaults and hit and miss counts; the same
message taken from the queue, the pump closed by the closing message. A
callback's None result is not checked against the Awaitable ABC
(textual_hooks.none_is_not_awaited); what is awaitable is still awaited."""

from __future__ import annotations

import abc
import contextlib
import gc
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual import _callback, events
from textual.app import App, ComposeResult
from textual.cache import FIFOCache
from textual.message_pump import MessagePump, MessagePumpClosed
from textual.widgets import Static

from termsolitaire import textual_hooks

assert textual_hooks.cache_misses_without_exceptions()


@contextlib.contextmanager
def raised() -> Iterator[list[str]]:
    """The exceptions raised in Python code while the block runs (their names).

    The cyclic collector is off meanwhile: a collection the block's allocations
    set off can close an earlier test's generator, whose ``GeneratorExit`` the
    trace would see (CI failed once on ``['GeneratorExit']``)."""
    seen: list[str] = []

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "exception":
            seen.append(arg[0].__name__)
        return trace

    before = sys.gettrace()
    collecting = gc.isenabled()
    gc.disable()
    sys.settrace(trace)
    try:
        yield seen
    finally:
        sys.settrace(before)
        if collecting:
            gc.enable()


def test_a_miss_makes_no_exception() -> None:
    cache: FIFOCache[str, Any] = FIFOCache(4)
    cache["here"] = None
    with raised() as seen:
        assert cache.get("gone") is None
        assert cache.get("gone", 7) == 7
        assert cache.get("here", 7) is None  # a value of None is a hit
    assert seen == []
    assert (cache.hits, cache.misses) == (1, 2)


@given(
    st.lists(
        st.tuples(st.sampled_from(["get", "set"]), st.integers(0, 6), st.integers()),
        max_size=40,
    )
)
def test_a_cache_answers_and_counts_as_textuals(steps: list[tuple[str, int, int]]) -> None:
    ours: FIFOCache[int, int] = FIFOCache(3)
    theirs: FIFOCache[int, int] = FIFOCache(3)
    textuals_get = textual_hooks.messages.textuals_fifo_get
    for kind, key, value in steps:
        if kind == "set":
            ours[key] = value
            theirs[key] = value
        else:
            assert ours.get(key, -1) == textuals_get(theirs, key, -1)
            assert ours.get(key) == textuals_get(theirs, key)
        assert (ours.hits, ours.misses, ours.keys()) == (theirs.hits, theirs.misses, theirs.keys())


def test_a_look_at_an_empty_queue_makes_no_exception_and_takes_what_comes() -> None:
    pump = MessagePump()
    with raised() as seen:
        assert pump._peek_message() is None
    assert "QueueEmpty" not in seen
    first, second = events.Key("a", "a"), events.Key("b", "b")
    pump._message_queue.put_nowait(first)
    pump._message_queue.put_nowait(second)
    assert pump._peek_message() is first  # taken from the queue, kept pending
    assert pump._peek_message() is first
    assert list(pump._message_queue.values) == [second]
    assert not pump._closed


def test_the_closing_message_closes_the_pump() -> None:
    pump = MessagePump()
    pump._message_queue.put_nowait(None)
    with pytest.raises(MessagePumpClosed):
        pump._peek_message()
    assert pump._closed


class Callbacks(App[None]):
    """Callbacks returning None, a coroutine and a hand-made awaitable."""

    def __init__(self) -> None:
        super().__init__()
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("callbacks")

    def plain(self) -> None:
        self.done.append("plain")

    async def coroutine(self) -> None:
        self.done.append("coroutine")

    def awaitable(self) -> Any:
        app = self

        class Later:
            def __await__(self) -> Any:
                app.done.append("awaited")
                return iter(())

        return Later()


async def test_a_callbacks_none_is_not_checked_and_awaitables_are_awaited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """textual_hooks.none_is_not_awaited: a callback's None result is not asked
    of the Awaitable ABC; a coroutine and an object with __await__ still are
    awaited, by Textual's invoke and by a reactive's watcher."""
    assert textual_hooks.none_is_not_awaited()
    app = Callbacks()
    async with app.run_test() as pilot:
        await pilot.pause()
        checks: list[object] = []
        textuals = abc.ABCMeta.__instancecheck__

        def counted(cls: type, instance: object) -> bool:
            checks.append(instance)
            return textuals(cls, instance)

        monkeypatch.setattr(abc.ABCMeta, "__instancecheck__", counted)
        await _callback.invoke(app.plain)
        assert checks == []  # Textual's asked the ABC about None
        await _callback.invoke(app.coroutine)
        await _callback.invoke(app.awaitable)
        monkeypatch.undo()
        assert app.done == ["plain", "coroutine", "awaited"]
        assert not textual_hooks.callbacks._awaitable(None)
        assert textual_hooks.callbacks._awaitable(app.awaitable())
