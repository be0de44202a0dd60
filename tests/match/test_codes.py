"""Join codes: short, unambiguous, hard to guess, forgiving to type."""

from __future__ import annotations

import pytest

from termsolitaire.match import BadCode
from termsolitaire.match.codes import ALPHABET, LENGTH, new_code, normalise, show


def test_codes_avoid_look_alike_characters_and_are_random() -> None:
    assert not set("0O1ILU") & set(ALPHABET)
    drawn = {new_code() for _ in range(200)}
    assert len(drawn) == 200
    assert all(len(c) == LENGTH and set(c) <= set(ALPHABET) for c in drawn)
    assert len(ALPHABET) ** LENGTH > 10**11


def test_typing_is_forgiving() -> None:
    assert normalise("7kqm-3xrt") == normalise(" 7KQM 3XRT ") == "7KQM3XRT"
    assert show("7KQM3XRT") == "7KQM-3XRT"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Type the table's code"),
        ("7KQ0-3XRT", r"has 0 \(codes have no 0, O, 1, I, L or U\)"),
        ("7KQM-3X!T", "has !"),
        ("7KQM-3XR", "codes have 8 characters"),
    ],
)
def test_text_that_is_not_a_code_says_why(text: str, message: str) -> None:
    with pytest.raises(BadCode, match=message):
        normalise(text)
