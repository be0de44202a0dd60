"""Issue 33: a node styled again (a class added, focus, a screen's CSS read) leaves
alone the rules whose stored value is already what Textual's descriptor would
store (textual_hooks.restyle); every rule, what a player sees, and which nodes ask
to be repainted or laid out are Textual's: for random CSS, trees and changes, with
and without animation, and on every node of the login path."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.css.styles import Styles
from textual.widget import Widget

from termsolitaire import textual_hooks

from .login_path import at_the_board, nodes
from .test_styles_matched_once import (
    CLASSES,
    FreshApp,
    build,
    comparable,
    fresh_rule,
    trees,
    what_shows,
)


@contextlib.contextmanager
def restyling(on: bool) -> Iterator[None]:
    kept = textual_hooks.stylesheet.RESTYLE_UNCHANGED
    textual_hooks.stylesheet.RESTYLE_UNCHANGED = on
    try:
        yield
    finally:
        textual_hooks.stylesheet.RESTYLE_UNCHANGED = kept


@contextlib.contextmanager
def counting_sets() -> Iterator[list[str]]:
    """The rules set through Textual's descriptors meanwhile (``Styles.set_rule``)."""
    names: list[str] = []
    real = Styles.set_rule

    def set_rule(self: Any, rule: str, value: object) -> bool:
        names.append(rule)
        return real(self, rule, value)

    Styles.set_rule = set_rule  # type: ignore[method-assign]
    try:
        yield names
    finally:
        Styles.set_rule = real  # type: ignore[method-assign]


def asked(node: Any) -> tuple[bool, bool]:
    """Whether ``node`` has asked to be repainted, laid out."""
    return bool(getattr(node, "_repaint_required", False)), bool(
        getattr(node, "_layout_required", False)
    )


def forget_asked(every: list[Any]) -> None:
    """Nothing asked yet (what a restyle then asks does not hang on the timing of the
    repaints before it)."""
    for node in every:
        node._repaint_required = node._layout_required = False


async def play(tree: Any, rules: str, steps: list[tuple[int, str, bool]], on: bool) -> list[Any]:
    """What each node has and shows after each change, and what a restyle with
    nothing changed asks of it, with ``restyle`` on or off."""
    seen: list[Any] = []
    with restyling(on):
        app = FreshApp(rules)
        async with app.run_test(size=(40, 12)) as pilot:
            root = build(tree, set())
            await app.screen.mount(Widget(root))
            await pilot.pause()
            every = list(root.walk_children(with_self=True))
            for index, name, animate in steps:
                node = every[index % len(every)]
                node.toggle_class(name)  # Textual restyles it and what is under it
                forget_asked(every)
                app.stylesheet.update_nodes(node.walk_children(with_self=True), animate=animate)
                seen.append([(comparable(n), asked(n)) for n in every])
                await pilot.pause()
                seen.append([(comparable(n), what_shows(n)) for n in every])
            for animate in (False, True):
                forget_asked(every)
                app.stylesheet.update_nodes(every, animate=animate)
                seen.append([(comparable(n), asked(n)) for n in every])
                await pilot.pause()
    return seen


@settings(max_examples=25, deadline=None)
@given(
    tree=trees(),
    rules=st.lists(fresh_rule, min_size=1, max_size=8).map("\n".join),
    steps=st.lists(
        st.tuples(st.integers(0, 12), st.sampled_from(CLASSES), st.booleans()), max_size=5
    ),
)
def test_a_restyle_gives_what_textuals_gives(
    tree: Any, rules: str, steps: list[tuple[int, str, bool]]
) -> None:
    asyncio.run(play(tree, rules, steps, on=True))  # every place found: both alike
    theirs = asyncio.run(play(tree, rules, steps, on=False))
    ours = asyncio.run(play(tree, rules, steps, on=True))
    assert ours == theirs


async def test_the_login_path_styled_again_sets_only_what_its_descriptors_must() -> None:
    """Every node at the board styled again with nothing changed, once with
    ``restyle`` and once with Textual's: the same rules and the same requests to be
    repainted or laid out, and only the rules whose descriptors do more than store
    a value (display, layout, overflow, pointer...) are set again, where Textual
    sets every one."""
    async with at_the_board() as app:
        every = [node for _, node in nodes(app)]
        app.stylesheet.update_nodes(every, animate=False)  # every place as it is now found
        seen = []
        for on in (True, False):
            forget_asked(every)
            with restyling(on), counting_sets() as names:
                app.stylesheet.update_nodes(every, animate=False)
            seen.append(([(comparable(node), asked(node)) for node in every], names))
    (ours, names), (theirs, textuals) = seen
    assert ours == theirs
    assert len(ours) > 50 and sum(len(rules) for (rules, _, _), _ in ours) > 500
    assert all(textual_hooks.stylesheet._plain(name) != 1 for name in names), set(names)
    assert len(textuals) > 5 * max(1, len(names))
