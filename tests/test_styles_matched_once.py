"""Issue 33: the rules a node matches are found once per process for each place a
node can be in (textual_hooks.SharedStylesheet.apply), and give exactly the styles
Textual's own stylesheet gives: for any CSS, any tree of widgets, whatever their
classes, ids, focus, hover and disabled states, after those change, after the
theme changes and after more CSS is read."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypeVar

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget

from termsolitaire import textual_hooks
from termsolitaire.textual_hooks import SharedStylesheet

T = TypeVar("T")


class Alpha(Widget):
    can_focus = True


class Beta(Alpha):  # matched by Alpha's rules too
    pass


class Gamma(Widget):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"gamma--part"}


KINDS = (Alpha, Beta, Gamma, Widget)
CLASSES = ("x", "y")
IDS = ("one", "two")
PSEUDO = ("focus", "hover", "disabled", "dark", "light", "can-focus", "blur", "first-child")
DECLARATIONS = (
    "color: red;",
    "color: blue;",
    "color: initial;",
    "background: green;",
    "background: $primary;",
    "width: 3;",
    "width: 50%;",
    "height: 2;",
    "text-style: bold;",
    "padding: 1 2;",
    "border: solid red;",
    "visibility: hidden;",
    "opacity: 50%;",
)

simple = st.one_of(
    st.sampled_from(["Alpha", "Beta", "Gamma", "Widget", "Screen", "*"]),
    st.sampled_from(CLASSES).map(lambda c: f".{c}"),
    st.sampled_from(IDS).map(lambda i: f"#{i}"),
)
compound = st.tuples(
    simple,
    st.lists(st.sampled_from(CLASSES).map(lambda c: f".{c}"), max_size=1),
    st.lists(st.sampled_from(PSEUDO).map(lambda p: f":{p}"), max_size=1),
).map(lambda t: t[0] + "".join(t[1]) + "".join(t[2]))
selector = st.lists(st.tuples(st.sampled_from([" ", " > "]), compound), min_size=1, max_size=3).map(
    lambda parts: "".join(c + s for c, s in parts).lstrip(" >")
)
rule = st.tuples(
    st.lists(selector, min_size=1, max_size=2),
    st.lists(st.sampled_from(DECLARATIONS), min_size=1, max_size=3),
).map(lambda r: f"{', '.join(r[0])} {{ {' '.join(r[1])} }}")
css = st.lists(rule, min_size=1, max_size=8).map("\n".join)


@st.composite
def trees(draw: Any, depth: int = 0) -> Any:
    """(kind, id, classes, children) nested."""
    kind = draw(st.sampled_from(KINDS))
    ident = draw(st.one_of(st.none(), st.sampled_from(IDS)))
    classes = draw(st.lists(st.sampled_from(CLASSES), max_size=2, unique=True))
    children = [] if depth >= 2 else draw(st.lists(trees(depth + 1), max_size=3))
    return kind, ident, classes, children


def build(tree: Any, used: set[str]) -> Widget:
    kind, ident, classes, children = tree
    if ident in used:
        ident = None  # ids are unique among a widget's siblings
    if ident is not None:
        used.add(ident)
    return kind(*(build(c, used) for c in children), id=ident, classes=" ".join(classes))


changes = st.lists(
    st.tuples(
        st.sampled_from(["class", "disable", "focus", "hover", "theme"]),
        st.integers(0, 12),
        st.sampled_from(CLASSES),
    ),
    max_size=6,
)


def what_is_set(node: Any) -> tuple[Any, ...]:
    """A node's styles from its stylesheet, its components', and Textual's flags."""
    components = {name: styles.base.get_rules() for name, styles in node._component_styles.items()}
    flags = (
        node._has_hover_style,
        node._has_focus_within,
        node._has_order_style,
        node._has_odd_or_even,
    )
    return node.styles.base.get_rules(), components, flags


def add_app_sources(sheet: Stylesheet, app: App[Any]) -> None:
    """Every source of ``app``'s stylesheet added to ``sheet``, as the app read it."""
    for read_from, (text, is_default, tie_breaker, scope) in app.stylesheet.source.items():
        sheet.add_source(
            text,
            read_from=read_from,
            is_default_css=is_default,
            tie_breaker=tie_breaker,
            scope=scope,
        )


def restyle_as_textual(app: App[Any], nodes: list[Any]) -> None:
    """Style ``nodes`` again through Textual's own stylesheet, made from ``app``'s
    variables and sources (parsed as it is first read)."""
    theirs = Stylesheet(variables=app.get_css_variables())
    add_app_sources(theirs, app)
    for node in nodes:
        theirs.apply(node)


def both_apply(app: App[Any], sources: list[tuple[str, str]]) -> None:
    """Each node styled by Textual's stylesheet and by the shared one, twice (the
    second time from what the first found): the same."""
    variables = app.get_css_variables()
    theirs = Stylesheet(variables=variables)
    ours = SharedStylesheet(variables=variables)
    for sheet in (theirs, ours):
        add_app_sources(sheet, app)
        for name, text in sources:
            sheet.add_source(text, read_from=(name, ""))
        sheet.parse()
    nodes = list(app.screen.walk_children(with_self=True))
    for node in nodes:
        theirs.apply(node)
    expected = [what_is_set(node) for node in nodes]
    for _ in range(2):
        for node in nodes:
            ours.apply(node)
        assert [what_is_set(node) for node in nodes] == expected


@settings(max_examples=40, deadline=None)
@given(tree=trees(), first=css, second=css, steps=changes)
@example(  # a pseudo-class of the node above: hovered, then not
    tree=(Alpha, None, ["x"], [(Beta, None, [], [])]),
    first=".x:hover Beta { color: red; }",
    second="Beta:focus { width: 3; }",
    steps=[("hover", 0, "x"), ("hover", 0, "x")],
)
@example(  # two of a kind but for their ids, one named by the CSS
    tree=(Widget, None, [], [(Alpha, "one", [], []), (Alpha, "two", [], [])]),
    first="#one { color: red; }",
    second="Widget > #two { width: 3; }",
    steps=[],
)
@example(  # focused, then not
    tree=(Alpha, None, ["x"], [(Beta, None, [], [])]),
    first=".x:focus > Beta { color: red; }",
    second="Alpha:blur Beta { width: 3; }",
    steps=[("focus", 0, "x"), ("focus", 1, "x")],
)
def test_the_styles_a_node_is_given_are_textuals(
    tree: Any, first: str, second: str, steps: list[tuple[str, int, str]]
) -> None:
    async def run() -> None:
        app: App[Any] = App()
        async with app.run_test(size=(40, 12)):
            await app.screen.mount(build(tree, set()))
            widgets = [w for w in app.screen.walk_children() if isinstance(w, Widget)]
            both_apply(app, [("first", first)])
            for what, index, name in steps:
                widget = widgets[index % len(widgets)] if widgets else app.screen
                if what == "class":
                    widget.toggle_class(name)
                elif what == "disable":
                    widget.disabled = not widget.disabled
                elif what == "focus":
                    app.set_focus(widget if widget.can_focus else None)
                elif what == "hover":
                    widget.mouse_hover = not widget.mouse_hover
                else:
                    app.theme = "textual-light" if app.theme != "textual-light" else "nord"
                both_apply(app, [("first", first)])
            both_apply(app, [("first", first), ("second", second)])

    asyncio.run(run())


async def test_a_second_board_is_styled_from_what_the_first_found_as_textual_would() -> None:
    """The second app of a process (a forked session after the warm process's
    rehearsal) finds every rule its nodes match already known, and its nodes have
    the styles Textual's own stylesheet gives them."""
    from termsolitaire.app import SolitaireApp

    for _ in range(2):
        app = SolitaireApp("penguin", 5, {}, clock=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            known = len(textual_hooks.stylesheet._MATCHED)
            nodes = list(app.screen.walk_children(with_self=True))
            found = [what_is_set(node) for node in nodes]
            restyle_as_textual(app, nodes)
            assert [what_is_set(node) for node in nodes] == found
    assert len(textual_hooks.stylesheet._MATCHED) == known  # the second found nothing new


FRESH_DECLARATIONS = (
    *DECLARATIONS,
    "display: none;",  # the parent's list of shown children
    "overflow-y: auto;",  # the scrollbars
    "overflow-x: scroll;",
    "scrollbar-color: red;",
    "pointer: pointer;",
    "border: none;",  # stored as ""
    "height: 40%;",  # stored in h
    "layout: horizontal;",
    "grid-columns: 1fr 50%;",
)
# No pseudo-class that reads the node's siblings: Textual styles such a node its
# own way (and at its mount by its place then, not as it ends up: not ours to test).
fresh_compound = st.tuples(
    simple,
    st.lists(st.sampled_from(CLASSES).map(lambda c: f".{c}"), max_size=1),
    st.lists(st.sampled_from(PSEUDO[:-1]).map(lambda p: f":{p}"), max_size=1),
).map(lambda t: t[0] + "".join(t[1]) + "".join(t[2]))
fresh_selector = st.lists(
    st.tuples(st.sampled_from([" ", " > "]), fresh_compound), min_size=1, max_size=3
).map(lambda parts: "".join(c + s for c, s in parts).lstrip(" >"))
fresh_rule = st.tuples(
    st.lists(fresh_selector, min_size=1, max_size=2),
    st.lists(st.sampled_from(FRESH_DECLARATIONS), min_size=1, max_size=4),
).map(lambda r: f"{', '.join(r[0])} {{ {' '.join(r[1])} }}")


def comparable(node: Any) -> Any:
    """:func:`what_is_set`, a node's layout and its parts' by their names (each
    node has its own)."""
    rules, components, flags = what_is_set(node)
    for styles in (rules, *components.values()):
        if "layout" in styles:
            styles["layout"] = styles["layout"].name
    return rules, components, flags


def what_shows(node: Any) -> tuple[Any, ...]:
    """What a player sees of a node's styles: whether it shows, its overflow, its place."""
    return node.display, node.styles.overflow_y, getattr(node, "region", None)


@contextlib.contextmanager
def counting_set_fresh() -> Iterator[list[bool]]:
    """What textual_hooks.stylesheet.set_fresh answers meanwhile, in order."""
    calls: list[bool] = []
    real = textual_hooks.stylesheet.set_fresh

    def counting(node: Any, rules: Any) -> bool:
        done = real(node, rules)
        calls.append(done)
        return done

    textual_hooks.stylesheet.set_fresh = counting
    try:
        yield calls
    finally:
        textual_hooks.stylesheet.set_fresh = real


async def settled(pilot: Any, read: Callable[[], T]) -> T:
    """``read()`` once the layout has settled: the same at two pauses in a row (a
    pause ends when the app looks idle, which on a loaded machine may come before
    the layout a mount asked for is done)."""
    before = read()
    for _ in range(50):
        await pilot.pause()
        now = read()
        if now == before:
            return now
        before = now
    return before


class FreshApp(App[None]):
    def __init__(self, css: str) -> None:
        super().__init__()
        self.stylesheet = textual_hooks.shared_stylesheet(self.stylesheet)
        self.stylesheet.add_source(css, read_from=("fresh", ""))


@settings(max_examples=20, deadline=None)
@given(tree=trees(), rules=st.lists(fresh_rule, min_size=1, max_size=8).map("\n".join))
def test_a_fresh_node_set_at_once_has_the_styles_textual_gives(tree: Any, rules: str) -> None:
    """A node styled as it is mounted, at a place already found, has its rules set
    at once (textual_hooks.stylesheet.set_fresh), not one by one through Textual's descriptors:
    its styles, what its descriptors convert (a border "none", a height in %), and
    what they do beside (display, overflow, scrollbar colours, pointer) are those
    Textual's own stylesheet gives, and what a player sees is the same."""

    async def run() -> None:
        app = FreshApp(rules)
        async with app.run_test(size=(40, 12)) as pilot:
            first = build(tree, set())
            await app.screen.mount(Widget(first))  # ids are unique among siblings
            await pilot.pause()
            second = build(tree, set())
            with counting_set_fresh() as calls:
                await app.screen.mount(Widget(second))  # the same places: set at once
                await pilot.pause()
            assert any(calls)
            nodes = list(second.walk_children(with_self=True))
            found = [comparable(node) for node in nodes]
            shown = await settled(pilot, lambda: [what_shows(node) for node in nodes])
            again = [comparable(node) for node in first.walk_children(with_self=True)]
            assert found == again  # the same place, the same styles
            restyle_as_textual(app, nodes)
            assert [comparable(node) for node in nodes] == found
            assert await settled(pilot, lambda: [what_shows(node) for node in nodes]) == shown

    asyncio.run(run())


async def test_a_second_board_sets_most_of_its_rules_at_once() -> None:
    """The second board of a process (a forked session's) sets its nodes' rules
    through textual_hooks.stylesheet.set_fresh, and they are what Textual's stylesheet gives."""
    from termsolitaire.app import SolitaireApp

    for _ in range(2):
        app = SolitaireApp("penguin", 5, {}, clock=False)
        with counting_set_fresh() as calls:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                nodes = list(app.screen.walk_children(with_self=True))
                found = [comparable(node) for node in nodes]
                restyle_as_textual(app, nodes)
                assert [comparable(node) for node in nodes] == found
    assert sum(calls) > len(calls) // 2


def parsed(sheet: Stylesheet) -> list[tuple[Any, ...]]:
    """A stylesheet's rule sets: their selectors, styles and kind."""
    return [
        (r.selector_set, r.styles.get_rules(), r.is_default_rules, r.tie_breaker)
        for r in sheet.rules
    ]


@settings(max_examples=30, deadline=None)
@given(
    sources=st.lists(
        st.tuples(st.sampled_from(["a", "b", "c"]), st.lists(rule, min_size=1, max_size=3)),
        min_size=1,
        max_size=4,
    ),
    themes=st.lists(st.sampled_from(["textual-dark", "textual-light", "nord"]), max_size=3),
)
def test_a_stylesheet_read_again_has_textuals_rules(
    sources: list[tuple[str, list[str]]], themes: list[str]
) -> None:
    """What a whole stylesheet parses to is kept by its variables and all its sources
    (SharedStylesheet.parse, reparse): any sources read in any order, with any
    theme, read again or after another theme, give the rule sets Textual's own
    stylesheet gives."""
    app: App[Any] = App()
    for theme in ["textual-dark", *themes]:
        app.theme = theme
        variables = app.get_css_variables()
        for _ in range(2):
            theirs = Stylesheet(variables=variables)
            ours = SharedStylesheet(variables=variables)
            for sheet in (theirs, ours):
                for name, texts in sources:
                    sheet.add_source("\n".join(texts), read_from=(name, ""))
                sheet.parse()
            assert parsed(ours) == parsed(theirs)
            assert ours.rules_map.keys() == theirs.rules_map.keys()
            ours.set_variables(app.get_css_variables())
            theirs.set_variables(app.get_css_variables())
            ours.reparse()
            theirs.reparse()
            assert parsed(ours) == parsed(theirs)


def test_a_themes_values_are_made_tokens_once_for_every_stylesheet() -> None:
    """A stylesheet read with the variables another has read (the fresh one a
    ``reparse`` reads the sources on, a second app's) substitutes the tokens that
    one made, the same as Textual's; other variables (another theme) their own."""
    from textual.css.tokenize import tokenize_values

    app: App[Any] = App()
    variables = app.get_css_variables()
    first = SharedStylesheet(variables=variables)._variable_tokens
    assert SharedStylesheet(variables=dict(variables))._variable_tokens is first
    assert first == tokenize_values(variables) == Stylesheet(variables=variables)._variable_tokens
    app.theme = "nord"
    other = SharedStylesheet(variables=app.get_css_variables())._variable_tokens
    assert other is not first and other == tokenize_values(app.get_css_variables())


async def test_a_second_app_with_the_same_css_does_not_parse_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forked session's app reads the same CSS as the warm process's rehearsal:
    it takes the rule sets the first app made (the same objects), parsing nothing."""
    from textual.css import stylesheet as textual_stylesheet

    from termsolitaire.app import SolitaireApp

    sheets = []
    parsed: list[str] = []
    textual_parse = textual_stylesheet.parse  # type: ignore[attr-defined]

    def counted(*args: Any, **kw: Any) -> Any:
        parsed.append(args[1][:20])
        return textual_parse(*args, **kw)

    for attempt in range(2):
        app = SolitaireApp("penguin", 5, {}, clock=False)
        if attempt:
            monkeypatch.setattr(textual_stylesheet, "parse", counted)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            sheets.append(app.stylesheet.rules)
    assert parsed == []
    assert sheets[0] is sheets[1]
