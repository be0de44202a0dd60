"""A second search of the same deal in another process (``solve`` with
``jobs`` 2): a portfolio of two schedules, not one beam twice as wide.

The search's own process runs the schedule of one process (the board's hint,
:data:`.schedule.PLAIN`); :func:`main`, started by :class:`Second` at once, runs
:data:`.schedule.SECOND` on the same position with a budget of its own of the
same length on the same kind of clock, and sends back its best line. The
search takes the better of the two (a win first). Anything going wrong with
the second process (it cannot start, dies, or does not answer in time) only
leaves the search with its own line, as if there had been none. It ends when
its input closes, so it never outlives the search.

The frames are pickles (:class:`~termsolitaire.children.Frames`), as the
pair's (:mod:`.pair`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from typing import Any

from ... import children
from .schedule import SECOND, Order, run
from .state import State

SLACK_SECONDS = 2.0
"""How long past its budget the search waits for the second process's answer."""


class Second:
    """The search's side: start the second search of ``snapshot`` (a position's
    :meth:`.state.State.snapshot`) for ``seconds`` of CPU time (the second
    process's, counted from its start) or, if not ``cpu``, until ``seconds``
    from now on the wall clock, starting no beam with less than ``min_left``
    seconds left (the search's own bound, ``MIN_BEAM`` of the budget); take its
    answer."""

    def __init__(
        self, snapshot: object, seconds: float, cpu: bool, min_left: float, order: Order = SECOND
    ) -> None:
        self.cpu = cpu
        self.child: children.Child | None = None
        self.channel: children.Frames | None = None
        deadline = None if cpu else time.monotonic() + seconds
        with contextlib.suppress(OSError, children.ChildGone):
            self.child = children.Child.spawn("termsolitaire.solver.stjernen.second:main")
            self.channel = self.child.frames()
            self.channel.send((snapshot, seconds, deadline, min_left, order))

    @property
    def alive(self) -> bool:
        return self.child is not None and self.child.alive

    def receive(self, seconds: float) -> tuple[int, list[int], int] | None:
        """Its answer, (best count, its line, positions seen), or None if it does
        not come within ``seconds`` (on the search's kind of clock) and a little
        slack. The second process ends either way."""
        got: Any = None
        # Not ``alive``: a second process that has answered may have ended.
        if self.channel is not None:
            # On a CPU-time budget the wall clock runs faster; wait for it generously.
            wait = max(seconds, 0.0) * (4 if self.cpu else 1) + SLACK_SECONDS
            with contextlib.suppress(children.ChildGone, TimeoutError):
                got = self.channel.receive(wait)
        self.close()
        return got  # type: ignore[no-any-return]

    def close(self) -> None:
        """End the second process (in the background: the search does not wait)."""
        child, self.child, self.channel = self.child, None, None
        if child is not None:
            child.stop()


def serve(channel: children.Frames) -> None:
    """The second process's side: one request, one answer."""
    snapshot, seconds, deadline, min_left, order = channel.receive()
    # On the CPU clock the budget counts this whole process (its start too), as
    # the search's counts its own; on the wall clock both share one deadline.
    clock = time.process_time if deadline is None else time.monotonic
    root = State()
    root.restore(snapshot)
    end = seconds if deadline is None else deadline
    best, line, positions = run(root, root.score, end, clock, None, min_left, order)
    channel.send((best, line, positions))


def main() -> None:
    """The second process (a child, :mod:`termsolitaire.children`). Its search
    makes no reference cycles, so the cyclic garbage collector stays off, as in
    the search (the package's ``COLLECTOR_OFF``)."""
    gc.disable()
    with contextlib.suppress(children.ChildGone, KeyboardInterrupt):
        serve(children.stdio_frames())
    os._exit(0)
