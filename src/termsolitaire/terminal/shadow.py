r"""What reaches the terminal: only the cells that changed, in as few bytes as curses.

Textual repaints a widget's changed lines whole: every segment with its full
colour codes and a reset, every line chunk with an absolute cursor move. Over
a slow SSH link those bytes are the delay a player feels. :class:`Shadow`
keeps what the terminal shows (a character and a pen per cell, as curses
keeps its screen) and turns each frame Textual writes into the shortest
writes that bring the terminal up to date: cells that already show what the
frame wants are skipped, colour codes change only what differs from the
current pen, cursor moves are relative when that is shorter, and blanks are
erased (to the end of the line, or a dozen or more amid it) rather than written.

What the terminal shows afterwards is exactly what Textual's own bytes would
have shown (the tests replay both through a terminal emulator). Anything the
shadow does not understand — a write that is not a frame, a frame with an
escape sequence of another kind — goes out unchanged and makes the shadow
forget what it knew, so the next frames are sent whole; so does a resize.

Plain Python: no Textual import. :mod:`termsolitaire.terminal.driver` puts a
shadow between Textual's Linux driver and the terminal.

>>> s = Shadow(20, 2)
>>> frame = "\x1b[2;1H\x1b[31mscore 3\x1b[0m moves 1\x1b[1;1H"
>>> s.frame(frame)  # an unknown screen: every cell is sent
'\x1b[2H\x1b[0;31mscore 3 \x1b[mmoves 1'
>>> s.frame(frame.replace("moves 1", "moves 2"))  # one cell changed
'\x1b[D2'
>>> s.frame(frame.replace("moves 1", "moves 2"))  # nothing changed
''
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from dataclasses import dataclass
from itertools import groupby, repeat
from operator import itemgetter
from typing import NamedTuple

from rich.cells import get_character_cell_size

# ---------------------------------------------------------------- the pen

OFF = {
    1: 22,
    2: 22,
    3: 23,
    4: 24,
    21: 24,
    5: 25,
    6: 25,
    7: 27,
    8: 28,
    9: 29,
    51: 54,
    52: 54,
    53: 55,
}
"""SGR attribute -> the code that turns it off (22 turns off both bold and dim)."""
SEEN_ON_BLANKS = frozenset({4, 7, 9, 21, 53})
"""Attributes a blank cell shows (underline, reverse, strike, overline)."""


class Pen(NamedTuple):
    """How a cell is drawn: SGR attributes and colours as their SGR codes
    (``"31"``, ``"38;5;214"``; ``""`` is the terminal's default).

    A named tuple rather than a dataclass: a frame's cells are compared and
    hashed by the thousand, and a tuple's equality and hash run in C."""

    attrs: frozenset[int] = frozenset()
    fg: str = ""
    bg: str = ""

    def codes(self) -> list[str]:
        return [*(str(a) for a in sorted(self.attrs)), *(c for c in (self.fg, self.bg) if c)]


DEFAULT = Pen()
_COLOUR = re.compile(r"(?:3[0-7]|9[0-7]|39|[34]8;5;\d+|[34]8;2;\d+;\d+;\d+|4[0-7]|10[0-7]|49)$")


@functools.lru_cache(maxsize=4096)
def parse_sgr(params: str, pen: Pen) -> Pen | None:
    """``pen`` after ``ESC [ params m``; None when it holds a code we do not model.

    >>> parse_sgr("1;31;107", DEFAULT)
    Pen(attrs=frozenset({1}), fg='31', bg='107')
    >>> parse_sgr("38;5;214;49", DEFAULT).fg, parse_sgr("0", Pen(fg="31"))
    ('38;5;214', Pen(attrs=frozenset(), fg='', bg=''))
    """
    parts = params.split(";") if params else ["0"]
    attrs, fg, bg = set(pen.attrs), pen.fg, pen.bg
    i = 0
    while i < len(parts):
        p = parts[i]
        if not p.isdigit():
            return None
        n = int(p)
        if n in (38, 48):
            width = (
                3 if parts[i + 1 : i + 2] == ["5"] else 5 if parts[i + 1 : i + 2] == ["2"] else 0
            )
            code = ";".join(parts[i : i + width])
            if not width or not _COLOUR.match(code):
                return None
            fg, bg = (code, bg) if n == 38 else (fg, code)
            i += width
            continue
        if n == 0:
            attrs, fg, bg = set(), "", ""
        elif n in OFF:
            attrs.add(n)
        elif n in OFF.values():
            attrs -= {a for a, off in OFF.items() if off == n}
        elif 30 <= n <= 37 or 90 <= n <= 97:
            fg = p
        elif n == 39:
            fg = ""
        elif 40 <= n <= 47 or 100 <= n <= 107:
            bg = p
        elif n == 49:
            bg = ""
        else:
            return None
        i += 1
    return Pen(frozenset(attrs), fg, bg)


@functools.lru_cache(maxsize=4096)
def sgr(old: Pen | None, new: Pen) -> str:
    """The shortest SGR sequence that turns the pen ``old`` (None: unknown) into ``new``.

    >>> sgr(Pen(fg="31", bg="107"), Pen(fg="30", bg="107"))
    '\\x1b[30m'
    >>> sgr(Pen(frozenset({1}), "31"), DEFAULT), sgr(None, DEFAULT)
    ('\\x1b[m', '\\x1b[m')
    """
    if old == new:
        return ""
    fresh = ";".join(["0", *new.codes()]) if new != DEFAULT else ""
    if old is None:
        return f"\x1b[{fresh}m"
    codes: list[str] = []
    gone = old.attrs - new.attrs
    offs = sorted({OFF[a] for a in gone})
    codes += [str(c) for c in offs]
    # 22 turns off bold and dim together: turn back on the one that stays.
    back = {a for a in new.attrs if a in old.attrs and OFF[a] in offs}
    codes += [str(a) for a in sorted((new.attrs - old.attrs) | back)]
    if new.fg != old.fg:
        codes.append(new.fg or "39")
    if new.bg != old.bg:
        codes.append(new.bg or "49")
    diff = ";".join(codes)
    return f"\x1b[{diff if len(diff) <= len(fresh) else fresh}m"


# ---------------------------------------------------------------- cells

Cell = tuple[str, Pen]
"""A character (``""``: the right half of a wide one) and its pen."""
Cells = dict[tuple[int, int], Cell]
"""Cells by (row, column)."""


def looks(cell: Cell | None) -> object:
    """What a cell shows: a blank's foreground and boldness do not show."""
    if cell is None:
        return None
    text, pen = cell
    if text == " " and not pen.attrs & SEEN_ON_BLANKS:
        return ("blank", pen.bg)
    return cell


def _blank(cell: Cell | None) -> bool:
    """Whether a cell shows a blank on the default background (``looks(cell) ==
    ("blank", "")``)."""
    return (
        cell is not None
        and cell[0] == " "
        and not cell[1].bg
        and not cell[1].attrs & SEEN_ON_BLANKS
    )


class _Blanks(dict[Cell | None, str]):
    """``"b"`` for a cell that :func:`_blank`, else ``"x"``; remembered (a screen
    repeats its cells)."""

    def __missing__(self, cell: Cell | None) -> str:
        if len(self) > 4096:
            self.clear()
        letter = self[cell] = "b" if _blank(cell) else "x"
        return letter


_BLANKS = _Blanks()


def fits(pen: Pen | None, cell: Cell) -> bool:
    """Whether ``cell`` can be written with ``pen`` as it is (blanks need only their
    background)."""
    if pen is None:
        return False
    text, want = cell
    if pen == want:
        return True
    return (
        text == " "
        and not want.attrs & SEEN_ON_BLANKS
        and not pen.attrs & SEEN_ON_BLANKS
        and pen.bg == want.bg
    )


def move(at: tuple[int, int] | None, x: int, y: int) -> str:
    """The shortest cursor movement from ``at`` (None: unknown) to column ``x``, row ``y``.

    >>> move(None, 0, 0), move((3, 5), 7, 5), move((3, 5), 0, 6), move((9, 2), 9, 12)
    ('\\x1b[H', '\\x1b[4C', '\\x1b[7H', '\\x1b[10B')
    """
    if at is None:
        return _absolute(x, y)
    cx, cy = at
    if (cx, cy) == (x, y):
        return ""
    if cy == y:
        vertical = ""
    elif y > cy:
        vertical = "\x1b[B" if y - cy == 1 else f"\x1b[{y - cy}B"
    else:
        vertical = "\x1b[A" if cy - y == 1 else f"\x1b[{cy - y}A"
    dx = x - cx
    if dx == 0:
        horizontal = ""
    elif x == 0:
        horizontal = "\r"
    else:
        horizontal = (
            ("\x1b[C" if dx == 1 else f"\x1b[{dx}C")
            if dx > 0
            else ("\x1b[D" if dx == -1 else f"\x1b[{-dx}D")
        )
        column = f"\x1b[{x + 1}G"
        if len(column) < len(horizontal):
            horizontal = column
    best = _absolute(x, y)
    for candidate in (vertical + horizontal, f"\x1b[{y + 1}d" + horizontal if vertical else ""):
        if candidate and len(candidate) < len(best):
            best = candidate
    return best


def _absolute(x: int, y: int) -> str:
    if x == 0:
        return "\x1b[H" if y == 0 else f"\x1b[{y + 1}H"
    return f"\x1b[{y + 1};{x + 1}H"


def _digits(n: int) -> int:
    return 1 if n < 10 else 2 if n < 100 else len(str(n))


def move_len(at: tuple[int, int] | None, x: int, y: int) -> int:
    """``len(move(at, x, y))``, without building it (ordering runs asks it often)."""
    absolute = (
        (3 if y == 0 else 3 + _digits(y + 1)) if x == 0 else 4 + _digits(y + 1) + _digits(x + 1)
    )
    if at is None:
        return absolute
    cx, cy = at
    dy, dx = abs(y - cy), x - cx
    vertical = 0 if dy == 0 else 3 if dy == 1 else 3 + _digits(dy)
    if dx == 0:
        horizontal = 0
    elif x == 0:
        horizontal = 1
    else:
        step = 3 if abs(dx) == 1 else 3 + _digits(abs(dx))
        horizontal = min(step, 3 + _digits(x + 1))
    best = min(absolute, vertical + horizontal)
    if vertical:
        best = min(best, 3 + _digits(y + 1) + horizontal)
    return best


# ---------------------------------------------------------------- frames

_TOKEN = re.compile(
    r"\x1b\[(\d+);(\d+)H"  # 1, 2: cursor position
    r"|\x1b\[([\d;]*)m([^\x00-\x1f\x7f\x1b]+)?"  # 3: SGR, 4: the text after it
    r"|(\n)"  # 5: a line break (Textual puts one between lines)
    r"|([^\x00-\x1f\x7f\x1b]+)"  # 6: text
)


class NotAFrame(Exception):
    """The data is not made only of cursor moves, colours and text."""


ONE_CELL: set[str] = set()
"""Characters other than ASCII seen to take one cell (box drawing, suits)."""


def _narrow(text: str) -> bool:
    """Whether every character of ``text`` takes one cell: ASCII does (a frame's
    text holds no control characters), and so do those :data:`ONE_CELL` holds
    (a whole screen's text is thousands of characters, of a few dozen kinds)."""
    if text.isascii():
        return True
    chars = set(text)
    if chars <= ONE_CELL:
        return True
    for ch in chars - ONE_CELL:
        if get_character_cell_size(ch) != 1:
            return False
        ONE_CELL.add(ch)
    return True


def parse_frame(data: str) -> tuple[Cells, tuple[int, int] | None]:
    """The cells a frame writes (by row, column) and where it leaves the cursor."""
    cells: Cells = {}
    pen = DEFAULT
    at: tuple[int, int] | None = None
    end = len(data)
    pos = 0
    last: tuple[int, int] | None = None
    match = _TOKEN.match
    while pos < end:
        m = match(data, pos)
        if m is None:
            raise NotAFrame(data[pos : pos + 20])
        pos = m.end()
        kind = m.lastindex  # the last group that matched says the token's kind
        if kind == 2:
            row, column = m.group(1, 2)
            at = (int(column) - 1, int(row) - 1)
        elif kind == 5:
            at = None  # the next thing is a cursor move (else it is not a frame)
        else:
            if kind != 6:  # a colour, and the text it draws if any (one token: fewer steps)
                new = parse_sgr(m.group(3), pen)
                if new is None:
                    raise NotAFrame(m.group(0))
                pen = new
                if kind == 3:
                    continue
                text = m.group(4)
            else:
                text = m.group(6)
            if at is None:
                raise NotAFrame("text at an unknown place")
            x, y = at
            if _narrow(text):  # one cell a character: the whole run at once
                n = len(text)
                cells.update(
                    zip(
                        zip(repeat(y, n), range(x, x + n), strict=True),
                        zip(text, repeat(pen, n), strict=True),
                        strict=True,
                    )
                )
                x += n
                last = (y, x - 1)
                at = (x, y)
                continue
            for ch in text:
                size = get_character_cell_size(ch)
                if size == 0:
                    if last is None:
                        raise NotAFrame("a combining mark first")
                    text, p = cells[last]
                    cells[last] = (text + ch, p)
                    continue
                cells[(y, x)] = (ch, pen)
                last = (y, x)
                if size == 2:
                    cells[(y, x + 1)] = ("", pen)
                x += size
            at = (x, y)
    return cells, at


def _erasing(pen: Pen | None) -> Pen:
    """A pen that erases to blanks on the default background: ``pen`` itself when it
    does (an erase takes the pen's background)."""
    if pen is not None and not pen.bg and not pen.attrs & SEEN_ON_BLANKS:
        return pen
    base = pen or DEFAULT
    return base._replace(bg="", attrs=base.attrs - SEEN_ON_BLANKS) if pen else DEFAULT


ECH_WORTH = 12
"""Changed blanks amid a row, this many or more, are erased with one ECH (erase
characters, ``ESC [ n X``) rather than written: fewer bytes than the spaces even
with the cursor move past them."""
_SPAN = re.compile(f"b{{{ECH_WORTH},}}")
"""Where a row holds :data:`ECH_WORTH` or more blanks on the default background."""


@dataclass(slots=True)
class Run:
    """Changed cells next to each other on row ``y``, columns ``x`` to ``end``
    (possibly ending with an erase to the end of the line)."""

    y: int
    x: int
    end: int
    erase_from: int | None = None
    """Columns from here to the end are erased (EL) rather than written."""
    clear: bool = False
    """The columns are blanks, erased with one ECH; the cursor stays at ``x``."""

    @property
    def erase(self) -> bool:
        """Only an erase."""
        return self.erase_from == self.x


TRY_FIRST = 12
"""A frame of this many runs or fewer (a key's) is ordered from each run first
too, and the shortest writing kept."""


class Shadow:
    """What the terminal shows, cell by cell, and the writes that change it."""

    NARROW_RUNS = True
    """Write a run of one-cell characters a pen at a time (:meth:`_write_narrow`);
    False: cell by cell (the tests compare the two)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.rows: list[list[Cell | None]] = []
        self.at: tuple[int, int] | None = None
        self.pen: Pen | None = None
        self.again: str | None = None
        """The last frame, when writing it again would change nothing."""
        self._all_narrow = False
        """The frame being written holds no right half of a wide character."""
        self.forget()

    def forget(self) -> None:
        """The screen, the cursor and the pen are unknown now (a write we did not follow)."""
        self.rows = [[None] * self.width for _ in range(self.height)]
        self.at = None
        self.pen = None
        self.again = None

    def frame(self, data: str) -> str:
        """The bytes to write instead of Textual's frame ``data``; raises
        :class:`NotAFrame` (having forgotten the screen) when it is not one."""
        if data == self.again:  # Textual repaints a screen as it was: nothing to send
            return ""
        self.again = None
        try:
            cells, end = parse_frame(data)
        except NotAFrame:
            self.forget()
            raise
        # Once written, every cell of the frame shows on the shadow as the frame
        # wants, the cursor is parked where it wants: the same frame again finds
        # nothing to send. Not so when it holds the right half of a wide
        # character without its left, which is forgotten rather than written.
        wide = "" in map(itemgetter(0), cells.values())
        self._all_narrow = not wide
        runs = self._runs(cells, wide)
        park = None
        if end is not None and end != (0, 0) and end[0] < self.width and end[1] < self.height:
            # Textual parks the hidden cursor at (0, 0) unless an input wants it
            # somewhere (where a terminal shows what an input method composes).
            park = end
        out = self._cheapest(runs, cells, park)
        if park is not None:
            out.append(move(self.at, *park))
            self.at = park
        if not wide:
            self.again = data
        return "".join(out)

    def _runs(self, cells: Cells, wide: bool = True) -> list[Run]:
        """The changed cells as runs of neighbours, row by row; the last run of a row
        may be an erase to its end. ``wide``: the frame may hold the right half of a
        wide character.

        Each row's cells once the frame is written are looked at through C-level
        maps (a whole screen is a couple of thousand cells): a row the shadow knows
        nothing of has every cell of the frame changed, and where its blanks on the
        default background lie is read from a string of one letter a cell."""
        runs: list[Run] = []
        width, height = self.width, self.height
        get = cells.get
        for y, keys in groupby(sorted(cells), itemgetter(0)):
            if not 0 <= y < height:
                continue
            xs = list(map(itemgetter(1), keys))
            if xs[0] < 0 or xs[-1] >= width:
                xs = xs[bisect_left(xs, 0) : bisect_left(xs, width)]
                if not xs:
                    continue
            row = self.rows[y]
            if row.count(None) == width:  # nothing known: every cell is changed
                changed = xs
            else:
                olds = map(row.__getitem__, xs)
                news = map(cells.__getitem__, zip(repeat(y), xs))
                changed = [
                    x
                    for x, old, new in zip(xs, olds, news, strict=True)
                    if old != new and (old is None or old[0] != new[0] or looks(old) != looks(new))
                ]
                if not changed:
                    continue
            if wide:  # a wide character is written whole: a changed right half sends its left
                changed = sorted(
                    {
                        x - 1 if cells[(y, x)][0] == "" and (y, x - 1) in cells else x
                        for x in changed
                    }
                )
            # One letter a cell once the frame is written: "b" a blank on the
            # default background.
            mask = "".join(map(_BLANKS.__getitem__, map(get, zip(repeat(y), range(width)), row)))
            blank_from = len(mask.rstrip("b")) if len(changed) >= 4 else width
            clears = []
            for span in _SPAN.finditer(mask, 0, blank_from):
                a, b = span.span()
                inside = [x for x in changed if a <= x < b]
                if len(inside) >= ECH_WORTH:  # from the first changed blank to the last
                    clears.append(Run(y, inside[0], inside[-1] + 1, clear=True))
            if clears:
                changed = [x for x in changed if not any(r.x <= x < r.end for r in clears)]
            # Neighbours make one run; from the first changed column at or past
            # blank_from, with 4 or more changed columns from it on, one EL clears
            # the rest (joined to the run that ends there).
            n = len(changed)
            cut = bisect_left(changed, blank_from)
            if n - cut < 4:
                cut = n
            if cut:
                starts = [0] + [i for i in range(1, cut) if changed[i] != changed[i - 1] + 1]
                ends = [*starts[1:], cut]
                row_runs = [
                    Run(y, changed[a], changed[b - 1] + 1)
                    for a, b in zip(starts, ends, strict=True)
                ]
            else:
                row_runs = []
            if cut < n:
                x = changed[cut]
                if row_runs and row_runs[-1].end == x:
                    row_runs[-1].erase_from = x  # written, then erased on: one run
                    row_runs[-1].end = width
                else:
                    row_runs.append(Run(y, x, width, erase_from=x))
            runs += row_runs
            runs += clears
        return runs

    def _cheapest(
        self, runs: list[Run], cells: Cells, park: tuple[int, int] | None = None
    ) -> list[str]:
        """Write ``runs`` in the order that writes the fewest bytes, of those tried:
        the cheapest run next from where the cursor is, and (a key's frame, a few
        runs) the same from each run first, the one of least estimated cost
        written if it is shorter: the cheapest next can leave a far run (the
        header's figures, above a move's piles) to the end, at the price of a
        whole cursor address and colour. Where the cursor is parked after the
        frame (``park``) counts too: an order can end far from it."""
        greedy, cost = self._order(runs, cells)
        orders = [greedy]
        if 1 < len(runs) <= TRY_FIRST:  # the order of least cost by estimate, from each start
            tried = [self._order(runs, cells, start=i) for i in range(len(runs))]
            best_order, best_cost = min(tried, key=lambda t: t[1])
            if best_cost < cost:
                orders.append(best_order)
        if len(orders) == 1:
            out: list[str] = []
            for run in orders[0]:
                self._write(out, run, cells)
            return out
        at, pen = self.at, self.pen
        rows = {run.y: list(self.rows[run.y]) for run in runs}
        best: tuple[int, list[str], list[Run]] | None = None
        for order in orders:
            if best is not None and order == best[2]:
                continue
            out = []
            for run in order:
                self._write(out, run, cells)
            size = len("".join(out).encode())
            if park is not None:
                size += len(move(self.at, *park))
            if best is None or size < best[0]:
                best = (size, out, order)
            self.at, self.pen = at, pen
            for y, row in rows.items():
                self.rows[y] = list(row)
        assert best is not None
        out = []
        for run in best[2]:
            self._write(out, run, cells)
        return out

    def _order(
        self, runs: list[Run], cells: Cells, start: int | None = None
    ) -> tuple[list[Run], int]:
        """Runs in the order that costs the fewest cursor moves and colour changes:
        the cheapest next (after run ``start``, if given), for up to a couple of
        dozen runs; more (a screen drawn whole) go top to bottom. With the sum of
        the cursor moves and colour changes it costs (an estimate)."""
        if len(runs) > 24:
            return runs, 0
        at, pen = self.at, self.pen
        left = [(r, None if r.erase or r.clear else cells[(r.y, r.x)]) for r in runs]
        ordered: list[Run] = []
        total = 0
        if start is not None:
            run, first = left.pop(start)
            total += move_len(at, run.x, run.y)
            if first is None:
                total += len(sgr(pen, _erasing(pen)))
            elif not fits(pen, first):
                total += len(sgr(pen, first[1]))
            ordered.append(run)
            at = (run.end, run.y) if run.end < self.width else None
            if run.clear:
                at = (run.x, run.y)
            pen = self._pen_after(run, pen, cells)
        while left:
            best, best_cost = 0, 1 << 30
            for i, (run, first) in enumerate(left):
                cost = move_len(at, run.x, run.y)
                if cost >= best_cost:
                    continue
                if first is None:
                    want = _erasing(pen)
                    cost += 0 if want == pen else len(sgr(pen, want))
                elif not fits(pen, first):
                    cost += len(sgr(pen, first[1]))
                if cost < best_cost:
                    best, best_cost = i, cost
            run, _ = left.pop(best)
            total += best_cost
            ordered.append(run)
            at = (run.end, run.y) if run.end < self.width else None
            if run.clear:  # an ECH leaves the cursor where it was
                at = (run.x, run.y)
            pen = self._pen_after(run, pen, cells)
        return ordered, total

    def _pen_after(self, run: Run, pen: Pen | None, cells: Cells) -> Pen:
        """The pen once ``run`` is written (near enough to choose the next run)."""
        if run.clear:
            return _erasing(pen)
        stop = run.end if run.erase_from is None else run.erase_from
        for x in range(stop - 1, run.x - 1, -1):
            cell = cells.get((run.y, x))
            if cell is not None and cell[0]:
                pen = pen if pen is not None and fits(pen, cell) else cell[1]
                break
        return _erasing(pen) if run.erase_from is not None else pen or DEFAULT

    def _write(self, out: list[str], run: Run, cells: Cells) -> None:
        y, width = run.y, self.width
        row = self.rows[y]
        if run.erase:
            self._erase_rest(out, y, run.x, row)
            return
        if run.clear:
            self._erase_chars(out, run, row)
            return
        x = run.x
        stop = run.end if run.erase_from is None else run.erase_from
        if self._all_narrow and self.NARROW_RUNS and x < stop:
            near = row[x : stop + 1]  # no right half of a wide character to break
            if "" not in map(itemgetter(0), filter(None, near)):
                self._write_narrow(out, y, x, stop, row, cells)
                x = stop
        while x < stop:
            cell = cells.get((y, x))
            if cell is None or cell[0] == "":  # a right half whose left is not in the frame
                row[x] = None
                x += 1
                continue
            if self.at != (x, y):  # next to the last cell written: no move
                self._go(out, x, y, row)
            if cell[1] is not self.pen and not fits(self.pen, cell):
                out.append(sgr(self.pen, cell[1]))
                self.pen = cell[1]
            out.append(cell[0])
            size = 2 if x + 1 < width and cells.get((y, x + 1), ("x",))[0] == "" else 1
            old = row[x]
            if (old is not None and old[0] == "") or (
                x + size < width and (after := row[x + size]) is not None and after[0] == ""
            ):
                self._forget_broken_wide(row, x, size)
            row[x] = cell
            if size == 2:
                row[x + 1] = cells[(y, x + 1)]
            x += size
            self.at = (x, y) if x < width else None  # at the margin: do not guess
        if run.erase_from is not None:
            self._erase_rest(out, y, run.erase_from, row)

    def _write_narrow(
        self, out: list[str], y: int, x: int, stop: int, row: list[Cell | None], cells: Cells
    ) -> None:
        """Columns ``x`` to ``stop`` of row ``y`` as :meth:`_write` writes them, a pen's
        cells at once: every cell is in the frame and one cell wide, and none of the
        terminal's there is half of a wide character."""
        if self.at != (x, y):
            self._go(out, x, y, row)
        segment = list(map(cells.__getitem__, zip(repeat(y), range(x, stop))))
        for pen, group in groupby(segment, itemgetter(1)):
            texts = list(map(itemgetter(0), group))
            now = self.pen
            if pen is not now and pen != now:
                lead = 0  # blanks first need only the current pen's background
                if fits(now, (" ", pen)):
                    while lead < len(texts) and texts[lead] == " ":
                        lead += 1
                    out.append(" " * lead)
                if lead < len(texts):
                    out.append(sgr(now, pen))
                    self.pen = pen
                    out.append("".join(texts[lead:]))
            else:
                out.append("".join(texts))
        row[x:stop] = segment
        self.at = (stop, y) if stop < self.width else None

    def _forget_broken_wide(self, row: list[Cell | None], x: int, size: int) -> None:
        """Writing over half of a wide character blanks its other half."""
        if row[x] is not None and row[x][0] == "" and x > 0:  # type: ignore[index]
            row[x - 1] = None
        end = x + size
        if end < self.width and row[end] is not None and row[end][0] == "":  # type: ignore[index]
            row[end] = None

    def _go(self, out: list[str], x: int, y: int, row: list[Cell | None]) -> None:
        """Move to ``x`` on row ``y``: a short gap of cells that already show what
        they should with the current pen is written over instead."""
        at = self.at
        if at is not None and at[1] == y and 0 < x - at[0] <= 4:
            gap = row[at[0] : x]
            if all(c is not None and c[0] and fits(self.pen, c) for c in gap):
                text = "".join(c[0] for c in gap)  # type: ignore[index]
                if all(get_character_cell_size(ch) == 1 for ch in text):
                    step = move(at, x, y)
                    if len(text.encode()) < len(step.encode()):
                        out.append(text)
                        self.at = (x, y)
                        return
        out.append(move(at, x, y))
        self.at = (x, y)

    def _erase_chars(self, out: list[str], run: Run, row: list[Cell | None]) -> None:
        """Blank the run's columns with one ECH (erase characters), with a pen whose
        background is the default; the cursor does not move."""
        self._go(out, run.x, run.y, row)
        new = _erasing(self.pen)
        out.append(sgr(self.pen, new))
        self.pen = new
        size = run.end - run.x
        out.append(f"\x1b[{size}X")
        self._forget_broken_wide(row, run.x, size)
        for c in range(run.x, run.end):
            row[c] = (" ", DEFAULT)

    def _erase_rest(self, out: list[str], y: int, x: int, row: list[Cell | None]) -> None:
        """Clear from ``x`` to the end of the line with one EL (erase in line), with a
        pen whose background is the default."""
        self._go(out, x, y, row)
        new = _erasing(self.pen)
        out.append(sgr(self.pen, new))
        self.pen = new
        out.append("\x1b[K")
        for c in range(x, self.width):
            row[c] = (" ", DEFAULT)
