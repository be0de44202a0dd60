"""The one way this program runs a child process of its own.

The solver worker (:mod:`.solver.worker`), the computer opponent
(:mod:`.match.computer`) and the Stjernen beam's helper
(:mod:`.solver.stjernen.pair`) are Python functions run in processes of their
own: a pure-Python search holds the GIL, so in a thread it would freeze the
screen. They are all started, talked to and ended the same way:

- **Spawn** (:meth:`Child.spawn`): ``python -m termsolitaire.children
  MODULE:FUNCTION`` with a clean environment (:func:`child_env`: the locale,
  ``PATH``, ``HOME``, the ``TERMSOLITAIRE_*`` settings and a ``PYTHONPATH``
  that finds the same code as the parent's, nothing else), stdin and stdout
  pipes, stderr where the caller says (default: nowhere). The parent adopts
  the pid (:func:`.lifeline.adopt`), so a hang-up that ends the process at
  once kills it too.
- **Parent death** (:func:`die_with_parent`, run by the trampoline before the
  function is imported): the child ends when its parent does. On Linux the
  kernel sends it SIGKILL (``PR_SET_PDEATHSIG``); everywhere a thread checks
  the parent twice a second; and every child's loop ends at the end of its
  input, which the parent's death closes. Spawn only from a thread that lives
  as long as the child is wanted (the event loop's, or the main thread): the
  kernel's signal comes when the *thread* that started the child ends.
- **Channel**: JSON lines (:class:`Lines`, blocking, for the children's side
  and for blocking parents; :class:`AsyncLines` for an asyncio parent), or
  length-prefixed pickle frames (:class:`Frames`) where JSON would cost a
  search its speed (the Stjernen helper's positions).
- **Stop and reap** (:meth:`Child.stop`): close the child's input (it ends
  by itself), SIGKILL it if it is still there :data:`GRACE` seconds later,
  and reap it, all in the background: ``stop`` returns at once, so an event
  loop never waits for a child. :meth:`Child.kill` is the same without the
  grace (a search abandoned), :meth:`Child.wait` / :meth:`Child.ended` wait
  for the end where a caller wants to.

No Textual import.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import dataclasses
import importlib
import io
import json
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

from . import lifeline

if TYPE_CHECKING:  # imported where an asyncio parent needs it: a child starts light
    import asyncio

GRACE = 1.0
"""Seconds a child has to end after its input closed, before it is killed."""

PARENT = "TERMSOLITAIRE_CHILD_OF"
"""The variable that tells a child its parent's pid (see :func:`die_with_parent`)."""

KEEP = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "SYSTEMROOT")
"""Variables a child keeps from the parent's environment, with every ``LC_*`` and
``TERMSOLITAIRE_*`` (and coverage's, so a measured run measures its children)."""
KEEP_PREFIXES = ("LC_", "TERMSOLITAIRE_", "COVERAGE_", "COV_CORE_")

LIMIT = 1 << 24
"""The longest line or frame a channel takes (16 MiB)."""


class ChildGone(EOFError):
    """The other side of a channel has closed it (ended, or died)."""


def child_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A child's environment: see :data:`KEEP`; ``PYTHONPATH`` is this process's
    ``sys.path``, so the child imports what the parent would (a test's engine too)."""
    env = {k: v for k, v in os.environ.items() if k in KEEP or k.startswith(KEEP_PREFIXES)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env[PARENT] = str(os.getpid())
    env.update(extra or {})
    return env


# ---------------------------------------------------------------- the parent's side


class Child:
    """One child process: ``python -m termsolitaire.children TARGET ARGS``."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.pid = proc.pid
        self._stopping = False
        self._reaper: threading.Thread | None = None
        self._gone = threading.Event()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]] = []
        self._lock = threading.Lock()
        self._async: AsyncLines | None = None
        lifeline.adopt(proc.pid)
        with _LIVE_LOCK:
            _LIVE.add(self)

    @classmethod
    def spawn(
        cls,
        target: str,
        *args: str,
        stderr: int | IO[Any] | None = subprocess.DEVNULL,
        env: Mapping[str, str] | None = None,
        session: bool = False,
    ) -> Child:
        """Start ``target`` (``"package.module:function"``, called with no arguments,
        its return value the exit status) in a child; ``args`` are its ``sys.argv[1:]``.
        ``session``: in a session of its own (a scheduling group of its own where
        Linux groups by session: a server's solver pool). OSError when it cannot start."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "termsolitaire.children", target, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=child_env(env),
            close_fds=True,
            start_new_session=session,
        )
        return cls(proc)

    # ------------------------------------------------------------ state

    @property
    def returncode(self) -> int | None:
        """The exit status once reaped (negative: killed by that signal), else None."""
        return self.proc.returncode if self._gone.is_set() else None

    @property
    def alive(self) -> bool:
        """Running, and not asked to stop."""
        return not self._stopping and self.proc.poll() is None

    # ------------------------------------------------------------ channels

    def lines(self) -> Lines:
        """A blocking JSON-lines channel on the child's stdin and stdout."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return Lines(self.proc.stdout.fileno(), self.proc.stdin.fileno())

    def frames(self) -> Frames:
        """A blocking pickle-frame channel on the child's stdin and stdout."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return Frames(self.proc.stdout.fileno(), self.proc.stdin.fileno())

    async def async_lines(self) -> AsyncLines:
        """A JSON-lines channel for the running event loop."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if self._async is None:
            self._async = await AsyncLines.open(self.proc.stdout, self.proc.stdin)
        return self._async

    # ------------------------------------------------------------ the end

    def stop(self, grace: float = GRACE) -> None:
        """End the child: its input closes now, SIGKILL ``grace`` seconds later if it
        is still running, then it is reaped. Returns at once (the waiting is done by
        a thread of its own); a second call changes nothing but may shorten the grace."""
        with self._lock:
            first = not self._stopping
            self._stopping = True
        if first:  # the pipes are closed here, on the caller's thread (an event loop's)
            if self._async is not None:
                self._async.close()  # off the event loop's watch before the pipes close
            for pipe in (self.proc.stdin, self.proc.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError, ValueError):
                        pipe.close()
        if grace <= 0:
            self._signal(signal.SIGKILL)
        if first:
            self._reaper = threading.Thread(
                target=self._reap, args=(grace,), name=f"reap {self.pid}", daemon=True
            )
            self._reaper.start()

    def kill(self) -> None:
        """:meth:`stop` with no grace: SIGKILL now (a search abandoned mid-way)."""
        self.stop(0)

    def wait(self, timeout: float | None = None) -> int | None:
        """Block until the child is reaped (after :meth:`stop`); its status, or None
        after ``timeout``."""
        if not self._gone.wait(timeout):
            return None
        return self.proc.returncode

    async def ended(self) -> int:
        """Wait on the event loop until the child is reaped (after :meth:`stop`)."""
        import asyncio

        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        with self._lock:
            if self._gone.is_set():
                return self.proc.returncode or 0
            self._waiters.append((loop, future))
        return await future

    def _signal(self, sig: int) -> None:
        if not self._gone.is_set():
            with contextlib.suppress(OSError):
                self.proc.send_signal(sig)

    def _reap(self, grace: float) -> None:
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGKILL)
            self.proc.wait()
        lifeline.disown(self.pid)
        with _LIVE_LOCK:
            _LIVE.discard(self)
        with self._lock:
            self._gone.set()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(_settle, future, self.proc.returncode or 0)

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_LIVE: set[Child] = set()
"""Every child not reaped yet."""
_LIVE_LOCK = threading.Lock()


def live_pids() -> set[int]:
    """The pids of every child started here and not reaped yet (their reapers wait
    for them: a process that reaps orphans leaves these alone)."""
    with _LIVE_LOCK:
        return {child.pid for child in _LIVE}


@atexit.register
def _kill_all() -> None:
    """This process is ending: every child still here (running, or in its grace)
    is killed now; nobody would be left to end it after the grace."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for child in live:
        with contextlib.suppress(OSError):
            child.proc.send_signal(signal.SIGKILL)


def _settle(future: asyncio.Future[int], status: int) -> None:
    if not future.done():
        future.set_result(status)


# ---------------------------------------------------------------- channels


class _Blocking:
    """Reads from ``inp`` and writes to ``out`` (file descriptors), blocking."""

    def __init__(self, inp: int, out: int) -> None:
        self.inp = inp
        self.out = out
        self.buffer = bytearray()
        self.closed = False

    def _fill(self, deadline: float | None) -> None:
        """Read one more chunk, waiting until ``deadline`` (time.monotonic) at most."""
        if deadline is not None:
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.inp], [], [], left)
            if not ready:
                raise TimeoutError
        try:
            chunk = os.read(self.inp, 1 << 20)
        except OSError as e:
            raise ChildGone(str(e)) from e
        if not chunk:
            self.closed = True
            raise ChildGone("the other side closed the channel")
        self.buffer += chunk
        if len(self.buffer) > LIMIT + 8:
            raise ChildGone("a message longer than the channel takes")

    def _deadline(self, timeout: float | None) -> float | None:
        return None if timeout is None else time.monotonic() + timeout

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.out, view) :]
        except OSError as e:
            raise ChildGone(str(e)) from e


class Lines(_Blocking):
    """JSON lines, blocking: :meth:`send` one value a line, :meth:`receive` the next.
    :class:`ChildGone` when the other side has closed; TimeoutError on a timeout."""

    def send(self, value: object) -> None:
        self._write(json.dumps(value).encode() + b"\n")

    def receive(self, timeout: float | None = None) -> Any:
        deadline = self._deadline(timeout)
        while (end := self.buffer.find(b"\n")) < 0:
            self._fill(deadline)
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        return json.loads(line)


_LEN = struct.Struct("<Q")


class _Pickler(pickle.Pickler):
    """``pickle`` as it is, but for the frozen dataclasses of modules compiled by
    mypyc (README, "Faster solver"): those are pickled as a call of their
    constructor with every field, as mypyc's own way back (setting each
    attribute) is refused by a frozen class. Pure-Python classes are untouched."""

    def reducer_override(self, obj: object) -> Any:
        cls = type(obj)
        if getattr(cls, "__mypyc_attrs__", None) is None or not dataclasses.is_dataclass(cls):
            return NotImplemented
        fields = dataclasses.fields(cls)
        params = getattr(cls, "__dataclass_params__", None)
        if params is None or not params.frozen or not all(f.init for f in fields):
            return NotImplemented
        return cls, tuple(getattr(obj, f.name) for f in fields)


class Frames(_Blocking):
    """Pickle frames, each with its length first; the same calls as :class:`Lines`.
    Only between two processes of this program (a pickle can run code)."""

    def send(self, value: object) -> None:
        out = io.BytesIO()
        _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        data = out.getvalue()
        self._write(_LEN.pack(len(data)) + data)

    def receive(self, timeout: float | None = None) -> Any:
        deadline = self._deadline(timeout)
        while len(self.buffer) < _LEN.size:
            self._fill(deadline)
        (n,) = _LEN.unpack_from(self.buffer)
        if n > LIMIT:
            raise ChildGone("a message longer than the channel takes")
        while len(self.buffer) < _LEN.size + n:
            self._fill(deadline)
        data = bytes(self.buffer[_LEN.size : _LEN.size + n])
        del self.buffer[: _LEN.size + n]
        return pickle.loads(data)


class AsyncLines:
    """JSON lines on an event loop: ``await send(value)``, ``await receive()``;
    :class:`ChildGone` once the other side has closed."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        read_transport: asyncio.BaseTransport,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.read_transport = read_transport

    @classmethod
    async def open(cls, inp: IO[bytes], out: IO[bytes]) -> AsyncLines:
        import asyncio

        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=LIMIT, loop=loop)
        rtransport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), inp
        )
        wtransport, protocol = await loop.connect_write_pipe(_write_protocol(), out)
        writer = asyncio.StreamWriter(wtransport, protocol, None, loop)
        return cls(reader, writer, rtransport)

    async def send(self, value: object) -> None:
        try:
            self.writer.write(json.dumps(value).encode() + b"\n")
            await self.writer.drain()
        except (OSError, RuntimeError) as e:  # a pipe closed, or its transport
            raise ChildGone(str(e)) from e

    async def receive(self) -> Any:
        try:
            line = await self.reader.readline()
        except (OSError, ValueError) as e:  # ValueError: a line over the limit
            raise ChildGone(str(e)) from e
        if not line.endswith(b"\n"):
            raise ChildGone("the other side closed the channel")
        return json.loads(line)

    def close(self) -> None:
        """Let go of the pipes (the child's end is :meth:`Child.stop`'s)."""
        with contextlib.suppress(Exception):
            self.writer.transport.abort()  # unsent bytes are for a child that is ending
        with contextlib.suppress(Exception):
            self.read_transport.close()


def _write_protocol() -> type[asyncio.streams.FlowControlMixin]:
    import asyncio

    class WriteProtocol(asyncio.streams.FlowControlMixin, asyncio.Protocol):
        """Flow control for a write pipe (what asyncio's own subprocess streams use)."""

    return WriteProtocol


# ---------------------------------------------------------------- the child's side

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Called first thing in a child: end it when ``parent`` (default: the pid the
    spawning parent left in :data:`PARENT`, else the current parent) ends. The
    kernel does it at once where it can (Linux); a thread checks twice a second
    anyway (a parent gone before the request, other systems)."""
    if parent is None:
        told = os.environ.get(PARENT, "")
        parent = int(told) if told.isdigit() else os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while True:
        threading.Event().wait(0.5)
        if os.getppid() != parent:
            os._exit(0)


def stdio() -> Lines:
    """The child's own JSON-lines channel: stdin in, stdout out."""
    return Lines(sys.stdin.fileno(), sys.stdout.fileno())


def stdio_frames() -> Frames:
    """The child's own pickle-frame channel: stdin in, stdout out."""
    return Frames(sys.stdin.fileno(), sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """The trampoline: ``python -m termsolitaire.children MODULE:FUNCTION [ARGS]``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or ":" not in argv[0]:
        print("usage: python -m termsolitaire.children MODULE:FUNCTION [ARGS]", file=sys.stderr)
        return 2
    die_with_parent()
    module, _, name = argv[0].partition(":")
    sys.argv = [argv[0], *argv[1:]]
    status = getattr(importlib.import_module(module), name)()
    return int(status or 0)


if __name__ == "__main__":
    raise SystemExit(main())
