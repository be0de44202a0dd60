"""Issue 33: the compositor does not cut up a widget's line where the widgets in
front already cover all of it (textual_hooks.covered_lines_not_divided); every
frame is Textual's: the pieces of each line, for the menu, the lobby's screens and
every game's board at three sizes, and for random overlapping widgets (layers,
docks, offsets, borders), whole frames and partial updates alike."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.segment import Segment
from textual._compositor import Compositor
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from termsolitaire import textual_hooks
from termsolitaire.app import SolitaireApp

assert textual_hooks.covered_lines_not_divided()


def pieces(chops: Any) -> list[dict[int, list[Segment] | None]]:
    return [
        {cut: None if strip is None else list(strip) for cut, strip in line.items()}
        for line in chops
    ]


@contextlib.contextmanager
def counting_divides() -> Iterator[list[str]]:
    """The lines cut up ("divide") and the widgets drawn ("draw") meanwhile."""
    calls: list[str] = []
    divide, draw = Strip.divide, StylesCache.render_widget

    def counted_divide(self: Strip, cuts: Any) -> Any:
        calls.append("divide")
        return divide(self, cuts)

    def counted_draw(self: Any, widget: Any, crop: Any) -> Any:
        calls.append("draw")
        return draw(self, widget, crop)

    Strip.divide = counted_divide  # type: ignore[method-assign]
    StylesCache.render_widget = counted_draw  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        Strip.divide = divide  # type: ignore[method-assign]
        StylesCache.render_widget = draw  # type: ignore[method-assign]


def compare(app: App[Any]) -> tuple[list[str], list[str]]:
    """Each line's pieces from ours and Textual's, whole and for a band of lines;
    the lines each cut up and the widgets each drew (for the whole)."""
    compositor = app.screen._compositor
    region = Region(0, 0, *app.size)
    band = {y for y in range(app.size.height) if y % 3 == 1}
    counts: list[tuple[list[str], list[str]]] = []
    for rendered in (lambda y: True, band.__contains__):
        with counting_divides() as ours_calls:
            ours = Compositor._render_chops(compositor, region, rendered)
        with counting_divides() as theirs_calls:
            theirs = textual_hooks.drawing.textuals_render_chops(compositor, region, rendered)
        assert pieces(ours) == pieces(theirs)
        counts.append((ours_calls, theirs_calls))
    return counts[0]


async def test_every_board_and_the_menu_are_composed_as_textual_composes() -> None:
    ours: list[str] = []
    theirs: list[str] = []
    for size in ((80, 24), (120, 40), (60, 20)):
        for game in (None, "penguin", "spider", "napoleon", "stjernen"):
            app = SolitaireApp(game, 5 if game else None, {}, clock=False)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                mine, textuals = compare(app)
                ours, theirs = ours + mine, theirs + textuals
    # the lines under other widgets are not cut up, the widgets wholly under others
    # not drawn
    assert ours.count("divide") < 0.8 * theirs.count("divide")
    assert ours.count("draw") < 0.9 * theirs.count("draw")


LAYERS = ("below", "above")


@st.composite
def boxes(draw: Any) -> dict[str, Any]:
    return {
        "width": draw(st.integers(1, 30)),
        "height": draw(st.integers(1, 8)),
        "offset": (draw(st.integers(-3, 20)), draw(st.integers(-2, 8))),
        "layer": draw(st.sampled_from(LAYERS)),
        "dock": draw(st.sampled_from([None, "top", "left", "right", "bottom"])),
        "border": draw(st.booleans()),
        "text": draw(st.text("ab♠é 漢", max_size=40)),
        "background": draw(st.sampled_from(["red", "blue 50%", "transparent"])),
    }


class Overlaps(App[None]):
    CSS = "Screen { layers: below above; }"

    def __init__(self, specs: list[dict[str, Any]]) -> None:
        super().__init__()
        self.specs = specs

    def compose(self) -> ComposeResult:
        for spec in self.specs:
            widget = Static(spec["text"])
            styles = widget.styles
            styles.width, styles.height = spec["width"], spec["height"]
            styles.offset = spec["offset"]
            styles.layer = spec["layer"]
            styles.background = spec["background"]
            if spec["dock"]:
                styles.dock = spec["dock"]
            if spec["border"]:
                styles.border = ("round", "green")
            yield widget


def frame(app: App[Any]) -> list[list[Segment]]:
    """The whole screen as the compositor gives it now."""
    compositor = app.screen._compositor
    return [list(strip) for strip in compositor.render_strips()]


@contextlib.contextmanager
def covered_drawn(drawn: bool) -> Iterator[None]:
    kept = textual_hooks.drawing.COVERED_NOT_DRAWN
    textual_hooks.drawing.COVERED_NOT_DRAWN = not drawn
    try:
        yield
    finally:
        textual_hooks.drawing.COVERED_NOT_DRAWN = kept


async def shown(specs: list[dict[str, Any]], hide: list[int], drawn: bool) -> list[Any]:
    """The frames of the widgets, then with some hidden (what they covered shows),
    then shown again; each compared piece by piece with Textual's on the way."""
    frames = []
    with covered_drawn(drawn):
        app = Overlaps(specs)
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            compare(app)
            frames.append(frame(app))
            widgets = list(app.query(Static))
            for index in hide:
                widgets[index % len(widgets)].display = False
            await pilot.pause()
            compare(app)
            frames.append(frame(app))
            for widget in widgets:
                widget.display = True
            await pilot.pause()
            compare(app)
            frames.append(frame(app))
    return frames


@settings(max_examples=30, deadline=None)
@given(
    specs=st.lists(boxes(), min_size=1, max_size=6),
    hide=st.lists(st.integers(0, 5), max_size=3),
)
def test_overlapping_widgets_are_composed_as_textual_composes(
    specs: list[dict[str, Any]], hide: list[int]
) -> None:
    """Pieces and whole frames as Textual's, also once widgets in front go and come
    back (what a widget not drawn while covered shows when it is uncovered)."""
    ours = asyncio.run(shown(specs, hide, drawn=False))
    assert ours == asyncio.run(shown(specs, hide, drawn=True))
