"""The Spider board: ten piles, the stock and the completed runs on the right.

Keys: piles ``1``-``9`` and ``0``, ``d`` deals from the stock, ``t`` then a
pile's key turns that pile's top card (so does picking up a pile that shows
only face-down cards), ``e`` ends the game now (after a yes: RULES.md, "The
match": a game ends when all cards are discarded, when time runs out, or on
End). Score, moves and the clock (a countdown under a time limit) are always
in the header; the results show the runs completed too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding

from termsolitaire.rules.spider import RUN, TABLEAU, Spider
from termsolitaire.screens.boards.bindings import COMMON_BINDINGS, board_bindings, pile_bindings
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.registry import board_css
from termsolitaire.widgets.board import Place

if TYPE_CHECKING:  # the results load when a game ends
    from termsolitaire.screens.dialogs.results import ResultsScreen

PILE_KEYS = dict(zip(TABLEAU, "1234567890", strict=True))
# Redo stays on Z and in the help, off the footer: End needs the room at 80 columns.
_REDO = next(b for b in COMMON_BINDINGS if isinstance(b, Binding) and b.id == "redo")


def _places() -> dict[str, Place]:
    places = {t: Place(i, 2, "fan", k) for i, (t, k) in enumerate(PILE_KEYS.items())}
    places["stock"] = Place(10, 0, "stack", "d")
    places["done"] = Place(10, 1, "fan", "0/8")  # its label counts the completed runs
    return places


class SpiderScreen(BoardScreen):
    CSS_PATH = board_css("board", "spider")
    GAME = Spider.info.name
    BINDINGS = board_bindings(
        *pile_bindings(PILE_KEYS, "Pile"),
        Binding("d", "deal", "Deal", id="deal", tooltip="deal a row from the stock"),
        Binding(
            "t",
            "turn",
            "Turn",
            id="turn",
            tooltip="turn the top card of a pile showing only face-down cards: t, then its key",
        ),
        Binding("e", "end", "End", id="end", tooltip="end this game now, with its score"),
        Binding(
            _REDO.key, _REDO.action, _REDO.description, show=False, id="redo", tooltip=_REDO.tooltip
        ),
        drop=("redo",),
    )
    PLACES = _places()
    NAV: ClassVar[list[list[str]]] = [[*TABLEAU, "stock"]]
    SLOTS = 11
    SPLIT = 10
    MIN_HEIGHT = 18

    def pile_marks(self, pile: str) -> dict[str, Any]:
        game = self.game
        assert isinstance(game, Spider)
        if pile == "stock":
            return {"badge": str(game.packets)}
        if pile == "done":
            cards = game.pile("done")  # one king per completed run
            return {"cards": cards[::RUN], "key": f"{game.runs}/8", "links": ()}
        return super().pile_marks(pile)

    def hint(self) -> str:
        return "Keys: 1-0 piles, d deal, t+pile turn; arrows+Space; ? help"

    def results_screen(self, headline: str) -> ResultsScreen:
        from termsolitaire.screens.dialogs.results import ResultsScreen

        game = self.game
        assert isinstance(game, Spider)
        return ResultsScreen(
            headline, game.score, game.moves, int(game.elapsed), runs=game.runs, game=game
        )

    def action_end(self) -> None:
        """``e``: end the game now, after a yes."""
        self.do(self.controller.end())

    def action_turn(self) -> None:
        """``t``: turn a pile's top card (the pile in hand or under the cursor where
        it can be turned, else the one whose key comes next)."""
        self.do(self.controller.turn())
