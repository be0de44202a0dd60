"""A second process for the Stjernen beam, so that one search uses two cores.

The beam's work is the look-around of each position it keeps, one deal (a
layer) at a time. With a :class:`Helper`, every other kept position of a layer
is sent to another process (``python -m termsolitaire.solver.stjernen.pair``)
and looked around there while this process does its own half; the positions
found come back, the best ``keep`` of them by the beam's own choice
(:func:`.layer.select`) and the one with the most cards home, and join the
rest before the beam chooses. So a layer takes about half the time, and the
beam's width, set from the time a layer costs, about doubles.

Frames on the pipes are pickles (one process of ours talking to another it
started), each with its length first. Anything going wrong with the helper
(it cannot start, dies, or is too slow) only ends the help: the search goes on
alone, as if there had been none. The helper ends when its input closes, so
it never outlives the search.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select as _select
import struct
import subprocess
import sys
import time
from typing import IO, Any

from .layer import expand, select
from .state import State

_LEN = struct.Struct("<Q")
SLACK_SECONDS = 2.0
"""How long past the time left the search waits for the helper's answer."""


def _write(out: IO[bytes], obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_LEN.pack(len(data)) + data)
    out.flush()


def _read(inp: IO[bytes]) -> Any:
    head = inp.read(_LEN.size)
    if len(head) < _LEN.size:
        return None
    (n,) = _LEN.unpack(head)
    data = inp.read(n)
    if len(data) < n:
        return None
    return pickle.loads(data)


class Helper:
    """The search's side: start the helper process, send it half a layer, take
    back what it found. ``alive`` turns False for good at the first failure."""

    def __init__(self, cpu: bool = False) -> None:
        self.cpu = cpu
        self.proc: subprocess.Popen[bytes] | None = None
        with contextlib.suppress(OSError):
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "termsolitaire.solver.stjernen.pair"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, items: list[tuple[object, int]], cfg: object, seconds: float) -> bool:
        """Ask for the look-around of ``items`` (snapshot, node) within ``seconds``
        (on this search's kind of clock); False if there is no helper to ask."""
        if not items or not self.alive or seconds <= 0:
            return False
        assert self.proc is not None and self.proc.stdin is not None
        keep = 2 * len(items) + 20
        try:
            _write(self.proc.stdin, (cfg, items, seconds, self.cpu, keep))
        except (OSError, ValueError):
            self.close()
            return False
        return True

    def receive(self, seconds: float) -> tuple[list[Any], int] | None:
        """The answer to the last :meth:`send`: (positions found, positions seen),
        or None (and no more help) if it does not come within ``seconds`` and a
        little slack."""
        if not self.alive:
            return None
        assert self.proc is not None and self.proc.stdout is not None
        out = self.proc.stdout
        # On a CPU-time budget the wall clock runs faster; wait for it generously.
        wait = max(seconds, 0.0) * (4 if self.cpu else 1) + SLACK_SECONDS
        ready, _, _ = _select.select([out], [], [], wait if wait < 1e6 else None)
        got = _read(out) if ready else None
        if got is None:
            self.close()
        return got

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin:
                proc.stdin.close()
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(inp: IO[bytes], out: IO[bytes]) -> None:
    """The helper's side: answer each request until the input closes."""
    st = State()
    while (request := _read(inp)) is not None:
        cfg, items, seconds, cpu, keep = request
        clock = time.process_time if cpu else time.monotonic
        found, seen = expand(st, items, cfg, clock() + seconds, clock)
        found.sort(key=lambda x: -x[0])
        chosen = select(found, cfg, keep)
        most = max(found, key=lambda x: x[1], default=None)
        if most is not None and most not in chosen:
            chosen.append(most)
        _write(out, (chosen, seen))


def main() -> None:
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        serve(sys.stdin.buffer, sys.stdout.buffer)
    # Nothing to flush that anyone still reads.
    os._exit(0)


if __name__ == "__main__":
    main()
