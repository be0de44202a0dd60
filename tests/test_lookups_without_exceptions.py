"""Issue 33: lookups Textual makes at every message and every refresh, without an
exception made and dropped and without its ``_parent`` property
(textual_hooks.message_hook_found_without_exception, region_without_exceptions,
and the parents read from their weak references by the screen lookup and the
styles' matching): a message hook set by the test pilot still sees every message;
every widget on the login path has the region Textual's own lookup gives it, an
empty one before its first layout or out of any screen."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import pytest
from textual import _context, events, message_pump
from textual import app as app_module
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.geometry import NULL_REGION, Region
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widgets import Static

from termsolitaire import textual_hooks

from .login_path import at_the_board, nodes

assert textual_hooks.message_hook_found_without_exception()
assert textual_hooks.region_without_exceptions()


class Keyed(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("keys", id="keys")


async def test_no_message_hook_is_found_without_an_exception() -> None:
    hook = message_pump.message_hook_context_var
    assert hook is app_module.message_hook_context_var is _context.message_hook
    app = Keyed()
    async with app.run_test() as pilot:
        await pilot.press("a")
        found = hook.get()  # Textual's raised LookupError here: no hook set
        assert found is textual_hooks.messages._no_message_hook
        assert found(object()) is None


async def keys_seen() -> list[str]:
    """The keys a message hook set by the pilot sees, at every pump they reach."""
    seen: list[str] = []

    def hook(message: Any) -> None:
        if isinstance(message, events.Key):
            seen.append(message.key)

    app = Keyed()
    async with app.run_test(message_hook=hook) as pilot:
        await pilot.press("a", "b")
        await pilot.pause()
    return seen


async def test_a_message_hook_set_sees_every_message_as_with_textuals() -> None:
    ours = await keys_seen()
    found = message_pump.message_hook_context_var
    textuals: ContextVar[Any] = ContextVar("message_hook")  # no default, as Textual's
    for module in (message_pump, app_module):
        module.message_hook_context_var = textuals  # type: ignore[attr-defined]
    try:
        theirs = await keys_seen()
    finally:
        for module in (message_pump, app_module):
            module.message_hook_context_var = found  # type: ignore[attr-defined]
    assert ours == theirs
    assert ours.count("a") == ours.count("b") >= 1


@contextlib.contextmanager
def parent_reads() -> Iterator[list[int]]:
    """Count the reads of Textual's ``MessagePump._parent`` property."""
    textuals = MessagePump.__dict__["_parent"]
    reads: list[int] = []

    def counted(self: Any) -> Any:
        reads.append(1)
        return textuals.fget(self)

    MessagePump._parent = property(counted, textuals.fset)  # type: ignore[method-assign,assignment]
    try:
        yield reads
    finally:
        MessagePump._parent = textuals  # type: ignore[method-assign]


async def test_the_login_path_finds_screens_regions_and_places_without_parent_reads() -> None:
    async with at_the_board() as app:
        stylesheet = app.stylesheet
        assert isinstance(stylesheet, textual_hooks.SharedStylesheet)
        expected = {
            id(node): textual_hooks.dom.textuals_region.fget(node) for _, node in nodes(app)
        }
        counted = 0
        with parent_reads() as reads:
            for screen, node in nodes(app):
                assert node.screen is screen
                if hasattr(node, "region"):
                    assert node.region == expected[id(node)]
                    counted += 1
            for _, node in nodes(app):
                own = (-1, type(node), None, frozenset(node._classes))
                textual_hooks.stylesheet._place(own, ((), ("focus",), ()), node, frozenset())
        assert counted > 40
        assert not reads  # Textual's walks read it at each step


class Nested(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="outer"):
            yield Static("one", id="one")
            yield Static("two", id="two")


async def test_a_region_is_textuals_before_and_after_the_first_layout() -> None:
    compositor_find = Compositor.find_widget
    asked: list[object] = []

    def counted(self: Compositor, widget: Any) -> Any:
        asked.append(widget)
        return compositor_find(self, widget)

    app = Nested()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        outer = app.query_one("#outer")
        Compositor.find_widget = counted  # type: ignore[method-assign]
        try:
            late = Static("late")
            assert late.region == NULL_REGION  # in no screen yet
            await outer.mount(late)
            assert late.region == NULL_REGION == textual_hooks.dom.textuals_region.fget(late)
            assert asked == [late]  # Textual's own lookup, asked for the comparison
            await pilot.pause()
            assert late.region == textual_hooks.dom.textuals_region.fget(late)
            assert late.region.height == 1 and late.region.width == 40
            assert app.query_one("#two").region == Region(0, 1, 40, 1)
        finally:
            Compositor.find_widget = compositor_find  # type: ignore[method-assign]


class OwnFind(Screen[None]):
    """A screen that finds its widgets itself: asked, as Textual asks it."""

    def compose(self) -> ComposeResult:
        yield Static("here", id="here")

    def find_widget(self, widget: Any) -> Any:
        self.app.asked = getattr(self.app, "asked", 0) + 1
        return super().find_widget(widget)


class OwnFindApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(OwnFind())


async def test_a_screen_with_its_own_find_widget_is_asked() -> None:
    app = OwnFindApp()
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        before = getattr(app, "asked", 0)
        assert app.screen.query_one("#here").region == Region(0, 0, 30, 1)
        assert app.asked == before + 1


def test_the_hooks_are_installed_once() -> None:
    hook = message_pump.message_hook_context_var
    assert textual_hooks.message_hook_found_without_exception()
    assert message_pump.message_hook_context_var is hook
    assert textual_hooks.region_without_exceptions()
    with pytest.raises(AttributeError):
        _ = Static("loose").no_such_thing
