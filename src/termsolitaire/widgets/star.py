"""Stjernen's star: piles placed around the centre by compass point. No rules.

The centre pile sits in the middle; the inner ring fans out around it (north
and south as horizontal fans, east and west as vertical ones, so all ten
cards of each show their rank and suit); the outer ring lies further out at
the four compass points, the foundations in the corners, and the stock with
the upturned piles in a band below the star, beside a few lines of text (the
round and the stock count). Short windows draw cards two rows high, taller
ones three; wider windows draw wider cards and spread the star out.

>>> boxes = star_layout(80, 21)
>>> boxes["c"], boxes["o1"].y < boxes["i1"].y < boxes["c"].y < boxes["i3"].y < boxes["o3"].y
(Box(x=38, y=7, w=5, h=3), True)
>>> star_layout(60, 21) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.strip import Strip
from textual.widget import Widget

from .board import Board, Place
from .cards import BACK, EMPTY, LABEL, SELECTED, CardLook
from .pile import PileView

SLICE = 4
"""Columns each covered card of a horizontal fan shows (``┌10♣``)."""
FAN = 10
"""Cards an inner-ring pile starts with."""
INFO_WIDTH = 24
"""Columns of the text beside the upturned piles: its longest line
(``round 1 of 6 — rows of 6``) whole."""
MIN_WIDTH = 67
BAND_GAPS = ((2, 2), (1, 2), (1, 1))
"""The band's gaps, widest first: between the upturned piles, and after the stock's."""
MIN_HEIGHT = 19
"""The smallest board (not counting header, status line and footer) the star fits."""


@dataclass(frozen=True, slots=True)
class Box:
    """A pile's rectangle on the board, label row included."""

    x: int
    y: int
    w: int
    h: int


def card_rows(height: int) -> int:
    """Rows a card takes: 2 on short boards (edges only), 3 on tall ones."""
    return 3 if height >= 27 else 2


def card_width(width: int, height: int) -> int:
    return 7 if width >= 110 and height >= 27 else 5


def star_layout(width: int, height: int) -> dict[str, Box] | None:
    """Every pile's box (and ``info``, the text beside the upturned piles); None if too small."""
    ch = card_rows(height)
    cw = card_width(width, height)
    sh = 1 + ch  # a stack: label row + card rows
    hw = (FAN - 1) * SLICE + cw  # a horizontal fan
    vh = FAN + ch  # a vertical fan: label + nine edges + the top card
    spare = height - (6 * sh + 1)
    if spare < 0:
        return None
    g = min(2, spare // 6)
    gx = min(6, (width - hw - 4 * cw) // 4)
    # The band: the stock, a gap, six upturned piles each after a gap of ``ug``, and
    # the text: gaps of 2 where they fit, else 1 (at 67 columns, the move list beside).
    fits = [(ug, sg) for ug, sg in BAND_GAPS if 7 * cw + 7 * ug + sg + INFO_WIDTH <= width]
    if gx < 1 or not fits:
        return None
    ug, sg = fits[0]
    band_w = 7 * cw + 7 * ug + sg + INFO_WIDTH
    used = 6 * sh + 4 * g + 1 + (1 if g else 0)
    top = min(2, (height - used) // 2)
    cx = width // 2
    fan_x = cx - hw // 2
    c_x = cx - cw // 2
    i4_x = fan_x - gx - cw
    o4_x = i4_x - gx - cw
    i2_x = fan_x + hw + gx
    o2_x = i2_x + cw + gx
    step = sh + g
    c_y = top + 2 * step
    boxes = {
        "c": Box(c_x, c_y, cw, sh),
        "i1": Box(fan_x, top + step, hw, sh),
        "i2": Box(i2_x, max(top, c_y + sh // 2 - vh // 2), cw, vh),
        "i3": Box(fan_x, top + 3 * step, hw, sh),
        "i4": Box(i4_x, max(top, c_y + sh // 2 - vh // 2), cw, vh),
        "o1": Box(c_x, top, cw, sh),
        "o2": Box(o2_x, c_y, cw, sh),
        "o3": Box(c_x, top + 4 * step, cw, sh),
        "o4": Box(o4_x, c_y, cw, sh),
        "f1": Box(o4_x, top, cw, sh + 1),
        "f2": Box(o2_x, top, cw, sh + 1),
        "f3": Box(o2_x, top + 4 * step, cw, sh + 1),
        "f4": Box(o4_x, top + 4 * step, cw, sh + 1),
    }
    band_y = top + 4 * step + sh + 1 + (1 if g else 0)
    band_x = max(0, min(o4_x, (width - band_w) // 2))
    boxes["stock"] = Box(band_x, band_y, cw, sh)
    for k in range(6):
        boxes[f"u{k + 1}"] = Box(band_x + (k + 1) * (cw + ug) + sg, band_y, cw, sh)
    info_x = band_x + 7 * (cw + ug) + sg
    boxes["info"] = Box(info_x, band_y + 1, max(1, width - info_x), ch)
    return boxes


# ------------------------------------------------------------------ piles


class StarPileView(PileView):
    """A pile of the star: ``hfan`` (cards side by side), ``vfan``, ``stack``, ``found``.

    Cards are ``card_rows`` high (2: top and bottom edge; 3: with the middle
    row). A ``found`` pile has one more row under its card with its ``badge``
    (the suit and which run K→A it is on).
    """

    def __init__(self, pile: str, key: str, kind: str = "stack", look: CardLook | None = None):
        super().__init__(pile, key, kind, look)
        self.card_rows = 2

    def count_at(self, y: int) -> int:
        """Only one card ever moves: a click on a card takes the top one."""
        return 1 if y > 0 and self.cards and y <= self._card_height() else 0

    def _card_height(self) -> int:
        if self.kind == "vfan":
            return max(1, len(self.cards) - 1) + self.card_rows
        return self.card_rows

    def _make_strips(self, height: int) -> list[Strip]:
        width = self.look.width if self.kind != "hfan" else self.size.width
        strips = [self._label_strip(width)]
        if self.kind == "hfan":
            rows = self._hfan_rows(width)
        elif self.kind == "vfan":
            rows = self._vfan_rows()
        else:
            rows = self._stack_rows()
        strips.extend(Strip(segs, width) for segs in rows[: height - 1])
        if self.kind == "found" and len(strips) < height:
            strips.append(Strip([Segment(self.badge.center(width)[:width], LABEL)], width))
        blank = Strip.blank(width)
        strips.extend(blank for _ in range(height - len(strips)))
        return strips

    # -- pieces

    def _style(self, card: Any, top: bool) -> Style:
        style = self.look.face_style(card)
        if top and self.selected:
            return style + SELECTED
        return style

    def _mark(self, text: str) -> str:
        return ">" + text[1:] if self.cursor is not None else text

    def _empty(self) -> list[list[Segment]]:
        look = self.look
        style = EMPTY
        top = look.empty("top")
        if self.card_rows == 2 and self.placeholder:
            inner = look.width - 2
            top = top[0] + self.placeholder.center(inner, top[1])[:inner] + top[-1]
        rows = [top, look.empty("bottom")]
        if self.card_rows == 3:
            rows.insert(1, look.empty("middle", self.placeholder))
        rows[0] = self._mark(rows[0])
        return [[Segment(r, style)] for r in rows]

    def _card(self, card: Any, up: bool = True) -> list[str]:
        look = self.look
        if not up:
            badge = self.badge
            rows = [look.back("top", badge), look.back("bottom")]
            if self.card_rows == 3:
                rows = [look.back("top"), look.back("middle", badge), look.back("bottom")]
            return rows
        rows = [look.edge(card), look.edge(card, bottom=True)]
        if self.card_rows == 3:
            rows.insert(1, look.middle(card))
        return rows

    def _stack_rows(self) -> list[list[Segment]]:
        if not self.cards:
            return self._empty()
        card, up = self.cards[-1]
        style = self._style(card, True) if up else BACK
        rows = self._card(card, up)
        rows[0] = self._mark(rows[0])
        return [[Segment(r, style)] for r in rows]

    def _vfan_rows(self) -> list[list[Segment]]:
        if not self.cards:
            return self._empty()
        look = self.look
        out: list[list[Segment]] = []
        for card, _ in self.cards[:-1]:
            out.append([Segment(look.edge(card), self._style(card, False))])
        card, _ = self.cards[-1]
        rows = self._card(card)
        rows[0] = self._mark(rows[0])
        out.extend([Segment(r, self._style(card, True))] for r in rows)
        return out

    def _hfan_rows(self, width: int) -> list[list[Segment]]:
        if not self.cards:
            return [[*segs, Segment(" " * (width - self.look.width))] for segs in self._empty()]
        look = self.look
        tl, bl, h, v = ("+", "+", "-", "|") if look.ascii else ("┌", "└", "─", "│")
        n = len(self.cards)
        rows: list[list[Segment]] = [[] for _ in range(self.card_rows)]
        for k, (card, _) in enumerate(self.cards):
            if k == n - 1:
                texts = self._card(card)
                texts[0] = self._mark(texts[0])
            else:
                label = look.label(card)
                texts = [tl + label.ljust(SLICE - 1, h)[: SLICE - 1], bl + h * (SLICE - 1)]
                if self.card_rows == 3:
                    texts.insert(1, v + " " * (SLICE - 1))
            style = self._style(card, k == n - 1)
            for row, text in zip(rows, texts, strict=True):
                row.append(Segment(text, style))
        used = (n - 1) * SLICE + look.width
        if used < width:
            for row in rows:
                row.append(Segment(" " * (width - used)))
        return rows


class InfoText(Widget):
    """A few lines of plain text placed on the board (the round, the stock)."""

    DEFAULT_CSS = """
    InfoText { position: absolute; width: 24; height: 2; background: transparent; }
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.lines: list[str] = []

    def set_lines(self, lines: list[str]) -> None:
        if lines != self.lines:
            self.lines = lines
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        text = self.lines[y] if y < len(self.lines) else ""
        return Strip([Segment(text[:width].ljust(width), LABEL)], width)

    @property
    def text(self) -> str:
        """The lines as one string (for tests and humans)."""
        return "\n".join(self.lines)


class StarBoard(Board):
    """The board of Stjernen: :func:`star_layout` places the piles; resizing re-places them."""

    def __init__(self, places: dict[str, Place], look: CardLook, **kw: str) -> None:
        super().__init__(places, 1, 1, look, **kw)
        self.piles = {name: StarPileView(name, p.key, p.kind, look) for name, p in places.items()}
        self.info = InfoText(id="star-info")
        self.boxes: dict[str, Box] = {}

    def compose(self) -> ComposeResult:
        yield from self.piles.values()
        yield self.info
        yield self.ghost

    def place_piles(self, size: tuple[int, int] | None = None) -> None:
        width, height = size or self.size
        boxes = star_layout(width, height)
        if boxes is None:
            self.boxes = {}
            return
        self.boxes = boxes
        ch = card_rows(height)
        cw = card_width(width, height)
        look = replace(self.look, width=cw)
        for name, view in self.piles.items():
            box = boxes[name]
            view.styles.offset = (box.x, box.y)
            view.styles.width = box.w
            view.styles.height = box.h
            view.show(look=look, card_rows=ch)
        info = boxes["info"]
        self.info.styles.offset = (info.x, info.y)
        self.info.styles.width = info.w
        self.info.styles.height = info.h
        self.ghost.styles.width = cw
        self.ghost.show(look=look)

    def set_look(self, look: CardLook) -> None:
        self.look = look
        self.place_piles()
        if not self.boxes:
            for view in (*self.piles.values(), self.ghost):
                view.show(look=look)

    def centres(self) -> dict[str, tuple[float, float]]:
        """The middle of each pile's cards (its label row left out), in board cells."""
        return {
            name: (box.x + box.w / 2, box.y + 1 + (box.h - 1) / 2)
            for name, box in self.boxes.items()
            if name in self.piles
        }
