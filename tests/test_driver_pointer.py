"""The mouse pointer's shape (Kitty's OSC 22) goes to the terminal only when it
changes: Textual sets it at every new screen, the same ``default`` each time,
and each was a write of its own to the pty and a packet of its own over SSH."""

from __future__ import annotations

import signal
import sys
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Textual's Linux driver")


def shape(name: str) -> str:
    return f"\x1b]22;{name}\x07"


async def test_a_shape_the_terminal_has_is_not_sent_again() -> None:
    from textual.drivers.linux_driver import LinuxDriver

    from termsolitaire.terminal.driver import terminal_driver

    class App:
        def refresh(self, **kw: object) -> None:
            pass

    written: list[str] = []

    class Writer:
        def write(self, data: str) -> None:
            written.append(data)

    driver: Any = terminal_driver(LinuxDriver)(App(), size=(40, 8))
    driver._writer_thread = Writer()
    driver._get_terminal_size = lambda: (40, 8)
    try:
        for name in ("default", "default", "pointer", "pointer", "default", "default"):
            driver.write(shape(name))
        driver.write("\x1b[1;1Hx")  # a frame between two screens changes nothing of it
        driver.write(shape("default"))
        assert written.count(shape("default")) == 2
        assert written.count(shape("pointer")) == 1
        assert written.index(shape("pointer")) < written.index(shape("default"), 1)

        driver._continued()  # a SIGCONT: another program may have had the terminal
        driver.write(shape("default"))
        assert written.count(shape("default")) == 3
    finally:
        for sig in (signal.SIGCONT, signal.SIGTSTP):
            driver._loop.remove_signal_handler(sig)
