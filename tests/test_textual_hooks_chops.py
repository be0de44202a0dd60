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
def counting_divides() -> Iterator[list[int]]:
    calls: list[int] = []
    real = Strip.divide

    def divide(self: Strip, cuts: Any) -> Any:
        calls.append(1)
        return real(self, cuts)

    Strip.divide = divide  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        Strip.divide = real  # type: ignore[method-assign]


def compare(app: App[Any]) -> tuple[int, int]:
    """Each line's pieces from ours and Textual's, whole and for a band of lines;
    the lines each cut up."""
    compositor = app.screen._compositor
    region = Region(0, 0, *app.size)
    band = {y for y in range(app.size.height) if y % 3 == 1}
    counts = []
    for rendered in (lambda y: True, band.__contains__):
        with counting_divides() as ours_calls:
            ours = Compositor._render_chops(compositor, region, rendered)
        with counting_divides() as theirs_calls:
            theirs = textual_hooks.textuals_render_chops(compositor, region, rendered)
        assert pieces(ours) == pieces(theirs)
        counts.append((len(ours_calls), len(theirs_calls)))
    return counts[0]


async def test_every_board_and_the_menu_are_composed_as_textual_composes() -> None:
    cut = textuals_cut = 0
    for size in ((80, 24), (120, 40), (60, 20)):
        for game in (None, "penguin", "spider", "napoleon", "stjernen"):
            app = SolitaireApp(game, 5 if game else None, {}, clock=False)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                ours, theirs = compare(app)
                cut, textuals_cut = cut + ours, textuals_cut + theirs
    assert cut < 0.8 * textuals_cut  # the lines under other widgets are not cut


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


@settings(max_examples=30, deadline=None)
@given(specs=st.lists(boxes(), min_size=1, max_size=6))
def test_overlapping_widgets_are_composed_as_textual_composes(specs: list[dict[str, Any]]) -> None:
    async def run() -> None:
        app = Overlaps(specs)
        async with app.run_test(size=(40, 12)) as pilot:
            await pilot.pause()
            compare(app)

    asyncio.run(run())
