"""Share codes: a whole game (game, variant, deal and every action) as one short line.

A **self-contained code** replays on any machine with no store at all
(``termsolitaire replay CODE``). It is base32 (RFC 4648 letters ``A``–``Z``
and digits ``2``–``7``, no padding; case, spaces and dashes are ignored on
input) of these bytes:

- one byte: the body's method (high four bits, :data:`METHODS`) and the game
  (low four bits, its place in :data:`GAME_IDS`);
- the variant's values, one varint each in the order the game declares them;
- the deal number, a varint;
- the body: the game's log (every action, ``undo`` and ``redo`` included), each
  action written as its index among the choices of the position it was played
  in: the legal moves sorted by their canonical text (API.md), then ``undo``
  when the game can undo, then ``redo`` when it can redo. Method 4 (the one
  :func:`encode` uses) writes the count of actions as a varint and then all
  the indices as one mixed-radix integer (each index costs log2 of its number
  of choices, in bits); methods 0–3 (varint indices, raw or through zlib, bz2
  or lzma) are what it was measured against (docs/share.md) and still decode;
- a CRC-32 of everything before it (four bytes, big-endian).

Any single changed character is caught: the CRC catches every error burst of up
to 32 bits, and a character is five; the last character's unused bits are
checked by writing the decoded bytes out again. Every mistake in a code raises
:class:`BadCode` with one sentence for the player.

Replaying the log gives the very game that was played: the same history (the
current line), the same position, Spider's score with its undos.

>>> from termsolitaire.rules import new_game
>>> g = new_game("penguin", deal=5)
>>> _ = g.play(g.legal_moves()[0])
>>> code = encode(g)
>>> decode(code).history == g.history
True
"""

from __future__ import annotations

import base64
import bz2
import lzma
import re
import zlib
from collections.abc import Callable, Iterator, Sequence

from .actions import apply
from .game import Game
from .moves import IllegalMove
from .registry import info, new_game

GAME_IDS: tuple[str, ...] = ("napoleon", "penguin", "spider", "stjernen")
"""A game's number in a code: its place here. A new game is added at the end."""

HOST_CODE_MAX = 8
"""A code of at most this many characters is a host code (the store's); a
self-contained code is always longer (its header and CRC alone take 7 bytes)."""

RAW, ZLIB, BZ2, LZMA, RADIX = range(5)
METHODS = {RAW: "varint", ZLIB: "zlib", BZ2: "bz2", LZMA: "lzma", RADIX: "mixed radix"}


class BadCode(ValueError):
    """A code that is not one: ``str(e)`` is the sentence to show."""


# ------------------------------------------------------------------ choices


def choices(game: Game) -> list[str]:
    """What can be done in ``game``'s position, in the order a code numbers them."""
    out = sorted(str(m) for m in game.legal_moves())
    if game.can_undo:
        out.append("undo")
    if game.can_redo:
        out.append("redo")
    return out


def indices(game: Game) -> list[tuple[int, int]]:
    """``(index, number of choices)`` for each action of ``game``'s log, replayed
    from its deal."""
    if game.deal is None:
        raise BadCode("This game has no deal number: it cannot be shared as a code")
    g = new_game(game.name, game.deal, **game.variant)
    out = []
    for action in game.log:
        options = choices(g)
        out.append((options.index(action), len(options)))
        apply(g, action)
    return out


# ------------------------------------------------------------------ varints


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def varint(self) -> int:
        n = shift = 0
        while True:
            if self.at >= len(self.data) or shift > 70:
                raise BadCode("This code is cut short")
            byte = self.data[self.at]
            self.at += 1
            n |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return n

    def rest(self) -> bytes:
        out, self.at = self.data[self.at :], len(self.data)
        return out


# ------------------------------------------------------------------ bodies


def _varints(values: Sequence[int]) -> bytes:
    return b"".join(_varint(v) for v in values)


_PACK: dict[int, Callable[[bytes], bytes]] = {
    RAW: lambda b: b,
    ZLIB: lambda b: zlib.compress(b, 9),
    BZ2: lambda b: bz2.compress(b, 9),
    LZMA: lambda b: lzma.compress(b, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}]),
}
_UNPACK: dict[int, Callable[[bytes], bytes]] = {
    RAW: lambda b: b,
    ZLIB: zlib.decompress,
    BZ2: bz2.decompress,
    LZMA: lambda b: lzma.decompress(b, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}]),
}


def _body(method: int, steps: Sequence[tuple[int, int]]) -> bytes:
    if method == RADIX:
        n = 0
        for index, radix in reversed(steps):
            n = n * radix + index
        return _varint(len(steps)) + n.to_bytes((n.bit_length() + 7) // 8, "big")
    return _PACK[method](_varints([i for i, _ in steps]))


def _actions(method: int, body: bytes, game: Game) -> Iterator[str]:
    """The actions of ``body``, played on ``game`` one by one as they are read."""
    if method == RADIX:
        reader = _Reader(body)
        count = reader.varint()
        n = int.from_bytes(reader.rest(), "big")
        for _ in range(count):
            options = choices(game)
            if not options:
                raise BadCode("This code does not replay: it plays on after the game ended")
            n, index = divmod(n, len(options))
            yield options[index]
        if n:
            raise BadCode("This code does not replay: it has more than its actions")
        return
    try:
        raw = _UNPACK[method](body)
    except (zlib.error, OSError, lzma.LZMAError, ValueError, EOFError):
        raise BadCode("This code does not replay: its moves cannot be read") from None
    reader = _Reader(raw)
    while reader.at < len(raw):
        index = reader.varint()
        options = choices(game)
        if index >= len(options):
            raise BadCode("This code does not replay: a move is not one of the legal ones")
        yield options[index]


# ------------------------------------------------------------------ codes


def to_bytes(game: Game, method: int = RADIX) -> bytes:
    """The code's bytes (before base32), CRC included."""
    try:
        number = GAME_IDS.index(game.name)
    except ValueError:
        raise BadCode(f"{game.title} cannot be shared as a code yet") from None
    head = bytes([method << 4 | number])
    variant = [game.variant.get(c.key, c.default) for c in info(game.name).variants]
    data = head + _varints(variant) + _varint(game.deal or 0) + _body(method, indices(game))
    return data + zlib.crc32(data).to_bytes(4, "big")


def encode(game: Game, method: int = RADIX) -> str:
    """``game`` (with a deal number) as a self-contained code: one word, to copy
    with a double click and paste as one argument."""
    return base64.b32encode(to_bytes(game, method)).decode().rstrip("=")


def normal(code: str) -> str:
    """A code as typed, without case, spaces or dashes (``abcde-fgh`` -> ``ABCDEFGH``)."""
    return re.sub(r"[\s\-]+", "", code).upper()


def _unbase32(text: str) -> bytes:
    if not text or not re.fullmatch(r"[A-Z2-7]+", text):
        bad = next((c for c in text if not re.fullmatch(r"[A-Z2-7]", c)), "")
        raise BadCode(
            f"This is not a share code: {bad!r} is not one of its letters"
            if bad
            else "This is not a share code: it is empty"
        )
    try:
        data = base64.b32decode(text + "=" * (-len(text) % 8))
    except ValueError:
        raise BadCode("This code has a wrong length: a character is missing or extra") from None
    if base64.b32encode(data).decode().rstrip("=") != text:
        raise BadCode("This code has a mistake: a character is wrong, missing or extra")
    return data


def decode(code: str) -> Game:
    """The game a self-contained code holds, replayed; :class:`BadCode` with one
    sentence for anything wrong (a typo, a cut, a game this version lacks)."""
    data = _unbase32(normal(code))
    if len(data) < 7 or zlib.crc32(data[:-4]).to_bytes(4, "big") != data[-4:]:
        raise BadCode("This code has a mistake: a character is wrong, missing or extra")
    reader = _Reader(data[:-4])
    head = data[0]
    reader.at = 1
    method, number = head >> 4, head & 0x0F
    if method not in METHODS or number >= len(GAME_IDS):
        raise BadCode("This code was made by a newer termsolitaire: update it to open it")
    name = GAME_IDS[number]
    choices_ = info(name).variants
    variant = {c.key: reader.varint() for c in choices_}
    for c in choices_:
        if variant[c.key] not in c.values:
            raise BadCode(f"This code names a variant {name} does not have")
    deal = reader.varint()
    game = new_game(name, deal, **variant)
    try:
        for action in _actions(method, reader.rest(), game):
            apply(game, action)
    except IllegalMove:
        raise BadCode("This code does not replay: a move is not one of the legal ones") from None
    return game


def is_host_code(code: str) -> bool:
    """Whether ``code`` is short enough to be a host code (the store's) rather than
    a self-contained one."""
    return 0 < len(normal(code)) <= HOST_CODE_MAX
