"""Card looks: Unicode and ASCII labels, outlines, the four-colour deck."""

from __future__ import annotations

from termsolitaire.rules import Card
from termsolitaire.widgets.cards import BLUE, FACE, GREEN, RED, CardLook


def test_unicode_and_ascii_labels() -> None:
    assert CardLook().label(Card(10, "H")) == "10♥"
    assert CardLook(ascii=True).label(Card(12, "C")) == "QC"


def test_ascii_outlines_use_only_ascii() -> None:
    look = CardLook(width=7, ascii=True)
    rows = [look.edge(Card(1, "S")), look.middle(Card(1, "S")), look.back("top", "3")]
    rows += [look.empty("top"), look.empty("middle", "AD")]
    assert all(row.isascii() and len(row) == 7 for row in rows)


def test_two_and_four_colours() -> None:
    two, four = CardLook(), CardLook(four_colour=True)
    assert two.face_style(Card(1, "D")) == RED and two.face_style(Card(1, "C")) == FACE
    assert four.face_style(Card(1, "D")) == BLUE and four.face_style(Card(1, "C")) == GREEN
