"""Moves: small immutable values with one canonical text each (API.md, "Moves").

>>> m = Move.parse("T3-t7:4")
>>> m, str(m)
(Move(kind='move', src='t3', dst='t7', count=4), 't3-t7:4')
>>> str(Move.parse("t3-t7:1")), str(Move.parse(" Turn  T5 ")), str(Move.parse("DEAL"))
('t3-t7', 'turn t5', 'deal')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

MoveKind = Literal["move", "deal", "collect", "turn"]


class IllegalMove(ValueError):
    """A move the rules refuse, or text that is not a move.

    ``reason`` is the short sentence shown to the player.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UndoForbidden(IllegalMove):
    """Undo at a barrier (Spider: a deal or a turned card cannot be taken back)."""


_MOVE_RE = re.compile(r"([a-z]+\d*)-([a-z]+\d*)(?::(\d+))?")
_TURN_RE = re.compile(r"turn\s+([a-z]+\d*)")


@dataclass(frozen=True, slots=True)
class Move:
    """One player action: a transfer (``kind="move"``), ``deal``, ``collect`` or ``turn``.

    A transfer takes the top ``count`` cards of ``src`` to ``dst``; ``turn`` turns
    the top card of ``src``. ``str(move)`` is the canonical text and
    :meth:`parse` reads it back.
    """

    kind: MoveKind
    src: str = ""
    dst: str = ""
    count: int = 1

    @classmethod
    def transfer(cls, src: str, dst: str, count: int = 1) -> Move:
        """The move of the top ``count`` cards of ``src`` onto ``dst`` (cached)."""
        key = (src, dst, count)
        move = _TRANSFERS.get(key)
        if move is None:
            move = _TRANSFERS[key] = cls("move", src, dst, count)
        return move

    @classmethod
    def turn(cls, pile: str) -> Move:
        return cls("turn", pile)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read move text (case and surrounding blanks ignored); raise :class:`IllegalMove`."""
        t = " ".join(text.strip().lower().split())
        if t == "deal":
            return DEAL
        if t == "collect":
            return COLLECT
        m = _TURN_RE.fullmatch(t)
        if m:
            return cls.turn(m.group(1))
        m = _MOVE_RE.fullmatch(t.replace(" ", ""))
        if m:
            count = int(m.group(3)) if m.group(3) else 1
            if count < 1:
                raise IllegalMove(f"Cannot read move {text.strip()!r}: the count must be 1 or more")
            return cls.transfer(m.group(1), m.group(2), count)
        raise IllegalMove(
            f"Cannot read move {text.strip()!r} "
            "(write it like t3-t7, t3-t7:4, deal, collect or turn t5)"
        )

    def __str__(self) -> str:
        if self.kind == "move":
            tail = f":{self.count}" if self.count > 1 else ""
            return f"{self.src}-{self.dst}{tail}"
        if self.kind == "turn":
            return f"turn {self.src}"
        return self.kind


_TRANSFERS: dict[tuple[str, str, int], Move] = {}
DEAL = Move("deal")
COLLECT = Move("collect")


def parse_move_list(text: str) -> list[Move]:
    """Read a move list: canonical moves separated by blanks or newlines, ``#`` comments.

    ``turn t5`` is the one move with a blank inside; it is read as one move.

    >>> [str(m) for m in parse_move_list("t1-t2  deal # first\\nturn t3 t4-t5:2")]
    ['t1-t2', 'deal', 'turn t3', 't4-t5:2']
    """
    words: list[str] = []
    for line in text.splitlines():
        words.extend(line.split("#", 1)[0].split())
    moves: list[Move] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.lower() == "turn" and i + 1 < len(words):
            moves.append(Move.parse(f"turn {words[i + 1]}"))
            i += 2
            continue
        moves.append(Move.parse(word))
        i += 1
    return moves


def format_move_list(moves: list[Move] | tuple[Move, ...], per_line: int = 10) -> str:
    """Write moves as a move list, ``per_line`` to a line."""
    texts = [str(m) for m in moves]
    lines = [" ".join(texts[i : i + per_line]) for i in range(0, len(texts), per_line)]
    return "\n".join(lines) + ("\n" if lines else "")
