"""One app process on a pseudo-terminal of its own, driven from asyncio.

The app is started through a two-line wrapper that makes the pty its
controlling terminal before it execs the real command: the kernel then sends
SIGWINCH on a resize and, should the server itself die, SIGHUP when the pty's
master side closes, so no app outlives a crashed server unsaved. The wrapper
is a plain ``exec``, not a ``preexec_fn``: forking an asyncio server that has
threads must not run Python code in the child.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .prestart import Prestart

log = logging.getLogger("termsolitaire.serve")

CTTY = (
    "import fcntl, os, signal, sys, termios\n"
    "signal.signal(signal.SIGHUP, signal.SIG_DFL)\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "limit = int(sys.argv[1]) << 20\n"
    "if limit:\n"
    "    import resource\n"
    "    soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
    "    if hard == resource.RLIM_INFINITY or limit <= hard:\n"
    "        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))\n"
    "os.execvp(sys.argv[2], sys.argv[2:])\n"
)
"""Run in the child: let a hang-up end it again (a server started under ``nohup``
ignores SIGHUP, and an ignored signal stays ignored across ``exec``: its apps
would outlive it), take the pty (stdin) as controlling terminal, limit the
address space to ``argv[1]`` MiB (0: no limit), then become the app."""


TTY_CHUNK = 2048
"""Linux copies a write to a pty in pieces of this size, and the reader may wake
between two: a read of whole pieces is followed at once by one more without
waiting, so a frame bigger than a piece goes to the player in one SSH packet
(an app's frame of 2,900 bytes went in two or three) rather than several."""


def set_size(fd: int, cols: int, rows: int) -> None:
    """Tell the pty its size; with a controlling terminal the kernel sends SIGWINCH."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class AppProcess:
    """The app on a pty: :meth:`read` what it draws, :meth:`write` the keys,
    :meth:`resize`, :meth:`hang_up` (it saves and leaves), :meth:`wait`, :meth:`kill`."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes] | None,
        master: int,
        *,
        pid: int = 0,
        exited: asyncio.Future[int] | None = None,
    ) -> None:
        self.proc = proc
        self.master = master
        self.pid = proc.pid if proc is not None else pid
        self.forked = proc is None
        """Forked by the warm process (:mod:`.prestart`), not spawned."""
        self._loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[int] = self._loop.create_future()
        if exited is not None:  # a forked app: the warm process reports its end
            exited.add_done_callback(lambda f: self._reaped(f.result()))
        else:
            self._watch_exit()

    @classmethod
    async def fork(
        cls,
        prestart: Prestart,
        command: Sequence[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        cwd: str | None = None,
        memory_mb: int = 0,
    ) -> AppProcess | None:
        """:meth:`start`, forked from the warm process; None when it cannot (the
        caller spawns)."""
        master, slave = os.openpty()
        try:
            set_size(slave, *size)
            pid = await prestart.fork(command, env, slave, cwd, memory_mb)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        exited = prestart.exit_of(pid) if pid is not None else None
        if pid is None or exited is None:
            os.close(master)
            return None
        os.set_blocking(master, False)
        return cls(None, master, pid=pid, exited=exited)

    @classmethod
    def start(
        cls,
        command: Sequence[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        cwd: str | None = None,
        memory_mb: int = 0,
    ) -> AppProcess:
        """Start ``command`` on a new pty of ``size`` (columns, rows) in a new session,
        its address space limited to ``memory_mb`` MiB (0: not limited)."""
        master, slave = os.openpty()
        try:
            set_size(slave, *size)
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", CTTY, str(memory_mb), *command],
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
                close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        return cls(proc, master)

    # ------------------------------------------------------------ the pty

    async def read(self) -> bytes:
        """What the app drew since the last read; b"" once the app has closed the pty."""
        while True:
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                pass
            except OSError as e:  # EIO: no process holds the pty any more
                if e.errno in (errno.EIO, errno.EBADF):
                    return b""
                raise
            else:
                if data and len(data) % TTY_CHUNK == 0:
                    data += self._rest()
                return data
            await self._ready()

    def _rest(self) -> bytes:
        """What the app has written since, without waiting (b"": nothing yet)."""
        try:
            return os.read(self.master, 65536)
        except OSError:  # nothing more yet, or the app is gone: the next read says
            return b""

    async def write(self, data: bytes) -> None:
        """Give the app ``data`` (keys, mouse, paste), waiting while the pty is full."""
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.master, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except OSError as e:
                if e.errno in (errno.EIO, errno.EBADF):
                    return  # the app is gone: nobody to read the keys
                raise
            await self._ready(to_write=True)

    async def _ready(self, *, to_write: bool = False) -> None:
        """Wait until the pty has something to read (``to_write``: room to write)."""
        loop = self._loop
        if to_write:
            add, remove = loop.add_writer, loop.remove_writer
        else:
            add, remove = loop.add_reader, loop.remove_reader
        ready = loop.create_future()
        add(self.master, _set, ready)
        try:
            await ready
        finally:
            remove(self.master)

    def resize(self, cols: int, rows: int) -> None:
        """The client's window changed: the pty's size, and SIGWINCH (belt and braces)."""
        if cols <= 0 or rows <= 0:
            return
        with contextlib.suppress(OSError):
            set_size(self.master, cols, rows)
        self.signal(signal.SIGWINCH)

    # ------------------------------------------------------------ the process

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the app's process group (the app and anything it started)."""
        if self.returncode is not None:
            return
        try:
            os.killpg(self.pid, sig)
        except ProcessLookupError:
            pass
        except PermissionError:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def hang_up(self) -> None:
        """What a closing terminal does: the app saves every game and leaves."""
        self.signal(signal.SIGHUP)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)

    @property
    def returncode(self) -> int | None:
        return self._exited.result() if self._exited.done() else None

    @property
    def running(self) -> bool:
        """Not reaped yet (its exit is noticed as it happens)."""
        return not self._exited.done()

    async def wait(self, timeout: float | None = None) -> int | None:
        """The exit status (negative: killed by that signal), or None after ``timeout``."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._exited), timeout)
        except TimeoutError:
            return None

    async def stop(self, grace: float) -> int:
        """Hang up, give the app ``grace`` seconds to save and leave, then SIGKILL."""
        self.hang_up()
        status = await self.wait(grace)
        if status is None:
            log.warning("app pid=%d still running %g s after its hang-up: killed", self.pid, grace)
            self.kill()
            status = await self.wait(10.0)
        return status if status is not None else -signal.SIGKILL

    def close(self) -> None:
        """Close the pty (after the app is gone; a live app would get SIGHUP)."""
        if self.master >= 0:
            with contextlib.suppress(OSError):
                self._loop.remove_reader(self.master)
                self._loop.remove_writer(self.master)
            os.close(self.master)
            self.master = -1

    def _watch_exit(self) -> None:
        """Reap the child as soon as it exits: a pidfd where Linux has one, else polling."""
        try:
            pidfd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            self._loop.create_task(self._poll_exit())
            return

        def exited() -> None:
            self._loop.remove_reader(pidfd)
            os.close(pidfd)
            assert self.proc is not None
            self._reaped(self.proc.wait())

        self._loop.add_reader(pidfd, exited)

    async def _poll_exit(self) -> None:
        assert self.proc is not None
        while (status := self.proc.poll()) is None:
            await asyncio.sleep(0.2)
        self._reaped(status)

    def _reaped(self, status: int) -> None:
        if not self._exited.done():
            self._exited.set_result(status)


def _set(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
