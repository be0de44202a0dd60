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

import contextlib
import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pyte
import pytest

from termsolitaire.rules import new_game

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

START = 60.0
"""Seconds a start may take on a busy machine."""
PICK_UP_LIMIT = 500
"""Bytes for picking up Penguin's 7th column: 267 measured. Textual's own bytes
(no shadow, TERMSOLITAIRE_PLAIN_OUTPUT=1) are 556, whole piles repainted 893."""
MOVE_LIMIT = 450
"""Bytes for the move 7 → 3: 221 measured; 694 with Textual's own bytes, 1,013
with whole piles repainted."""


class Terminal:
    """``termsolitaire`` on an 80x24 pty: the bytes it wrote, and the screen they make."""

    def __init__(self, args: list[str], home: Path) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL_THEME")}
        env.pop("TERMSOLITAIRE_PLAIN_OUTPUT", None)
        env.update(TERM="xterm-256color", TERMSOLITAIRE_HOME=str(home))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "termsolitaire", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.received = 0
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.received += len(chunk)
                self.stream.feed(chunk)

    def text(self) -> str:
        with self.lock:
            return "\n".join(self.screen.display)

    def wait_for(self, pattern: str, timeout: float = START) -> None:
        end = time.monotonic() + timeout
        while not re.search(pattern, self.text()):
            if self.proc.poll() is not None or time.monotonic() > end:
                raise AssertionError(f"{pattern!r} not on the screen:\n{self.text()}")
            time.sleep(0.02)

    def key(self, key: str, then: str) -> int:
        """Press ``key``; the bytes written until ``then`` is on the screen."""
        with self.lock:
            before = self.received
        os.write(self.master, key.encode())
        self.wait_for(then)
        with self.lock:
            return self.received - before

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        os.close(self.master)


def test_a_card_move_writes_a_few_hundred_bytes(tmp_path: Path) -> None:
    game = new_game("penguin", 5)
    assert game.is_legal("t7-t3")  # the move below, on this deal
    term = Terminal(["penguin", "--deal", "5"], tmp_path)
    try:
        # The start's frames (board, then footer) are all in by the clock's first tick.
        term.wait_for(r"Penguin · deal 5 .* 0:01[\s\S]*Q Quit")
        picked = term.key("7", "Column 7 in hand")
        moved = term.key("3", r"moves 1[\s\S]*Played 9♦ 7")  # one frame: header, piles, status
    finally:
        term.close()
    print(f"pick-up {picked} B, move {moved} B")
    assert picked <= PICK_UP_LIMIT, f"picking up a card wrote {picked} bytes"
    assert moved <= MOVE_LIMIT, f"a card move wrote {moved} bytes"
