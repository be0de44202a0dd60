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

from typing import Any, ClassVar

from textual.binding import Binding

from termsolitaire.rules.stjernen import CENTRE, FOUNDATIONS, INNER, OUTER, UPTURNED, Stjernen
from termsolitaire.screens.boards.bindings import NEAREST_CURSOR, board_bindings, pile_bindings
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.registry import board_css
from termsolitaire.widgets.board import Board, Place
from termsolitaire.widgets.nav import nearest
from termsolitaire.widgets.star import MIN_HEIGHT, MIN_WIDTH, StarBoard

KEYS: dict[str, str] = {
    CENTRE: "5",
    **dict(zip(INNER, "wdsa", strict=True)),
    **dict(zip(OUTER, "8624", strict=True)),
    **dict(zip(FOUNDATIONS, "7931", strict=True)),
    **dict(zip(UPTURNED, "xcvbnm", strict=True)),
    Stjernen.stock_pile: "0",
}
"""Each pile's key, shown on the pile."""
KINDS = {"i1": "hfan", "i3": "hfan", "i2": "vfan", "i4": "vfan"}
GROUPS = {
    CENTRE: "Centre",
    **dict.fromkeys(INNER, "Inner-ring"),
    **dict.fromkeys(OUTER, "Outer-ring"),
    **dict.fromkeys(FOUNDATIONS, "Foundation"),
    **dict.fromkeys(UPTURNED, "Upturned"),
}


def _places() -> dict[str, Place]:
    places = {}
    for name, key in KEYS.items():
        kind = KINDS.get(name, "found" if name in FOUNDATIONS else "stack")
        places[name] = Place(0, 0, kind, key)
    return places


class StjernenScreen(BoardScreen):
    CSS_PATH = board_css("board", "stjernen")
    GAME = Stjernen.info.name
    BINDINGS = board_bindings(
        *pile_bindings({p: KEYS[p] for p in GROUPS}, GROUPS),
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
        cursor=NEAREST_CURSOR,
        drop=("more", "fewer"),  # one card moves at a time (the help offered + and -)
    )
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [[CENTRE]]
    CURSOR_START = CENTRE
    ALONG_PILES = False
    MIN_HEIGHT = MIN_HEIGHT + 3

    def navigate(self, cursor: str | None, dx: int, dy: int) -> str | None:
        """The nearest pile that way (:func:`~termsolitaire.widgets.nav.nearest`)."""
        if cursor is None:
            return self.CURSOR_START
        return nearest(self.board.centres(), cursor, dx, dy, lines=True) or cursor

    def make_board(self) -> Board:
        return StarBoard(self.PLACES, self.look, id="board")

    @property
    def star(self) -> StarBoard:
        assert isinstance(self.board, StarBoard)
        return self.board

    @property
    def min_size(self) -> tuple[int, int]:
        return MIN_WIDTH, self.MIN_HEIGHT

    @property
    def stjernen(self) -> Stjernen:
        game = self.game
        assert isinstance(game, Stjernen)
        return game

    # ------------------------------------------------------- what it shows

    def pile_marks(self, pile: str) -> dict[str, Any]:
        g = self.stjernen
        marks = super().pile_marks(pile)
        if pile == g.stock_pile:
            # (a won game may still collect, but that is no longer worth offering)
            collect = g.can_collect and not g.is_won
            marks.update(badge=str(len(g.pile(pile))), placeholder="o" if collect else "")
        elif pile in FOUNDATIONS:
            marks["badge"] = self._run(pile)
        return marks

    def _run(self, pile: str) -> str:
        """A foundation's suit and which of its two runs K→A it is on."""
        g = self.stjernen
        suit = g.foundation_suit(pile)
        if suit is None:
            return ""
        look = self.board.piles[pile].look
        glyph = look.label(g.pile(pile)[0][0])[-1]
        stage = g.foundation_pass(pile)
        done = look.words("✓")  # "ok" in ASCII
        return f"{glyph} {done if stage == 3 else '1st' if stage == 1 else '2nd'}"

    def info_lines(self) -> list[str]:
        g = self.stjernen
        stock = len(g.pile(g.stock_pile))
        lines = [self.look.words(f"round {g.round} of {g.rounds} — rows of {g.row_width}")]
        if stock:
            lines.append(f"stock: {stock} card{'s' if stock != 1 else ''}")
        elif g.is_won:  # (a collect is still legal, but the game is over)
            lines.append("all 104 cards home")
        elif g.can_collect:
            lines.append("stock empty: o collects")
        else:
            lines.append("stock empty, last round")
        return lines

    def key_left_off(self, action: str) -> bool:
        """``0`` collects once the stock is empty (or says why it cannot): the key
        line's "0 Deal" would offer a deal there is none of, and ``o Collect``
        beside it names the collect. The key still works."""
        g = self.stjernen
        return action == "deal" and not g.pile(g.stock_pile)

    def show_board(self) -> None:
        super().show_board()
        self.star.info.set_lines(self.info_lines())

    def hint(self) -> str:
        # Deal and collect are in the footer; clauses drop from the right when narrow.
        return (
            "wdsa inner, 8624 outer, 5 centre; 7913 foundations; xcvbnm upturned; "
            "arrows+Space; ? help"
        )

    def help_keys(self) -> list[tuple[str, str]]:
        rows = [
            ("w d s a", "inner ring: north, east, south, west"),
            ("8 6 2 4", "outer ring, in front of the inner ring"),
            ("5", "the centre pile"),
            ("7 9 3 1", "foundations, in the corners NW NE SE SW"),
            ("x c v b n m", "upturned piles, left to right"),
        ]
        grouped = {f"{kind.lower()}s" for kind in GROUPS.values()}  # the base's pile rows
        rows += [(k, t) for k, t in super().help_keys() if t not in grouped]
        return rows

    def action_collect(self) -> None:
        self.do(self.controller.collect())
