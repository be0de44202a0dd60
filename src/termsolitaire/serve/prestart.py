"""The server's side of the warm process (:mod:`.warm`): start it, ask it for apps,
learn how they end, and spawn instead whenever it cannot.

:class:`Prestart` keeps one warm process. :meth:`Prestart.fork` sends it a new
session's pty and the app's command line, environment and directory; it
answers with the pid of a child that already has the app imported. Every
failure (no warm process yet, it died, it refused, a command line it cannot
run) is None, and the session spawns its app as before: a login is never
refused for want of a warm process. :meth:`Prestart.fork_solver` forks a
worker of the solver pool the same way (:mod:`.solverpool`). The first time
the server spawns for each reason, and every time the warm process dies or
comes back, it says so in the log. A dead warm process is started again
after :data:`RESTART` seconds.

A forked app is the warm process's child, so the warm process reaps it and
sends its exit status. Should the warm process die first, its children are
this server's (the server is their *subreaper*, :func:`become_subreaper`), and
the server reaps them itself (:meth:`ForkedApp`'s watch, :func:`reap_strays`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import immortal

log = logging.getLogger("termsolitaire.serve")

RESTART = 5.0
"""Seconds after the warm process died before another is started."""
ANSWER = 5.0
"""Seconds to wait for the warm process to fork; longer, and the session spawns."""
PR_SET_CHILD_SUBREAPER = 36


def app_arguments(command: Sequence[str]) -> list[str] | None:
    """The arguments of ``termsolitaire`` in the app's command line, when it is this
    program run by this interpreter (what the warm process can fork); else None.

    >>> app_arguments([sys.executable, "-m", "termsolitaire", "match"])
    ['match']
    >>> app_arguments(["/bin/sh", "-c", "exit 3"]) is None
    True
    """
    ours = [sys.executable, "-m", "termsolitaire"]
    if list(command[:3]) == ours:
        return list(command[3:])
    return None


def become_subreaper() -> bool:
    """Orphans below this process (a forked app whose warm process died) become its
    children, so it can reap them and learn their exit status (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except Exception:
        return False


def reap_strays(known: set[int]) -> list[int]:
    """Reap this process's ended children that nobody waits for (grandchildren
    handed up to a subreaper); ``known``: pids whose owners reap them."""
    reaped: list[int] = []
    try:
        tasks = list(Path("/proc/self/task").iterdir())
    except OSError:
        return reaped
    pids: set[int] = set()
    for task in tasks:
        with contextlib.suppress(OSError, ValueError):
            pids.update(int(p) for p in (task / "children").read_text().split())
    for pid in pids - known:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state == "Z":
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
                reaped.append(pid)
    return reaped


class Prestart:
    """One warm process, restarted when it dies; see the module's notes."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: socket.socket | None = None
        self.ready = False
        self.stopped = False
        self.next_id = 1
        self.waiting: dict[int, asyncio.Future[int | None]] = {}
        self.exits: dict[int, asyncio.Future[int]] = {}
        """Forked apps still running, by pid: their exit status when the warm process
        reports it."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.orphans: set[int] = set()
        """Forked apps whose warm process died, reaped by :func:`_reap_orphan`."""
        self.ending: set[int] = set()
        """Dead warm processes not yet reaped by :meth:`_ended` (still ours to reap:
        the server's sweep would otherwise take the zombie and its exit status)."""
        self.said: set[str] = set()
        self.ready_event = asyncio.Event()
        self.on_ready: list[Callable[[], None]] = []
        """Called each time a warm process is ready (the solver pool forks its workers)."""
        self._loop = asyncio.get_running_loop()
        self._restart: asyncio.TimerHandle | None = None
        self.started_at = 0.0
        self.cpu = 0.0
        """CPU-seconds the warm process took to import everything."""

    # ------------------------------------------------------------ the warm process

    def start(self) -> None:
        """Start a warm process (it says when it is ready)."""
        if self.stopped or self.proc is not None:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "termsolitaire.serve.warm", str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=None,
                env=self.env,
                pass_fds=(theirs.fileno(),),
                close_fds=True,
                start_new_session=True,
            )
        except OSError as e:
            ours.close()
            log.warning("prestart: the warm process did not start (%s): spawning apps", e)
            self._schedule_restart()
            return
        finally:
            theirs.close()
        ours.setblocking(False)
        self.channel = ours
        self.started_at = time.monotonic()
        self._loop.add_reader(ours.fileno(), self._readable)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def owned(self) -> set[int]:
        """Processes this object reaps (the warm process, orphaned apps)."""
        own = self.orphans | self.ending
        return own | ({self.proc.pid} if self.proc is not None else set())

    def _readable(self) -> None:
        channel = self.channel
        if channel is None:
            return
        while True:
            try:
                data = channel.recv(1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            self._message(json.loads(data))

    def _message(self, message: Mapping[str, Any]) -> None:
        if "ready" in message:
            self.ready = True
            self.ready_event.set()
            self.cpu = float(message.get("cpu", 0.0))
            failed = message.get("failed") or []
            rehearsal = message.get("rehearsal") or []
            log.info(
                "prestart: warm process pid=%s ready in %.1f s (%.2f CPU-s)%s%s%s%s",
                message["ready"],
                time.monotonic() - self.started_at,
                self.cpu,
                memory_note(message),
                "; its pages offered to same-page merging" if message.get("merging") else "",
                f"; could not import {', '.join(failed)}" if failed else "",
                f"; its rehearsal failed ({'; '.join(rehearsal)})" if rehearsal else "",
            )
            for call in self.on_ready:
                call()
        elif "exit" in message:
            future = self.exits.pop(int(message["exit"]), None)
            if future is not None and not future.done():
                future.set_result(int(message["status"]))
        elif "id" in message:
            waiting = self.waiting.pop(int(message["id"]), None)
            if "error" in message:
                why = message["error"]
                self._say_once("refused", f"prestart: the warm process refused ({why})")
            if waiting is not None and not waiting.done():
                waiting.set_result(message.get("pid"))

    def _lost(self) -> None:
        """The warm process has gone: spawn from now on, start another soon."""
        if self.channel is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self.channel.fileno())
            self.channel.close()
            self.channel = None
        proc, self.proc = self.proc, None
        if proc is not None:
            self.ending.add(proc.pid)
        self.ready = False
        self.ready_event.clear()
        for asked in self.waiting.values():
            if not asked.done():
                asked.set_result(None)
        self.waiting.clear()
        orphans, self.exits = self.exits, {}
        for pid, future in orphans.items():  # now ours (subreaper), or init's
            self.orphans.add(pid)
            future.add_done_callback(functools.partial(self._reaped_orphan, pid))
            self._keep(self._loop.create_task(_reap_orphan(pid, future)))
        if not self.stopped:
            self._keep(self._loop.create_task(self._ended(proc)))

    async def _ended(self, proc: subprocess.Popen[bytes] | None) -> None:
        """Reap the dead warm process (its socket closes a moment before it is gone),
        say so, and start another soon."""
        status: int | None = None
        for _ in range(100):
            if proc is None or (status := proc.poll()) is not None:
                break
            await asyncio.sleep(0.02)
        if proc is not None:
            self.ending.discard(proc.pid)
        log.warning(
            "prestart: the warm process ended (exit=%s): spawning apps until it is back", status
        )
        self._schedule_restart()

    def _keep(self, task: asyncio.Task[None]) -> None:
        """Hold a background task until it is done (the loop keeps only weak ones)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _reaped_orphan(self, pid: int, _: object) -> None:
        self.orphans.discard(pid)

    def _schedule_restart(self) -> None:
        if not self.stopped and self._restart is None:

            def again() -> None:
                self._restart = None
                self.start()

            self._restart = self._loop.call_later(RESTART, again)

    def _say_once(self, reason: str, line: str) -> None:
        if reason not in self.said:
            self.said.add(reason)
            log.warning(line)

    # ------------------------------------------------------------ forking an app

    async def fork(
        self,
        command: Sequence[str],
        env: Mapping[str, str],
        tty: int,
        cwd: str | None,
        memory_mb: int,
    ) -> int | None:
        """A child of the warm process running ``command`` on ``tty`` (the pty's slave
        end, still ours to close); its pid, or None: spawn instead (logged)."""
        args = app_arguments(command)
        if args is None:
            self._say_once("command", "prestart: the app command is not termsolitaire: spawning")
            return None
        if not self.ready or self.channel is None:
            self._say_once("not ready", "prestart: no warm process yet: spawning")
            return None
        request = {"argv": args, "env": dict(env), "cwd": cwd, "memory_mb": memory_mb}
        return await self._ask(request, tty)

    async def fork_solver(self) -> tuple[int, socket.socket, asyncio.Future[int]] | None:
        """A worker for the server's solver pool, forked from the warm process (its
        imports shared with the sessions' pages, not loaded again in a process of its
        own; :func:`.warm.become_solver`): its pid, the pool's end of its channel (a
        connected socket), and the future of its exit status. None when the warm
        process cannot fork one (the pool spawns instead)."""
        if not self.ready or self.channel is None:
            return None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            pid = await self._ask({"solver": True}, theirs.fileno())
        finally:
            theirs.close()
        if pid is None:
            ours.close()
            return None
        return pid, ours, self.exits[pid]

    async def _ask(self, request: dict[str, Any], fd: int) -> int | None:
        """Send the warm process ``request`` with ``fd`` (still ours to close); the
        pid of the child it forked, or None (said once in the log, by reason)."""
        if not self.ready or self.channel is None:
            return None
        n, self.next_id = self.next_id, self.next_id + 1
        future: asyncio.Future[int | None] = self._loop.create_future()
        self.waiting[n] = future
        try:
            socket.send_fds(self.channel, [json.dumps({"id": n, **request}).encode()], [fd])
        except OSError as e:
            self.waiting.pop(n, None)
            self._say_once("send", f"prestart: cannot reach the warm process ({e}): spawning")
            return None
        try:
            pid = await asyncio.wait_for(future, ANSWER)
        except TimeoutError:
            self.waiting.pop(n, None)
            self._say_once("slow", f"prestart: no answer within {ANSWER:g} s: spawning")
            return None
        if pid is not None:
            self.exits[pid] = self._loop.create_future()
        return pid

    def exit_of(self, pid: int) -> asyncio.Future[int] | None:
        """The future of forked app ``pid``'s exit status (None: not one of ours)."""
        return self.exits.get(pid)

    async def stop(self) -> None:
        """End the warm process (the sessions it forked go on until they are hung up)."""
        self.stopped = True
        if self._restart is not None:
            self._restart.cancel()
        if self.channel is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self.channel.fileno())
            self.channel.close()  # it ends at the end of its input
            self.channel = None
        proc, self.proc = self.proc, None
        if proc is not None:
            for _ in range(50):
                if proc.poll() is not None:
                    break
                await asyncio.sleep(0.02)
            else:
                proc.kill()
                proc.wait()


async def _reap_orphan(pid: int, future: asyncio.Future[int]) -> None:
    """A forked app whose warm process died: reap it ourselves once it ends (the
    subreaper adopted it). Where nobody handed it to us, only its end is known."""
    while not future.done():
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # not ours (no subreaper): watch it end
            if not Path(f"/proc/{pid}").exists():
                future.set_result(0)
                return
        else:
            if done:
                future.set_result(os.waitstatus_to_exitcode(status))
                return
        await asyncio.sleep(0.2)


def memory_note(message: Mapping[str, Any]) -> str:
    """What the warm process's ready message says of the sessions' memory, for the log.

    Where its objects could not be made immortal (Python 3.11, or a build the
    marker is not known for) a host learns from the log why a session costs
    some 24 MiB, and what to run instead (docs/scaling.md)."""
    if message.get("immortal"):
        return f"; {message['immortal']} objects made immortal"
    if not immortal.wanted() or immortal.supported():
        return ""
    return (
        f"; Python {sys.version_info.major}.{sys.version_info.minor} cannot keep the warm"
        " objects' counts shared: a session costs about 24 MiB, about 14 on"
        " CPython 3.12 or 3.13 (docs/scaling.md)"
    )
