"""Issue 33: a node's reactives get their first values without Textual's two failed
look-ups each (textual_hooks.reactives_set_at_once); what a node starts with is
Textual's: for every kind of node on the login path, and for reactives with a
callable default, a watcher called at the start, a class toggled, a value set
before the mount, and a class with attribute access of its own."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.reactive import Initialize, Reactive, reactive
from textual.widget import Widget

from termsolitaire import textual_hooks

from .login_path import at_the_board, nodes

assert textual_hooks.reactives_set_at_once()


def started(kind: type, initialize: Any) -> dict[str, Any]:
    """The reactive values a bare node of ``kind`` gets from ``initialize``."""
    node = kind.__new__(kind)
    initialize(node)
    return {k: v for k, v in node.__dict__.items() if k.startswith("_reactive_")}


def textuals(node: Any) -> None:
    textual_hooks.reactives.textuals_initialize_object.__func__(Reactive, node)


async def test_every_node_on_the_login_path_starts_as_textuals() -> None:
    async with at_the_board() as app:
        kinds = {type(app)} | {type(node) for _, node in nodes(app)}
    compared = plain = 0
    for kind in kinds:
        plan = textual_hooks.reactives._PLAINLY_SET.get(kind)
        assert plan is not None, kind  # its nodes were started by the hook
        plain += sum(1 for _, _, internal in plan if internal)
        if not all(internal for _, _, internal in plan):
            continue  # Textual's for those: not on a bare node
        ours = started(kind, Reactive._initialize_object)
        theirs = started(kind, textuals)
        assert ours.keys() == theirs.keys(), kind
        for name, value in ours.items():
            assert type(value) is type(theirs[name]) and value == theirs[name], (kind, name)
        compared += 1
    assert compared >= 10 and plain >= 300


class Counter:
    made = 0

    def __init__(self, node: Any = None) -> None:
        Counter.made += 1
        self.node = node


class Kinds(Widget):
    plain = Reactive(3)
    fresh = Reactive(list)
    given = Reactive(Initialize(Counter))
    made = Reactive(Counter)
    watched = reactive(1)  # init: its watcher is called at the start
    toggled = Reactive(True, toggle_class="-on")
    seen: list[tuple[int, int]]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seen = []

    def watch_watched(self, old: int, new: int) -> None:
        self.seen.append((old, new))


class Looked(Kinds):
    """A class that answers attribute look-ups of its own: Textual's at the start."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)


class Holder(App[None]):
    def compose(self) -> ComposeResult:
        yield Kinds(id="a")
        yield Kinds(id="b")
        early = Kinds(id="early")
        early.plain = 9  # set before its mount: kept
        yield early
        yield Looked(id="looked")


async def test_defaults_watchers_toggles_and_early_values_are_textuals() -> None:
    app = Holder()
    async with app.run_test() as pilot:
        await pilot.pause()
        a, b, early, looked = (app.query_one(f"#{n}", Kinds) for n in ("a", "b", "early", "looked"))
        for node in (a, b, looked):
            assert node.plain == 3
            assert node.fresh == []
            assert isinstance(node.given, Counter) and node.given.node is node
            assert isinstance(node.made, Counter) and node.made.node is None
            assert node.seen == [(1, 1)]  # Textual calls an init watcher with the default
            assert node.has_class("-on")
        assert a.fresh is not b.fresh and a.made is not b.made  # made for each node
        assert early.plain == 9
        plans = textual_hooks.reactives._PLAINLY_SET
        assert {n for n, _, internal in plans[Kinds] if internal} == {
            "plain",
            "fresh",
            "given",
            "made",
        } | {n for n in Widget._reactives}
        assert not any(internal for _, _, internal in plans[Looked])
