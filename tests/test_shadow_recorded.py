"""Whole new screens as Textual really draws them, through the shadow.

The frames are bench/shadow_frames.py's, recorded from real sessions on a pty
(the match lobby, the menu and a Penguin board at 80x24 and 120x40). Each is
replayed as Textual wrote it and as the shadow rewrote it through a terminal
emulator: onto a shadow that knows nothing (its rows unknown: every cell of the
frame is sent without comparing it) and one screen over another (a login:
most cells differ). The two screens must show the same after every frame, and
the bytes sent must not grow past what they were when the frames were recorded.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.terminal import Shadow

from .test_terminal import emulator, seen

FRAMES = Path(__file__).parents[1] / "bench" / "shadow_frames.jsonl.gz"
SENT = {(80, 24): 15_514, (120, 40): 25_215}
"""The bytes the shadow sent for a size's screens, each fresh and then one over
another, on 2026-12-04 (before shadow11's changes: the same)."""


def recorded() -> dict[tuple[int, int], list[tuple[str, list[str]]]]:
    by_size: dict[tuple[int, int], list[tuple[str, list[str]]]] = {}
    with gzip.open(FRAMES, "rt", encoding="utf-8") as f:
        for record in map(json.loads, f):
            size = (record["size"][0], record["size"][1])
            by_size.setdefault(size, []).append((record["screen"], record["frames"]))
    return by_size


def replay(shadow: Shadow, frames: list[str], width: int, height: int) -> int:
    """Feed ``frames`` both ways; the bytes the shadow sent."""
    textual, textual_stream = emulator(width, height)
    ours, our_stream = emulator(width, height)
    sent = 0
    for frame in frames:
        textual_stream.feed(frame)
        out = shadow.frame(frame)
        sent += len(out.encode())
        our_stream.feed(out)
        assert seen(ours) == seen(textual)
    return sent


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_real_screens_show_as_textual_drew_them(size: tuple[int, int]) -> None:
    width, height = size
    screens = recorded()[size]
    assert [name for name, _ in screens] == ["lobby", "menu", "board"]
    sent = 0
    for _, frames in screens:  # each onto a shadow that knows nothing
        sent += replay(Shadow(width, height), frames, width, height)
    login = Shadow(width, height)  # one over another, as a login draws them
    sent += replay(login, [f for _, frames in screens for f in frames], width, height)
    assert sent <= SENT[size]


def test_a_forgotten_screen_is_sent_whole_again() -> None:
    """After forget() the rows are unknown: every cell is sent again, even those
    the terminal showed already."""
    width, height = 80, 24
    _, frames = recorded()[(width, height)][2]
    shadow = Shadow(width, height)
    first = shadow.frame(frames[0])
    shadow.forget()
    assert shadow.frame(frames[0]) == first


class CellByCell(Shadow):
    NARROW_RUNS = False


STYLES = ["", "31", "1;31;107", "30;107", "38;5;214;49", "7", "4;32", "2", "9;41", "0;49"]
TEXTS = st.text(alphabet=" ab♠─", min_size=1, max_size=9) | st.sampled_from(
    ["e\u0301", " \u0301", "  x", " " * 14, "日本"]
)


@st.composite
def frames(draw: st.DrawFn, width: int, height: int) -> str:
    """Line chunks of styled segments (combining marks, blanks first, now and then
    a wide character), as Textual writes a frame."""
    out = []
    for y in sorted(draw(st.sets(st.integers(0, height - 1), min_size=1))):
        x = draw(st.integers(0, width - 1))
        segments = [
            f"\x1b[{draw(st.sampled_from(STYLES))}m{draw(TEXTS)}\x1b[0m"
            for _ in range(draw(st.integers(1, 4)))
        ]
        out.append(f"\x1b[{y + 1};{x + 1}H" + "".join(segments))
    return "\n".join(out) + f"\x1b[{draw(st.integers(1, height))};1H"


@given(st.data())
def test_a_pens_cells_at_once_write_what_cell_by_cell_writes(data: st.DataObject) -> None:
    """The fast path for runs of one-cell characters sends the very bytes the
    cell-by-cell path sends, frame after frame (whole new screens and diffs)."""
    width, height = 30, 4
    fast, slow = Shadow(width, height), CellByCell(width, height)
    for _ in range(data.draw(st.integers(1, 6))):
        frame = data.draw(frames(width, height))
        assert fast.frame(frame) == slow.frame(frame), repr(frame)
        assert fast.rows == slow.rows
