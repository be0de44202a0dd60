"""The Napoleon board: sixteen positions in a circle around the four aces.

The positions ``p1``-``p16`` stand at their angles, ``p1`` at the top and
clockwise every 22.5°, each fanned outward from the centre
(:mod:`termsolitaire.widgets.circle`); the foundations ♠ ♥ ♦ ♣ are side by
side in the middle.

Keys: the positions are lettered clockwise from north in alphabetical order,
skipping the letters this board already uses — ``f`` (to the foundation) and
``h j k l`` (the cursor): ``a b c d e g i m n o p q r s t u``. So the letter
under a pile's label is its key, and the next pile clockwise has the next
letter. ``f`` sends the card in hand (or under the cursor) to its
foundation; ``M`` shows or hides the move list. Arrow keys move the cursor
to the nearest pile in that direction.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from termsolitaire.rules import Game, Move
from termsolitaire.widgets.board import Place
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.circle import CircleBoard
from termsolitaire.widgets.line import TextLine

from .board import COMMON_BINDINGS, BoardScreen
from .movelist import MoveList

RING = [f"p{i}" for i in range(1, 17)]
FOUNDATIONS = ["f1", "f2", "f3", "f4"]
RING_KEYS = "abcdegimnopqrstu"
"""Clockwise from north: a to u without f (foundation) and h j k l (cursor)."""
KEYS = dict(zip(RING, RING_KEYS, strict=True))

MIN_WIDTH = 63
MIN_HEIGHT = 20
"""Below this the circle cannot show a fresh deal's five-card piles card by card."""


CURSOR_KEYS = [
    ("left,h", -1, 0, "Left", "to the left"),
    ("right,l", 1, 0, "Right", "to the right"),
    ("up,k", 0, -1, "Up", "above"),
    ("down,j", 0, 1, "Down", "below"),
]
REPLACED = {"cursor-left", "cursor-right", "cursor-up", "cursor-down", "more", "fewer"}
"""The base's cursor keys walk along a pile and +/- change a count: not here."""


def _places() -> dict[str, Place]:
    places = {p: Place(i, 0, "ring", KEYS[p]) for i, p in enumerate(RING)}
    places.update({f: Place(i, 0, "centre", "f") for i, f in enumerate(FOUNDATIONS)})
    return places


def _bindings() -> list[BindingType]:
    keys: list[BindingType] = [
        Binding(k, f"pile('{p}')", f"Position {p}", show=False, id=f"pile-{p}")
        for p, k in KEYS.items()
    ]
    keys.append(
        Binding(
            "f",
            "foundation",
            "To foundation",
            id="foundation",
            tooltip="send the card in hand (or under the cursor) to its foundation",
        )
    )
    keys.append(
        Binding("M", "move_list", "Moves", id="move-list", tooltip="show or hide the move list")
    )
    keys += [
        Binding(
            key,
            f"cursor({dx}, {dy})",
            name,
            show=False,
            id=f"cursor-{name.lower()}",
            tooltip=f"cursor to the nearest pile {where}",
        )
        for key, dx, dy, name, where in CURSOR_KEYS
    ]
    return keys + [b for b in COMMON_BINDINGS if getattr(b, "id", "") not in REPLACED]


class NapoleonScreen(BoardScreen):
    CSS_PATH: ClassVar[list[str]] = ["board.tcss", "napoleon.tcss"]
    GAME = "napoleon"
    PILE_WORD = "position"
    BINDINGS = _bindings()
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [RING + FOUNDATIONS]
    MIN_HEIGHT = MIN_HEIGHT

    def __init__(
        self, game: Game, look: CardLook | None = None, time_limit: int = 0, **kw: Any
    ) -> None:
        super().__init__(game, look, time_limit, **kw)
        self.board = CircleBoard(self.PLACES, self.look, id="board")
        self.move_list = MoveList(id="moves")

    @property
    def min_size(self) -> tuple[int, int]:
        return MIN_WIDTH, MIN_HEIGHT

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="header"):
            yield TextLine(self.title_text(), id="title")
            yield TextLine("", align="right", id="stats")
            yield TextLine("", align="right", id="clock")
        with Horizontal(id="middle"):
            yield self.board
            yield self.move_list
        yield Static("", id="enlarge")
        yield TextLine("", id="status")
        yield Footer()

    def on_resize(self) -> None:
        super().on_resize()
        self.query_one("#middle").display = self.board.display

    # ------------------------------------------------------- subclass hooks

    def stats_text(self) -> str:
        return f"moves {len(self.game.history)}  foundations {self.game.score}/52"

    def hint(self) -> str:
        return "a-u positions, f foundation, M moves, arrows+Space, ? help"

    def redraw(self) -> None:
        super().redraw()
        self.move_list.set_moves(self.game.history)

    # -------------------------------------------------------------- actions

    def action_move_list(self) -> None:
        self.move_list.display = not self.move_list.display

    def pick(self, name: str, count: int | None) -> None:
        if name in FOUNDATIONS:
            reason = self.game.why_illegal(Move.transfer(name, RING[0]))
            self.say(reason or "Cards on the foundations never move")
            return
        super().pick(name, None)

    def action_pile(self, name: str) -> None:
        if name in FOUNDATIONS:
            self.action_foundation()
        else:
            super().action_pile(name)

    def to_foundation(self, src: str) -> None:
        """Send the top card of ``src`` to its foundation; say why not if it cannot go."""
        if src in FOUNDATIONS:
            if self.hand.src is None or self.hand.src in FOUNDATIONS:
                self.pick(src, None)
                return
            src = self.hand.src
        self.to_suit_foundation(src)

    # --------------------------------------------------------------- cursor

    def _centres(self) -> dict[str, tuple[int, int]]:
        """Each pile's place on screen: its label, or the card of a foundation."""
        spots = self.board.canvas.spots  # type: ignore[attr-defined]
        out = {}
        for name, spot in spots.items():
            x, y = spot.cells[0] if name in FOUNDATIONS else spot.label
            out[name] = (x + 1, y)
        return out

    def nearest(self, start: str, dx: int, dy: int) -> str:
        """The pile nearest ``start`` in direction ``dx``, ``dy`` (rows count double)."""
        centres = self._centres()
        if start not in centres:
            return start
        x0, y0 = centres[start]
        best: tuple[float, str] | None = None
        for name, (x, y) in centres.items():
            vx, vy = x - x0, 2 * (y - y0)
            along = vx * dx + vy * dy
            across = abs(vx * dy - vy * dx)
            if along <= 0 or across > 2 * along:
                continue
            score = along + 2 * across
            if best is None or score < best[0]:
                best = (score, name)
        return best[1] if best else start

    def action_cursor(self, dx: int, dy: int) -> None:
        hand = self.hand
        hand.cursor_count = None
        if hand.cursor is None:
            hand.cursor = hand.src or RING[0]
            self.say("Cursor on; arrows move it, Space picks up and drops")
        else:
            hand.cursor = self.nearest(hand.cursor, dx, dy)
        self.redraw()
