"""A guard on what a pick-up and a card move cost a player on a slow link (issues 13, 33).

Each board runs in a pseudo-terminal of 80x24 (xterm-256color), as over SSH;
every byte it writes is counted and fed to pyte, a small VT emulator, to know
when the board is up and when a key's frame has been drawn. The goals of
issue 33 are the limits: a pick-up writes at most 150 bytes (one cell marks
each place the card may go, the card in hand is reversed on its top row, the
status line says what is in hand, and "or to an empty cell" where every empty
cell takes it instead of a mark on each), a card move at most 200 (the two
piles' changed rows, the marks going, the header's figures, the status line),
the first move of a game too (the footer's Undo is lit from the start, so the
first move does not light it; one other move is played before the second).

The moves are bench/run.py's (its ``board_move``): a move between two keyed
piles, and another one that leaves it as it is. It times nothing: every wait is
for text on the screen, with a generous deadline for a loaded machine. The
solver's verdict is off (tests/conftest.py), so only the board's own frames are
counted; the verdict's "…" goes out in the move's frame when it is on
(tests/screens/test_solving.py).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from termsolitaire.rules import new_game
from termsolitaire.testing.terminal import PtyTerminal, app_command

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

START = 60.0
"""Seconds a start may take on a busy machine."""
PICK_UP_LIMIT = 150
"""Bytes for a pick-up (issue 33's goal): 79-119 measured. Before issue 33:
150-267; Textual's own bytes 556."""
MOVE_LIMIT = 200
"""Bytes for a card move, a game's first or one under way (issue 33's goal):
128-193 measured. Before issue 33: 168-276 (Penguin's seven cells unmarked, the
footer's Undo lit by the first move); Textual's own bytes 694."""

CURSOR_LIMIT = 70
"""Bytes for a cursor key (issue 33's goal): 29-67 measured here (2026-12-06), each
key pressed just after a clock tick, as a player's usually is: the terminal's
cursor is then at the clock, so the frame starts with an absolute move and full
colours. bench/run.py's 19-53 are the fewest, keys pressed one after another."""

BOARDS = {
    # game: (argv, (move, its keys), (the other move, its keys))
    "penguin": (["--deal", "5"], ("t7-t3", "73"), ("t1-c1", "1q")),
    "spider": (["--deal", "123", "--suits", "2"], ("t1-t10", "10"), ("t4-t9", "49")),
    "napoleon": (["--deal", "1"], ("p3-p8", "cm"), ("p4-p5", "de")),
    "stjernen": (["--deal", "1"], ("o4-o3", "42"), ("o1-f1", "87")),
}


def clock(term: PtyTerminal) -> str:
    """The clock at the end of the header."""
    return term.text().splitlines()[0].split()[-1]


def key(term: PtyTerminal, key: str, then: str, tick: bool = True) -> int:
    """Press ``key`` just after the clock's tick (so that no tick is counted with
    it); the bytes written until ``then`` is on the screen."""
    shown, end = clock(term), time.monotonic() + START
    while tick and clock(term) == shown:  # the tick, a visible effect (as wait_for polls)
        assert time.monotonic() < end, f"the clock stopped at {shown}"
        time.sleep(0.01)
    before = term.received
    term.send(key)
    term.wait_for(then, since=before, timeout=START)
    return term.received - before


@pytest.mark.parametrize("game", list(BOARDS))
def test_a_pick_up_and_a_move_write_what_changed_only(tmp_path: Path, game: str) -> None:
    argv, (move, keys), (other, other_keys) = BOARDS[game]
    variant = {"suits": int(argv[3])} if "--suits" in argv else {}
    rules = new_game(game, int(argv[1]), **variant)
    assert rules.is_legal(move)  # the moves below, on this deal
    rules.play(other)
    assert rules.is_legal(move)  # still, once the other one is played
    term = PtyTerminal(app_command(game, *argv), env={"TERMSOLITAIRE_HOME": str(tmp_path)})
    try:
        # The start's frames (board, then footer) are all in by the clock's first tick
        # (0:01, or 0:02 when a loaded machine kept the app from its timer a second).
        term.wait_for(r"deal .* 0:0[1-9][\s\S]*Q Quit", timeout=START)
        first_pick = key(term, keys[0], " in hand")
        first_move = key(term, keys[1], "Played ")
        key(term, "z", "Took back", tick=False)
        key(term, other_keys[0], " in hand", tick=False)
        key(term, other_keys[1], "Played ", tick=False)
        picked = key(term, keys[0], " in hand")
        moved = key(term, keys[1], "Played ")
    finally:
        term.close()
    print(f"{game}: pick-up {first_pick}, {picked} B; first move {first_move} B, move {moved} B")
    assert max(first_pick, picked) <= PICK_UP_LIMIT, f"a pick-up wrote {first_pick}, {picked} B"
    assert max(first_move, moved) <= MOVE_LIMIT, f"a card move wrote {first_move}, {moved} B"


LABEL = re.compile(r"\[([^\]\s]{1,2})\]")
"""The label of the pile under the cursor: ``[3]``."""


@pytest.mark.parametrize("game", list(BOARDS))
def test_a_cursor_key_writes_what_changed_only(tmp_path: Path, game: str) -> None:
    argv = BOARDS[game][0]
    term = PtyTerminal(app_command(game, *argv), env={"TERMSOLITAIRE_HOME": str(tmp_path)})
    try:
        term.wait_for(r"deal .* 0:0[1-9][\s\S]*Q Quit", timeout=START)
        before = term.received
        term.send("right")  # the cursor shows (on the first pile)
        under = term.wait_for(LABEL.pattern, since=before, timeout=START).group(1)
        written = []
        for arrow in ("right", "left", "right"):
            elsewhere = rf"\[(?!{re.escape(under)}\])[^\]\s]{{1,2}}\]"
            written.append(key(term, arrow, elsewhere))
            found = LABEL.search(term.text())
            assert found is not None
            under = found.group(1)
    finally:
        term.close()
    print(f"{game}: cursor keys {written} B")
    assert max(written) <= CURSOR_LIMIT, f"a cursor key wrote {written} B"
