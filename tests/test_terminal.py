"""The shadow screen: the terminal shows the same with its bytes as with Textual's.

Each frame is fed, as Textual wrote it and as the shadow rewrote it, to a
terminal emulator (pyte); the two screens must show the same characters in
the same colours and attributes after every frame (a blank's foreground and
boldness do not show, so they may differ).
"""

from __future__ import annotations

import copy

import pyte
import pytest
from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.terminal import DEFAULT, NotAFrame, Pen, Shadow, parse_sgr, sgr
from termsolitaire.terminal import shadow as shadow_module

STYLES = [None, "31", "1;31;107", "30;107", "38;5;214;49", "7", "4;32", "2", "1;2;34", "9;41"]
TEXT = st.one_of(
    st.text(alphabet=" ab─♠▒", min_size=1, max_size=8), st.just(" " * 7), st.just(" " * 13)
)


def segment(text: str, style: str | None) -> str:
    return text if style is None else f"\x1b[{style}m{text}\x1b[0m"


@st.composite
def frames(draw, width: int, height: int) -> str:
    """A frame as Textual writes one: line chunks, each a cursor move and styled
    segments, a line break between lines, the cursor put back at the end."""
    lines = []
    for y in sorted(draw(st.sets(st.integers(0, height - 1), min_size=1, max_size=height))):
        chunks = []
        x = draw(st.integers(0, width - 1))
        while x < width and draw(st.booleans()):
            start, parts = x, []
            for _ in range(draw(st.integers(1, 3))):
                text = draw(TEXT)[: width - x]
                if not text:
                    break
                parts.append(segment(text, draw(st.sampled_from(STYLES))))
                x += len(text)
            chunks.append(f"\x1b[{y + 1};{start + 1}H" + "".join(parts))
            x += draw(st.integers(0, 3))
        if chunks:
            lines.append("".join(chunks))
    if not lines:
        lines.append(f"\x1b[{height};1H" + segment("x", None))
    cx, cy = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
    return "\n".join(lines) + f"\x1b[{cy + 1};{cx + 1}H"


def seen(screen: pyte.Screen) -> list[list[tuple[object, ...]]]:
    """Each cell as the eye sees it."""
    out = []
    for y in range(screen.lines):
        row = []
        for x in range(screen.columns):
            c = screen.buffer[y][x]
            if c.data == " " and not (c.underscore or c.reverse or c.strikethrough):
                row.append(("blank", c.bg))
            else:
                row.append((c.data, c.fg, c.bg, c.bold, c.underscore, c.reverse, c.strikethrough))
        out.append(row)
    return out


def emulator(width: int, height: int) -> tuple[pyte.Screen, pyte.Stream]:
    screen = pyte.Screen(width, height)
    stream = pyte.Stream(screen)
    stream.feed("\x1b[?7l")  # Textual turns autowrap off
    return screen, stream


@given(st.data(), st.integers(5, 24), st.integers(2, 6))
def test_the_terminal_shows_what_textual_drew(data, width: int, height: int) -> None:
    shadow = Shadow(width, height)
    textual, textual_stream = emulator(width, height)
    ours, our_stream = emulator(width, height)
    for _ in range(data.draw(st.integers(1, 5))):
        frame = data.draw(frames(width, height))
        textual_stream.feed(frame)
        our_stream.feed(shadow.frame(frame))
        assert seen(ours) == seen(textual), repr(frame)
        if (textual.cursor.x, textual.cursor.y) != (0, 0):  # (0, 0): parked, hidden
            assert (ours.cursor.x, ours.cursor.y) == (textual.cursor.x, textual.cursor.y)


def test_an_unchanged_frame_costs_nothing_and_one_cell_costs_a_few_bytes() -> None:
    shadow = Shadow(80, 24)
    row = "\x1b[13;44H\x1b[31;107m┌9♦─┐\x1b[0m\x1b[13;49H\x1b[1;1H"
    assert len(shadow.frame(row)) > 10
    assert shadow.frame(row) == ""
    assert shadow.frame(row.replace("9", "8")) == "\x1b[4D8"


def test_a_line_that_gets_shorter_is_cleared_with_one_erase() -> None:
    shadow = Shadow(40, 2)
    line = "\x1b[2;1H\x1b[33m{}\x1b[0m\x1b[1;1H"
    shadow.frame(line.format("Column 7 in hand: it may go to 3".ljust(40)))
    out = shadow.frame(line.format("Played 7→3".ljust(40)))
    assert out.endswith("\x1b[K") and len(out.encode()) < 40


def test_blanks_amid_a_line_are_erased_with_one_ech() -> None:
    """The status line gets shorter while the verdict at its right stays: the
    spaces between them go out as one ECH, and the screen is the same."""
    shadow = Shadow(60, 1)
    line = "\x1b[1;1H\x1b[33m{}\x1b[0m\x1b[1;51H\x1b[90mwinnable\x1b[0m\x1b[1;1H"
    textual, textual_stream = emulator(60, 1)
    ours, our_stream = emulator(60, 1)
    for status in ("Column 7 in hand: it may go to q, w, e", "Played 7→3"):
        frame = line.format(status.ljust(50))
        textual_stream.feed(frame)
        out = shadow.frame(frame)
        our_stream.feed(out)
        assert seen(ours) == seen(textual)
    assert "X" in out and len(out.encode()) < 30, repr(out)


def test_a_frame_it_does_not_understand_is_forgotten_not_garbled() -> None:
    shadow = Shadow(10, 2)
    shadow.frame("\x1b[1;1Habc\x1b[1;1H")
    with pytest.raises(NotAFrame):
        shadow.frame("\x1b[1;1H\x1b]8;;http://x\x1b\\abc\x1b]8;;\x1b\\")
    # Everything is unknown now: the same cells are sent again in full.
    assert shadow.frame("\x1b[1;1Habc\x1b[1;1H") == "\x1b[H\x1b[mabc"


def test_a_wide_character_is_sent_whole_and_its_broken_half_is_forgotten() -> None:
    shadow = Shadow(10, 1)
    shadow.frame("\x1b[1;1Hab中d\x1b[1;1H")
    assert shadow.frame("\x1b[1;1Hab中d\x1b[1;1H") == ""
    out = shadow.frame("\x1b[1;1Habc d\x1b[1;1H")  # a narrow c over its left half
    assert "c " in out
    # The right half is unknown now: it is written again next time.
    assert shadow.frame("\x1b[1;1Habc d\x1b[1;1H") == ""


def test_pens_change_only_what_differs() -> None:
    red = parse_sgr("31;107", DEFAULT)
    black = parse_sgr("30;107", DEFAULT)
    assert red == Pen(fg="31", bg="107")
    assert sgr(red, black) == "\x1b[30m"
    assert sgr(black, DEFAULT) == "\x1b[m"
    bold_dim = parse_sgr("1;2", DEFAULT)
    assert sgr(bold_dim, parse_sgr("1", DEFAULT)) == "\x1b[0;1m"  # shorter than 22;1


def _cheapest_next_order(shadow: Shadow, frame: str) -> str:
    """What a copy of ``shadow`` writes for ``frame`` ordering by the cheapest next
    run alone (no run tried first); ``shadow`` itself is left as it was."""
    greedy = copy.deepcopy(shadow)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(shadow_module, "TRY_FIRST", 0)
        return greedy.frame(frame)


@given(st.data(), st.integers(5, 24), st.integers(2, 6))
def test_a_frame_is_never_longer_than_the_cheapest_next_order(
    data, width: int, height: int
) -> None:
    """Trying each run first (a key's frame) keeps the shortest writing: never
    more bytes than ordering by the cheapest next run alone, for the same screen."""
    shadow = Shadow(width, height)
    for _ in range(data.draw(st.integers(1, 4))):
        frame = data.draw(frames(width, height))
        greedy_out = _cheapest_next_order(shadow, frame)
        out = shadow.frame(frame)
        assert len(out.encode()) <= len(greedy_out.encode())


def test_where_the_cursor_is_parked_counts_in_the_order_chosen() -> None:
    """Found by the property above: writing row 2 first saved two bytes but ended
    far from where the frame parks the cursor, which then cost three more."""
    shadow = Shadow(10, 4)
    shadow.frame("\x1b[1;1H" + " " * 10 + "\x1b[1;1H")
    frame = "\x1b[2;2H\x1b[1;31;107m       \x1b[0m\n\x1b[3;10H\x1b[7m \x1b[0m\x1b[2;1H"
    greedy_out = _cheapest_next_order(shadow, frame)
    assert len(shadow.frame(frame).encode()) <= len(greedy_out.encode())
