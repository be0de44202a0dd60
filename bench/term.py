"""A program in a pseudo-terminal, read as a player's terminal reads it.

:class:`Term` starts a program on a pty of a given size (``TERM=xterm-256color``,
as most SSH clients say), collects every byte it writes, sends keys (arrow keys
in the form the program asked for: ``ESC [ C``, or ``ESC O C`` once it switched
the cursor keys to application mode, as curses does), and reads its resident
memory and CPU time from ``/proc``. A key's bytes are everything written from
the key until the program has been silent for a moment; a key is sent just
after a clock tick, so that the tick is not counted as part of the key.

It is the tests' :class:`~termsolitaire.testing.terminal.PtyTerminal`, read by
the caller (the timing is this module's), with no controlling-terminal wrapper
(a launch is timed from the moment the program is started). Linux only
(``/proc``, ``pty``).
"""

from __future__ import annotations

import select
import time
from dataclasses import dataclass

from termsolitaire.testing.terminal import PtyTerminal

ARROWS = {"right": "C", "left": "D", "up": "A", "down": "B"}
TICK = 1.0
"""A clock on screen repaints once a second."""


@dataclass
class Burst:
    """What one key (or the start) brought: the bytes, and when they came."""

    data: bytes
    sent: float
    first: float | None
    last: float | None

    @property
    def latency(self) -> float | None:
        """Seconds from the key to the end of the repaint (None: nothing came)."""
        return None if self.last is None else self.last - self.sent


class Term(PtyTerminal):
    """One program on a pty of ``size`` (columns, rows), read by the caller."""

    def __init__(self, argv: list[str], size: tuple[int, int], env: dict[str, str]) -> None:
        started = time.perf_counter()
        self.app_keys = False  # the program asked for ESC O arrows (DECCKM)
        self.total = 0  # bytes read so far
        self.last_tick: float | None = None
        super().__init__(argv, size, env, screen=False, reader=False, ctty=False)
        self.started = started
        self.fd = self.master

    # ------------------------------------------------------------ reading

    def took(self, chunk: bytes) -> None:
        super().took(chunk)
        self.total += len(chunk)
        on, off = chunk.rfind(b"\x1b[?1h"), chunk.rfind(b"\x1b[?1l")
        if on > off:
            self.app_keys = True
        elif off > on:
            self.app_keys = False

    def until(self, *markers: bytes, timeout: float = 60.0) -> tuple[bytes, float | None]:
        """Read until all ``markers`` have come; the bytes and the time the last of
        them came (None: never)."""
        data = b""
        end = time.perf_counter() + timeout
        while time.perf_counter() < end and not self.closed:
            chunk = self.read(0.05)
            if chunk:
                data += chunk
                if all(marker in data for marker in markers):
                    return data, time.perf_counter()
        return data, None

    def rest(self, gap: float = 0.2, first_timeout: float = 5.0) -> tuple[bytes, float | None]:
        """Everything until ``gap`` seconds of silence (waiting up to ``first_timeout``
        for the first byte); the bytes and the time the last of them came."""
        data, last = b"", None
        timeout = first_timeout
        while True:
            chunk = self.read(timeout)
            if not chunk:
                return data, last
            data += chunk
            last = time.perf_counter()
            timeout = gap

    def drain(self, seconds: float) -> bytes:
        """Read whatever comes for ``seconds``."""
        data = b""
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            data += self.read(left)
        return data

    # ------------------------------------------------------------ keys

    def arrow(self, name: str) -> bytes:
        """An arrow key as the terminal sends it in the mode the program chose."""
        return (b"\x1bO" if self.app_keys else b"\x1b[") + ARROWS[name].encode()

    def learn_clock(self) -> None:
        """Listen for a moment: a program that writes unasked has a clock on screen,
        ticking once a second from the time its first tick came."""
        self.rest(0.1, 0.1)
        self.last_tick = None
        if self.read(TICK + 0.3):
            self.last_tick = time.perf_counter()
            self.rest(0.05, 0.05)

    def wait_for_quiet_moment(self, need: float = 0.45) -> None:
        """Return when the next clock tick is at least ``need`` seconds away."""
        if self.read(0):  # a tick came since the last key
            self.last_tick = time.perf_counter()
            self.rest(0.05, 0.05)
        if self.last_tick is None:
            return
        since = (time.perf_counter() - self.last_tick) % TICK
        if TICK - since < need and self.read(TICK - since + 0.15):
            self.last_tick = time.perf_counter()
            self.rest(0.05, 0.05)

    def press(self, key: bytes, gap: float = 0.2) -> Burst:
        """Send ``key`` away from a clock tick; what the program wrote in answer."""
        self.wait_for_quiet_moment()
        sent = time.perf_counter()
        self.send(key)
        data, first = b"", None
        chunk = self.read(5.0)
        if chunk:
            first = time.perf_counter()
            data = chunk
        more, last = self.rest(gap, gap) if chunk else (b"", None)
        return Burst(data + more, sent, first, last or first)


def drain_all(terms: list[Term], seconds: float) -> dict[int, int]:
    """Read every term for ``seconds``; bytes per term (by pid)."""
    counts = {t.pid: 0 for t in terms}
    by_fd = {t.fd: t for t in terms if not t.closed}
    end = time.perf_counter() + seconds
    while by_fd and (left := end - time.perf_counter()) > 0:
        ready, _, _ = select.select(list(by_fd), [], [], left)
        for fd in ready:
            t = by_fd[fd]
            data = t.read(0)
            counts[t.pid] += len(data)
            if t.closed:
                del by_fd[fd]
    return counts
