"""Stjernen through Pilot: six rounds of deal and collect by keys, refusals, cursor, mouse,
and random input that must keep the app running and every card in the game."""

from __future__ import annotations

from typing import Any

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.boards.stjernen import StjernenScreen
from termsolitaire.screens.dialogs.stuck import StuckScreen
from termsolitaire.widgets.keyline import KeyLine

from .conftest import status
from .matchkit import until

# deal; K♣ o1 to f1; 5♦ u3 to o3; 8♥ u4 to o2; 5♣ i1 to o1; deal; 5♦ of u3 in hand
MID_KEYS = ["0", "8", "7", "v", "2", "b", "6", "w", "8", "0", "v"]


def StjernenApp(deal: int = 1, **kw: Any) -> SolitaireApp:
    """The app straight on a Stjernen board of ``deal``, its clock standing still."""
    return SolitaireApp("stjernen", deal, {}, clock=False, **kw)


def screen(app: SolitaireApp) -> StjernenScreen:
    for s in reversed(app.screen_stack):
        if isinstance(s, StjernenScreen):
            return s
    raise AssertionError("no Stjernen board")


def info(app: SolitaireApp) -> str:
    return screen(app).star.info.text


async def test_six_rounds_of_deal_and_collect_by_keys() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        game: Any = screen(app).game
        assert "round 1 of 6 — rows of 6" in info(app)
        assert "stock: 60 cards" in info(app)
        for rnd in range(1, 7):
            width = 7 - rnd
            while game.pile("stock"):
                before = len(game.pile("stock"))
                await pilot.press("0")
                after = len(game.pile("stock"))
                assert after == max(0, before - width)
                assert game.round == rnd
                assert f"round {rnd} of 6 — rows of {width}" in info(app)
                if after:
                    assert f"stock: {after} card" in info(app)
            if rnd < 6:
                assert "stock empty: o collects" in info(app)
                await pilot.press("o")
                assert game.round == rnd + 1
                assert len(game.pile("stock")) == 60
                assert f"round {rnd + 1} of 6 — rows of {width - 1}" in info(app)
                assert status(app) == "Collected the piles into a new stock"
        assert "stock empty, last round" in info(app)
        assert [m.kind for m in game.history].count("collect") == 5
        assert [m.kind for m in game.history].count("deal") == 10 + 12 + 15 + 20 + 30 + 60
        if isinstance(app.screen, StuckScreen):  # no card move left: the stuck offer
            await pilot.press("escape")
        await pilot.press("o")
        assert status(app) == "No collect after the sixth round"
        await pilot.press("0")
        assert status(app) == "The stock is empty and no round remains"


async def test_the_key_line_offers_no_deal_once_the_stock_is_empty() -> None:
    """With the stock empty ``0`` collects: the key line read "0 Deal" beside
    "o Collect". It leaves the ``0`` off then (``o Collect`` says it), and ``0``
    still collects; with a stock again, "0 Deal" is back."""
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        game: Any = screen(app).game
        foot = screen(app).query_one(KeyLine)
        await until(pilot, lambda: "Deal" in foot.shown(), "0 Deal on the line", 5)
        assert "Collect" in foot.shown()
        while game.pile("stock"):
            await pilot.press("0")
        await until(pilot, lambda: "Deal" not in foot.shown(), "no 0 Deal", 5)
        assert "Collect" in foot.shown()
        await pilot.press("0")
        assert game.round == 2 and len(game.pile("stock")) == 60
        assert status(app) == "Collected the piles into a new stock; z takes it back"
        await until(pilot, lambda: "Deal" in foot.shown(), "0 Deal back", 5)


async def test_collect_refused_while_stock_holds_cards() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        assert status(app) == "Collect only when the stock is empty"
        assert not screen(app).game.history


async def test_refused_inner_ring_move_shows_reason_and_changes_nothing() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        before = screen(app).game.to_text()
        await pilot.press("w", "6")  # i1 (north) to o2 (east)
        # The board labels o1 "8" (issue 9.8: piles named as the board shows them).
        assert status(app) == "An inner-ring card goes only to its own outer position (8)"
        assert screen(app).game.to_text() == before
        assert screen(app).hand.src is None
        await pilot.press("d", "4")  # i2 (east) to o4 (west)
        assert status(app) == "An inner-ring card goes only to its own outer position (6)"
        assert screen(app).game.to_text() == before


async def test_an_empty_centre_picked_up_is_named_as_the_board_labels_it() -> None:
    """``5`` (or a click) on the empty centre said "c is empty": the rules' name of
    the centre, and on this board ``c`` is the key of the second upturned pile,
    which may hold a card (playtest36). It names the centre by its label."""
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("0")  # a row dealt: the pile labelled c holds a card
        assert screen(app).game.pile("u2")
        await pilot.press("5")
        assert status(app) == "Centre 5 is empty"
        assert screen(app).hand.src is None
        await pilot.press("7")
        assert status(app) == "Foundation 7 is empty"


async def test_foundation_keys_and_escape() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        game = screen(app).game
        await pilot.press("8", "escape")
        assert screen(app).hand.src is None
        await pilot.press("8", "9")  # K♣ to the NE corner
        assert [str(m) for m in game.history] == ["o1-f2"]
        assert "♣ 1st" in screen(app).board.piles["f2"].badge
        await pilot.press("9")
        assert status(app) == "Cards on the foundations never move"
        await pilot.press("z", "8", "f")
        assert [str(m) for m in game.history] == ["o1-f1"]


async def test_cursor_goes_to_the_nearest_pile_in_each_direction() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen(app)
        await pilot.press("space")
        assert s.hand.cursor == "c"
        walk = {"up": "i1", "down": "i3", "left": "i4", "right": "i2"}
        for key, pile in walk.items():
            s.hand.cursor = "c"
            await pilot.press(key)
            assert s.hand.cursor == pile, key
        s.hand.cursor = "c"
        await pilot.press("up", "up")
        assert s.hand.cursor == "o1"
        await pilot.press("space", "right")  # o1 (K♣) picked; the NE corner is next right
        assert s.hand.cursor == "f2"
        await pilot.press("right", "space")  # nothing further right: the cursor stays
        assert [str(m) for m in s.game.history] == ["o1-f2"]
        await pilot.press("down")
        assert s.hand.cursor == "o2"
        await pilot.press("down")
        assert s.hand.cursor == "f3"


async def test_click_stock_deals_double_click_and_drag() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen(app)
        await pilot.click("#pile-stock", offset=(2, 1))
        assert [str(m) for m in s.game.history] == ["deal"]
        await pilot.click("#pile-o1", offset=(2, 1), times=2)
        assert [str(m) for m in s.game.history] == ["deal", "o1-f1"]
        await pilot.click("#pile-u3", offset=(2, 1))
        assert s.hand.src == "u3"
        assert s.board.piles["o3"].target
        await pilot.click("#pile-o3", offset=(2, 1))
        assert [str(m) for m in s.game.history][-1] == "u3-o3"
        await pilot.mouse_down("#pile-u4", offset=(2, 1))
        await pilot.hover("#pile-c", offset=(2, 1))
        assert s.board.ghost.display
        await pilot.hover("#pile-o2", offset=(2, 2))
        await pilot.mouse_up("#pile-o2", offset=(2, 2))
        await pilot.pause()
        assert not s.board.ghost.display
        assert [str(m) for m in s.game.history][-1] == "u4-o2"


async def test_resizing_spreads_the_star() -> None:
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        small = screen(app).board.boxes["o4"]
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        big = screen(app).board.boxes["o4"]
        assert big.x < small.x + 20 and big.w == 7
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert not screen(app).board.display
        assert "Enlarge the window to 67×22" in str(screen(app).query_one("#enlarge").render())


async def test_the_move_list_at_80_columns_lies_beside_the_star() -> None:
    """At 80 columns ``M`` narrows the star to make room: the list covers no pile
    (it lay over the NE foundation, the east piles and the SE foundation)."""
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        s = screen(app)
        await pilot.press("M", "0")
        await pilot.pause()
        listed = s.move_list.region
        assert s.move_list.display and listed.width >= 13
        assert s.move_list.moves == ("deal",)
        covered = [n for n, v in s.star.piles.items() if v.region.overlaps(listed)]
        assert covered == [] and not s.star.info.region.overlaps(listed)
        assert "round 1 of 6 — rows of 6" in s.star.info.render_line(0).text
        await pilot.press("M")
        await pilot.pause()
        assert s.star.boxes["f2"].x + s.star.boxes["f2"].w > 70  # the star spreads again


async def test_the_help_offers_no_key_for_more_or_fewer_cards() -> None:
    """One card moves at a time: the help listed "+ = one card more in hand" and
    "- one card fewer" (Napoleon's never did); those keys are not the board's."""
    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        rows = screen(app).help_keys()
        assert not [r for r in rows if "more in hand" in r[1] or "fewer in hand" in r[1]]
        assert ("0", "deal a row from the stock (collect once it is empty)") in rows
        await pilot.press("8", "plus")
        assert status(app).startswith("Outer-ring 8 in hand"), status(app)  # + changes nothing


def _nearly_won(round_: int = 6) -> str:
    """Every card on the foundations but the last A♣, which lies on o1."""
    ranks = "KQJT98765432A"
    fnd = {s: " ".join(f"{r}{s}" for r in ranks * 2) for s in "SHDC"}
    fnd["C"] = fnd["C"][: -len(" AC")]
    piles = {p: "-" for p in ["c", "i1", "i2", "i3", "i4", "o2", "o3", "o4"]}
    piles["o1"] = "AC"
    piles |= {f"f{k}": fnd[s] for k, s in enumerate("SHDC", 1)}
    piles |= {f"u{k}": "-" for k in range(1, 7)}
    piles["stock"] = "-"
    order = ["c", *[f"i{k}" for k in range(1, 5)], *[f"o{k}" for k in range(1, 5)]]
    order += [f"f{k}" for k in range(1, 5)] + [f"u{k}" for k in range(1, 7)] + ["stock"]
    return f"game: stjernen\nround: {round_}\n" + "".join(f"{p}: {piles[p]}\n" for p in order)


@pytest.mark.parametrize("round_", [6, 4])
async def test_last_card_home_shows_the_won_panel(round_: int) -> None:
    """The won panel; beside the stock, the game's end (in round 4 a collect
    would still be legal, but no longer worth saying)."""
    from termsolitaire.rules import from_text
    from termsolitaire.screens.dialogs.results import ResultsScreen

    app = StjernenApp(1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen(app).start(from_text(_nearly_won(round_)))
        assert screen(app).star.piles["f4"].badge == "♣ 2nd"
        assert screen(app).star.piles["f1"].badge == "♠ ✓"
        await pilot.press("8", "f")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert screen(app).game.is_won
        assert "all 104 cards home" in info(app) and "collects" not in info(app)
        # nor does the empty stock offer its collect ("o") on the board looked at
        assert screen(app).star.piles["stock"].placeholder == ""


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_any_cell_of_a_visible_card_starts_a_drag(size: tuple[int, int]) -> None:
    """Issue 9.13: a drag starts from the top line of a card as from its bottom
    line, on every kind of star pile that holds a card one may take."""
    app = StjernenApp(1)
    async with app.run_test(size=size) as pilot:
        s = screen(app)
        await pilot.press("0")  # a row on the upturned piles
        for name in ("i1", "i2", "o1", "u1"):
            view = s.board.piles[name]
            for y in range(1, view.region.height):  # row 0 is the pile's label
                if not view.count_at(y):
                    continue
                s.hand.drop()
                await pilot.mouse_down(f"#pile-{name}", offset=(view.region.width // 2, y))
                await pilot.hover("#pile-c", offset=(1, 1))
                assert s.dragging and s.hand.src == name, (name, y)
                await pilot.mouse_up("#pile-c", offset=(1, 1))
                await pilot.pause()


async def test_a_chord_naming_a_foundation_plays_there_or_says_why() -> None:
    """Issue 9.14: ``4 7`` with K♦ on o4 and clubs on foundation 7 is refused with
    the reason; it is never played onto another foundation. ``4 f`` may choose."""
    from textual.app import App

    from termsolitaire.play.session import GameSession

    from ..rules.test_stjernen import position

    game = position(f1="KC", o4="KD")

    class OneBoard(App[None]):
        def on_mount(self) -> None:
            self.push_screen(StjernenScreen(GameSession(None, game)))

    app = OneBoard()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "7")
        assert game.history == ()
        assert status(app) == "K♦ cannot go on the ♣ foundation: same suit only"
        await pilot.press("4", "f")
        assert [str(m) for m in game.history] in (["o4-f2"], ["o4-f3"], ["o4-f4"])


async def test_a_collect_played_from_a_hint_says_the_next_step_whole() -> None:
    """Following hints with Enter at 80x24 over SSH (deal 476875469, round 1's
    stock dealt out): "Hint: collect (Enter does it)", Enter, and the status line
    read "Collected the piles into a new stock. Next: deal, Enter does…; z takes
    it back": the note for a collect made with one press too many, added after
    the next hint, cut the hint's own words. A collect the hint asked for is no
    slip: the line says the next step whole, as after any hint."""
    from termsolitaire.rules import Move
    from termsolitaire.solver.base import Result

    app = StjernenApp(2)
    async with app.run_test(size=(80, 24)) as pilot:
        board = screen(app)
        game: Any = board.game
        while game.pile("stock"):
            await pilot.press("0")
        c = board.controller
        c.solver = True  # the solver's help, its answer given here (no search)
        deal, collect = Move.parse("deal"), Move.parse("collect")
        c.advice.take(game, Result("won", (collect, deal, deal)), game.history)
        await pilot.press("H")
        assert status(app) == "Hint: collect (Enter does it)"
        await pilot.press("enter")
        assert game.round == 2
        await until(pilot, lambda: "Next" in status(app), "the next hint", 5)
        assert status(app) == "Collected the piles into a new stock. Next: deal, Enter does it"
        shown = board.query_one("#status").render_line(0).text  # at 80 columns
        assert shown.rstrip().endswith("Next: deal, Enter does it"), shown
