"""A program on a pseudo-terminal of its own, seen as a player's terminal sees it.

For the tests and the benchmarks (Linux and macOS: a pty, ``/proc`` for memory).
:class:`PtyTerminal` starts a command on a new pty that is its *controlling*
terminal (as a login or an SSH session gives it), so closing the terminal
(:meth:`~PtyTerminal.hang_up`) does what closing a window does: the kernel sends
SIGHUP and reads end. A thread reads everything the program writes (or, with
``reader=False``, the caller does, with :meth:`~PtyTerminal.read`, to time what
comes: bench/term.py); the screen those bytes make comes from pyte, a small VT
emulator (imported when first asked for, so a benchmark that only counts bytes
does not need it).

The one pty terminal of the tests and the benchmarks: the tests' own terminals
(tests/test_hangup.py, tests/test_frame_bytes.py, tests/screens/test_match_ptys.py)
are this one with their own defaults.

Waits poll for a visible effect with a deadline; nothing here sleeps for a
fixed time (but :meth:`~PtyTerminal.send`'s ``pace``, a typist's, when asked).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

CTTY = (
    "import fcntl, os, sys, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "os.execvp(sys.argv[1], sys.argv[1:])\n"
)
"""Run in the child: take the pty (stdin) as controlling terminal, then exec."""

KEYS = {
    "enter": b"\r",
    "escape": b"\x1b",
    "space": b" ",
    "tab": b"\t",
    "backspace": b"\x7f",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
}
"""Named keys as an xterm sends them (cursor keys in normal mode)."""

UNSET = ("NO_COLOR", "TEXTUAL_THEME", "COLORTERM", "TERMSOLITAIRE_PLAIN_OUTPUT")
"""Variables of this process a program on the terminal does not get (a player's
terminal has colours, the default theme, and the app's own output)."""


def app_command(*args: str) -> list[str]:
    """``termsolitaire ARGS`` run by this interpreter."""
    return [sys.executable, "-m", "termsolitaire", *args]


def set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class PtyTerminal:
    """``argv`` on a new pty of ``size`` (columns, rows)."""

    def __init__(
        self,
        argv: Sequence[str],
        size: tuple[int, int] = (80, 24),
        env: Mapping[str, str] | None = None,
        *,
        screen: bool = True,
        reader: bool = True,
        ctty: bool = True,
    ) -> None:
        """``screen``: feed pyte from the start; ``reader``: a thread reads, else the
        caller (:meth:`read`); ``ctty``: the pty is the program's controlling
        terminal (through a small Python wrapper that then execs ``argv``; without
        it the program starts a few milliseconds sooner, for a benchmark, but gets
        no SIGHUP or SIGWINCH from the kernel)."""
        self.size = size
        full = {k: v for k, v in os.environ.items() if k not in UNSET}
        full.update(TERM="xterm-256color")
        if argv and argv[0] == sys.executable:  # this interpreter finds this code
            full["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        full.update(env or {})
        master, slave = os.openpty()
        set_size(slave, *size)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", CTTY, *argv] if ctty else list(argv),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=full,
                start_new_session=True,
                close_fds=True,
            )
        finally:
            os.close(slave)
        self.pid = self.proc.pid
        self.master = master
        self.started = time.monotonic()
        self.output = bytearray()
        self.first_byte: float | None = None
        self.closed = False
        """The program has closed its end (or the pty is gone): nothing more to read."""
        self.lock = threading.Lock()
        self._closing = threading.Event()
        self._screen: Any = None
        self._stream: Any = None
        if screen:
            self._make_screen()
        self.reader: threading.Thread | None = None
        if reader:
            self.reader = threading.Thread(target=self._read, daemon=True)
            self.reader.start()

    # ------------------------------------------------------------ what it drew

    def _make_screen(self) -> None:
        import pyte

        self._screen = pyte.Screen(*self.size)
        self._stream = pyte.ByteStream(self._screen)
        if self.output:
            self._stream.feed(bytes(self.output))

    def _read(self) -> None:
        # select with a timeout, not a blocking read: a read in progress would keep
        # the pty open after :meth:`hang_up` closed it (no hang-up would happen).
        while not self._closing.is_set() and not self.closed:
            self.read(0.05)

    def read(self, timeout: float) -> bytes:
        """What the program wrote within ``timeout`` seconds (b"": nothing, or it has
        closed its end: then :attr:`closed`). The reader thread's, or the caller's
        when there is none."""
        if self.closed or self.master < 0:
            return b""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return b""
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return b""
        self.took(chunk)
        return chunk

    def took(self, chunk: bytes) -> None:
        """``chunk`` came from the program (a subclass may look at it too)."""
        with self.lock:
            if self.first_byte is None:
                self.first_byte = time.monotonic()
            self.output += chunk
            if self._stream is not None:
                self._stream.feed(chunk)

    @property
    def received(self) -> int:
        """Bytes read so far (a mark for :meth:`wait_for`'s ``since``)."""
        with self.lock:
            return len(self.output)

    def text(self) -> str:
        """The screen as the player sees it, line by line."""
        with self.lock:
            if self._screen is None:
                self._make_screen()
            return "\n".join(self._screen.display)

    def shows(self, pattern: str) -> bool:
        """Whether ``pattern`` (a regular expression) is on the screen."""
        return re.search(pattern, self.text()) is not None

    def wait_for(self, pattern: str, since: int = 0, timeout: float = 60.0) -> re.Match[str]:
        """Wait until ``pattern`` is on the screen, drawn (again) after mark ``since``;
        AssertionError with the screen after ``timeout`` or once the program ended."""
        end = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text()) if self.received > since else None
            if found:
                return found
            if self.proc.poll() is not None or time.monotonic() > end:
                raise AssertionError(
                    f"{pattern!r} not on the screen (exit {self.proc.poll()}):\n{self.text()}"
                )
            time.sleep(0.02)

    # ------------------------------------------------------------ what the player does

    def send(self, *keys: str | bytes, pace: float = 0.0) -> None:
        """Type ``keys``: named keys (:data:`KEYS`), text, or raw bytes; ``pace``
        seconds after each (a typist's pace, for a program that should see one key
        at a time)."""
        for key in keys:
            data = key if isinstance(key, bytes) else KEYS.get(key, key.encode())
            with contextlib.suppress(OSError):
                os.write(self.master, data)
            if pace:
                time.sleep(pace)

    def resize(self, cols: int, rows: int) -> None:
        """The window changed size: the kernel sends SIGWINCH."""
        self.size = (cols, rows)
        set_size(self.master, cols, rows)

    def hang_up(self) -> None:
        """Close the terminal, as closing its window does (the kernel sends SIGHUP)."""
        if self.master >= 0:
            self._closing.set()
            if self.reader is not None and threading.current_thread() is not self.reader:
                self.reader.join(5)
            os.close(self.master)
            self.master = -1

    def signal(self, sig: int, *, group: bool = False) -> None:
        """Send ``sig`` to the program (``group``: and everything it started, its
        whole session)."""
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(self.pid, sig)
            else:
                os.kill(self.pid, sig)

    # ------------------------------------------------------------ the process

    def wait(self, timeout: float) -> int | None:
        """The exit status, or None if it is still running after ``timeout``."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def rss_kib(self) -> int:
        """Resident memory in KiB (VmRSS; Linux)."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        """User plus system CPU time used so far (Linux): :func:`cpu_of`."""
        return cpu_of(self.pid)

    def close(self) -> None:
        """End the program for sure (SIGKILL if it is still here) and the pty."""
        if self.proc.poll() is None:
            self.signal(signal.SIGKILL, group=True)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
        self.hang_up()
        if self.reader is not None:
            self.reader.join(5)

    def __enter__(self) -> PtyTerminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def children_of(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (Linux ``/proc``), found before it ends."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        found += kids
        todo += kids
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def cpu_of(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far, in seconds (Linux): to
    the nanosecond from each live thread's ``schedstat`` where the kernel keeps it
    (a first frame's 0.2 s in 10 ms ticks moved a launch ratio by 0.08), else in
    the 10 ms ticks of ``/proc/PID/stat``."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        total = 0
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, ValueError):
        pass
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
