"""Issue 36, acceptance 2: signals that arrive halfway through a frame.

The terminal driver is driven with Textual-like frames while SIGCONT, SIGWINCH
and a handler that writes (SIGUSR1) are delivered in the middle of
``Shadow.frame`` (between two of its runs) and of a write. The writes must
return, the terminal must end up showing exactly what the frames draw, and the
redraw a SIGCONT asks for must come once, after the frame in progress (or not
at all once the terminal is gone).

Each scenario runs in a child process with a deadline: a driver that re-enters
its own lock would hang there, not here.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys

import pyte
import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals")

WIDTH, HEIGHT = 40, 8


def frames() -> list[str]:
    """Frames as Textual writes them: line chunks (a cursor move, styled text), a
    line break between lines, the cursor parked at the end."""
    out = []
    for n in range(6):
        lines = [
            f"\x1b[{y + 1};1H\x1b[3{(y + n) % 8}mrow {y} frame {n}\x1b[0m"
            + ("\x1b[7m▒▒\x1b[0m" if (y + n) % 2 else "  ")
            for y in range(HEIGHT)
        ]
        out.append("\n".join(lines) + "\x1b[1;1H")
    return out


async def scenario(gone: bool) -> dict[str, object]:
    from textual.drivers.linux_driver import LinuxDriver

    from termsolitaire import lifeline
    from termsolitaire.terminal.driver import SYNC_END, SYNC_START, terminal_driver
    from termsolitaire.terminal.shadow import Shadow

    class App:
        refreshed = 0

        def refresh(self, **kw: object) -> None:
            App.refreshed += 1

        async def _post_message(self, message: object) -> bool:
            return True

    driver = terminal_driver(LinuxDriver)(App(), size=(WIDTH, HEIGHT))
    written: list[str] = []

    class Writer:
        def write(self, data: str) -> None:
            written.append(data)

    driver._writer_thread = Writer()
    driver._get_terminal_size = lambda: (WIDTH, HEIGHT)
    driver._watch_resize()
    signal.signal(signal.SIGUSR1, lambda *_: driver.write("\x1b]0;title\x07"))
    if gone:
        lifeline.hang_up("the test closed the terminal")

    original = Shadow._write
    calls = 0

    def interrupted(self: Shadow, out: list[str], run: object, cells: object) -> None:
        nonlocal calls
        calls += 1
        if calls % 5 == 2:  # halfway through a frame, between two runs
            for sig in (signal.SIGCONT, signal.SIGWINCH, signal.SIGUSR1):
                os.kill(os.getpid(), sig)
        original(self, out, run, cells)

    Shadow._write = interrupted  # type: ignore[method-assign]
    refreshed_during = []
    for frame in frames():
        driver.write(SYNC_START)
        driver.write(frame)
        driver.write(SYNC_END)
        refreshed_during.append(App.refreshed)
    for _ in range(20):  # the loop runs what the signals asked for
        await asyncio.sleep(0.01)
    return {
        "written": "".join(written),
        "refreshed_during": refreshed_during,
        "refreshed": App.refreshed,
        "calls": calls,
    }


def run_scenario(gone: bool) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, __file__, "gone" if gone else "alive"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def screen_of(data: str) -> list[list[tuple[object, ...]]]:
    """Each cell as the eye sees it (a blank's foreground does not show)."""
    screen = pyte.Screen(WIDTH, HEIGHT)
    pyte.Stream(screen).feed(data)
    cells = [[screen.buffer[y][x] for x in range(WIDTH)] for y in range(HEIGHT)]
    return [
        [
            (c.data, c.bg, c.reverse) if c.data == " " else (c.data, c.fg, c.bg, c.reverse)
            for c in row
        ]
        for row in cells
    ]


def test_signals_halfway_through_a_frame_neither_hang_nor_garble_it() -> None:
    result = run_scenario(gone=False)
    assert isinstance(result["calls"], int) and result["calls"] > 10  # signals were sent
    assert screen_of(str(result["written"])) == screen_of("".join(frames()))
    # SIGCONT's redraw comes after the frame in progress, not inside it; several
    # SIGCONTs within one turn of the loop ask for it once.
    assert result["refreshed_during"] == [0] * len(frames())
    assert result["refreshed"] == 1


def test_a_sigcont_once_the_terminal_is_gone_draws_nothing() -> None:
    result = run_scenario(gone=True)
    assert result["refreshed"] == 0
    assert screen_of(str(result["written"])) == screen_of("".join(frames()))


if __name__ == "__main__":
    print(json.dumps(asyncio.run(scenario(sys.argv[1] == "gone"))))
