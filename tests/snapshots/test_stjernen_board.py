"""SVG snapshots of the Stjernen star: fixed deal, fixed sizes, one scenario each.

Each docstring says what to look for. Update a snapshot only after looking at it
(``pytest tests/snapshots/test_stjernen_board.py --snapshot-update``, then open the SVG).
"""

from __future__ import annotations

from typing import Any

import pytest

from termsolitaire.widgets.cards import CardLook
from tests.screens.test_stjernen import MID_KEYS, StjernenApp


def test_stjernen_fresh_80x24(snap_compare: Any) -> None:
    """A star: the empty centre 5 in the middle, the inner ring w (north, cards side by
    side), d (east) and a (west) running down, s (south); the outer ring 8 6 2 4 further
    out, empty foundations 7 9 3 1 (K) in the corners; below, the stock 0 with 60 cards,
    six empty upturned piles x-m and "round 1 of 6 — rows of 6", "stock: 60 cards"."""
    assert snap_compare(StjernenApp(1), terminal_size=(80, 24))


def test_stjernen_fresh_120x40(snap_compare: Any) -> None:
    """The same deal on a big window: cards three rows high and wider, the star spread
    out with gaps between the rings."""
    assert snap_compare(StjernenApp(1), terminal_size=(120, 40))


def test_stjernen_mid_game_80x24(snap_compare: Any) -> None:
    """After two deals and three moves: K♣ on foundation 7 marked "♣ 1st"; 5♣ on o1 (8),
    8♥ on o2 (6), 4♦ on o3 (2); nine cards left in the north fan; the upturned piles
    show the second row, "stock: 48 cards"; the 5♦ of v in hand (reversed),
    its targets 2 and 4 marked ▼2▼ ▼4▼ and the status line lists o3, o4."""
    assert snap_compare(StjernenApp(1), terminal_size=(80, 24), press=MID_KEYS)


def test_stjernen_mid_game_120x40(snap_compare: Any) -> None:
    """The mid-game position and selection of the 80x24 snapshot, on a big window."""
    assert snap_compare(StjernenApp(1), terminal_size=(120, 40), press=MID_KEYS)


def test_stjernen_cursor_80x24(snap_compare: Any) -> None:
    """Cursor mode: the cursor [6] on the east outer position, its card marked >."""
    assert snap_compare(StjernenApp(1), terminal_size=(80, 24), press=["space", "right", "right"])


def test_stjernen_too_small(snap_compare: Any) -> None:
    """A 68x20 window: only the message asking to enlarge the window to 70x22."""
    assert snap_compare(StjernenApp(1), terminal_size=(68, 20))


def test_stjernen_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1, mid-game: no colours; the suits differ by glyph, the card in hand is
    reversed and the targets' keys marked ▼2▼ ▼4▼."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(StjernenApp(1), terminal_size=(80, 24), press=MID_KEYS)


def test_stjernen_ascii(snap_compare: Any) -> None:
    """--ascii, mid-game: suits as S H D C, outlines of + - |, the stock's back of #,
    the foundation badge "C 1st", target keys marked v2v v4v."""
    app = StjernenApp(1, look=CardLook(ascii=True))
    assert snap_compare(app, terminal_size=(80, 24), press=MID_KEYS)


def test_stjernen_foundations_runs(snap_compare: Any) -> None:
    """Round 6, one card from the win: foundations 7 9 3 full and marked "♠ ✓",
    "♥ ✓", "♦ ✓" (their top card an A), foundation 1 showing 2♣ and "♣ 2nd";
    the last A♣ on 8; "round 6 of 6 — rows of 1", "stock empty, last round"; the
    empty stock shows no o (no collect left)."""
    from termsolitaire.rules import from_text
    from tests.screens.test_stjernen import _nearly_won

    async def setup(pilot: Any) -> None:
        pilot.app.screen.start(from_text(_nearly_won()))
        await pilot.pause()

    assert snap_compare(StjernenApp(1), terminal_size=(80, 24), run_before=setup)
