"""CPU fair share between sessions: a busy app waits behind the players who type.

A player typing costs their app a few milliseconds a key; an app that draws a
huge window, digests a flood of keys, or is still starting up (importing
Textual, about a CPU-second) costs a full core. On a small host a few such apps
would delay every other player's keys, so the server watches each app's CPU
(its whole process group: the app and its solver worker) and runs an app that
uses more than its share of a core in the *background*: its scheduling group at
nice 19, where it still gets every CPU cycle nobody else wants. Once it wants
little (it ran little, and was seldom found ready to run when looked at) it comes back
to the foreground. A new app starts in the background (its start-up is such a
burst) and comes forward when its first screen is drawn.

The background is no prison: on a machine kept busy by other work the apps
there may get so little CPU that even a light one never looks calm, so when
the background as a whole starves (all its apps together got under half a
share), a stay ends after a while whatever the app wants (:data:`HOLD`
seconds, doubled each time the app was caught over its share again, up to
:data:`MAX_HOLD`). A hog that comes forward is caught within half a second and
goes back for twice as long. Where the machine has room, the apps in the
background make progress there and stay until they are done.

What it cannot do: on a machine so busy with other work that no app gets its
share, it cannot tell a hog from a player's app, and stands aside. (Catching
apps found ready to run at every look for a second was tried: under a load of
30 it caught the honest apps' start-up and keys as well.)

How the priority is set, from best to least:

- Linux autogroups (``/proc/sys/kernel/sched_autogroup_enabled``, the server in
  the root CPU cgroup): every app is a session of its own, hence a scheduling
  group of its own, whose nice value (``/proc/PID/autogroup``) any user may raise
  and lower again within 0..19. A per-process nice would not work there: it
  only ranks processes within their own group.
- Otherwise the nice value of the app's process group (``setpriority``); a user
  without ``CAP_SYS_NICE`` (or ``LimitNICE=``) cannot lower it again, so then only
  an app over its share is sent to the background, for good, and new apps
  start in the foreground.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("termsolitaire.serve")

BACKGROUND = 19
"""The nice value of an app over its share: it runs when nobody else needs the CPU."""
TICK = 0.25
"""Seconds between two looks at every app's CPU."""
CATCH = 0.5
"""Over its share in this many seconds, an app goes to the background."""
WINDOW = 1.0
"""Seconds over which an app's wish for the CPU (run, or found ready to run) is measured: under
half its share, it comes forward again."""
HOLD = 2.0
"""Seconds of a first stay in the background, at most (a start-up's too)."""
MAX_HOLD = 32.0
"""The longest stay, for an app caught over its share again and again."""
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class Others:
    """An app's children in sessions of their own, as last seen (pid: CPU-seconds
    run), and what those it has reaped had run: the kernel adds a reaped child's
    time to its parent's at once, and :func:`usage` takes it out again."""

    seen: dict[int, float] = field(default_factory=dict)
    reaped: float = 0.0


def usage(pid: int, others: Others | None = None) -> tuple[float, bool] | None:
    """Seconds ``pid`` and every process under it in its session have run on a CPU
    (with the children already reaped), and whether one of their threads is ready
    to run now (state R: running or waiting for a CPU). None when ``pid`` is gone.

    A child that started a session of its own is scheduled on its own and not
    counted: the computer opponent of a match (``match/computer.py``), which
    thinks at its level's pace; were it counted, each of its longer thoughts
    sent its player's app, keys and all, to the background. Given ``others``
    (the same object at every look), what such a child had run when last seen
    is taken out of the app's count once it is reaped (else the app's count
    jumped by all of it at the end of a match).

    Whether it waits is read from the state, not from the time waited
    (``schedstat``): the kernel adds a wait to that count only once the thread
    gets the CPU, so an app starved of it would look idle."""
    ran, ready = 0.0, False
    todo, seen = [pid], set()
    session = None
    apart: dict[int, float] = {}
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            if p == pid:
                return None
            continue
        if session is None:
            session = fields[3]
        elif fields[3] != session:  # a session of its own
            apart[p] = sum(int(f) for f in fields[11:15]) / TICKS_PER_SECOND
            continue
        # utime, stime, and the reaped children's cutime, cstime
        ran += sum(int(f) for f in fields[11:15]) / TICKS_PER_SECOND
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                if not ready:
                    with contextlib.suppress(OSError, IndexError):
                        ready = (task / "stat").read_text().rsplit(")", 1)[1].split()[0] == "R"
                with contextlib.suppress(OSError, ValueError):
                    todo += [int(c) for c in (task / "children").read_text().split()]
    if others is not None:
        others.reaped += sum(t for p, t in others.seen.items() if p not in apart)
        others.seen = apart
        ran -= others.reaped
    return ran, ready


def autogroups_apply() -> bool:
    """Whether the kernel schedules this process's children by autogroup: the feature
    is on and the server is in the root CPU cgroup (a cgroup with the CPU controller
    replaces autogroups)."""
    try:
        if Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() != "1":
            return False
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):  # cgroup v1
            return path == "/"
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "" and path != "/":  # cgroup v2: does CPU apply here?
            with contextlib.suppress(OSError):
                text = Path(f"/sys/fs/cgroup{path}/cgroup.controllers").read_text()
                return "cpu" not in text.split()
    return True


class Priority:
    """Send an app (by its pid, a session leader) to the background and back."""

    foreground = 0
    """The nice value of an app within its share."""

    reversible = True
    """Whether an app in the background can come forward again."""

    def set(self, pid: int, nice: int) -> bool:
        """Give ``pid``'s app the nice value ``nice``; False when the kernel asks to try
        again later (the write is rate-limited)."""
        raise NotImplementedError

    def get(self, pid: int) -> int | None:
        """The nice value ``pid``'s app runs at (None: gone)."""
        raise NotImplementedError


class AutogroupPriority(Priority):
    """The nice value of the app's autogroup (``/proc/PID/autogroup``)."""

    def set(self, pid: int, nice: int) -> bool:
        try:
            with open(f"/proc/{pid}/autogroup", "w") as f:
                f.write(str(nice))
        except OSError as e:
            if e.errno == errno.EAGAIN:  # ten writes a second, machine-wide
                return False
            if e.errno not in (errno.ENOENT, errno.ESRCH):
                raise
        return True

    def get(self, pid: int) -> int | None:
        try:
            text = Path(f"/proc/{pid}/autogroup").read_text()  # "/autogroup-12 nice 19"
        except OSError:
            return None
        return int(text.split()[-1])


class GroupPriority(Priority):
    """The nice value of every process in the app's process group."""

    def __init__(self) -> None:
        self.foreground = os.getpriority(os.PRIO_PROCESS, 0)
        self.reversible = can_lower_to(self.foreground)

    def set(self, pid: int, nice: int) -> bool:
        with contextlib.suppress(ProcessLookupError):
            os.setpriority(os.PRIO_PGRP, pid, nice)
        return True

    def get(self, pid: int) -> int | None:
        try:
            return os.getpriority(os.PRIO_PROCESS, pid)
        except OSError:
            return None


def can_lower_to(nice: int) -> bool:
    """Whether this process may lower a nice value back to ``nice``: root, or an
    ``RLIMIT_NICE`` that allows it (``LimitNICE=`` in a systemd unit)."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_NICE)[0]
    except (ImportError, AttributeError, OSError):
        return False
    return os.geteuid() == 0 or limit == resource.RLIM_INFINITY or 20 - nice <= limit


def best_priority() -> Priority:
    """Autogroups where they decide, else the process group's nice value."""
    return AutogroupPriority() if autogroups_apply() else GroupPriority()


@dataclass
class _App:
    samples: deque[tuple[float, float, bool]]
    """(when, seconds run so far, found ready to run), over the last :data:`WINDOW`
    seconds."""
    nice: int
    """What the app should run at."""
    applied: int | None = None
    """What it was last given (None: nothing yet)."""
    until: float = 0.0
    """When its stay in the background ends, calm or not."""
    caught: int = 0
    """Times caught over its share, less the times it came back calm."""
    others: Others = field(default_factory=Others)
    """Its children in sessions of their own (:func:`usage`)."""


class FairShare:
    """Every app's share of the CPU: :meth:`started` when an app starts, :meth:`tick`
    every :data:`TICK` seconds with the apps running, :meth:`ended` when one ends.

    ``share`` is the fraction of one core an app may use (over :data:`WINDOW`) and
    stay in the foreground; more sends it to the background. It comes back once
    it wants less than half of that: the part of the window it ran, or the part
    of the looks that found it ready to run, whichever is more; so an app the
    background starves of the CPU does not pass for a calm one. The background
    costs an app nothing while the CPU has room: it only decides who waits when
    it has none.

    >>> use = {1: (0.0, False), 2: (0.0, False)}; now = [0.0]; given = {}
    >>> class Fake(Priority):
    ...     foreground = 0
    ...     def set(self, pid, nice): given[pid] = nice; return True
    ...     def get(self, pid): return given.get(pid)
    >>> fair = FairShare(0.5, Fake(), usage=lambda pid, others: use.get(pid), clock=lambda: now[0])
    >>> fair.started(1); fair.started(2); given   # start-up runs in the background
    {1: 19, 2: 19}
    >>> def second(a, b, ready_b=None):  # CPU-seconds each uses in the next second
    ...     for _ in range(4):
    ...         use[1] = (use[1][0] + a / 4, False)
    ...         use[2] = (use[2][0] + b / 4, b > 0.5 if ready_b is None else ready_b)
    ...         now[0] += 0.25; fair.tick([1, 2])
    ...     return given
    >>> second(0.05, 1.0)   # 1 typed a few keys, 2 still starts up
    {1: 0, 2: 19}
    >>> second(0.3, 0.1)    # 1 types fast; 2 has drawn its first screen
    {1: 0, 2: 0}
    >>> second(0.9, 0.0)    # 1 floods itself with work
    {1: 19, 2: 0}
    >>> second(0.0, 0.9)    # 1 is done; 2 draws a huge window
    {1: 0, 2: 19}
    >>> second(0.0, 0.01, ready_b=True)  # 2, starved in the background, still wants a core
    {1: 0, 2: 19}
    >>> second(0.0, 0.01, ready_b=True)  # its stay is over (2 s): it may show what it does
    {1: 0, 2: 0}
    >>> second(0.0, 1.0), fair.apps[2].until - now[0]  # a hog again: back, for longer
    ({1: 0, 2: 19}, 3.25)
    >>> for _ in range(5):  # where the machine has room, a hog gets its CPU back there
    ...     _ = second(0.0, 0.3, ready_b=True)
    >>> given   # and stays until it is done
    {1: 0, 2: 19}
    >>> second(0.0, 0.0)    # done
    {1: 0, 2: 0}
    >>> second(0.0, 1.0)    # caught once more
    {1: 0, 2: 19}
    >>> Fake.set = lambda self, pid, nice: False  # the kernel: not now
    >>> second(0.9, 0.0), fair.retry()
    ({1: 0, 2: 19}, False)
    >>> Fake.set = lambda self, pid, nice: given.update({pid: nice}) or True
    >>> fair.retry(), given
    (True, {1: 19, 2: 0})
    """

    def __init__(
        self,
        share: float,
        priority: Priority,
        *,
        usage: Callable[[int, Others], tuple[float, bool] | None] = usage,
        clock: Callable[[], float] | None = None,
    ) -> None:
        import time

        self.share = share
        self.priority = priority
        self.usage = usage
        self.clock = clock or time.monotonic
        self.apps: dict[int, _App] = {}

    @property
    def foreground(self) -> int:
        return self.priority.foreground

    def started(self, pid: int) -> None:
        """A new app: it starts in the background where that can be undone."""
        others = Others()
        ran, _ = self.usage(pid, others) or (0.0, False)
        now = self.clock()
        app = self.apps[pid] = _App(deque([(now, ran, False)]), self.foreground, others=others)
        if self.priority.reversible:
            app.nice, app.until = BACKGROUND, now + HOLD
        self._apply(pid)

    def ended(self, pid: int) -> None:
        self.apps.pop(pid, None)

    def tick(self, pids: Iterable[int]) -> None:
        """Look at each app's CPU since the last tick and over the last :data:`WINDOW`
        seconds; move those that crossed a line."""
        now = self.clock()
        looked: list[tuple[int, _App, float, float, float]] = []
        for pid in pids:
            app = self.apps.get(pid)
            used = self.usage(pid, app.others) if app is not None else None
            if app is None or used is None:
                continue
            last = next((x for x in reversed(app.samples) if now - x[0] >= CATCH), app.samples[0])
            busy = (used[0] - last[1]) / max(1e-3, now - last[0])
            app.samples.append((now, *used))
            while len(app.samples) > 2 and now - app.samples[1][0] >= WINDOW:
                app.samples.popleft()
            then, ran, _ = app.samples[0]
            got = (used[0] - ran) / max(1e-3, now - then)
            looks = list(app.samples)[1:]
            wanted = max(got, sum(ready for _, _, ready in looks) / len(looks))
            looked.append((pid, app, busy, got, wanted))
        # The background starves when everything in it together gets less than half a
        # share: the machine is busy with other work, and no stay there lasts past
        # its end. Otherwise the apps in it make progress and stay until done.
        starved = sum(got for _, app, _, got, _ in looked if app.nice == BACKGROUND)
        starved_background = starved < self.share / 2
        for pid, app, busy, _, wanted in looked:
            if app.nice != BACKGROUND:
                if busy > self.share:
                    app.caught += 1
                    hold = min(MAX_HOLD, HOLD * 2 ** (app.caught - 1))
                    app.nice, app.until = BACKGROUND, now + hold
                    log.debug(
                        "app pid=%d over its CPU share (%.0f%%): background for %g s at most",
                        pid,
                        busy * 100,
                        hold,
                    )
            elif not self.priority.reversible:
                pass
            elif wanted < self.share / 2 or (now >= app.until and starved_background):
                if wanted < self.share / 2:
                    app.caught = max(0, app.caught - 1)
                log.debug("app pid=%d back to the foreground (wants %.0f%%)", pid, wanted * 100)
                app.nice = self.foreground
            self._apply(pid)

    def retry(self) -> bool:
        """Try again what the kernel put off (it takes ten autogroup changes a second,
        machine-wide, from a user without ``CAP_SYS_ADMIN``); True when none is left."""
        for pid in list(self.apps):
            self._apply(pid)
        return all(app.applied == app.nice for app in self.apps.values())

    def _apply(self, pid: int) -> None:
        app = self.apps[pid]
        if app.applied == app.nice:
            return
        try:
            if self.priority.set(pid, app.nice):
                app.applied = app.nice
        except OSError as e:  # not allowed here: leave this app as it is
            log.debug("app pid=%d: cannot set its priority (%s)", pid, e)
            app.applied = app.nice
