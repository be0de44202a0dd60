"""SVG snapshots of the Napoleon circle: deal 1, fixed sizes, one scenario each.

Each docstring says what to look for. Update a snapshot only after looking at it
(``pytest tests/snapshots/test_napoleon_board.py --snapshot-update``, then open the SVG).
"""

from __future__ import annotations

from typing import Any

import pytest

from termsolitaire.widgets.cards import CardLook
from tests.screens.test_napoleon import NapoleonApp

# The first eight moves of the pinned win (p9-f2 p3-p8 p4-p5 p5-p7 p12-p10 p3-p12
# p2-p3 p2-p16), then e: p5's K♥ in hand, and p2 (key b) is empty.
MID = ["n", "f", "c", "m", "d", "e", "e", "i", "q", "o", "c", "q", "b", "c", "b", "u", "e"]


def test_fresh_80x24(snap_compare: Any) -> None:
    """A circle: p1 (key a) straight up from the centre, the others clockwise a b c d
    e g i m n o p q r s t u, each fanned outward, the compass piles five cards long;
    the aces A♠ A♥ A♦ A♣ side by side in the middle under their key f. Header:
    Napoleon · deal 1, score 4/52 (the aces), moves 0, the clock."""
    assert snap_compare(NapoleonApp(), terminal_size=(80, 24))


def test_fresh_120x40(snap_compare: Any) -> None:
    """The same deal on a big window: a wider and taller circle, more space between
    the cards of a pile and between the aces."""
    assert snap_compare(NapoleonApp(), terminal_size=(120, 40))


def test_mid_game_80x24(snap_compare: Any) -> None:
    """After eight moves (2♥ on its foundation, moves 8): p2 (b) is empty, K♥ on
    p5 (e) is in hand (reversed); the empty p2 is the one target, its label ▼b▼ lit;
    the status line says so."""
    assert snap_compare(NapoleonApp(), terminal_size=(80, 24), press=MID)


def test_mid_game_120x40(snap_compare: Any) -> None:
    """The mid-game position and selection of the 80x24 snapshot on a big window."""
    assert snap_compare(NapoleonApp(), terminal_size=(120, 40), press=MID)


def test_move_list_80x24(snap_compare: Any) -> None:
    """M opens the move list on the right: Moves (8), then 1 n→f … 8 b→u (the board's keys); the
    circle narrows to make room and every card stays readable."""
    press = [*MID[:-1], "M"]
    assert snap_compare(NapoleonApp(), terminal_size=(80, 24), press=press)


def test_cursor_80x24(snap_compare: Any) -> None:
    """Cursor mode: up shows the cursor on p1 (label [a]), right moves it to p2 ([b])."""
    assert snap_compare(NapoleonApp(), terminal_size=(80, 24), press=["up", "right"])


def test_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1: no colours; suits told apart by glyph, the card in hand reversed,
    the target's label ▼b▼ bold."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(NapoleonApp(), terminal_size=(80, 24), press=MID)


def test_ascii_cards(snap_compare: Any) -> None:
    """--ascii: cards as 10D KS, the target label vbv, the empty place as ..."""
    app = NapoleonApp(look=CardLook(ascii=True))
    assert snap_compare(app, terminal_size=(80, 24), press=MID)


def test_too_small(snap_compare: Any) -> None:
    """A 62x20 window: only the message asking to enlarge the window to 63x20."""
    assert snap_compare(NapoleonApp(), terminal_size=(62, 20))


def test_free_cards_ascii_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """--ascii with NO_COLOR=1 (no colour, no card faces): the outermost card of
    every position, the one that moves, is underlined (and bold), the cards under
    it are not; the card in hand (K♥ of e) is reversed as before."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = NapoleonApp(look=CardLook(ascii=True))
    assert snap_compare(app, terminal_size=(80, 24), press=MID)
