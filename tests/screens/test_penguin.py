"""Penguin through Pilot: a whole game by key chords, refusals, the same move three ways.

The winning line comes from a small depth-first search over ``legal_moves()``
(foundation moves first, no position twice) and is typed as chords.
"""

from __future__ import annotations

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import Game, Move, new_game
from termsolitaire.screens.boards.penguin import PenguinScreen
from termsolitaire.screens.dialogs.results import ResultsScreen

from .conftest import PENGUIN_KEYS, assert_finished, board, chord, play_to_the_end, status
from .conftest import winning_line as search


def winning_line(game: Game) -> list[Move]:
    """Foundations first, then columns, then cells; longer runs first."""
    line = search(game, lambda m: ("ftc".index(m.dst[0]), -m.count))
    assert line is not None, "no win found within the budget"
    return line


async def test_penguin_won_with_key_chords_only() -> None:
    line = winning_line(new_game("penguin", 5))
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:

        async def play(move: Move) -> None:
            await pilot.press(*chord(move, PENGUIN_KEYS))

        played = await play_to_the_end(pilot, app, line, play)
        assert isinstance(app.screen, ResultsScreen)
        screen = app.screen_stack[-2]
        assert isinstance(screen, PenguinScreen)
        assert_finished(screen.game, line, played)


async def test_refused_move_shows_reason_and_changes_nothing(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        before = board(penguin_app).game.to_text()
        await pilot.press("1", "2")
        assert "7♥ goes only on the 8♥" in status(penguin_app)
        assert board(penguin_app).game.to_text() == before
        assert board(penguin_app).hand.src is None


async def test_a_refused_f_puts_the_card_back_so_the_next_key_picks(
    penguin_app: SolitaireApp,
) -> None:
    """``1 f`` refused (deal 5's 7♥ cannot go up yet) kept column 1 in hand, so
    the ``7`` a player typed next to pick column 7 tried 7♥ on 9♦ instead ("7♥
    goes only on the 8♥"), and every chord after it was one key out of step. A
    refused ``f`` ends its chord as a refused pile key does."""
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        before = board(penguin_app).game.to_text()
        await pilot.press("1", "f")
        assert status(penguin_app) == "Next on the ♥ foundation is the 2♥"
        assert board(penguin_app).hand.src is None
        await pilot.press("7")
        assert board(penguin_app).hand.src == "t7"
        assert status(penguin_app).startswith("Column 7 in hand")
        assert board(penguin_app).game.to_text() == before


async def test_undo_and_redo_keys(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        start = board(penguin_app).game.to_text()
        await pilot.press("7", "3")
        after = board(penguin_app).game.to_text()
        assert after != start
        await pilot.press("z")
        assert board(penguin_app).game.to_text() == start
        await pilot.press("Z")
        assert board(penguin_app).game.to_text() == after


async def test_foundation_key_and_escape(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "escape")
        assert board(penguin_app).hand.src is None
        await pilot.press("4", "f")
        assert [str(m) for m in board(penguin_app).game.history] == ["t4-f2"]


async def _top_row(app: SolitaireApp, pile: str) -> int:
    """The row (in the pile widget) of the top card's edge."""
    view = board(app).board.piles[pile]
    return max(y for y, r in enumerate(view._rows, 1) if r.kind == "edge")


async def test_same_move_by_click_click_and_by_drag(tmp_path) -> None:
    clicked = SolitaireApp("penguin", 5, {}, clock=False)
    async with clicked.run_test(size=(80, 24)) as pilot:
        y = await _top_row(clicked, "t7")
        await pilot.click("#pile-t7", offset=(2, y))
        assert board(clicked).hand.src == "t7"
        await pilot.click("#pile-t3", offset=(2, 1))
        by_click = board(clicked).game.to_text()
        assert [str(m) for m in board(clicked).game.history] == ["t7-t3"]
    # Another player's data (this one's save of deal 5 would ask before a new deal 5).
    dragged = SolitaireApp("penguin", 5, {}, clock=False, data_dir=str(tmp_path))
    async with dragged.run_test(size=(80, 24)) as pilot:
        y = await _top_row(dragged, "t7")
        await pilot.mouse_down("#pile-t7", offset=(2, y))
        await pilot.hover("#pile-t5", offset=(2, 3))
        assert board(dragged).board.ghost.display
        assert board(dragged).board.piles["t3"].target
        await pilot.hover("#pile-t3", offset=(2, 5))
        await pilot.mouse_up("#pile-t3", offset=(2, 5))
        await pilot.pause()
        assert not board(dragged).board.ghost.display
        assert board(dragged).game.to_text() == by_click


async def test_a_card_dragged_from_under_cards_it_cannot_move_with_stays(tmp_path) -> None:
    """Deal 5's column 1 ends 8♦ 7♥: dragging the 8♦ to a cell dragged the 7♥
    instead (the ghost showed it) and put it in the cell. Nothing moves now, and
    the status line says why, as a click there does."""
    app = SolitaireApp("penguin", 5, {}, clock=False, data_dir=str(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        y = await _top_row(app, "t1") - 1  # the 8♦'s row, above the 7♥'s edge
        await pilot.mouse_down("#pile-t1", offset=(2, y))
        await pilot.hover("#pile-c1", offset=(2, 1))
        assert not board(app).board.ghost.display
        await pilot.mouse_up("#pile-c1", offset=(2, 1))
        await pilot.pause()
        assert board(app).game.history == ()
        assert status(app) == "8♦ cannot move: only the 7♥ on top moves"


async def test_a_click_on_an_empty_foundation_names_it_by_its_suit(
    penguin_app: SolitaireApp,
) -> None:
    """A click on deal 5's empty ♦ foundation (its A♦ still in column 1) said "f
    is empty": the key the four foundations share, read as a word. It names
    the foundation as the rules' sentences do, and nothing is picked up."""
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        assert not board(penguin_app).game.pile("f3")
        await pilot.click("#pile-f3", offset=(2, 2))
        assert status(penguin_app) == "The ♦ foundation is empty"
        assert board(penguin_app).hand.src is None


async def test_double_click_sends_to_foundation(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        y = await _top_row(penguin_app, "t4")
        await pilot.click("#pile-t4", offset=(2, y), times=2)
        assert [str(m) for m in board(penguin_app).game.history] == ["t4-f2"]


async def test_empty_cells_are_named_on_the_line_not_marked(penguin_app: SolitaireApp) -> None:
    """Every empty cell takes the 9♦: the line says so once, the column is marked;
    with the marks off (a setting) the line names every place and nothing is marked."""
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        screen = board(penguin_app)
        piles = screen.board.piles
        await pilot.press("7")
        assert status(penguin_app) == "Column 7 in hand: to a marked pile or an empty cell"
        assert [n for n, p in piles.items() if p.target] == ["t3"]
        await pilot.press("escape")
        penguin_app.services.settings.target_marks = False
        await pilot.press("7")
        assert status(penguin_app) == "Column 7 in hand: to 3 or an empty cell"
        assert not any(p.target for p in piles.values())
        await pilot.press("3")
        assert [str(m) for m in screen.game.history] == ["t7-t3"]


async def test_undo_is_lit_from_the_start_and_says_why_it_cannot(
    penguin_app: SolitaireApp,
) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        screen = board(penguin_app)
        start = screen.game.to_text()
        assert screen.check_action("undo", ()) is True  # the footer's Undo is not dimmed
        await pilot.press("z")
        assert status(penguin_app) == "Nothing to undo"
        assert screen.game.to_text() == start
