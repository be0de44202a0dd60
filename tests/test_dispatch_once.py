"""Issue 33: a message's handlers are found once per widget class and message class
(textual_hooks.dispatch_once, installed by the app), not by walking the widget's
classes at every message, and they are the handlers Textual's own search finds,
in the same order, with ``prevent_default`` and ``@on`` selectors as before."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from textual import events, on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual.widgets import Button

import termsolitaire
from termsolitaire import textual_hooks


def every_pump_class() -> list[type]:
    """Every message pump class once the program's modules are imported (the
    app's screens, widgets and dialogs, and Textual's)."""
    for module in pkgutil.walk_packages(termsolitaire.__path__, "termsolitaire."):
        if ".serve" in module.name or module.name.endswith("__main__"):
            continue
        importlib.import_module(module.name)
    found: list[type] = []
    todo = [MessagePump]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def handled_messages(cls: type) -> set[Any]:
    """The message classes ``cls`` has a handler for (by name or ``@on``), and a
    few every widget is sent."""
    every = [Message]
    messages: set[Any] = {events.Key, events.Mount, events.Resize, events.Idle, events.Focus}
    while every:
        kind = every.pop()
        every.extend(kind.__subclasses__())
        handler = getattr(kind, "handler_name", None)
        if handler and any(
            handler in k.__dict__ or f"_{handler}" in k.__dict__ for k in cls.__mro__
        ):
            messages.add(kind)
    for k in cls.__mro__:
        messages.update(k.__dict__.get("_decorated_handlers", None) or ())
    return messages


def blank(kind: type) -> Any:
    """A message of ``kind`` as the search reads it (no sender: no selector matches)."""
    message: Any = object.__new__(kind)
    message._no_default_action = False
    message._sender = None
    return message


def found(search: Any, pump: Any, name: str, message: Any) -> list[tuple[type, Any]]:
    """The classes and functions ``search`` yields for ``message``."""
    return [(cls, method.__func__) for cls, method in search(pump, name, message)]


def test_the_handlers_found_are_textuals_for_every_class_of_the_app() -> None:
    assert textual_hooks.dispatch_once()
    textuals = textual_hooks.messages.textuals_dispatch
    assert textuals is not None
    compared = 0
    for cls in every_pump_class():
        try:
            pump: Any = object.__new__(cls)
        except TypeError:
            continue
        for kind in handled_messages(cls):
            message = blank(kind)
            name: str = kind.handler_name
            theirs = found(textuals, pump, name, message)
            assert found(MessagePump._get_dispatch_methods, pump, name, message) == theirs
            assert found(MessagePump._get_dispatch_methods, pump, name, message) == theirs
            compared += 1
    assert compared > 500


def heard(widget: Widget) -> list[str]:
    app = widget.app
    assert isinstance(app, Pokes)
    return app.heard


class Inner(Widget):
    class Poked(Message):
        pass

    def on_inner_poked(self, message: Inner.Poked) -> None:
        heard(self).append("inner")


class Stopping(Inner):
    def on_inner_poked(self, message: Inner.Poked) -> None:
        heard(self).append("stopping")
        message.prevent_default()


class Going(Inner):
    def on_inner_poked(self, message: Inner.Poked) -> None:
        heard(self).append("going")


class Pokes(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.heard: list[str] = []

    def compose(self) -> ComposeResult:
        yield Stopping(id="stopping")
        yield Going(id="going")
        yield Button("ok", id="ok")
        yield Button("no", id="no")

    @on(Button.Pressed, "#ok")
    def ok(self) -> None:
        self.heard.append("ok")

    @on(Button.Pressed)
    def any_button(self) -> None:
        self.heard.append("button")


async def test_prevent_default_and_selectors_work_as_before() -> None:
    """A subclass's handler that prevents the default stops its base class's, every
    time; a handler with a selector hears only its own button."""
    assert textual_hooks.dispatch_once()
    app = Pokes()
    async with app.run_test() as pilot:
        for _ in range(2):
            app.heard.clear()
            for name in ("stopping", "going"):
                widget = app.query_one(f"#{name}", Inner)
                await widget._post_message(Inner.Poked())
                await pilot.pause()
            assert app.heard == ["stopping", "going", "inner"]
            app.heard.clear()
            app.query_one("#ok", Button).press()
            await pilot.pause()
            app.query_one("#no", Button).press()
            await pilot.pause()
            assert app.heard == ["ok", "button", "button"]
