"""One pool of solver workers for the whole server, shared fairly by the players.

Without it every session's app starts its own solver worker (about 18 MiB and
a Python start-up each). Under ``serve`` the apps talk to this pool instead:
the server listens on a Unix socket (in a private directory) and passes its
path in each app's environment (``TERMSOLITAIRE_SOLVER_POOL``); the app's
:class:`~termsolitaire.solver.worker.SolverWorker` then opens a connection
where it would have started a process, and speaks the same JSON lines.

The rules of the queue:

- **Workers**: :attr:`SolverPool.size` kept warm (one per core by default),
  forked from the server's warm process (:meth:`.prestart.Prestart.fork_solver`:
  the imports it holds are shared with the sessions' pages, not loaded again in
  a process of their own) once it is ready, spawned while there is none (the
  spawned ones make way for forked ones when it is back, :meth:`SolverPool.renew`);
  a worker that dies is replaced at once. Each is in a session of its own: where Linux
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
import signal
import socket
import stat
import struct
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

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


class Forker(Protocol):
    """What forks the pool's workers (the server's warm process, :mod:`.prestart`)."""

    async def fork_solver(self) -> tuple[int, socket.socket, asyncio.Future[int]] | None: ...


class ForkedChild:
    """A worker forked by the warm process: its parent reaps it and the pool learns
    its exit status from ``exited``; :meth:`kill` as :meth:`Child.kill`."""

    def __init__(self, pid: int, exited: asyncio.Future[int]) -> None:
        self.pid = pid
        self.exited = exited

    def kill(self) -> None:
        if not self.exited.done():
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)

    async def ended(self) -> int:
        return await asyncio.shield(self.exited)


class Worker:
    """One solver process (``termsolitaire.solver.worker:main``), spawned or forked."""

    def __init__(self, child: Child | ForkedChild, channel: AsyncLines, base: bool) -> None:
        self.child = child
        self.channel = channel
        self.base = base
        """One of the pool's :attr:`SolverPool.size` (else started for one request)."""
        self.job: Job | None = None
        self.gone = False
        self.stopped = False
        self.stale = False
        """Spawned while the warm process was not ready: to make way for a forked one."""

    @property
    def forked(self) -> bool:
        return isinstance(self.child, ForkedChild)

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
        self.stopped = True
        self.child.kill()
        if self.forked:  # (a spawned one's pipes close with it)
            self.channel.close()


class SolverPool:
    """The server's solver workers and their queue (see the module's notes)."""

    def __init__(
        self,
        size: int | None = None,
        limit: int | None = None,
        forker: Forker | None = None,
    ) -> None:
        self.size = size or default_size()
        self.forker = forker
        """Where workers are forked from (None: they are spawned); see :meth:`renew`."""
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
        self._said: set[str] = set()

    def environment(self) -> dict[str, str]:
        """What an app's environment needs to use the pool."""
        return {POOL_ENV: str(self.path)}

    @property
    def pids(self) -> set[int]:
        return {w.pid for w in self.workers}

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._client, str(self.path), limit=LIMIT)
        os.chmod(self.path, 0o600)
        if self.forker is None:  # warm before the first player asks (else: at renew)
            self._refill()
        log.info(
            "solver pool: %d workers (at most %d at once) at %s%s",
            self.size,
            self.limit,
            self.path,
            ", forked from the warm process once it is ready" if self.forker else "",
        )

    def renew(self) -> None:
        """The warm process is ready (at the server's start, or back after it died):
        the workers spawned meanwhile make way for forked ones (an idle one now, a
        busy one once it has answered), and the pool is filled up to its size."""
        if self.forker is None or self._closed:
            return
        for worker in self.workers:
            worker.stale = not worker.forked
        for worker in [w for w in self.idle if w.stale]:
            self._retire(worker)
        self._refill()

    def _refill(self) -> None:
        """Start workers until the pool has its :attr:`size` (running or starting)."""
        while not self._closed and len(self.workers) + self.starting < self.size:
            self._spawn(None, base=True)

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
            self._retire(worker)
            self._dispatch()

    def _retire(self, worker: Worker) -> None:
        """``worker`` goes (out of the pool, stopped), and the pool is filled up
        to its :attr:`size` again."""
        self._drop(worker)
        worker.stop()
        self._refill()

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
            worker = await self._forked(base) or await self._spawned(base)
        except OSError as e:
            self.starting -= 1
            log.warning("solver pool: a worker did not start (%s)", e)
            if job is not None and not job.future.done():
                job.future.set_result({"ok": False, "error": f"no solver process ({e})"})
            return
        self.starting -= 1
        self.workers.add(worker)
        if isinstance(worker.child, ForkedChild):
            worker.child.exited.add_done_callback(lambda ended: self._exited(worker, ended))
        if job is None or job.future.done() or self._closed:  # (the app gave up meanwhile)
            self._idle(worker)
            return
        self._run(job, worker)

    async def _forked(self, base: bool) -> Worker | None:
        """A worker forked from the warm process, or None (none there to fork it)."""
        if self.forker is None:
            return None
        forked = await self.forker.fork_solver()
        if forked is None:
            return None
        pid, sock, exited = forked
        try:
            reader, writer = await asyncio.open_unix_connection(sock=sock, limit=LIMIT)
        except OSError:
            sock.close()
            ForkedChild(pid, exited).kill()
            raise
        self._say("forked", "solver pool: workers forked from the warm process")
        channel = AsyncLines(reader, writer, writer.transport)
        return Worker(ForkedChild(pid, exited), channel, base)

    async def _spawned(self, base: bool) -> Worker:
        if self.forker is not None:
            self._say("spawned", "solver pool: no warm process to fork from: spawning workers")
        child = Child.spawn("termsolitaire.solver.worker:main", session=True)
        return Worker(child, await child.async_lines(), base)

    def _say(self, what: str, line: str) -> None:
        """Say ``line`` in the log the first time, and again after the other kind."""
        if what not in self._said:
            self._said = {what}
            log.info(line)

    def _exited(self, worker: Worker, ended: asyncio.Future[int]) -> None:
        """A forked worker has ended. One the pool did not stop (it crashed, or was
        killed) is replaced at once, so the next request finds the pool full; one in a
        search is left to :meth:`_answer`, which sees its channel close."""
        if worker.stopped or worker.job is not None or worker not in self.workers:
            return
        log.warning(
            "solver pool: worker pid=%s ended (exit=%s); another starts", worker.pid, ended.result()
        )
        self._retire(worker)  # (stopping it closes its channel)
        self._dispatch()

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
            self._retire(worker)
        else:
            self._idle(worker)
        self._dispatch()

    def _idle(self, worker: Worker) -> None:
        """A worker with nothing to do: kept while the pool has room, else ended."""
        if self.queue and not self._closed:
            self._run(self._next(), worker)
            return
        if self._closed or len(self.workers) > self.size or worker.stale:
            self._retire(worker)
            return
        self.idle.append(worker)
