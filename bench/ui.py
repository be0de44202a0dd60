"""UI benchmark: launch to first full frame, key press to repaint, bytes per card move.

Runs the real app in a pseudo-terminal (80x24, TERM=xterm-256color), as a
player over SSH would see it, and reads everything it writes.

    .venv/bin/python bench/ui.py [--rounds N]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import struct
import sys
import tempfile
import termios
import time

FOOTER = b"palette"  # the footer is drawn last in a full frame
SCRATCH = tempfile.mkdtemp(prefix="termsolitaire-bench-")


class Term:
    """The app in a pty; ``read_until`` and ``quiet`` collect what it writes."""

    def __init__(self, argv: list[str], size: tuple[int, int] = (80, 24)) -> None:
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.environ.pop("NO_COLOR", None)
            # Saves and statistics go to a scratch directory, never the player's.
            os.environ.setdefault("TERMSOLITAIRE_HOME", SCRATCH)
            try:
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        cols, rows = size
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(self.fd, 65536)
        except OSError:
            return b""

    def read_until(self, marker: bytes, timeout: float = 20.0) -> tuple[bytes, float]:
        data = b""
        end = time.perf_counter() + timeout
        while marker not in data and time.perf_counter() < end:
            data += self.read(0.05)
        return data, time.perf_counter()

    def quiet(self, gap: float = 0.25) -> tuple[bytes, float | None]:
        """Everything written until ``gap`` seconds pass in silence; time of the first byte."""
        data, first = b"", None
        while True:
            chunk = self.read(gap)
            if not chunk:
                return data, first
            if first is None:
                first = time.perf_counter()
            data += chunk

    def send(self, keys: bytes) -> float:
        os.write(self.fd, keys)
        return time.perf_counter()

    def close(self) -> None:
        os.write(self.fd, b"\x11")  # ctrl+q
        time.sleep(0.3)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)


def measure(rounds: int) -> dict[str, float]:
    exe = [sys.executable, "-m", "termsolitaire"]
    out: dict[str, float] = {}
    launch: list[float] = []
    for _ in range(3):
        term = Term([*exe, "penguin", "--deal", "5"])
        _, at = term.read_until(FOOTER)
        launch.append(at - term.started)
        term.close()
    out["launch to first full frame, s (best of 3)"] = min(launch)

    term = Term([*exe, "penguin", "--deal", "5"])
    term.read_until(FOOTER)
    term.quiet(0.5)
    lat, cursor_bytes = [], []
    term.send(b"\x1b[C")  # the first arrow shows the cursor
    term.quiet()
    for i in range(rounds):
        sent = term.send(b"\x1b[C" if i % 2 == 0 else b"\x1b[D")
        data, first = term.quiet()
        if first is not None:
            lat.append(first - sent)
        cursor_bytes.append(len(data))
    out["cursor key to repaint, ms (median)"] = 1000 * sorted(lat)[len(lat) // 2]
    out["bytes per cursor key (median)"] = sorted(cursor_bytes)[len(cursor_bytes) // 2]
    term.send(b"\x1b")
    term.quiet()
    picks, moves = [], []
    for _ in range(rounds):
        term.send(b"7")  # t7's 9♦ in hand: the targets light up
        data, _ = term.quiet()
        picks.append(len(data))
        term.send(b"3")  # onto t3's 10♦
        data, _ = term.quiet()
        moves.append(len(data))
        term.send(b"z")  # undo
        term.quiet()
    out["bytes for picking up (key 7), median"] = sorted(picks)[len(picks) // 2]
    out["bytes per card move (key 3: t7-t3), median"] = sorted(moves)[len(moves) // 2]
    term.close()

    term = Term([*exe, "spider", "--deal", "123", "--suits", "2"])
    term.read_until(FOOTER)
    term.quiet(0.5)
    data, end = b"", time.perf_counter() + 5
    while time.perf_counter() < end:
        data += term.read(0.1)
    out["bytes per second, Spider idle (clock ticks)"] = len(data) / 5
    sent = term.send(b"1")
    term.quiet()
    sent = term.send(b"0")
    data, first = term.quiet()
    out["Spider move t1-t10: key to repaint, ms"] = 1000 * ((first or sent) - sent)
    out["Spider move t1-t10: bytes"] = len(data)
    term.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    for name, value in measure(args.rounds).items():
        print(f"{name:48} {value:10.3f}" if isinstance(value, float) else f"{name:48} {value:10}")


if __name__ == "__main__":
    main()
