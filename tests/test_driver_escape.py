"""An Escape and the key after it, sent in one read (over SSH, or typed fast),
reach the app as two keys through the terminal driver: Textual's parser alone
makes them one Alt key, and of an Escape and a space, ``#``, ``?``, ``f`` or
``b`` it keeps only the second (``f`` and ``b`` as Ctrl+arrows)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
import tty
from typing import Any

import pytest
from textual._xterm_parser import XTermParser

from termsolitaire.terminal.driver import escape_first

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Textual's Linux driver")

SENT = {
    "\x1b ": ["escape", "space"],
    "\x1b#": ["escape", "number_sign"],
    "\x1b?": ["escape", "question_mark"],
    "\x1bf": ["escape", "f"],
    "\x1bb": ["escape", "b"],
    "\x1b1": ["escape", "1"],
    "\x1bq": ["escape", "q"],
    "\x1b3": ["escape", "3"],
}
"""What a player sent, and the keys they pressed."""

KEPT = [
    "\x1b[A",
    "\x1bOP",
    "\x1b[<0;5;3M",
    "\x1b]11;rgb:0000/0000/0000\x1b\\",
    "\x1bP>|xterm\x1b\\",
]
"""Sequences: an arrow and the mouse (CSI), F1 (SS3), a terminal's answers (OSC,
DCS, each ended by ST)."""


def keys(text: str) -> list[str]:
    parser = XTermParser(False)
    events = [*parser.feed(text), *parser.feed("")]
    return [e.key for e in events if hasattr(e, "key")]


@pytest.mark.parametrize(("sent", "pressed"), SENT.items())
def test_the_escape_goes_alone(sent: str, pressed: list[str]) -> None:
    assert keys(escape_first(sent)) == pressed
    if sent in ("\x1b ", "\x1b#", "\x1b?", "\x1bf"):
        assert keys(sent)[:1] != ["escape"]  # Textual's parser alone loses it


@pytest.mark.parametrize("sent", KEPT)
def test_sequences_stay_whole(sent: str) -> None:
    assert escape_first(sent) == sent


async def test_the_driver_reads_an_escape_and_a_key_in_one_read_as_both() -> None:
    from textual import events
    from textual.drivers.linux_driver import LinuxDriver

    from termsolitaire.terminal.driver import terminal_driver

    received: list[str] = []

    class App:
        def refresh(self, **kw: object) -> None:
            pass

        async def _post_message(self, message: object) -> bool:
            if isinstance(message, events.Key):
                received.append(message.key)
            return True

    master, slave = os.openpty()
    tty.setraw(slave)  # as the driver's application mode has it
    driver: Any = terminal_driver(LinuxDriver)(App(), size=(40, 8))
    driver.fileno = slave
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    want = [k for pressed in SENT.values() for k in pressed]
    try:
        thread.start()
        for sent in SENT:
            os.write(master, sent.encode())  # each pair in one read
            await asyncio.sleep(0.05)  # (a person's pace between the pairs)
        deadline = time.monotonic() + 10
        while received != want:
            assert time.monotonic() < deadline and want[: len(received)] == received, received
            await asyncio.sleep(0.02)
    finally:
        driver.exit_event.set()
        await asyncio.to_thread(thread.join, 5)
        for sig in (signal.SIGCONT, signal.SIGTSTP):
            driver._loop.remove_signal_handler(sig)
        os.close(master)
        os.close(slave)
