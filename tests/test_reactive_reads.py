"""Issue 33: a reactive's value is read from the node's ``__dict__`` when it has one
and no compute method (textual_hooks.reactive_reads); what a read gives is
Textual's: for every reactive of every widget on the login path, before and
after a value is set, and a compute method (the class's or a subclass's) is
still called at each read."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.reactive import reactive, var
from textual.widget import Widget

from termsolitaire import textual_hooks

from .login_path import at_the_board

assert textual_hooks.reactive_reads()


def textuals(node: Any, name: str) -> Any:
    """The value Textual's own ``__get__`` gives for ``node.name``."""
    descriptor = type(node)._reactives[name]
    return textual_hooks.reactives.textuals_reactive_get(descriptor, node, type(node))


async def test_every_reactive_on_the_login_path_reads_as_textuals() -> None:
    async with at_the_board() as app:
        compared = 0
        for screen in app.screen_stack:
            for node in [app, screen, *screen.walk_children()]:
                for name, descriptor in type(node)._reactives.items():
                    if hasattr(type(node), descriptor.compute_name):
                        continue  # computed: Textual's at every read (below)
                    assert getattr(node, name) == textuals(node, name), (node, name)
                    compared += 1
        assert compared > 500


class Counted(Widget):
    plain = reactive(1)
    loose = var("a")
    doubled = reactive(0)
    calls = 0

    def compute_doubled(self) -> int:
        Counted.calls += 1
        return self.plain * 2


class Tripled(Counted):
    def compute_plain(self) -> int:  # a subclass's compute method for a plain reactive
        return 3


class Holder(App[None]):
    def compose(self) -> ComposeResult:
        yield Counted(id="counted")
        yield Tripled(id="tripled")


async def test_set_values_and_compute_methods_read_as_textual_has_them() -> None:
    app = Holder()
    async with app.run_test() as pilot:
        counted = app.query_one("#counted", Counted)
        tripled = app.query_one("#tripled", Tripled)
        assert (counted.plain, counted.loose) == (1, "a")
        counted.plain = 5
        counted.loose = "b"
        await pilot.pause()
        assert (counted.plain, counted.loose) == (5, "b")
        before = Counted.calls
        assert counted.doubled == 10
        assert counted.doubled == 10
        assert Counted.calls == before + 2  # computed at each read, as Textual does
        assert tripled.plain == 3
        assert tripled.doubled == 6
