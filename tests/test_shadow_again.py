"""A frame written again as it was costs nothing, and the shortcut that says so
(``Shadow.again``) answers what the whole comparison would have."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.terminal import Shadow

from .test_terminal import frames


@given(st.data(), st.integers(5, 24), st.integers(2, 6))
def test_a_frame_again_sends_what_comparing_it_cell_by_cell_would(
    data: st.DataObject, width: int, height: int
) -> None:
    shadow = Shadow(width, height)
    for _ in range(data.draw(st.integers(1, 3))):
        frame = data.draw(frames(width, height))
        if data.draw(st.booleans()):  # now and then the right half of a wide character
            y, x = data.draw(st.integers(0, height - 1)), data.draw(st.integers(1, width - 1))
            frame = f"\x1b[{y + 1};{x + 1}H中" + frame
        shadow.frame(frame)
        compared = copy.deepcopy(shadow)
        compared.again = None  # no shortcut: every cell compared
        assert shadow.frame(frame) == compared.frame(frame)
        assert (shadow.rows, shadow.at, shadow.pen) == (compared.rows, compared.at, compared.pen)


def test_a_whole_screen_again_is_not_parsed_again() -> None:
    shadow = Shadow(20, 2)
    frame = "\x1b[1;1Hscore 3\n\x1b[2;1Hmoves 1\x1b[1;1H"
    assert shadow.frame(frame)
    assert shadow.again == frame
    assert shadow.frame(frame) == ""
    shadow.forget()
    assert shadow.again is None
    assert shadow.frame(frame)
