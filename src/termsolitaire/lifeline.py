"""How the process ends when its terminal goes: saved, within two seconds, children too.

A terminal can go at any moment: the window closed in the first second, an SSH
link dropped mid-frame, ``kill`` from a supervisor. Whatever the app is doing
then (starting, drawing, waiting on a dialog, a search running), a *hang-up* —
SIGHUP, SIGTERM, the terminal's end of file, an I/O error reading or writing
it — must save the game and end the process, and every child it started must
go with it.

:func:`hang_up` is that one entry, callable from any thread and from a signal
handler. The first hang-up asks the app to save and leave (the ``graceful``
callback, run on the app's event loop) and starts a watchdog: if the process is
still here :data:`GRACE` seconds later (an event loop stuck in a write to a
terminal nobody reads, say), the children are killed and the process ends at
once. A second SIGHUP or SIGTERM ends it at once. Every action is saved as it
is played, so the watchdog loses at most the clock since the last move.

The signal handlers are plain ``signal.signal`` handlers, not the event loop's:
they run even when the loop is blocked.

Children register with :func:`adopt` (and :func:`disown` when they are gone):
:mod:`termsolitaire.children` does both, and on the child's side ends it with
its parent (:func:`termsolitaire.children.die_with_parent`).

No Textual import: the driver, the app and the solver worker all use it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not imported at run time: a child starts with this module
    import asyncio

GRACE = 1.5
"""Seconds the app has to save and leave after a hang-up before it is ended."""

_lock = threading.Lock()
_children: set[int] = set()
_graceful: Callable[[str], None] | None = None
_loop: asyncio.AbstractEventLoop | None = None
_reason: str | None = None
_signals = 0
_installed = False


def adopt(pid: int) -> None:
    """``pid`` is a child to kill should the process end at once."""
    with _lock:
        _children.add(pid)


def disown(pid: int) -> None:
    """``pid`` has ended (or is someone else's to end)."""
    with _lock:
        _children.discard(pid)


def hung_up() -> str | None:
    """Why the process is ending (``"SIGHUP"``, ``"terminal closed"``), or None."""
    return _reason


def install(graceful: Callable[[str], None], loop: asyncio.AbstractEventLoop) -> None:
    """Handle SIGHUP and SIGTERM from now on: ``graceful(reason)`` runs on ``loop``
    to save and leave. A hang-up seen before this call is acted on now."""
    global _graceful, _loop, _installed
    _graceful, _loop = graceful, loop
    with contextlib.suppress(ValueError, OSError):  # not the main thread
        for sig in (signal.SIGHUP, signal.SIGTERM):
            signal.signal(sig, _on_signal)
        _installed = True
    if _reason is not None:
        _schedule(_reason)


def uninstall() -> None:
    """Back to the default handlers (the app has left; tests start several apps)."""
    global _graceful, _loop, _installed, _reason, _signals
    if _installed:
        with contextlib.suppress(ValueError, OSError):
            for sig in (signal.SIGHUP, signal.SIGTERM):
                signal.signal(sig, signal.SIG_DFL)
    _graceful, _loop, _installed, _reason, _signals = None, None, False, None, 0


def _on_signal(signum: int, frame: Any) -> None:
    global _signals
    _signals += 1
    if _signals > 1:
        end_now(0)
    hang_up(signal.Signals(signum).name)


def hang_up(reason: str) -> None:
    """The terminal is gone or the process was asked to end: save and leave, and
    end for sure within :data:`GRACE` seconds. Any thread; only the first counts."""
    global _reason
    with _lock:
        if _reason is not None:
            return
        _reason = reason
    if _graceful is None:
        return  # no app yet: :func:`install` acts on it
    _schedule(reason)


def _schedule(reason: str) -> None:
    watchdog = threading.Thread(target=_watchdog, name="hang-up watchdog", daemon=True)
    watchdog.start()
    loop, graceful = _loop, _graceful
    if loop is None or graceful is None:
        return
    with contextlib.suppress(RuntimeError):  # the loop has closed: on its way out
        loop.call_soon_threadsafe(graceful, reason)


def _watchdog() -> None:
    threading.Event().wait(GRACE)
    end_now(0)


def kill_children() -> None:
    """SIGKILL every adopted child that is still registered."""
    with _lock:
        pids = list(_children)
        _children.clear()
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def end_now(status: int = 0) -> None:
    """Kill the children and end the process at once (no cleanup, no atexit)."""
    kill_children()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    os._exit(status)
