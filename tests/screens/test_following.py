"""Issue 30 on the board: a line of play followed with Enter, the move list of
every game, the waits said (finding a winnable deal, a hint's search that found
no win), each as the player sees it."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import games
from termsolitaire.screens.boards import solving
from termsolitaire.screens.dialogs.finding import FindDealScreen

from .conftest import board, status
from .matchkit import key_line
from .test_solving import until, verdict

NOTATION = re.compile(r"\b[tcpiouf]\d+\b|suits=")


@pytest.fixture
def solver_help(monkeypatch: pytest.MonkeyPatch, full_knowledge_help: None) -> None:
    """The solver's help is off elsewhere in the tests (tests/conftest.py)."""
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "1")


@pytest.mark.usefixtures("solver_help")
async def test_enter_after_a_played_hint_plays_the_next() -> None:
    """H shows a hint, Enter plays it and shows the next at once ("Next: 2♥ e→f, Enter plays it"),
    and Enter again plays that one: one key per move once a line is followed."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        screen = board(app)
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Hint: "), "a hint")
        first = screen.controller.hinted
        await pilot.press("enter")
        await until(pilot, lambda: ". Next: " in status(app), "the next hint")
        second = screen.controller.hinted
        assert status(app).endswith(", Enter plays it"), status(app)
        assert screen.game.history == (first,) and second is not None
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.game.history) == 2, "the second move")
        assert screen.game.history == (first, second)
        assert status(app).startswith("Played "), status(app)


@pytest.mark.usefixtures("solver_help")
async def test_a_stjernen_hint_that_finds_no_win_names_the_longer_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stjernen deal 1003 (no win found in a board's search), with the hint's
    search cut to half a second: the board gives the best line's hint and says,
    beside it, that `termsolitaire solve` with two processes may find a win."""
    monkeypatch.setattr(solving, "HINT_SECONDS", 0.5)
    monkeypatch.setattr(solving, "VERDICT_SECONDS", 0.2)
    app = SolitaireApp("stjernen", 1003, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app) == "cannot tell yet", "the verdict")
        await pilot.press("H")
        assert status(app).startswith("Looking for a winning line (up to 0 s")

        def notes() -> list[str]:
            return [str(n.message) for n in app._notifications]

        await until(pilot, lambda: any("termsolitaire solve" in n for n in notes()), "the note")
        note = next(n for n in notes() if "termsolitaire solve" in n)
        assert "termsolitaire solve stjernen --deal 1003 --jobs 2 (two processes)" in note
        assert status(app).startswith(("Best line (", "No winning line found")), status(app)


@pytest.mark.usefixtures("solver_help")
async def test_a_new_deal_with_winnable_only_says_it_is_finding_one() -> None:
    """Winnable deals only, N on the board: "Finding a winnable Penguin deal…"
    shows while the solver searches (held still here), the old board under it;
    Escape plays any deal."""
    app = SolitaireApp("penguin", 5, {}, clock=False, winnable=True)
    async with app.run_test(size=(80, 24)) as pilot:
        old = board(app)

        async def forever(*args: Any, **kw: Any) -> None:
            await asyncio.Event().wait()

        app.services.solver().find_winnable_deal = forever  # type: ignore[method-assign]
        await pilot.press("N")
        await until(pilot, lambda: isinstance(app.screen, FindDealScreen), "the finding dialog")
        headline = app.screen.query_one("#headline").render()
        assert str(headline) == "Finding a winnable Penguin deal…"
        assert old in app.screen_stack  # the board stays under it meanwhile
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is old and old.game.deal != 5, "any deal")


@pytest.mark.usefixtures("solver_help")
async def test_finding_a_winnable_deal_shows_its_own_keys_over_the_board_s() -> None:
    """``--winnable``, N on a Napoleon board at 80x24: under "Finding a winnable
    Napoleon deal…" the board's key line showed through ("f To foundation
    M Moves  z Undo …"), keys that do nothing there. Its own line: Escape, any
    deal."""

    app = SolitaireApp("napoleon", 5, {}, clock=False, winnable=True)
    async with app.run_test(size=(80, 24)) as pilot:

        async def forever(*args: Any, **kw: Any) -> None:
            await asyncio.Event().wait()

        app.services.solver().find_winnable_deal = forever  # type: ignore[method-assign]
        await pilot.press("N")
        await until(pilot, lambda: isinstance(app.screen, FindDealScreen), "the finding dialog")
        await pilot.pause()
        assert key_line(app) == ["Any deal"]


@pytest.mark.parametrize("name", [g.name for g in games()])
async def test_every_board_has_a_move_list_in_its_own_keys(name: str) -> None:
    """M shows the moves played, numbered, in the board's keys (never t7-t3),
    and M again hides it; at 80 columns too."""
    g = next(g for g in games() if g.name == name)
    app = SolitaireApp(name, 7, g.default_variant(), clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        moves = [m for m in screen.game.legal_moves() if m.kind == "move"][:1]
        moves = moves or screen.game.legal_moves()[:1]
        assert screen.play(moves[0])
        assert not screen.move_list.display
        await pilot.press("M")
        assert screen.move_list.display
        said = screen.move_text(moves[0])
        assert screen.move_list.lines(4)[:2] == ["Moves (1)", f"  1 {said}"]
        assert not NOTATION.search(said), said
        await pilot.pause()
        assert screen.move_list.region.width > 0
        await pilot.press("M")
        assert not screen.move_list.display


@pytest.mark.parametrize(("name", "variant"), [("penguin", {}), ("spider", {"suits": 1})])
async def test_at_80_columns_the_move_list_leaves_the_board_whole(
    name: str, variant: dict[str, int]
) -> None:
    """At 80 columns M laid the 21-column list over Penguin's last three
    foundations and Spider's last piles (the board needs 67): the list now
    takes the 13 columns left beside it, a card count reading "×3" there."""
    app = SolitaireApp(name, 7, variant, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press("M")
        await pilot.pause()
        moves = screen.move_list
        assert not moves.has_class("-over")
        assert moves.region.width == 80 - screen.min_size[0] == 13
        assert moves.region.x >= screen.board.region.right
        moves.set_moves(["2→5 (3 cards)"] * 120)
        assert moves.lines(3) == ["Moves (120)", "119 2→5 ×3", "120 2→5 ×3"]
    wide = SolitaireApp(name, 7, variant, clock=False)
    async with wide.run_test(size=(100, 24)) as pilot:
        await pilot.press("M")
        await pilot.pause()
        moves = board(wide).move_list
        assert moves.region.width == board(wide).MOVES_WIDTH
        moves.set_moves(["2→5 (3 cards)"])
        assert moves.lines(2) == ["Moves (1)", "  1 2→5 (3 cards)"]


@pytest.mark.usefixtures("solver_help")
async def test_following_hints_into_the_end_lets_the_board_finish_by_itself() -> None:
    """Penguin deal 5 a few moves before only foundation moves are left, a winning
    line known: Enter after Enter follows it, and once the last needed move is
    played the board finishes by itself (no next hint in hand to stop it) and the
    results show, with fewer Enters than the line has moves."""
    from termsolitaire.play.finish import finishing_line
    from termsolitaire.rules import new_game
    from termsolitaire.screens.dialogs.results import ResultsScreen
    from termsolitaire.solver import Plan, solve

    line = solve(new_game("penguin", 5), 10).moves
    probe = new_game("penguin", 5)
    last = 0  # the move after which the board can finish by itself
    while not finishing_line(probe):
        probe.play(line[last])
        last += 1
    last -= 1
    start = max(0, last - 3)  # three moves before the finish can take over
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        for move in line[:start]:
            screen.game.play(move)
        screen.redraw()
        screen.controller.advice.plan = Plan.of(screen.game, line[start:])
        await pilot.press("H")
        assert status(app).startswith("Hint: "), status(app)
        enters = 0
        while not isinstance(app.screen, ResultsScreen) and enters < len(line):
            if not screen.controller.finishing:
                await pilot.press("enter")
                enters += 1
            await pilot.pause(0.05)
        assert isinstance(app.screen, ResultsScreen) and screen.game.is_won
        assert enters == last - start + 1 < len(line) - start
