"""Napoleon through Pilot: won by key chords and by the mouse, the cursor, refusals, fuzz."""

from __future__ import annotations

from typing import Any

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import Game, Move, new_game
from termsolitaire.screens.boards.napoleon import KEYS, MIN_HEIGHT, MIN_WIDTH, NapoleonScreen
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.widgets.cards import CardLook

from .conftest import assert_finished, board, play_to_the_end, status
from .conftest import winning_line as search
from .matchkit import until

WON_DEAL = 1
"""The first deal number whose win the search below finds within its budget."""


def NapoleonApp(deal: int = WON_DEAL, look: CardLook | None = None, **kw: Any) -> SolitaireApp:
    """The app straight on a Napoleon board of ``deal``, its clock standing still."""
    return SolitaireApp("napoleon", deal, {}, look=look, clock=False, **kw)


def winning_line(game: Game, budget: int = 20_000) -> list[Move] | None:
    """Foundation moves first."""
    return search(game, lambda m: 0 if m.dst.startswith("f") else 1, budget)


def won_line() -> list[Move]:
    line = winning_line(new_game("napoleon", WON_DEAL))
    assert line is not None, f"deal {WON_DEAL} is no longer solved within the budget"
    return line


def chord(move: Move) -> list[str]:
    return [KEYS[move.src], "f" if move.dst.startswith("f") else KEYS[move.dst]]


def napoleon(app: SolitaireApp) -> NapoleonScreen:
    screen = board(app)
    assert isinstance(screen, NapoleonScreen)
    return screen


def spot_offset(app: SolitaireApp, pile: str, *, top: bool = True) -> tuple[int, int]:
    """Screen offset of ``pile``'s top card (or of its key label when ``top`` is false)."""
    screen = napoleon(app)
    canvas = screen.board.canvas  # type: ignore[attr-defined]
    spot = canvas.spots[pile]
    n = len(screen.game.pile(pile))
    if pile.startswith("f"):
        x, y = spot.cells[0]
    elif not top:
        x, y = spot.label
    else:
        x, y = spot.cells[max(0, min(n, len(spot.cells)) - 1)]
    return canvas.region.x + x + 1, canvas.region.y + y


def assert_won(app: SolitaireApp, line: list[Move], played: int) -> None:
    assert isinstance(app.screen, ResultsScreen)
    game = app.screen_stack[-2].game  # type: ignore[attr-defined]
    assert_finished(game, line, played)


def test_the_search_still_wins_the_pinned_deal() -> None:
    line = won_line()
    g = new_game("napoleon", WON_DEAL)
    for m in line:
        g.play(m)
    assert g.is_won


async def test_won_with_key_chords_only() -> None:
    line = won_line()
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:

        async def play(move: Move) -> None:
            await pilot.press(*chord(move))

        assert_won(app, line, await play_to_the_end(pilot, app, line, play))
        # The header names its figure as the results do (it said "foundations 52/52"
        # over "Score 52").
        header = app.screen_stack[-2].query_one("#stats").text  # type: ignore[attr-defined]
        assert header.startswith("score 52/52  moves ")
        assert "Score      52" in app.screen.figures_text()  # type: ignore[attr-defined]


async def test_won_with_the_mouse_only() -> None:
    """Odd moves click then click, even moves drag and drop; clicks never chain into
    double clicks (a player who clicks at a human pace)."""
    line = won_line()
    app = NapoleonApp()
    app.CLICK_CHAIN_TIME_THRESHOLD = 0.0
    async with app.run_test(size=(80, 24)) as pilot:
        for i, move in enumerate(line):
            if napoleon(app).controller.finishing or napoleon(app).over:
                break
            src = spot_offset(app, move.src)
            dst = spot_offset(app, move.dst)
            if i % 2:
                await pilot.click(offset=src)
                assert napoleon(app).hand.src == move.src
                await pilot.click(offset=dst)
            else:
                await pilot.mouse_down(offset=src)
                await pilot.hover(offset=dst)
                assert napoleon(app).board.ghost.display
                await pilot.mouse_up(offset=dst)
            await pilot.pause()
            if i < len(line) - 1:
                assert [str(m) for m in napoleon(app).game.history][i] == str(move)
        played = i
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
        assert_won(app, line, played)


async def test_refusal_shows_the_rules_reason_and_changes_nothing() -> None:
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        before = napoleon(app).game.to_text()
        await pilot.press(KEYS["p1"], KEYS["p2"])  # 10♦ onto 8♥
        assert status(app) == "10♦ goes on a black card one rank higher (a jack), not on 8♥"
        assert napoleon(app).game.to_text() == before
        await pilot.press(KEYS["p1"], "f")
        assert status(app) == "Next on the A♦ foundation is the 2♦"
        assert napoleon(app).game.to_text() == before


async def test_escape_cancels_a_half_typed_chord_and_f_sends_home() -> None:
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(KEYS["p9"])
        assert napoleon(app).hand.src == "p9"
        assert napoleon(app).board.piles["f2"].target
        await pilot.press("escape")
        assert napoleon(app).hand.src is None
        await pilot.press(KEYS["p9"], "f")
        assert [str(m) for m in napoleon(app).game.history] == ["p9-f2"]


async def test_undo_redo_and_the_move_list() -> None:
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = napoleon(app)
        assert not screen.move_list.display
        await pilot.press("M", KEYS["p9"], "f", KEYS["p3"], KEYS["p8"])
        await pilot.pause()
        assert screen.move_list.display
        said = [screen.move_text(m) for m in screen.game.history]  # as the board labels them
        assert screen.move_list.lines(4) == ["Moves (2)", f"  1 {said[0]}", f"  2 {said[1]}", ""]
        assert said == [f"{KEYS['p9']}→f", f"{KEYS['p3']}→{KEYS['p8']}"]
        await pilot.press("z")
        await pilot.pause()
        assert screen.move_list.moves == (said[0],)
        await pilot.press("Z")
        assert [str(m) for m in screen.game.history] == ["p9-f2", "p3-p8"]
        assert "moves 2" in screen.query_one("#stats").text  # type: ignore[attr-defined]
        await pilot.press("M")
        assert not screen.move_list.display


async def test_escape_hides_the_move_list_once_nothing_is_in_hand() -> None:
    """Escape put back a card in hand and left the move list; with nothing to put
    back it said nothing and left it too, where every other panel closes."""
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = napoleon(app)
        await pilot.press("M", KEYS["p9"])
        await pilot.pause()
        assert screen.move_list.display and screen.hand.src == "p9"
        await pilot.press("escape")  # the card first
        assert screen.hand.src is None and screen.move_list.display
        await pilot.press("escape")  # then the list
        await pilot.pause()
        assert not screen.move_list.display
        assert status(app) == "Move list hidden (M shows it)"
        await pilot.press("escape")  # nothing left: nothing happens
        assert not screen.move_list.display


async def test_cursor_goes_to_the_nearest_pile_and_space_plays() -> None:
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = napoleon(app)

        async def go(key: str) -> str | None:
            await pilot.press(key)
            return screen.hand.cursor

        assert await go("up") == "p1"  # the first arrow shows the cursor at north
        assert await go("right") == "p2"
        assert await go("down") == "p3"
        assert await go("down") == "p4"
        assert await go("down") == "p5"
        assert await go("right") == "p5"  # nothing further east
        assert await go("down") == "p6"
        assert await go("left") in ("f4", "p8", "p7")
        # p9's 2♥ to its foundation by cursor: from p5 go round the south.
        screen.hand.cursor = "p9"
        await pilot.press("space")
        assert screen.hand.src == "p9"
        assert await go("up") in ("f1", "f2", "f3", "f4")
        screen.hand.cursor = "f2"
        await pilot.press("enter")
        assert [str(m) for m in screen.game.history] == ["p9-f2"]


async def test_double_click_sends_to_foundation() -> None:
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(offset=spot_offset(app, "p9"), times=2)
        assert [str(m) for m in napoleon(app).game.history] == ["p9-f2"]


async def test_resize_spreads_the_circle_and_too_small_says_so() -> None:
    app = NapoleonApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = napoleon(app)
        small = screen.board.capacity()  # type: ignore[attr-defined]
        assert small >= 6  # every fresh pile (5 cards at most) card by card, with room
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert screen.board.capacity() > small  # type: ignore[attr-defined]
        await pilot.resize_terminal(MIN_WIDTH, MIN_HEIGHT)
        await pilot.pause()
        assert screen.board.display
        assert screen.board.capacity() >= 5  # type: ignore[attr-defined]
        await pilot.resize_terminal(MIN_WIDTH - 1, MIN_HEIGHT)
        await pilot.pause()
        assert not screen.board.display
        assert f"{MIN_WIDTH}×{MIN_HEIGHT}" in str(screen.query_one("#enlarge").render())
