"""One pool of solver workers for the whole server, shared fairly by the players.

Without it every session's app starts its own solver worker (about 18 MiB and
a Python start-up each). Under ``serve`` the apps talk to this pool instead:
the server listens on a Unix socket (in a private directory) and passes its
path in each app's environment (``TERMSOLITAIRE_SOLVER_POOL``); the app's
:class:`~termsolitaire.solver.worker.SolverWorker` then opens a connection
where it would have started a process, and speaks the same JSON lines.

The rules of the queue:

- **Workers**: :attr:`SolverPool.size` kept warm (one per core by default),
  started with the server, each in a session of its own: where Linux
  schedules by autogroup, a search is one scheduling group among the
  players' apps, so it cannot crowd out the players who type. A request
  that finds none free waits, unless its player has nothing running and it
  has waited :data:`OVERFLOW_WAIT` of its budget: then a worker of its own
  is started, up to :attr:`SolverPool.limit` in all, and ends once idle. So
  a player's hint never waits behind other players' long searches for more
  than that.
- **Fair share**: the next request to run is that of the player with the
  fewest searches running, the earliest deadline first among equals; one
  player asking again and again only queues behind themselves.
- **Budget**: a request's deadline is its arrival plus its budget. When it
  starts, its search gets the time left to its deadline, and, when others
  wait, its share of the workers' time (``budget × workers / (waiting +
  workers)``, never under :data:`SLICE`): fifty players asking at once each
  get a shorter search and all their answers within their budgets, instead
  of the last ones waiting for the first ones' full searches.
- **Deadline**: a request still queued at its deadline is answered without a
  search ("cannot tell", as a search out of time would say): no player waits
  longer than their own budget.
- **Cancel**: an app that gives up on a search (the player moved on) closes
  its connection: a queued request goes, a running search is killed with its
  worker (a new one starts for the next request).

Which player a connection belongs to is read from the kernel (the peer's pid,
``SO_PEERCRED``), matched with the sessions' apps.

A server killed (``kill -9``, the machine's power) leaves its pool's private
directory in the temporary directory. A new pool removes such leftovers
(:func:`clear_stale`): only directories of this user with the pool's prefix
holding nothing but a socket nobody listens on (a live server's pool accepts
the connection), or nothing at all a minute after they were made (a pool
starting makes its directory just before it listens).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import socket
import stat
import struct
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..children import LIMIT, AsyncLines, Child, ChildGone
from ..solver.worker import POOL_ENV

log = logging.getLogger("termsolitaire.serve")

SLICE = 0.25
"""The shortest search a request is given when many wait (seconds)."""
OVERFLOW_WAIT = 0.25
"""The part of its budget a request of a player with nothing running waits for a
free worker before one of its own is started."""
MARGIN = 0.1
"""Seconds kept from a request's deadline for the answer's way back."""
PREFIX = "termsolitaire-solver-"
"""The start of a pool directory's name."""
YOUNG = 60.0
"""An empty pool directory younger than this (seconds) may be a pool starting."""


def clear_stale(root: Path | None = None) -> list[Path]:
    """Remove the pool directories a dead server left in ``root`` (the temporary
    directory); returns them. Never a live server's, nor another user's, nor a
    directory holding anything but the pool's socket."""
    root = Path(root or tempfile.gettempdir())
    cleared: list[Path] = []
    try:
        candidates = [p for p in root.iterdir() if p.name.startswith(PREFIX)]
    except OSError:
        return cleared
    for d in candidates:
        with contextlib.suppress(OSError):
            info = d.lstat()
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            entries = [e.name for e in d.iterdir()]
            if entries == ["pool"]:
                sock = d / "pool"
                if not stat.S_ISSOCK(sock.lstat().st_mode) or _listening(sock):
                    continue
                sock.unlink()
            elif entries or time.time() - info.st_mtime < YOUNG:
                continue
            d.rmdir()
            cleared.append(d)
    return cleared


def _listening(path: Path) -> bool:
    """Whether a server accepts connections on the Unix socket ``path`` (when in
    doubt, yes)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(1.0)
        try:
            s.connect(str(path))
        except (ConnectionRefusedError, FileNotFoundError):
            return False
        except OSError:
            return True
        return True


def default_size() -> int:
    """One worker a core."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


@dataclass
class Job:
    who: str
    request: dict[str, Any]
    arrived: float
    deadline: float
    seconds: float
    future: asyncio.Future[dict[str, Any]] = field(repr=False)
    worker: Worker | None = None


class Worker:
    """One solver process (``termsolitaire.solver.worker:main``)."""

    def __init__(self, child: Child, channel: AsyncLines, base: bool) -> None:
        self.child = child
        self.channel = channel
        self.base = base
        """One of the pool's :attr:`SolverPool.size` (else started for one request)."""
        self.job: Job | None = None
        self.gone = False

    @property
    def pid(self) -> int:
        return self.child.pid

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            await self.channel.send(request)
            reply: dict[str, Any] = await self.channel.receive()
        except ChildGone:
            self.gone = True
            return {"ok": False, "error": "the solver process ended"}
        return reply

    def stop(self) -> None:
        self.child.kill()


class SolverPool:
    """The server's solver workers and their queue (see the module's notes)."""

    def __init__(
        self,
        size: int | None = None,
        limit: int | None = None,
    ) -> None:
        self.size = size or default_size()
        self.limit = max(self.size, limit if limit is not None else 4 * self.size)
        for stale in clear_stale():
            log.info("solver pool: removed %s, left by a server that ended without stopping", stale)
        self.directory = Path(tempfile.mkdtemp(prefix=PREFIX))
        self.path = self.directory / "pool"
        self.idle: list[Worker] = []
        self.workers: set[Worker] = set()
        self.starting = 0
        self.queue: list[Job] = []
        self.running: Counter[str] = Counter()
        self.player_of: dict[int, str] = {}
        """App pid -> player id (the sessions fill it in)."""
        self.answered = 0
        self.killed = 0
        self.expired = 0
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: list[asyncio.TimerHandle] = []
        self._closed = False

    def environment(self) -> dict[str, str]:
        """What an app's environment needs to use the pool."""
        return {POOL_ENV: str(self.path)}

    @property
    def pids(self) -> set[int]:
        return {w.pid for w in self.workers}

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._client, str(self.path), limit=LIMIT)
        os.chmod(self.path, 0o600)
        for _ in range(self.size):  # warm before the first player asks
            self._spawn(None, base=True)
        log.info(
            "solver pool: %d workers (at most %d at once) at %s", self.size, self.limit, self.path
        )

    async def stop(self) -> None:
        self._closed = True
        if self._server is not None:
            self._server.close()
        for timer in self._timers:
            timer.cancel()
        for job in self.queue:
            if not job.future.done():
                job.future.set_result({"ok": False, "error": "the server is stopping"})
        self.queue.clear()
        for worker in list(self.workers):
            worker.stop()
        for worker in list(self.workers):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(worker.child.ended(), 5.0)
        self.workers.clear()
        self.idle.clear()
        for task in list(self._tasks):
            task.cancel()
        shutil.rmtree(self.directory, ignore_errors=True)

    # ------------------------------------------------------------ the apps' side

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        who = self._who(writer)
        try:
            while line := await reader.readline():
                request = json.loads(line)
                job = self._submit(who, request)
                closed = asyncio.ensure_future(reader.read(1))  # the app gave up (or left)
                either: set[asyncio.Future[Any]] = {job.future, closed}
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                if not job.future.done():
                    self._cancel(job)
                    return
                closed.cancel()  # nothing came: the app waits for this answer
                with contextlib.suppress(asyncio.CancelledError):
                    await closed
                writer.write(json.dumps(job.future.result()).encode() + b"\n")
                await writer.drain()
        except (OSError, ValueError):
            pass
        finally:
            writer.close()

    def _who(self, writer: asyncio.StreamWriter) -> str:
        sock = writer.get_extra_info("socket")
        pid = 0
        with contextlib.suppress(OSError, AttributeError):
            creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            pid = struct.unpack("3i", creds)[0]
        return self.player_of.get(pid) or f"pid {pid}"

    # ------------------------------------------------------------ the queue

    def _submit(self, who: str, request: dict[str, Any]) -> Job:
        loop = asyncio.get_running_loop()
        seconds = max(SLICE, float(request.get("seconds", 10.0)))
        now = time.monotonic()
        job = Job(who, request, now, now + seconds, seconds, loop.create_future())
        if self._closed:
            job.future.set_result({"ok": False, "error": "the server is stopping"})
            return job
        self.queue.append(job)
        self._timers = [t for t in self._timers if t.when() > loop.time()]
        self._timers.append(loop.call_later(OVERFLOW_WAIT * seconds, self._dispatch))
        self._timers.append(loop.call_later(seconds - MARGIN, self._expire, job))
        self._dispatch()
        return job

    def _expire(self, job: Job) -> None:
        """A request still queued at its deadline is answered without a search: "cannot
        tell" (or no deal found), as a search that ran out of time would have."""
        if job not in self.queue:
            return
        self.queue.remove(job)
        self.expired += 1
        if job.future.done():
            return
        if job.request.get("op") == "winnable":
            job.future.set_result({"ok": True, "deal": None})
            return
        result = {
            "verdict": "unknown",
            "moves": [],
            "seconds": 0.0,
            "positions": 0,
            "best": 0,
            "notes": ["every solver was busy"],
        }
        job.future.set_result({"ok": True, "result": result})

    def _cancel(self, job: Job) -> None:
        if job in self.queue:
            self.queue.remove(job)
        elif job.worker is not None:  # a search nobody waits for: its worker goes
            worker, job.worker = job.worker, None
            self.killed += 1
            self._drop(worker)
            worker.stop()
            self._dispatch()

    def _drop(self, worker: Worker) -> None:
        self.workers.discard(worker)
        if worker in self.idle:
            self.idle.remove(worker)
        if worker.job is not None:
            self.running[worker.job.who] -= 1
            worker.job = None

    def _next(self) -> Job:
        return min(self.queue, key=lambda j: (self.running[j.who], j.deadline))

    def _dispatch(self) -> None:
        """Start what can start: queued requests on free workers, new workers where the
        rules allow."""
        now = time.monotonic()
        while self.queue and not self._closed:
            job = self._next()
            if self.idle:
                self._run(job, self.idle.pop())
                continue
            total = len(self.workers) + self.starting
            waited = now - job.arrived >= OVERFLOW_WAIT * job.seconds - 1e-3
            alone = self.running[job.who] == 0
            if total < self.size or (total < self.limit and alone and waited):
                self.queue.remove(job)
                self._spawn(job, base=total < self.size)
                continue
            return

    def _budget(self, job: Job) -> float:
        now = time.monotonic()
        left = job.deadline - now - MARGIN
        share = job.seconds * self.size / (len(self.queue) + self.size)
        return max(SLICE, min(job.seconds, left, share))

    def _run(self, job: Job, worker: Worker) -> None:
        if job in self.queue:
            self.queue.remove(job)
        job.worker, worker.job = worker, job
        self.running[job.who] += 1
        request = {**job.request, "seconds": self._budget(job)}
        task = asyncio.ensure_future(self._answer(job, worker, request))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _spawn(self, job: Job | None, base: bool) -> None:
        self.starting += 1
        task = asyncio.ensure_future(self._start_for(job, base))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _start_for(self, job: Job | None, base: bool) -> None:
        """Start a worker for ``job`` (None: one to keep warm)."""
        try:
            child = Child.spawn("termsolitaire.solver.worker:main", session=True)
            channel = await child.async_lines()
        except OSError as e:
            self.starting -= 1
            log.warning("solver pool: a worker did not start (%s)", e)
            if job is not None and not job.future.done():
                job.future.set_result({"ok": False, "error": f"no solver process ({e})"})
            return
        self.starting -= 1
        worker = Worker(child, channel, base)
        self.workers.add(worker)
        if job is None or job.future.done() or self._closed:  # (the app gave up meanwhile)
            self._idle(worker)
            return
        self._run(job, worker)

    async def _answer(self, job: Job, worker: Worker, request: dict[str, Any]) -> None:
        reply = await worker.ask(request)
        if job.worker is not worker:
            return  # cancelled: the worker was killed
        job.worker = None
        self._drop(worker)
        self.workers.add(worker)
        self.answered += 1
        if not job.future.done():
            job.future.set_result(reply)
        if worker.gone:
            self.workers.discard(worker)
            worker.stop()
        else:
            self._idle(worker)
        self._dispatch()

    def _idle(self, worker: Worker) -> None:
        """A worker with nothing to do: kept while the pool has room, else ended."""
        if self.queue and not self._closed:
            self._run(self._next(), worker)
            return
        if self._closed or len(self.workers) > self.size:
            self.workers.discard(worker)
            worker.stop()
            return
        self.idle.append(worker)
