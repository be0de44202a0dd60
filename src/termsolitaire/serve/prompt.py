"""A line prompt in the SSH channel, before the app starts (the name on a first
connection).

The channel is raw (``line_editor=False``: the app wants every key as it comes),
so the prompt echoes and edits by itself: printable characters echo, Backspace
and Ctrl-U erase, Enter ends the line, Ctrl-C and Ctrl-D give up, and escape
sequences (arrows, mouse) are dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

CSI_FINAL = range(0x40, 0x7F)


class LineEditor:
    """Feed it the bytes a raw terminal sends; it answers what to echo, and the line
    when Enter came.

    >>> ed = LineEditor(limit=10)
    >>> ed.feed(b"bow\\x7fb\\x1b[Dby\\r")
    (b'bow\\x08 \\x08bby', 'bobby')
    >>> ed.feed(b"\\x03")
    (b'', None)
    >>> ed.cancelled
    True
    """

    def __init__(self, limit: int = 40) -> None:
        self.limit = limit
        self.chars: list[str] = []
        self.cancelled = False
        self._escape = 0  # 0 none, 1 after ESC, 2 inside a CSI sequence

    def feed(self, data: bytes) -> tuple[bytes, str | None]:
        """Echo for ``data`` and the finished line (None while it goes on)."""
        echo = bytearray()
        for byte in data:
            if self._escape == 1:
                self._escape = 2 if byte in (0x5B, 0x4F) else 0  # ESC [ or ESC O
                continue
            if self._escape == 2:
                if byte in CSI_FINAL:
                    self._escape = 0
                continue
            if byte == 0x1B:
                self._escape = 1
            elif byte in (0x0D, 0x0A):
                return bytes(echo), "".join(self.chars)
            elif byte in (0x03, 0x04):
                self.cancelled = True
                return bytes(echo), None
            elif byte in (0x7F, 0x08):
                if self.chars:
                    self.chars.pop()
                    echo += b"\b \b"
            elif byte == 0x15:  # Ctrl-U
                echo += b"\b \b" * len(self.chars)
                self.chars.clear()
            elif 0x20 <= byte < 0x7F and len(self.chars) < self.limit:
                self.chars.append(chr(byte))
                echo.append(byte)
        return bytes(echo), None


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
