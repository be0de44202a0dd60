"""Issue 33: a screen finds the widget it focuses first by walking its widgets, not
by a CSS query for ``*`` (textual_hooks.auto_focus_without_query); the widget
focused is Textual's: on the menu and every game's board, and on random trees of
focusable, unfocusable, disabled and hidden widgets."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.css.query import DOMQuery
from textual.screen import Screen
from textual.widget import Widget

from termsolitaire import textual_hooks
from termsolitaire.app import SolitaireApp

assert textual_hooks.auto_focus_without_query()


@contextlib.contextmanager
def textuals_focus(on: bool) -> Iterator[None]:
    """Textual's own ``_update_auto_focus`` meanwhile when ``on``."""
    ours = Screen.__dict__["_update_auto_focus"]
    if on:
        Screen._update_auto_focus = textual_hooks.dom.textuals_update_auto_focus  # type: ignore[method-assign]
    try:
        yield
    finally:
        Screen._update_auto_focus = ours  # type: ignore[method-assign]


@contextlib.contextmanager
def counting_queries() -> Iterator[list[str]]:
    """The selectors of the CSS queries made meanwhile."""
    asked: list[str] = []
    real = DOMQuery.__init__

    def __init__(self: Any, node: Any, **kwargs: Any) -> None:
        asked.append(str(kwargs.get("filter")))
        real(self, node, **kwargs)

    DOMQuery.__init__ = __init__  # type: ignore[method-assign]
    try:
        yield asked
    finally:
        DOMQuery.__init__ = real  # type: ignore[method-assign]


async def focused_on(make: Any, textuals: bool) -> list[str]:
    """The focused widget of each screen an app shows, by its place in the screen."""
    seen = []
    with textuals_focus(textuals):
        app = make()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for screen in app.screen_stack:
                every = list(screen.walk_children(Widget))
                focused = screen.focused
                seen.append(f"{type(screen).__name__}: {every.index(focused) if focused else None}")
    return seen


async def test_the_menu_and_every_board_focus_what_textual_focuses() -> None:
    makers = [lambda: SolitaireApp(clock=False)] + [
        lambda game=game: SolitaireApp(game, 5, {}, clock=False)
        for game in ("penguin", "spider", "napoleon", "stjernen")
    ]
    for make in makers:
        with counting_queries() as asked:
            ours = await focused_on(make, textuals=False)
        assert "*" not in asked  # found without a query
        assert ours == await focused_on(make, textuals=True)


class Leaf(Widget):
    pass


class Focusable(Widget):
    can_focus = True


tree = st.recursive(
    st.tuples(
        st.sampled_from([Leaf, Focusable]),
        st.sampled_from(["", "disabled", "hidden"]),
        st.just(()),
    ),
    lambda inner: st.tuples(
        st.sampled_from([Leaf, Focusable]),
        st.sampled_from(["", "disabled", "hidden"]),
        st.lists(inner, max_size=3).map(tuple),
    ),
    max_leaves=8,
)


def build(node: Any) -> Widget:
    kind, state, children = node
    widget = kind(*(build(child) for child in children))
    widget.disabled = state == "disabled"
    widget.display = state != "hidden"
    return widget


class Trees(App[None]):
    def __init__(self, trees: list[Any]) -> None:
        super().__init__()
        self.trees = trees

    def compose(self) -> ComposeResult:
        for node in self.trees:
            yield build(node)


@settings(max_examples=25, deadline=None)
@given(trees=st.lists(tree, min_size=1, max_size=3))
def test_random_widgets_get_textuals_first_focus(trees: list[Any]) -> None:
    import asyncio

    def make() -> Trees:
        return Trees(trees)

    ours = asyncio.run(focused_on(make, textuals=False))
    assert ours == asyncio.run(focused_on(make, textuals=True))
