"""The Spider board: ten piles, the stock and the completed runs on the right.

Keys: piles ``1``-``9`` and ``0``, ``d`` deals from the stock, ``t`` then a
pile's key turns that pile's top card (so does picking up a pile that shows
only face-down cards). Score, moves and the clock (a countdown under a time
limit) are always in the header.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from termsolitaire.rules import Move
from termsolitaire.rules.moves import DEAL
from termsolitaire.widgets.board import Place

from .board import COMMON_BINDINGS, BoardScreen

PILES = [f"t{i}" for i in range(1, 11)]
PILE_KEYS = "1234567890"
RUN = 13


def _places() -> dict[str, Place]:
    places = {
        t: Place(i, 2, "fan", k) for i, (t, k) in enumerate(zip(PILES, PILE_KEYS, strict=False))
    }
    places["stock"] = Place(10, 0, "stack", "d")
    places["done"] = Place(10, 1, "fan", "0/8")  # its label counts the completed runs
    return places


def _bindings() -> list[BindingType]:
    keys: list[BindingType] = [
        Binding(k, f"pile('{t}')", f"Pile {t}", show=False, id=f"pile-{t}")
        for t, k in zip(PILES, PILE_KEYS, strict=False)
    ]
    keys.append(Binding("d", "deal", "Deal", id="deal", tooltip="deal a row from the stock"))
    keys.append(
        Binding(
            "t",
            "turn",
            "Turn",
            id="turn",
            tooltip="turn the top card of a pile showing only face-down cards: t, then its key",
        )
    )
    return keys + COMMON_BINDINGS


class SpiderScreen(BoardScreen):
    CSS_PATH: ClassVar[list[str]] = ["board.tcss", "spider.tcss"]
    GAME = "spider"
    BINDINGS = _bindings()
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [[*PILES, "stock"]]
    SLOTS = 11
    SPLIT = 10
    MIN_HEIGHT = 18

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.turning = False

    def title_text(self) -> str:
        suits = self.game.variant.get("suits", 1)
        sep = self.sep
        limit = f"{sep}{self.time_limit // 60} min" if self.time_limit else ""
        plural = "s" if suits > 1 else ""
        return f"Spider{sep}{suits} suit{plural}{sep}deal {self.game.deal}{limit}"

    def stats_text(self) -> str:
        g: Any = self.game
        return f"score {g.score}  moves {g.moves}"

    def pile_marks(self, pile: str) -> dict[str, Any]:
        if pile == "stock":
            return {"badge": str(len(self.game.pile("stock")) // 10)}
        if pile == "done":
            cards = self.game.pile("done")  # one king per completed run
            return {"cards": cards[::RUN], "key": f"{len(cards) // RUN}/8"}
        return {}

    def hint(self) -> str:
        return "Keys: 1-0 piles, d deal, t+pile turn; arrows+Space; mouse; ? help"

    def action_deal(self) -> None:
        self.play(DEAL)

    def action_turn(self) -> None:
        pile = self.hand.src or self.hand.cursor
        if pile is not None:
            self.play(Move.turn(pile))
            return
        self.turning = True
        self.say("Turn which pile's top card? Press its key (Escape: never mind)")

    def action_pile(self, name: str) -> None:
        if self.turning:
            self.turning = False
            self.play(Move.turn(name))
            return
        super().action_pile(name)

    def action_cancel(self) -> None:
        self.turning = False
        super().action_cancel()
