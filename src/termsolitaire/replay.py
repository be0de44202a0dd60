"""Reading a file to replay (``termsolitaire replay FILE``), with no textual import.

A replay file is one of:

- an autosave (``termsolitaire-autosave``) or a game's JSON (``to_json``): the
  game's current line of play is replayed from its start position;
- a move list (API.md) headed by the lines that name its deal, as position
  text does, for example::

      game: spider
      variant: suits=2
      deal: 123
      t1-t2 deal turn t3   # comments are fine
      t4-t5:3

  or headed by a whole position text, whose moves follow it.

:class:`Replay` holds every position of the line so stepping either way is
instant.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .rules import Game, IllegalMove, Move, from_json, from_text, new_game, parse_move_list
from .rules.text import JSON_FORMAT
from .storage.saves import FORMAT as SAVE_FORMAT
from .storage.saves import decode

_HEADER_KEYS = ("game", "variant", "deal")


@dataclass
class Replay:
    """A line of play to step through: ``game`` shows position ``index``."""

    start: Game
    moves: list[Move]
    index: int = 0
    shared_by: str | None = None
    """The name of the player who shared it, where known (a host share code)."""
    _texts: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        g = self.start.copy()
        self._texts = [g.to_text()]
        for i, m in enumerate(self.moves, start=1):
            try:
                g.play(m)
            except IllegalMove as e:
                raise ValueError(f"move {i} ({m}): {e.reason}") from None
            self._texts.append(g.to_text())
        self.game = from_text(self._texts[0])

    def __len__(self) -> int:
        return len(self.moves)

    def go(self, index: int) -> Game:
        """Show position ``index`` (0 is the start, ``len(self)`` the end)."""
        self.index = max(0, min(index, len(self.moves)))
        self.game = from_text(self._texts[self.index])
        return self.game

    def next(self) -> Game:
        return self.go(self.index + 1)

    def previous(self) -> Game:
        return self.go(self.index - 1)

    def end(self) -> Game:
        return self.go(len(self.moves))

    @property
    def last_move(self) -> Move | None:
        return self.moves[self.index - 1] if self.index else None


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; ValueError with a short reason when it is not one."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    return parse_replay(raw)


def parse_replay(raw: bytes) -> Replay:
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        raise ValueError("not a text file") from None
    if text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except ValueError:
            raise ValueError("not a saved game (broken JSON)") from None
        if isinstance(doc, dict) and doc.get("format") == SAVE_FORMAT:
            game = decode(raw).game
        elif isinstance(doc, dict) and doc.get("format") == JSON_FORMAT:
            game = from_json(text)
        else:
            raise ValueError("not a saved game")
        return replay_of(game)
    return _move_list(text)


def replay_of(game: Game, shared_by: str | None = None) -> Replay:
    """The replay of a game: its start, and every move played since (``shared_by``:
    who shared it, where known)."""
    start = from_text(json.loads(game.to_json())["start"])
    return Replay(start, list(game.history), shared_by=shared_by)


_HEADER_LINE = re.compile(r"\s*([a-z]+[0-9]*)\s*:", re.IGNORECASE)


_COMMENTED_START = re.compile(r"#\s*game\s*:")
_COMMENTED_LINE = re.compile(r"#\s?(\s*[a-z]+[0-9]*\s*:.*)$")


def uncommented(lines: list[str]) -> list[str]:
    """The header as ``solve`` writes it, in comments so that its output is a move
    list (API.md: ``# game: penguin``, ``# deal: 5``, ...), made header lines
    again: from the first ``# game:`` on, while comment lines read ``key: value``
    with a lower-case key (the position text's; the comment before, ``#
    Penguin: a win...``, is left a comment).

    >>> uncommented(["# Penguin: a win", "# game: penguin", "# deal: 5", "t7-t3"])
    ['# Penguin: a win', 'game: penguin', 'deal: 5', 't7-t3']
    """
    start = next((i for i, ln in enumerate(lines) if _COMMENTED_START.match(ln)), None)
    if start is None:
        return lines
    lines = list(lines)
    end = start
    while end < len(lines) and (m := _COMMENTED_LINE.match(lines[end])):
        lines[end] = m.group(1)
        end += 1
    return lines


def _move_list(text: str) -> Replay:
    """Header lines (``key: value``, as in position text, or in comments as
    ``solve`` writes them: :func:`uncommented`), then the moves."""
    lines = uncommented(text.splitlines())
    body_from = 0
    for i, line in enumerate(lines):
        bare = line.split("#", 1)[0]
        if not bare.strip() or _HEADER_LINE.match(bare):
            body_from = i + 1
        else:
            break
    header = lines[:body_from]
    keys = {m.group(1).lower() for ln in header if (m := _HEADER_LINE.match(ln.split("#")[0]))}
    if "game" not in keys:
        raise ValueError("a move list must begin with 'game: NAME' and 'deal: N' lines")
    start = (
        _start_from_header(header) if keys <= set(_HEADER_KEYS) else from_text("\n".join(header))
    )
    try:
        moves = parse_move_list("\n".join(lines[body_from:]))
    except IllegalMove as e:
        raise ValueError(e.reason) from None
    return Replay(start, moves)


def _start_from_header(header: list[str]) -> Game:
    values: dict[str, str] = {}
    for n, line in enumerate(header, start=1):
        bare = line.split("#", 1)[0].strip()
        if bare:
            key, _, value = bare.partition(":")
            values[key.strip().lower()] = value.strip()
            if key.strip().lower() == "deal" and not value.strip().isdigit():
                raise ValueError(f"line {n}: deal must be a whole number")
    if "deal" not in values:
        raise ValueError("a move list must name its deal ('deal: N')")
    variant: dict[str, int] = {}
    for part in filter(None, values.get("variant", "").split(",")):
        k, _, v = part.partition("=")
        if not v.strip().isdigit():
            raise ValueError(f"bad variant {values['variant']!r}")
        variant[k.strip()] = int(v)
    return new_game(values["game"].lower(), int(values["deal"]), **variant)
