"""A guard on what a card move costs a player on a slow link (issue 13).

Penguin deal 5 runs in a pseudo-terminal of 80x24 (xterm-256color), as over
SSH; every byte it writes is counted and fed to pyte, a small VT emulator, to
know when the board is up and when the move has been drawn. Picking up a card
and moving it then write a few hundred bytes at most: the cells that changed
(two piles' rows, the labels, the header's figures, the status line). A
return to repainting whole piles writes about a thousand.

The limits are about twice the figures measured here, so that small changes to
what a board shows do not fail this test (the benchmark is bench/run.py, see
docs/performance.md). It times nothing: every wait is for text on the screen,
with a generous deadline for a loaded machine. The solver's verdict is off
(tests/conftest.py), so only the move's own frame is counted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from termsolitaire.rules import new_game
from termsolitaire.testing.terminal import PtyTerminal, app_command

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

START = 60.0
"""Seconds a start may take on a busy machine."""
PICK_UP_LIMIT = 500
"""Bytes for picking up Penguin's 7th column: 267 measured. Textual's own bytes
(no shadow, TERMSOLITAIRE_PLAIN_OUTPUT=1) are 556, whole piles repainted 893."""
MOVE_LIMIT = 450
"""Bytes for the move 7 → 3: 221 measured; 694 with Textual's own bytes, 1,013
with whole piles repainted."""


def key(term: PtyTerminal, key: str, then: str) -> int:
    """Press ``key``; the bytes written until ``then`` is on the screen."""
    before = term.received
    term.send(key)
    term.wait_for(then, since=before, timeout=START)
    return term.received - before


def test_a_card_move_writes_a_few_hundred_bytes(tmp_path: Path) -> None:
    game = new_game("penguin", 5)
    assert game.is_legal("t7-t3")  # the move below, on this deal
    term = PtyTerminal(
        app_command("penguin", "--deal", "5"), env={"TERMSOLITAIRE_HOME": str(tmp_path)}
    )
    try:
        # The start's frames (board, then footer) are all in by the clock's first tick.
        term.wait_for(r"Penguin · deal 5 .* 0:01[\s\S]*Q Quit", timeout=START)
        picked = key(term, "7", "Column 7 in hand")
        moved = key(term, "3", r"moves 1[\s\S]*Played 9♦ 7")  # one frame: header, piles, status
    finally:
        term.close()
    print(f"pick-up {picked} B, move {moved} B")
    assert picked <= PICK_UP_LIMIT, f"picking up a card wrote {picked} bytes"
    assert moved <= MOVE_LIMIT, f"a card move wrote {moved} bytes"
