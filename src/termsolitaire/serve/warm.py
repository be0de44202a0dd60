"""The warm process: the app imported once, forked for every new session.

``python -m termsolitaire.serve.warm FD`` is started by the server
(:mod:`.prestart`) with one end of a ``SOCK_SEQPACKET`` socket pair as ``FD``.
It imports what a session's app needs (Textual, the app, the screens, the
rules, the stores), rehearses a login headless (:mod:`.warmup`: the CSS parsed
and the caches filled once for every child), freezes its heap
(``gc.freeze()``: the collector never writes to those objects again, so their
pages stay shared with every child), says ``ready`` and waits. For each
request (a JSON message with the pty's slave end attached) it forks; the
child becomes the session's app on that pty exactly as a spawned one would
(:func:`become_app`), and the warm process answers with the child's pid. When
a child ends, the warm process reaps it and sends its exit status. The
server's solver pool has its workers forked the same way (a request with a
socket instead of a pty: :func:`become_solver`).

Fork safety: the warm process starts no thread, runs an event loop only for
its rehearsal (closed before the first fork), and checks before every fork
that it has only its main thread (a fork copies one thread; locks held by
others would stay locked in the child forever). The
child resets what a fresh interpreter would have fresh: its signal handlers
and mask, the random generator, the environment and locale, the standard
streams, and it closes every file but the pty (the control socket, the
wake-up pipe). It builds its own event loop and threads when its app runs.

No import of asyncssh or of the server: the warm process and its children
carry only the game.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import importlib
import io
import json
import locale
import os
import pkgutil
import random
import select
import signal
import socket
import sys
import termios
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from .heap import MERGE_ENV, fill_blocks, fill_holes, merge_pages
from .immortal import immortalize, wanted

PRELOAD = (
    "termsolitaire.cli",
    "termsolitaire.app",
    "termsolitaire.commands.match",
    "termsolitaire.commands.play",
    "termsolitaire.solver.worker",
    "textual.app",
    "textual.drivers.linux_driver",
    "textual._xterm_parser",
    "textual._compositor",
    "textual.screen",
    "textual.widgets",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.vertical",
    "textual.layouts.grid",
    "textual.layouts.stream",
    "textual.scrollbar",
    "textual.pilot",
    "textual.drivers.headless_driver",
    "rich.console",
    "rich.segment",
    "rich.cells",
    "rich._emoji_codes",
    "pwd",
)
"""Modules a session's app imports: loaded once, shared by every child."""
PACKAGES = (
    "termsolitaire.rules",
    "termsolitaire.storage",
    "termsolitaire.match",
    "termsolitaire.play",
    "termsolitaire.widgets",
    "termsolitaire.screens",
    "termsolitaire.terminal",
)
"""Packages loaded whole (every game's rules and screens: any may be opened)."""
SKIP = ("termsolitaire.storage.postgres", "termsolitaire.match.pgdb")
"""Loaded only when the server has a database (psycopg is an extra)."""
SESSION_ARGV = ("match",)
"""A session's command line (``config.APP_COMMAND`` after the program): its parser
is built before the fork (:func:`termsolitaire.cli.prebuild`)."""

YOUNG = 7000
"""The session's collector runs when this many more objects were made than freed
(Python's default: 700). Building its screens, a session makes some 100,000
objects, nearly all for good; at 700 the collector ran about 110 times and
took 6% of a login's CPU, at 7,000 about 10 times and half of that. The
garbage a session leaves to the collector waits at most 7,000 objects longer."""

MESSAGE = 1 << 18
"""The largest message either side sends (a request's environment is a few KiB)."""


def preload(database: bool) -> list[str]:
    """Import what an app needs; the modules that could not be (named for the log)."""
    failed: list[str] = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:
            failed.append(name)
    for package in PACKAGES:
        try:
            root = importlib.import_module(package)
        except Exception:
            failed.append(package)
            continue
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if info.name.endswith("__main__") or (not database and info.name in SKIP):
                continue
            try:
                importlib.import_module(info.name)
            except Exception:
                failed.append(info.name)
    with contextlib.suppress(Exception):  # the width table rich loads at its first card
        importlib.import_module("rich.cells").cell_len("♠→…")
    return failed


def prepare(database: bool, rehearse: bool = True) -> tuple[list[str], list[str], int]:
    """Everything done before the first fork: the imports, a session's command-line
    parser, the rehearsal (a headless login, :mod:`.warmup`: the CSS parsed and the
    caches filled once, for every child), then the heap collected, made immortal
    where the interpreter allows it (:mod:`.immortal`: Python 3.12 and 3.13; a
    session then writes no reference count of the warm objects it uses; off with
    ``TERMSOLITAIRE_IMMORTAL=0``) and frozen, and the C heap's free chunks taken
    (:mod:`.heap`: a session's large objects then take pages of their own); with
    the objects immortal, the small-object allocator's free blocks too
    (:func:`.heap.fill_blocks`).
    The modules that could not be imported, what went wrong in the rehearsal, and
    how many objects were made immortal (all three for the log)."""
    failed = preload(database)
    with contextlib.suppress(Exception):  # a session builds it then, as without this
        importlib.import_module("termsolitaire.cli").prebuild(SESSION_ARGV)
    problems: list[str] = []
    if rehearse:
        from .warmup import rehearse as login_once

        problems = login_once()
    gc.collect()
    immortal = immortalize() if wanted() else 0
    gc.freeze()
    fill_holes()
    if immortal:
        fill_blocks()
    return failed, problems, immortal


def send(channel: socket.socket, message: Mapping[str, Any]) -> None:
    channel.send(json.dumps(message).encode())


def main(argv: Sequence[str] | None = None) -> int:
    """The warm process; in a forked child, the app (this returns the app's status)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    channel = socket.socket(fileno=int(argv[0]))
    parent = os.getppid()  # the server
    _die_with_parent()
    started = time.process_time()
    merging = os.environ.get(MERGE_ENV) == "1" and merge_pages()
    failed, rehearsal, immortal = prepare(bool(os.environ.get("TERMSOLITAIRE_DATABASE")))
    wake_r, wake_w = os.pipe()
    for fd in (wake_r, wake_w):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, _nothing)
    send(
        channel,
        {
            "ready": os.getpid(),
            "cpu": round(time.process_time() - started, 3),
            "failed": failed,
            "rehearsal": rehearsal,
            "merging": merging,
            "immortal": immortal,
        },
    )
    while True:
        ready, _, _ = select.select([channel.fileno(), wake_r], [], [])
        if wake_r in ready:
            with contextlib.suppress(OSError):
                while os.read(wake_r, 512):
                    pass
            _report_exits(channel)
        if channel.fileno() not in ready:
            continue
        try:
            data, fds, _, _ = socket.recv_fds(channel, MESSAGE, 4)
        except OSError:
            return 0
        if not data:  # the server has gone: its sessions go on without us
            return 0
        request = json.loads(data)
        if len(fds) != 1:
            for fd in fds:
                os.close(fd)
            what = "channel" if request.get("solver") else "terminal"
            send(channel, {"id": request.get("id"), "error": f"no {what} came with it"})
            continue
        if threading.active_count() != 1:
            os.close(fds[0])
            send(channel, {"id": request.get("id"), "error": "the warm process has threads"})
            continue
        settled_r, settled_w = os.pipe()
        try:
            pid = os.fork()
        except OSError as e:
            for fd in (fds[0], settled_r, settled_w):
                os.close(fd)
            send(channel, {"id": request.get("id"), "error": f"fork: {e.strerror or e}"})
            continue
        if pid == 0:  # the child: leave the loop and become the app
            break
        os.close(fds[0])
        os.close(settled_w)
        with contextlib.suppress(OSError):  # the child closes its end once in its session
            os.read(settled_r, 1)
        os.close(settled_r)
        send(channel, {"id": request.get("id"), "pid": pid})
    if request.get("solver"):
        become_solver(fds[0], {parent, os.getppid()})
    become_app(request, fds[0])
    cli = importlib.import_module("termsolitaire.cli")
    status: int = cli.main(request["argv"])
    return status


def _nothing(signum: int, frame: Any) -> None:
    """SIGCHLD wakes ``select`` through the wake-up pipe; nothing else to do here."""


def _report_exits(channel: socket.socket) -> None:
    """Reap every child that ended and tell the server how."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(OSError):
            send(channel, {"exit": pid, "status": code})


def _die_with_parent() -> None:
    """The warm process ends with the server (its children, the sessions, do not)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes
            import ctypes.util

            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


FRESH_HANDLERS: dict[int, Any] = {
    signal.SIGINT: signal.default_int_handler,
    signal.SIGPIPE: signal.SIG_IGN,
    signal.SIGXFSZ: signal.SIG_IGN,
}
"""What a new interpreter has (every other signal: the default)."""


def become_app(request: Mapping[str, Any], tty: int) -> None:
    """In the forked child: what the spawn path's wrapper and a fresh interpreter
    would give the app. The pty is its controlling terminal and standard streams,
    in a session of its own (its own process group and autogroup); its address
    space limited; the warm process's files closed; signals, random generator,
    environment, locale and streams fresh."""
    _fresh_signals()
    os.setsid()
    for fd in (0, 1, 2):
        os.dup2(tty, fd)
    # The control socket, the wake-up pipe, the pty's copy; and the pipe whose end
    # tells the warm process this child is in a session of its own (the server
    # may now set its autogroup's priority).
    os.closerange(3, _max_fd())
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    limit = int(request.get("memory_mb", 0)) << 20
    if limit:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or limit <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    cwd = request.get("cwd")
    if cwd:
        os.chdir(cwd)
    os.environ.clear()
    os.environ.update(request["env"])
    with contextlib.suppress(locale.Error):
        locale.setlocale(locale.LC_CTYPE, "")
    random.seed()
    session_collector()
    sys.argv = ["termsolitaire", *request["argv"]]
    _fresh_streams()


def become_solver(channel: int, parents: set[int]) -> NoReturn:
    """In the forked child: a worker of the server's solver pool
    (:func:`termsolitaire.solver.worker.main`, as the spawned ones run it through
    :mod:`termsolitaire.children`), its JSON lines on ``channel`` (a socket whose
    other end the pool holds) as its standard input and output, nothing on its
    standard error, in a session of its own (a scheduling group of its own, as a
    spawned worker). It ends when its input does, and within half a second of its
    parent being neither the warm process nor the server (``parents``: the warm
    process may die and leave it to the server, its subreaper; a server gone leaves
    it to init). It leaves by ``os._exit`` once its input has ended: a forked
    process's interpreter would otherwise tear down the whole warm heap on its
    way out (34 ms of CPU and 8,600 page faults here, for every worker the pool
    ends after a burst)."""
    _fresh_signals()
    os.setsid()
    os.dup2(channel, 0)
    os.dup2(channel, 1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.closerange(3, _max_fd())  # the control socket, the wake-up pipe, these copies
    random.seed()
    _fresh_streams()
    threading.Thread(target=_watch_parents, args=(parents,), daemon=True).start()
    from ..solver.worker import main as worker

    worker()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    os._exit(0)


def _watch_parents(parents: set[int]) -> None:
    while os.getppid() in parents:
        time.sleep(0.5)
    os._exit(0)


def _fresh_signals() -> None:
    """The signal handlers and mask of a new interpreter."""
    signal.set_wakeup_fd(-1)
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, FRESH_HANDLERS.get(sig, signal.SIG_DFL))
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def session_collector() -> None:
    """The collector of a session: its youngest generation collected less often
    (:data:`YOUNG`); the older ones as Python has them."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


def _fresh_streams() -> None:
    """Standard streams on the pty, as Python opens them for a terminal (line-buffered,
    UTF-8; the old ones never close their descriptors)."""
    for fd, name, mode, errors in (
        (0, "stdin", "rb", "surrogateescape"),
        (1, "stdout", "wb", "surrogateescape"),
        (2, "stderr", "wb", "backslashreplace"),
    ):
        raw = io.FileIO(fd, mode, closefd=False)
        buffered = io.BufferedReader(raw) if mode == "rb" else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(
            buffered, encoding="utf-8", errors=errors, line_buffering=mode == "wb"
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _max_fd() -> int:
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (ValueError, OSError):
        return 1024


if __name__ == "__main__":
    raise SystemExit(main())
