"""A fifth game is its rules module and its board screen: a toy game declared here
(a 10-card "two piles" patience) appears in the registry, ``termsolitaire show``,
the command line and the menu, and plays on a board, without touching any other
source file (issue 10)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Self

import pytest

from termsolitaire import cli
from termsolitaire.app import SolitaireApp
from termsolitaire.rules import Card, GameInfo, Move, games, info, new_game, register, registry
from termsolitaire.rules.deal import shuffled
from termsolitaire.rules.game import Game
from termsolitaire.screens.boards import board as board_module
from termsolitaire.screens.boards.bindings import FOUNDATION_BINDING, board_bindings, pile_bindings
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.widgets.board import Place

from .screens.conftest import board, status


class TwoPiles(Game):
    """A to 5 of spades and hearts dealt onto two piles; a card goes on a card one
    rank higher, or to the foundation when it is the next rank up (two of each)."""

    info = GameInfo(name="toy", title="Toy", blurb="two piles, ten cards", stream=99, order=50)
    pile_names = ("a", "b", "f")
    foundations = ("f",)

    @classmethod
    def _dealt(cls, deal: int, **variant: int) -> Self:
        game = cls(**variant)
        for i, card in enumerate(shuffled(game._deck(), cls.info.stream, deal)):
            game._piles["ab"[i % 2]].append(card)
        return game

    def _next(self) -> int:
        return len(self._piles["f"]) // 2 + 1

    def _legal(self) -> list[Move]:
        moves = []
        for src, dst in (("a", "b"), ("b", "a")):
            s, d = self._piles[src], self._piles[dst]
            if s and (not d or d[-1].rank == s[-1].rank + 1):
                moves.append(Move.transfer(src, dst))
            if s and s[-1].rank == self._next():
                moves.append(Move.transfer(src, "f"))
        return moves

    def _refusal(self, m: Move) -> str | None:
        if m.src == "f":
            return "Cards on the foundation stay"
        if m.dst == "f":
            return f"Next on the foundation is a {self._next()}"
        return "A card goes on a card one rank higher"

    def _execute(self, m: Move) -> None:
        self._transfer(m)

    def foundation_suit(self, pile: str) -> str | None:
        return None

    @property
    def is_won(self) -> bool:
        return len(self._piles["f"]) == 10

    @property
    def score(self) -> int:
        return len(self._piles["f"])

    def _deck(self) -> list[Card]:
        return [Card(r, s) for s in "SH" for r in range(1, 6)]


@pytest.fixture
def toy() -> Iterator[type[BoardScreen]]:
    """The toy registered, with a board of its own; both forgotten afterwards."""
    register(TwoPiles)

    class ToyScreen(BoardScreen):
        GAME = "toy"
        BINDINGS = board_bindings(*pile_bindings({"a": "a", "b": "b"}, "Pile"), FOUNDATION_BINDING)
        PLACES: ClassVar[dict[str, Place]] = {
            "a": Place(0, 1, "fan", "a"),
            "b": Place(1, 1, "fan", "b"),
            "f": Place(3, 0, "stack", "f"),
        }
        NAV: ClassVar[list[list[str]]] = [["f"], ["a", "b"]]
        SLOTS = 4
        SPLIT = 3

    try:
        yield ToyScreen
    finally:
        registry._CLASSES.pop("toy", None)
        board_module.BOARDS.pop("toy", None)


def test_the_toy_is_in_the_registry_and_plays(toy: type[BoardScreen]) -> None:
    assert "toy" in [g.name for g in games()]
    assert info("toy").title == "Toy"
    g = new_game("toy", deal=3)
    assert sum(len(g.pile(p)) for p in g.pile_names) == 10
    assert g.why_illegal("f-a") == "Cards on the foundation stay"


def test_the_toy_is_on_the_command_line(toy: type[BoardScreen], capsys) -> None:
    assert cli.main(["show", "toy", "--deal", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game: toy\ndeal: 3\na: ")
    args = cli.build_parser().parse_args(["toy", "--deal", "4", "--ascii"])
    assert (args.command, args.deal, args.ascii) == ("toy", 4, True)
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args(["toy", "--suits", "2"])  # the toy has no variants
    assert e.value.code == 2


async def test_the_toy_is_in_the_menu_and_on_its_board(toy: type[BoardScreen]) -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        titles = [str(o.prompt) for o in menu.query_one("#games").options]  # type: ignore[attr-defined]
        assert any(t.startswith("Toy") for t in titles), titles
        names = [o.id for o in menu.query_one("#games").options]  # type: ignore[attr-defined]
        menu.query_one("#games").highlighted = names.index("toy")  # type: ignore[attr-defined]
        menu.query_one("#deal").value = "3"  # type: ignore[attr-defined]
        await pilot.press("enter")
        screen = board(app)
        assert isinstance(screen, toy)
        game = screen.game
        move = game.legal_moves()[0]
        await pilot.press(move.src, "f" if move.dst == "f" else move.dst)
        assert game.history == (move,), status(app)


async def test_the_whole_app_says_what_the_toy_lacks(toy: type[BoardScreen], capsys) -> None:
    """The toy brings no rules page and no solver: the menu's ``r``, the board, its
    help (``?``, then ``r``), ``H``, the palette and ``termsolitaire solve toy``
    each work or say in a sentence what is missing (issue 29)."""
    from termsolitaire.screens.dialogs.help import HelpScreen
    from termsolitaire.screens.dialogs.rulebook import RulesScreen

    from .screens.matchkit import screen_text, until

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        names = [o.id for o in menu.query_one("#games").options]  # type: ignore[attr-defined]
        menu.query_one("#games").highlighted = names.index("toy")  # type: ignore[attr-defined]
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
        await until(pilot, lambda: "no rules page for Toy" in screen_text(app), "the sentence")
        assert "two piles, ten cards" in screen_text(app)  # the declaration's blurb
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is menu, "the menu again")

        menu.query_one("#deal").value = "3"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, toy), "the toy's board")
        screen = board(app)

        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert "Toy: keys" in screen_text(app)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules from help")
        await until(pilot, lambda: "no rules page for Toy" in screen_text(app), "the sentence")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "back to the help")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back on the board")

        await pilot.press("H")
        await until(pilot, lambda: "no solver" in status(app), "the hint's answer")
        assert status(app).startswith("No hints: there is no solver for this game (Toy)")

        titles = [c.title for c in app.get_system_commands(screen)]
        assert "To foundation" in titles and "Undo" in titles, titles
        assert "Hint" not in titles  # nothing behind it: H says why instead
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen is not screen, "the palette")
        await pilot.press(*"help")
        await until(pilot, lambda: "This help; keys ?, f1" in screen_text(app), "the entry")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help, by the palette")

    assert cli.main(["solve", "toy", "--deal", "1"]) == 2
    err = capsys.readouterr().err
    assert err == "termsolitaire solve: there is no solver for toy yet\n"
