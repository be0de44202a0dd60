"""The Stjernen board: a star of piles around the centre, drawn by :class:`StarBoard`.

Keys read off the star like a numeric keypad: ``5`` the centre, ``8 6 2 4``
the outer ring (north, east, south, west), ``7 9 3 1`` the foundations in the
corners (NW, NE, SE, SW); the inner ring is ``w d s a`` (north, east, south,
west, as on a game pad); the upturned piles along the bottom are
``x c v b n m``; ``0`` is the stock (it deals, or collects once the stock is
empty), ``o`` collects and ``f`` sends a card to its foundation. Arrow keys move
the cursor to the nearest pile in that direction.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from termsolitaire.rules import Game, Move
from termsolitaire.rules.moves import COLLECT, DEAL
from termsolitaire.widgets.board import Place
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.star import MIN_HEIGHT, MIN_WIDTH, InfoText, StarBoard

from .board import COMMON_BINDINGS, BoardScreen

INNER = ["i1", "i2", "i3", "i4"]
OUTER = ["o1", "o2", "o3", "o4"]
FOUNDATIONS = ["f1", "f2", "f3", "f4"]
UPTURNED = [f"u{k}" for k in range(1, 7)]
KEYS: dict[str, str] = {
    "c": "5",
    **dict(zip(INNER, "wdsa", strict=True)),
    **dict(zip(OUTER, "8624", strict=True)),
    **dict(zip(FOUNDATIONS, "7931", strict=True)),
    **dict(zip(UPTURNED, "xcvbnm", strict=True)),
    "stock": "0",
}
"""Each pile's key, shown on the pile."""
KINDS = {"i1": "hfan", "i3": "hfan", "i2": "vfan", "i4": "vfan"}
GROUPS = [
    ("c", "Centre"),
    *((p, "Inner-ring") for p in INNER),
    *((p, "Outer-ring") for p in OUTER),
    *((p, "Foundation") for p in FOUNDATIONS),
    *((p, "Upturned") for p in UPTURNED),
]
ROUNDS = 6
CURSOR_HELP = {
    "cursor to the pile on the left": "cursor to the nearest pile on the left",
    "cursor to the pile on the right": "cursor to the nearest pile on the right",
    "cursor up the pile over one more card, then to the row above": (
        "cursor to the nearest pile above"
    ),
    "cursor down the pile over one card fewer, then to the row below": (
        "cursor to the nearest pile below"
    ),
}
"""The base's help for the cursor keys, as they work on the star."""


def _places() -> dict[str, Place]:
    places = {}
    for name, key in KEYS.items():
        kind = KINDS.get(name, "found" if name in FOUNDATIONS else "stack")
        places[name] = Place(0, 0, kind, key)
    return places


def _bindings() -> list[BindingType]:
    keys: list[BindingType] = [
        Binding(KEYS[p], f"pile('{p}')", f"{kind} {p}", show=False, id=f"pile-{p}")
        for p, kind in GROUPS
    ]
    keys += [
        Binding(
            "0",
            "deal",
            "Deal",
            id="deal",
            tooltip="deal a row from the stock (collect once it is empty)",
        ),
        Binding(
            "o",
            "collect",
            "Collect",
            id="collect",
            tooltip="gather the upturned piles into a new stock (stock empty)",
        ),
        Binding(
            "f",
            "foundation",
            "To foundation",
            show=False,
            id="foundation",
            tooltip="send the card in hand (or under the cursor) to its foundation",
        ),
    ]
    return keys + COMMON_BINDINGS


class StjernenScreen(BoardScreen):
    CSS_PATH: ClassVar[list[str]] = ["board.tcss", "stjernen.tcss"]
    GAME = "stjernen"
    BINDINGS = _bindings()
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [["c"]]
    MIN_HEIGHT = MIN_HEIGHT + 3

    def __init__(
        self, game: Game, look: CardLook | None = None, time_limit: int = 0, **kw: Any
    ) -> None:
        super().__init__(game, look, time_limit, **kw)
        self.star = StarBoard(self.PLACES, self.look, id="board")
        self.board = self.star

    @property
    def min_size(self) -> tuple[int, int]:
        return MIN_WIDTH, self.MIN_HEIGHT

    # ------------------------------------------------------- subclass hooks

    def stats_text(self) -> str:
        g: Any = self.game
        return f"score {g.score}  moves {len(g.history)}  round {g.round}/{ROUNDS}"

    def pile_marks(self, pile: str) -> dict[str, Any]:
        if pile == "stock":
            collect = COLLECT in self.hand.legal()
            return {
                "badge": str(len(self.game.pile("stock"))),
                "placeholder": "o" if collect else "",
            }
        if pile in FOUNDATIONS:
            return {"badge": self._run(pile), "placeholder": "K"}
        if pile == "c":
            return {"placeholder": "A"}
        return {}

    def _run(self, pile: str) -> str:
        """A foundation's suit and which of its two runs K→A it is on."""
        cards = self.game.pile(pile)
        if not cards:
            return ""
        look = self.board.piles[pile].look
        suit = look.label(cards[0][0])[-1]
        n = len(cards)
        if n == 26:
            return f"{suit} {'ok' if look.ascii else '✓'}"
        return f"{suit} {'1st' if n <= 13 else '2nd'}"

    def info_lines(self) -> list[str]:
        g: Any = self.game
        stock = len(g.pile("stock"))
        width = g.row_width
        dash = "-" if self.look.ascii else "—"
        lines = [f"round {g.round} of {ROUNDS} {dash} rows of {width}"]
        if stock:
            lines.append(f"stock: {stock} card{'s' if stock != 1 else ''}")
        elif g.round < ROUNDS:
            lines.append("stock empty: o collects")
        else:
            lines.append("stock empty, last round")
        return lines

    def redraw(self) -> None:
        super().redraw()
        self.query_one("#star-info", InfoText).set_lines(self.info_lines())

    def hint(self) -> str:
        return "Keys on the piles: 5 centre, wdsa inner, 8624 outer, 0 deal, o collect; ? help"

    def help_keys(self) -> list[tuple[str, str]]:
        rows = [
            ("w d s a", "inner ring i1 i2 i3 i4: north, east, south, west"),
            ("8 6 2 4", "outer ring o1 o2 o3 o4, in front of the inner ring"),
            ("5", "the centre pile"),
            ("7 9 3 1", "foundations f1 f2 f3 f4 in the corners NW NE SE SW"),
            ("x c v b n m", "upturned piles u1 to u6"),
        ]
        grouped = tuple(f"{kind.lower()}s " for _, kind in GROUPS)  # the base's pile rows
        for keys, text in super().help_keys():
            if not text.startswith(grouped):
                rows.append((keys, CURSOR_HELP.get(text, text)))
        return rows

    # -------------------------------------------------------------- actions

    def pick(self, name: str, count: int | None) -> None:
        if name == "stock":
            self.action_deal()
            return
        if name in FOUNDATIONS and self.game.pile(name):
            self.say("Cards on the foundations never move")
            return
        super().pick(name, 1)

    def action_deal(self) -> None:
        """Deal a row; on an empty stock, collect instead when that is possible."""
        if not self.game.pile("stock") and COLLECT in self.hand.legal():
            self.play(COLLECT)
            return
        self.play(DEAL)

    def action_collect(self) -> None:
        self.play(COLLECT)

    def to_foundation(self, src: str, dst: str | None = None) -> None:
        """Send the top card of ``src`` to a foundation (``dst`` first if it takes it).

        A double click on the stock deals again (a quick second click is a double click).
        """
        if src == "stock":
            self.action_deal()
            return
        if src in FOUNDATIONS:
            if self.hand.src is None or self.hand.src == src:
                self.say("Cards on the foundations never move")
                self.hand.drop()
                self.redraw()
                return
            dst, src = src, self.hand.src
        fits = [m for m in self.hand.moves_from(src) if m.dst in FOUNDATIONS]
        if fits:
            mine = [m for m in fits if m.dst == dst]
            self.play((mine or fits)[0])
            return
        self.play(Move.transfer(src, dst or self._foundation_for(src)))

    def _foundation_for(self, src: str) -> str:
        """The foundation that holds the suit of ``src``'s top card, else the first empty one."""
        cards = self.game.pile(src)
        suit = cards[-1][0].suit if cards else ""
        empty = ""
        for f in FOUNDATIONS:
            pile = self.game.pile(f)
            if pile and pile[0][0].suit == suit:
                return f
            if not pile and not empty:
                empty = f
        return empty or FOUNDATIONS[0]

    def action_pile(self, name: str) -> None:
        if name in FOUNDATIONS and self.hand.src is not None:
            self.to_foundation(self.hand.src, name)
            return
        super().action_pile(name)

    # --------------------------------------------------------------- cursor

    def action_cursor(self, dx: int, dy: int) -> None:
        """Arrows: the cursor goes to the geometrically nearest pile in that direction."""
        hand = self.hand
        if hand.cursor is None or (dx, dy) == (0, 0):
            hand.cursor = hand.cursor or "c"
            hand.cursor_count = None
            self.redraw()
            return
        nxt = self.nearest(hand.cursor, dx, dy)
        if nxt is not None:
            hand.cursor = nxt
        self.redraw()

    def nearest(self, start: str, dx: int, dy: int) -> str | None:
        """The pile nearest ``start`` in direction (``dx``, ``dy``), a column being half a row."""
        here = self.star.centre_of(start)
        if here is None:
            return None
        best: tuple[float, str] | None = None
        for name in self.PLACES:
            there = self.star.centre_of(name)
            if name == start or there is None:
                continue
            ex, ey = (there[0] - here[0]) / 2, there[1] - here[1]
            along = ex * dx + ey * dy
            across = abs(ex * dy - ey * dx)
            if along <= 0 or across > 2 * along + 1:
                continue
            score = math.hypot(along, 3 * across)
            if best is None or score < best[0]:
                best = (score, name)
        return best[1] if best else None
