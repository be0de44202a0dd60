"""The thin driver between Textual and a real terminal (a console, an SSH pty).

Textual's Linux driver, made safe for a terminal that may vanish or misbehave:

- **Signals never re-enter a frame.** Textual handles SIGCONT and SIGTSTP in
  signal handlers that write to the terminal, and a handler runs wherever the
  main thread happens to be, such as halfway through a frame. Here both run on
  the event loop instead (after the frame in progress); a SIGCONT that was not a
  resume from a suspension redraws the whole screen once, or nothing when the
  terminal is gone. Should any other handler write, what it writes waits until
  the write in progress is done.
- **A hang-up ends the app.** End of file or an I/O error on the terminal (read
  or write) is a hang-up (:mod:`termsolitaire.lifeline`): the app saves and
  leaves, and the process ends within two seconds whatever state it is in.
  Textual's own input loop would spin on the end of file forever.
- **Input is bounded.** Bytes that are not UTF-8 are read as Latin-1 (a
  Latin-1 terminal's ``é`` is ``é``), never a crash. Keys beyond what a person
  can type, mouse reports beyond what a hand can make and a paste beyond
  :data:`PASTE_LIMIT` are dropped once parsed (dropping bytes would cut escape
  sequences into stray keys), and the app is told (:class:`InputDropped`) so it
  can say so. A paste too long is dropped whole, never cut: its first 4096
  characters went into whatever had the focus, unannounced (a 10 kB paste into
  the lobby's code dialog). A paste that never ends does not grow without bound.
- **Only the cells that changed are sent** (:class:`~.shadow.Shadow`), unless
  ``TERMSOLITAIRE_PLAIN_OUTPUT=1``.

Everything here that reaches into Textual's private parts is listed in
:data:`termsolitaire.textual_hooks.HOOKS` and checked by a test.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import re
import selectors
import signal
import termios
import threading
import time
from typing import Any, cast

from textual import events
from textual.message import Message

from .. import lifeline, textual_hooks
from ..rate import Bucket
from .shadow import DEFAULT, NotAFrame, Shadow

SYNC_START, SYNC_END = "\x1b[?2026h", "\x1b[?2026l"
SYNC_WORTH = 1024
"""Smaller updates go out without synchronized-output brackets (16 bytes): a few
cells cannot tear."""
POINTER_SHAPE = "\x1b]22;"
"""The start of the mouse pointer's shape (Kitty's OSC 22), which Textual writes
whenever a screen's shape is set: at every new screen, the same ``default``."""

HARMLESS = re.compile(
    r"(?:\x1b\[\?(?:1|12|25|1000|1002|1003|1004|1005|1006|1015|1016|2004|2026|2048)[hl]"
    r"|\x1b\[\?[\d;]*\$p|\x1b\[[<>=?][\d;]*u|\x1b\[[<>]?u|\x1b[=>]|\x07"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))*"
)
"""Writes that change neither the screen nor the pen nor the cursor: modes (mouse,
focus, paste, cursor visibility), queries, keyboard protocol, titles, the bell."""

KEYS_PER_SECOND, KEY_BURST = 40.0, 120
"""Keys a person can type (a held key repeats at about 30 a second)."""
MOUSE_PER_SECOND, MOUSE_BURST = 250.0, 500
"""Mouse reports a moving hand makes."""
PASTE_LIMIT = 4096
"""The longest paste taken, in characters (the longest thing anyone pastes here is
a share code: a Spider game of 800 actions, 351 characters); a longer one is
dropped whole."""
STALLED_BYTES = 65_536
"""Bytes fed to the parser without an event coming out (a paste that never ends):
the parser starts over."""

_LATIN1 = "termsolitaire.latin1"

ESCAPE_THEN_KEY = re.compile(r"\x1b(?=[ -NQ-WYZ`-~])")
"""An ESC that a printable character follows in the same read where no
sequence starts (``[`` CSI: the arrows, the mouse; ``O`` SS3: F1-F4; ``P``,
``X``, ``]``, ``^``, ``_`` and ``\\``: the strings a terminal answers queries
with): a player's Escape and the key they pressed next, sent together (over
SSH, or typed fast). Textual's parser reads the pair as one Alt key, and loses
the Escape of an Escape and a space, ``#`` or ``?`` (and of ``f`` and ``b``,
which it reads as Ctrl+arrows). :func:`escape_first` sends the Escape alone."""
KITTY_ESCAPE = "\x1b[27u"
"""The Escape key in the kitty keyboard protocol: the parser reads it as Escape
at once, and the character after it as a key of its own."""


def escape_first(text: str) -> str:
    r"""``text`` with each Escape that came with a key sent on its own.

    >>> escape_first("\x1b \x1bf\x1b[A\x1bOP\x1b]11;?\x1b\\")
    '\x1b[27u \x1b[27uf\x1b[A\x1bOP\x1b]11;?\x1b\\'
    """
    return ESCAPE_THEN_KEY.sub(KITTY_ESCAPE, text) if "\x1b" in text else text


TICK = 0.1
"""Seconds between two looks at the parser while input may be in flight (a lone
ESC is a key once Textual's escape delay has passed with nothing after it)."""
QUIET = 1.0
"""Seconds after the last input (and while dropped keys wait to be reported)
during which the input thread looks every :data:`TICK`; after that it sleeps
until input comes or the driver stops. Textual's own loop wakes every 0.1 s
for good: 10 wake-ups a second of every idle session, 0.8-0.9 ms of CPU a
second on Python 3.12 (a quarter of an idle board's)."""


def _latin1(error: UnicodeError) -> tuple[str, int]:
    """Decode the bytes UTF-8 refused as Latin-1, one for one."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error(_LATIN1, _latin1)


class InputDropped(Message):
    """Input beyond what a person sends was dropped: ``keys`` keys, pastes and
    mouse reports; ``paste``: the length of the longest paste dropped for being
    too long (0: none)."""

    def __init__(self, keys: int, paste: int = 0) -> None:
        super().__init__()
        self.keys = keys
        self.paste = paste


class WakingEvent(threading.Event):
    """The driver's ``exit_event``: setting it also wakes the input thread's
    ``select`` (through a pipe's write end, while the thread runs)."""

    def __init__(self) -> None:
        super().__init__()
        self._wake: int | None = None
        self._wake_lock = threading.Lock()

    def wake_through(self, fd: int | None) -> None:
        """Write to ``fd`` (a pipe's write end) at each :meth:`set` from now on;
        None: no more. After ``wake_through(None)`` returns, no :meth:`set` is
        still writing to the old ``fd``, so its owner may close it (its number
        may then be reused by another file, which a ``set`` must never write to)."""
        with self._wake_lock:
            self._wake = fd

    def set(self) -> None:
        super().set()
        with self._wake_lock:
            if self._wake is not None:
                with contextlib.suppress(OSError):
                    os.write(self._wake, b"x")


class Gate:
    """What of the input reaches the app: events within their buckets, pastes up to
    :data:`PASTE_LIMIT`; it counts what it drops."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.keys = Bucket(KEYS_PER_SECOND, KEY_BURST, clock)
        self.mouse = Bucket(MOUSE_PER_SECOND, MOUSE_BURST, clock)
        self.dropped_keys = 0
        self.dropped_paste = 0

    def admit(self, event: Message) -> Message | None:
        """``event`` as the app gets it, or None when it is dropped."""
        if isinstance(event, events.MouseEvent):
            bucket = self.mouse
        elif isinstance(event, events.Key | events.Paste):
            bucket = self.keys
        else:
            return event
        if not bucket.take():
            self.dropped_keys += 1
            return None
        if isinstance(event, events.Paste) and len(event.text) > PASTE_LIMIT:
            self.dropped_paste = max(self.dropped_paste, len(event.text))
            return None
        return event

    def report(self) -> InputDropped | None:
        """What was dropped since the last report (None: nothing)."""
        if not (self.dropped_keys or self.dropped_paste):
            return None
        message = InputDropped(self.dropped_keys, self.dropped_paste)
        self.dropped_keys = self.dropped_paste = 0
        return message


class SafeFile:
    """The terminal as Textual's writer thread sees it: an error writing is a
    hang-up, and everything after it is dropped (a writer that died would leave
    the app blocked on a full queue)."""

    def __init__(self, file: Any) -> None:
        self.file = file
        self.dead = False

    def write(self, text: str) -> int:
        if not self.dead:
            try:
                self.file.write(text)
            except (OSError, ValueError) as e:
                self._died(e)
        return len(text)

    def flush(self) -> None:
        if not self.dead:
            try:
                self.file.flush()
            except (OSError, ValueError) as e:
                self._died(e)

    def _died(self, e: Exception) -> None:
        self.dead = True
        lifeline.hang_up(f"terminal write failed ({e})")

    def fileno(self) -> int:
        return int(self.file.fileno())

    def isatty(self) -> bool:
        return True


def plain_output() -> bool:
    """``TERMSOLITAIRE_PLAIN_OUTPUT=1``: Textual's own bytes, no shadow."""
    return os.environ.get("TERMSOLITAIRE_PLAIN_OUTPUT", "") not in ("", "0")


def driver_for(chosen: type[Any]) -> type[Any]:
    """The driver to use instead of Textual's ``chosen`` one: its Linux terminal
    driver made safe (and compact unless plain output is asked for); any other
    (headless, web, Windows) as it is."""
    if chosen.__module__ != "textual.drivers.linux_driver":
        return chosen
    return terminal_driver(chosen, compact=not plain_output())


def terminal_driver(base: type[Any], *, compact: bool = True) -> type[Any]:
    """``base`` (Textual's LinuxDriver) made safe; with ``compact``, writing
    frames through a :class:`Shadow`."""

    class TerminalDriver(base):  # type: ignore[misc]
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            self._file = SafeFile(cast(Any, self)._file)
            self._compact_frames = compact
            self._shadow: Shadow | None = None
            self._lock = threading.Lock()
            self._writer: int | None = None  # the thread inside write()
            self._deferred: list[str] = []  # written by a signal handler meanwhile
            self._damaged = True
            self._held: list[str] | None = None  # a synchronized update being put together
            self._pointer: str | None = None  # the pointer shape the terminal has
            self._suspended = False
            self._continue_due = False
            self.gate = Gate()
            self.exit_event = WakingEvent()
            # SIGCONT and SIGTSTP on the event loop, never inside a frame.
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                self._loop.add_signal_handler(signal.SIGCONT, self._sigcont)
                self._loop.add_signal_handler(signal.SIGTSTP, self._stopped)

        # ------------------------------------------------------ signals

        def _sigcont_application(self, *_: Any) -> None:
            """Textual's handler, should it still be installed: on to the loop."""
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._sigcont)

        def _sigcont(self) -> None:
            """SIGCONT, on the loop: continue once, however many came at once."""
            if not self._continue_due:
                self._continue_due = True
                self._loop.call_soon(self._continued)

        def _sigtstp_application(self, *_: Any) -> None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stopped)

        def _stopped(self) -> None:
            """SIGTSTP: give the terminal back and stop (on the loop)."""
            if self._auto_restart and not self._suspended:
                self.suspend_application_mode()
                self._suspended = True
            os.kill(os.getpid(), signal.SIGSTOP)

        def _continued(self) -> None:
            """SIGCONT (on the loop, after the frame in progress): back from a
            suspension, or a plain continue; the whole screen is drawn again once,
            unless the terminal is gone."""
            self._continue_due = False
            if lifeline.hung_up() is not None or self._file.dead:
                return
            if self._suspended:
                self._suspended = False
                try:
                    termios.tcgetattr(self.fileno)
                except termios.error:
                    lifeline.hang_up("terminal gone")
                    return
                self._must_signal_resume = True
                self.resume_application_mode()
            self._damaged = True
            self._pointer = None
            with contextlib.suppress(Exception):
                self._app.refresh(repaint=True, layout=True)

        def start_application_mode(self) -> None:
            self._pointer = None  # (again after a suspension: another program had it)
            super().start_application_mode()
            self._watch_resize()

        def _watch_resize(self) -> None:
            """A resize (SIGWINCH) makes the next frame start from a fresh shadow."""
            previous = signal.getsignal(signal.SIGWINCH)

            def resized(signum: int, frame: Any) -> None:
                self._damaged = True
                if callable(previous):
                    previous(signum, frame)

            with contextlib.suppress(ValueError):  # not the main thread
                signal.signal(signal.SIGWINCH, resized)

        # ------------------------------------------------------ input

        def run_input_thread(self) -> None:
            """Read the terminal until told to stop: parse, gate and pass on its
            input; its end of file or an error reading it is a hang-up."""
            from textual._xterm_parser import XTermParser
            from textual.constants import ESCAPE_DELAY

            fd = self.fileno
            selector = selectors.SelectSelector()
            selector.register(fd, selectors.EVENT_READ)
            wake, woken = os.pipe()
            os.set_blocking(woken, False)
            selector.register(wake, selectors.EVENT_READ)
            exit_event = self.exit_event
            if isinstance(exit_event, WakingEvent):
                exit_event.wake_through(woken)
            quiet = max(QUIET, 5 * ESCAPE_DELAY)
            last_input = time.monotonic()
            parser = XTermParser(self._debug)
            decode = codecs.getincrementaldecoder("utf-8")(_LATIN1).decode
            gate = self.gate
            fed = 0  # bytes fed since the parser last gave an event
            last_report = 0.0

            def deliver(messages: Any) -> None:
                nonlocal fed
                for message in messages:
                    fed = 0
                    admitted = gate.admit(message)
                    if admitted is not None:
                        self.process_message(admitted)

            try:
                while not self.exit_event.is_set():
                    busy = (
                        time.monotonic() - last_input < quiet
                        or gate.dropped_keys
                        or gate.dropped_paste
                    )
                    ready = selector.select(TICK if busy else None)
                    if any(key.fd == wake for key, _ in ready):
                        with contextlib.suppress(OSError):
                            os.read(wake, 64)
                        continue  # the driver stops: the loop's test ends it
                    if ready:
                        last_input = time.monotonic()
                        try:
                            data = os.read(fd, 4096)
                        except OSError as e:
                            if e.errno in (errno.EAGAIN, errno.EINTR):
                                continue
                            lifeline.hang_up(f"terminal read failed ({e.strerror or e})")
                            break
                        if not data:
                            lifeline.hang_up("terminal closed")
                            break
                        fed += len(data)
                        deliver(parser.feed(escape_first(decode(data))))
                        if fed > STALLED_BYTES:
                            parser, fed = XTermParser(self._debug), 0
                    deliver(parser.tick())
                    now = time.monotonic()
                    if now - last_report > 2.0 and (report := gate.report()) is not None:
                        last_report = now
                        self.send_message(report)
            finally:
                if isinstance(exit_event, WakingEvent):
                    exit_event.wake_through(None)
                selector.close()
                os.close(wake)
                os.close(woken)
            self.exit_event.wait()  # a hang-up: the app stops the driver soon

        # ------------------------------------------------------ output

        def write(self, data: str) -> None:
            me = threading.get_ident()
            if self._writer == me:  # a signal handler, halfway through a write
                self._deferred.append(data)
                return
            with self._lock:
                self._writer = me
                try:
                    self._write(data)
                    while self._deferred:
                        pending, self._deferred = "".join(self._deferred), []
                        self._write(pending)
                finally:
                    self._writer = None

        def _write(self, data: str) -> None:
            if data.startswith(POINTER_SHAPE):
                # The shape the terminal shows already: no packet of its own to the
                # player, at each new screen (13 bytes and a write, the terminal's
                # and an SSH server's).
                if data == self._pointer:
                    return
                self._pointer = data
            if not self._compact_frames:
                super().write(data)
                return
            if data == SYNC_START:
                self._held = []
                return
            if data == SYNC_END and self._held is not None:
                held, self._held = "".join(self._held), None
                if len(held) >= SYNC_WORTH:
                    held = SYNC_START + held + SYNC_END
                if held:
                    super().write(held)
                return
            out = self._compact(data)
            if self._held is not None:
                self._held.append(out)
            elif out:
                super().write(out)

        def process_message(self, message: Any) -> None:
            if isinstance(message, events.Resize):
                self._damaged = True
            super().process_message(message)

        def _compact(self, data: str) -> str:
            shadow = self._shadow
            if data.startswith("\x1b[") and data[2:3].isdigit():
                if self._damaged or shadow is None:
                    self._damaged = False
                    width, height = textual_hooks.terminal_size(self)
                    shadow = self._shadow = Shadow(width, height)
                pen = shadow.pen
                try:
                    return shadow.frame(data)
                except NotAFrame:  # Textual's frames start from the default pen
                    return ("\x1b[m" if pen != DEFAULT else "") + data
            if shadow is not None and not HARMLESS.fullmatch(data):
                reset = "\x1b[m" if shadow.pen not in (None, DEFAULT) else ""
                shadow.forget()
                return reset + data
            return data

    name = f"{'Compact' if compact else 'Safe'}{base.__name__}"
    TerminalDriver.__name__ = TerminalDriver.__qualname__ = name
    return TerminalDriver


def compact_driver(base: type[Any]) -> type[Any]:
    """``base`` made safe, writing frames through a :class:`Shadow`."""
    return terminal_driver(base, compact=True)
