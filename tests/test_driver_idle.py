"""The terminal driver's input thread sleeps while nobody types: Textual's own
wakes every 0.1 s for good (10 wake-ups a second of every idle session). A key
wakes it, a lone ESC still becomes the Escape key after Textual's escape delay,
and stopping the driver ends the thread at once."""

from __future__ import annotations

import asyncio
import os
import selectors
import signal
import sys
import threading
import time
import tty
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Textual's Linux driver")


async def test_an_idle_input_thread_sleeps_yet_keys_and_a_stop_come_through(monkeypatch) -> None:
    from textual import events
    from textual.drivers.linux_driver import LinuxDriver

    from termsolitaire.terminal.driver import QUIET, terminal_driver

    received: list[object] = []

    class App:
        def refresh(self, **kw: object) -> None:
            pass

        async def _post_message(self, message: object) -> bool:
            received.append(message)
            return True

    looks: list[float | None] = []
    select = selectors.SelectSelector.select

    def counted(self: selectors.SelectSelector, timeout: float | None = None) -> Any:
        looks.append(timeout)
        return select(self, timeout)

    monkeypatch.setattr(selectors.SelectSelector, "select", counted)
    master, slave = os.openpty()
    tty.setraw(slave)  # as the driver's application mode has it
    driver: Any = terminal_driver(LinuxDriver)(App(), size=(40, 8))
    driver.fileno = slave
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    try:
        thread.start()
        deadline = time.monotonic() + QUIET + 5
        while not looks or looks[-1] is not None:  # asleep: a look without a timeout
            assert time.monotonic() < deadline, looks[-5:]
            await asyncio.sleep(0.02)
        asleep = len(looks)
        await asyncio.sleep(1.0)
        assert len(looks) == asleep  # not one look in a second of quiet

        os.write(master, b"\x1b")  # a lone ESC: a key once the escape delay has passed
        deadline = time.monotonic() + 5
        while not any(isinstance(m, events.Key) and m.key == "escape" for m in received):
            assert time.monotonic() < deadline, received
            await asyncio.sleep(0.02)

        deadline = time.monotonic() + QUIET + 5
        while looks[-1] is not None:  # asleep again after the key
            assert time.monotonic() < deadline, looks[-5:]
            await asyncio.sleep(0.02)
        driver.exit_event.set()
        await asyncio.to_thread(thread.join, 5)
        assert not thread.is_alive()
        # Its last look had no timeout: only the stop's wake-up could end it, so the
        # stop came through at once, not at some later timeout.
        assert looks[-1] is None
    finally:
        driver.exit_event.set()
        for sig in (signal.SIGCONT, signal.SIGTSTP):
            driver._loop.remove_signal_handler(sig)
        os.close(master)
        os.close(slave)
