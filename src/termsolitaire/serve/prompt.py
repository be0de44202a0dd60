"""A line prompt in the SSH channel, before the app starts (the name on a first
connection).

The channel is raw (``line_editor=False``: the app wants every key as it comes),
so the prompt echoes and edits by itself: printable characters echo, Backspace
and Ctrl-U erase, Enter ends the line, Ctrl-C and Ctrl-D give up.

What comes in is read as UTF-8 (a byte that is not UTF-8 becomes U+FFFD, which
no name accepts: the player is told, never silently given another name). Escape
sequences are dropped whole, whatever their kind: cursor keys and mouse reports
(CSI), and the strings a terminal or an attacker may send (OSC titles, DCS,
APC, PM, SOS, up to their terminator), in their 7-bit (``ESC ]``) and 8-bit
(U+009D) forms, so no part of one ends up in the line. An ESC that ends a read
is the Escape key (a terminal sends a key's whole sequence in one write): the
letter typed after it is the player's, not the end of a sequence. So is a CSI
or SS3 cut off by the end of a read (``ESC [ 1 ;``): no key sends that, and the
next read's first letter is typed, not taken as its final byte. A control
string (a title, DCS) may be long and still runs on across reads to its end.
"""

from __future__ import annotations

import asyncio
import codecs
from collections.abc import Awaitable, Callable

STRING_STARTS = {"]": "osc", "P": "dcs", "_": "apc", "^": "pm", "X": "sos"}
"""After ESC: the introducers of a control string (ended by BEL or ESC \\)."""
C1 = {"\x9b": "csi", "\x9d": "osc", "\x90": "dcs", "\x9f": "apc", "\x9e": "pm", "\x98": "sos"}
"""The same introducers as single 8-bit characters."""


class LineEditor:
    """Feed it the bytes a raw terminal sends; it answers what to echo, and the line
    when Enter came.

    >>> ed = LineEditor(limit=10)
    >>> ed.feed(b"bow\\x7fb\\x1b[Dby\\r")
    (b'bow\\x08 \\x08bby', 'bobby')
    >>> LineEditor().feed(b"a\\x1b]0;evil\\x07l\\x1b]2;x\\x1b\\\\ice\\r")[1]
    'alice'
    >>> LineEditor().feed("αlice\\r".encode())[1]
    'αlice'
    >>> ed.feed(b"\\x03")
    (b'', None)
    >>> ed.cancelled
    True
    """

    def __init__(self, limit: int = 40) -> None:
        self.limit = limit
        self.chars: list[str] = []
        self.cancelled = False
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode
        self._state = ""  # "", "esc", "csi", "ss3", "osc"..., or one of those + "-esc"

    def feed(self, data: bytes) -> tuple[bytes, str | None]:
        """Echo for ``data`` and the finished line (None while it goes on)."""
        echo: list[str] = []
        for ch in self._decode(data):
            if self._escape(ch):
                continue
            if ch in ("\r", "\n"):
                return "".join(echo).encode(), "".join(self.chars)
            if ch in ("\x03", "\x04"):
                self.cancelled = True
                return "".join(echo).encode(), None
            if ch in ("\x7f", "\x08"):
                if self.chars:
                    self.chars.pop()
                    echo.append("\b \b")
            elif ch == "\x15":  # Ctrl-U
                echo.append("\b \b" * len(self.chars))
                self.chars.clear()
            elif ch.isprintable() and len(self.chars) < self.limit:
                self.chars.append(ch)
                echo.append(ch)
        if self._state in ("esc", "csi", "ss3"):  # ESC, or a key cut off, ends with the read
            self._state = ""
        return "".join(echo).encode(), None

    def _escape(self, ch: str) -> bool:
        """Whether ``ch`` belongs to an escape sequence (and is dropped)."""
        state = self._state
        if not state:
            if ch == "\x1b":
                self._state = "esc"
            elif ch in C1:
                self._state = C1[ch]
            else:
                return False
            return True
        if state == "esc":
            if ch == "[":
                self._state = "csi"
            elif ch == "O":
                self._state = "ss3"
            elif ch in STRING_STARTS:
                self._state = STRING_STARTS[ch]
            else:
                self._state = ""  # a two-character sequence (ESC c, ESC 7, ...)
            return True
        if state == "csi":
            if "\x40" <= ch <= "\x7e":
                self._state = ""
            return True
        if state == "ss3":
            self._state = ""
            return True
        # A control string: until BEL, ST (ESC \) or the 8-bit ST (U+009C).
        if state.endswith("-esc"):
            self._state = "" if ch == "\\" else state[:-4]
        elif ch in ("\x07", "\x9c"):
            self._state = ""
        elif ch == "\x1b":
            self._state = state + "-esc"
        return True


async def ask_line(
    read: Callable[[], Awaitable[bytes]],
    write: Callable[[bytes], None],
    question: str,
    timeout: float | None,
    limit: int = 40,
) -> str | None:
    """Ask ``question`` and return the line typed; None when the player gave up (Ctrl-C,
    Ctrl-D, a closed connection). TimeoutError after ``timeout`` seconds without a key."""
    write(question.encode())
    editor = LineEditor(limit)
    while True:
        data = await asyncio.wait_for(read(), timeout)
        if not data:
            return None
        echo, line = editor.feed(data)
        if echo:
            write(echo)
        if editor.cancelled:
            write(b"\r\n")
            return None
        if line is not None:
            write(b"\r\n")
            return line.strip()
