"""A second process for the Stjernen beam, so that one search uses two cores.

The beam's work is the look-around of each position it keeps, one deal (a
layer) at a time. With a :class:`Helper`, half the kept positions of a layer
(whole families: :func:`.beams.halves`) are sent to another process
(:func:`main`) and looked around there while this process does its own half;
the positions found come back, the best ``keep`` of them by the beam's own
choice (:func:`.layer.select`) and the one with the most cards home, and join
the rest before the beam chooses. So a layer takes about half the time, and
the beam's width, set from the time a layer costs, grows (by only about half
when every other position went to the helper and the two looked around many
of the same positions; stjernen25). (With the package's ``PAIR_PORTFOLIO``
on, ``solve``'s second process runs a search of its own instead,
:mod:`.second`.)

The helper is a child of :mod:`termsolitaire.children` (its start, its death
with the search's process, its stop); the frames on its pipes are pickles
(:class:`~termsolitaire.children.Frames`: one process of ours talking to another
it started, and JSON would cost the search its speed), each with its length
first. Anything going wrong with the helper (it cannot start, dies, or is too
slow) only ends the help: the search goes on alone, as if there had been none.
The helper ends when its input closes, so it never outlives the search.
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from ... import children
from .layer import expand, select
from .state import State

SLACK_SECONDS = 2.0
"""How long past the time left the search waits for the helper's answer."""

CPU_WAIT = 30
"""On a CPU-time budget, how many wall seconds the search waits for each CPU
second it gave the helper. The helper stops itself by its own CPU clock, so
only a stuck helper needs the limit; a loaded machine stretches the wall clock
instead: at load 6-9 on 2 cores a two-process solve took 3-4 wall seconds a
CPU second, and at the load 9-14 of a 1-200 bench beside other work more. With
the 4 of before, a helper slowed that much would be dropped for the rest of the
deal, and the benchmark would measure the search alone (lead31)."""


class Helper:
    """The search's side: start the helper process, send it half a layer, take
    back what it found. ``alive`` turns False for good at the first failure."""

    def __init__(self, cpu: bool = False) -> None:
        self.cpu = cpu
        self.child: children.Child | None = None
        self.channel: children.Frames | None = None
        with contextlib.suppress(OSError):
            # restart's entry: this loop, and whole beams (:meth:`probe`) too.
            self.child = children.Child.spawn("termsolitaire.solver.stjernen.restart:helper")
            self.channel = self.child.frames()

    @property
    def alive(self) -> bool:
        return self.child is not None and self.child.alive

    def send(self, items: list[tuple[object, int]], cfg: object, seconds: float) -> bool:
        """Ask for the look-around of ``items`` (snapshot, node) within ``seconds``
        (on this search's kind of clock); False if there is no helper to ask."""
        if not items or not self.alive or seconds <= 0:
            return False
        keep = 2 * len(items) + 20
        return self._send((cfg, items, seconds, self.cpu, keep))

    def receive(self, seconds: float) -> tuple[list[Any], int] | None:
        """The answer to the last :meth:`send`: (positions found, positions seen),
        or None (and no more help) if it does not come within ``seconds`` and a
        little slack."""
        if not self.alive:
            return None
        assert self.channel is not None
        # On a CPU-time budget the wall clock runs faster; wait for it generously.
        wait = max(seconds, 0.0) * (CPU_WAIT if self.cpu else 1) + SLACK_SECONDS
        got: tuple[list[Any], int] | None = None
        with contextlib.suppress(children.ChildGone, TimeoutError):
            got = self.channel.receive(wait if wait < 1e6 else None)
        if got is None:
            self.close()
        return got

    def probe(self, snapshot: object, cfgs: Sequence[object], seconds: float) -> bool:
        """Ask for a beam of each of ``cfgs`` (fixed widths: :func:`.restart.probe`)
        from the position ``snapshot`` (:meth:`.state.State.snapshot`), in turn,
        all within ``seconds`` of the helper's clock; False if there is no helper to
        ask. The answer (:meth:`probed`) must be taken before the next :meth:`send`."""
        if not cfgs or not self.alive or seconds <= 0:
            return False
        return self._send((PROBE, snapshot, cfgs, seconds, self.cpu))

    def _send(self, request: tuple[object, ...]) -> bool:
        """Send ``request`` to the helper (alive): False, and no more help, if it
        has gone."""
        assert self.channel is not None
        try:
            self.channel.send(request)
        except children.ChildGone:
            self.close()
            return False
        return True

    def probed(self, seconds: float) -> list[tuple[int, list[int], int]] | None:
        """The answer to the last :meth:`probe`: for each beam (best count, its
        line, positions seen), or None (and no more help) as :meth:`receive`."""
        got = self.receive(seconds)
        return got  # type: ignore[return-value]

    def close(self) -> None:
        """End the helper (in the background: the search does not wait for it)."""
        child, self.child, self.channel = self.child, None, None
        if child is not None:
            child.stop()

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


PROBE = "probe"
"""The first item of a request for whole beams (:meth:`Helper.probe`)."""


Probes = Callable[[Any, list[Any], float, bool], list[tuple[int, list[int], int]]]
"""Whole beams from a snapshot (:meth:`Helper.probe`): the beam module's, handed
in by the helper's entry (:func:`.restart.helper`; the beam module imports
this one)."""


def serve(channel: children.Frames, probes: Probes | None = None) -> None:
    """The helper's side: answer each request until the input closes (a request
    for whole beams with ``probes``; without, the answer is None, which ends
    the help)."""
    st = State()
    while True:
        try:
            request = channel.receive()
        except children.ChildGone:
            return
        if isinstance(request[0], str) and request[0] == PROBE:
            channel.send(probes(*request[1:]) if probes else None)
            continue
        cfg, items, seconds, cpu, keep = request
        clock = time.process_time if cpu else time.monotonic
        found, seen = expand(st, items, cfg, clock() + seconds, clock)
        found.sort(key=itemgetter(0), reverse=True)  # stable, as the beam's
        chosen = select(found, cfg, keep)
        most = max(found, key=itemgetter(1), default=None)
        if most is not None and most not in chosen:
            chosen.append(most)
        channel.send((chosen, len(seen)))


def main(probes: Probes | None = None) -> None:
    """The helper process (a child, :mod:`termsolitaire.children`). It does the
    search's work alone, so the cyclic garbage collector stays off for its
    life, as it is in the search it helps (the package's ``COLLECTOR_OFF``:
    its look-arounds make no reference cycles)."""
    gc.disable()
    with contextlib.suppress(children.ChildGone, KeyboardInterrupt):
        serve(children.stdio_frames(), probes)
    # Nothing to flush that anyone still reads.
    os._exit(0)
