"""The solver on the board (issue 11): the verdict, hints that win and never loop,
"no winning line from here" with the way back, the solution stepped through and
played as a demo, winnable deals only, and input answered during a long search.

Searches run in the solver's worker processes; the tests wait for what shows on
screen (the verdict, the status line), never a fixed time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import Move, from_text, new_game
from termsolitaire.screens.boards import solving
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.napoleon import KEYS
from termsolitaire.screens.dialogs import finding
from termsolitaire.screens.dialogs.choice import ChoiceScreen
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.solver.stjernen.book import BOOK
from termsolitaire.widgets.line import TextLine, fit_text

from ..conftest import FULL
from ..solver.test_napoleon import LOST
from .conftest import board, status

WAIT = 60.0
DONE = ("Played", "Dealt", "Turned", "Collected")
"""How the status line starts once a move is played (a deal and a turn in words)."""


@pytest.fixture(autouse=True)
def _solver_help(monkeypatch: pytest.MonkeyPatch, full_knowledge_help: None) -> None:
    """The solver's help is off elsewhere in the tests (tests/conftest.py)."""
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "1")


async def until(pilot, check: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Let the app run until ``check()`` holds (the solver answers in another process)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await pilot.pause(0.05)


def under(app: SolitaireApp) -> BoardScreen:
    """The board, also under a dialog or the results."""
    return next(s for s in reversed(app.screen_stack) if isinstance(s, BoardScreen))


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The deal numbers the solver's workers answer for winnable deals only, in
    order (every SolverWorker's find_winnable_deal is spied on)."""
    from termsolitaire.solver.worker import SolverWorker

    deals: list[int] = []
    ask = SolverWorker.find_winnable_deal

    async def spy(self, *args, **kw):  # type: ignore[no-untyped-def]
        answer = await ask(self, *args, **kw)
        deals.append(answer.deal)
        return answer

    monkeypatch.setattr(SolverWorker, "find_winnable_deal", spy)
    return deals


def settled(app: SolitaireApp) -> bool:
    """The results show, or the board is not finishing the game by itself."""
    return isinstance(app.screen, ResultsScreen) or not under(app).controller.finishing


def verdict(app: SolitaireApp) -> str:
    """The verdict in its whole form (the status line may show it shorter when
    the message needs the room: tests/screens/test_finish.py)."""
    return board(app).solving.verdict


FOLLOWED = [("penguin", 5, {}), ("napoleon", 1, {})] + (
    [("spider", 3, {"suits": 1}), ("stjernen", 4, {})] if FULL else []
)
"""Boards whose hints are followed to a win from the deal. Spider's and Stjernen's
take 150-230 hints through the board: TERMSOLITAIRE_FULL=1 (CI follows their
fair hints to a win in tests/solver/test_fair.py)."""


@pytest.mark.parametrize(("name", "deal", "variant"), FOLLOWED)
async def test_following_the_hint_wins(name: str, deal: int, variant: dict[str, int]) -> None:
    app = SolitaireApp(name, deal, variant, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app).startswith("winnable"), "the verdict")
        seen = set()
        for _ in range(600):
            await until(pilot, lambda: settled(app), "the finish")  # no key while it finishes
            if isinstance(app.screen, ResultsScreen):
                break
            screen = board(app)
            seen.add(screen.game.to_text())
            await pilot.press("H")
            await until(pilot, lambda: status(app).startswith("Hint: "), "a hint")
            await pilot.press("enter")
            await until(
                pilot,
                lambda: isinstance(app.screen, ResultsScreen) or status(app).startswith(DONE),
                "the hinted move",
            )
            if not isinstance(app.screen, ResultsScreen):
                assert board(app).game.to_text() not in seen  # never back to where it was
        assert isinstance(app.screen, ResultsScreen)
        assert under(app).game.is_won
        assert under(app).query_one("#verdict").text == ""  # no "winnable" beside "Won!"


@pytest.fixture
def short_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint's full search as long as the verdict's: where no win is found, what is
    tested is what the board does with the best line, not how long it looked."""
    monkeypatch.setattr(solving, "HINT_SECONDS", solving.VERDICT_SECONDS)


@pytest.mark.usefixtures("short_hints")
async def test_with_no_win_found_the_hint_follows_the_best_line_without_looping() -> None:
    """Stjernen deal 1003 has no win the solver can find: the hint gives the best
    line's next move and how many cards it puts home; following it never comes
    back to a position, and the cards home only grow towards that count."""
    app = SolitaireApp("stjernen", 1003, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app) == "cannot tell yet", "the verdict")
        await pilot.press("H")  # the first hint waits for a full search
        assert status(app).startswith("Looking for a winning line")
        await until(pilot, lambda: status(app).startswith("Best line"), "the first hint")
        seen = set()
        promised = None
        for _ in range(40):
            game = board(app).game
            seen.add(game.to_text())
            await pilot.press("H")
            await until(pilot, lambda: status(app).startswith(("Best line", "The best")), "a hint")
            if status(app).startswith("The best line found ends here"):
                break
            home = int(status(app).split("(")[1].split()[0])
            assert promised is None or home >= promised  # replaced only by a better line
            promised = home
            assert "(Enter " in status(app)  # its cards picked up: Enter plays it
            await pilot.press("enter")
            await until(pilot, lambda: status(app).startswith(DONE), "the hinted move")
            assert game.to_text() not in seen  # never back to where it was
            assert game.score <= promised
        assert promised is not None and board(app).game.score > 0


@pytest.mark.usefixtures("short_hints")
async def test_with_no_win_found_the_solution_steps_through_the_best_line() -> None:
    app = SolitaireApp("stjernen", 1003, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app) == "cannot tell yet", "the verdict")
        game = board(app).game
        await pilot.press("S")  # a hint's full search first, then its best line
        assert status(app).startswith("Looking for a winning line")
        await until(
            pilot, lambda: str(getattr(app.screen, "heading", "")).startswith("Best"), "the line"
        )
        solution = app.screen
        assert solution.heading.startswith("Best line (")  # type: ignore[attr-defined]
        home = int(solution.heading.split("(")[1].split()[0])  # type: ignore[attr-defined]
        solution.replay.end()  # type: ignore[attr-defined]
        assert solution.replay.game.score == home > 0  # type: ignore[attr-defined]
        await pilot.press("Q")
        assert board(app).game is game and game.history == ()  # the board is untouched


async def test_a_lost_position_says_so_and_offers_the_way_back() -> None:
    app = SolitaireApp("napoleon", 1, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = board(app)
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        screen.start(from_text(LOST))  # a position lost on purpose
        await until(pilot, lambda: verdict(app) == "not winnable", "the lost verdict")
        await pilot.press("H")
        # No move played on it yet: the next step is another deal.
        assert status(app) == "This deal has no winning line; N deals another"


LOSING = ["t3-c2", "t7-c3", "t3-c5", "t5-c6", "t1-c4", "t5-c7"]
"""Penguin deal 2: winnable after the first five moves, lost after the sixth (found
by trying random moves with the solver, pinned here)."""


async def test_the_way_back_undoes_to_the_last_winnable_position() -> None:
    app = SolitaireApp("penguin", 2, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = board(app)
        for text in LOSING[:-1]:
            screen.play(Move.parse(text))
        await until(pilot, lambda: verdict(app) == "winnable", "winnable after five moves")
        screen.play(Move.parse(LOSING[-1]))
        await until(pilot, lambda: verdict(app) == "no longer winnable", "the lost verdict")
        await pilot.press("H")
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.headline == "No winning line from here."
        assert app.screen.lines == ["A win was found 1 move ago."]
        await pilot.press("u")
        assert [str(m) for m in screen.game.history] == LOSING[:-1]
        await until(pilot, lambda: verdict(app) == "winnable", "winnable again")


async def test_keys_are_answered_at_once_while_the_solver_searches() -> None:
    """A long search runs in another process: moves made meanwhile take effect at
    once, and the search's answer about an old position is never shown."""
    app = SolitaireApp("napoleon", 25, {}, clock=False)  # a deal the solver needs time for
    async with app.run_test(size=(100, 40)) as pilot:
        screen = board(app)
        await pilot.press("H")  # a long search starts
        assert status(app).startswith("Looking for a winning line")
        for n in range(1, 4):
            move = next(m for m in screen.game.legal_moves() if m.kind == "move")
            keys = KEYS[move.src], "f" if move.dst.startswith("f") else KEYS[move.dst]
            await pilot.press(*keys)  # typed while the other process searches
            assert len(screen.game.history) == n, status(app)
            assert status(app).startswith(DONE)
        await pilot.press("question_mark")
        assert type(app.screen).__name__ == "HelpScreen"


async def test_the_solution_steps_and_plays_as_a_demo() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        game = board(app).game
        await pilot.press("S")
        await until(pilot, lambda: getattr(app.screen, "heading", "") == "Solution", "the solution")
        solution = app.screen
        await pilot.press("right", "right")
        assert solution.replay.index == 2  # type: ignore[attr-defined]
        await pilot.press("left")
        assert solution.replay.index == 1  # type: ignore[attr-defined]
        await pilot.press("D")
        await until(pilot, lambda: solution.replay.index >= 4, "the demo")  # type: ignore[attr-defined]
        await pilot.press("x")  # any key stops it
        stopped = solution.replay.index  # type: ignore[attr-defined]
        await pilot.pause(0.5)
        assert solution.replay.index == stopped  # type: ignore[attr-defined]
        await pilot.press("Q")
        assert board(app).game is game and game.history == ()  # the board is untouched


async def test_the_demo_starts_from_the_board() -> None:
    """``D`` on the board, with a winning line known, opens the solution and plays
    it (the demo waits for its screen to be up before it says a word)."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        await pilot.press("D")
        await until(pilot, lambda: getattr(app.screen, "heading", "") == "Solution", "the demo")
        demo = app.screen
        await until(pilot, lambda: demo.replay.index >= 3, "the demo's moves")  # type: ignore[attr-defined]
        assert status(app).startswith("Demo:"), status(app)
        await pilot.press("x")  # any key stops it
        stopped = demo.replay.index  # type: ignore[attr-defined]
        await pilot.pause(0.5)
        assert demo.replay.index == stopped  # type: ignore[attr-defined]


async def test_the_best_line_demo_asked_for_before_a_search_plays_when_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``D`` on a Stjernen deal the solver does not win: the board looks for a line
    (here for a second), then plays the best line found; back on the board, the
    status line no longer says it is looking."""
    monkeypatch.setattr(solving, "HINT_SECONDS", 1.0)
    app = SolitaireApp("stjernen", 1, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("D")
        assert status(app).startswith("Looking for a winning line")
        await until(
            pilot, lambda: getattr(app.screen, "heading", "").startswith("Best line"), "the demo"
        )
        demo = app.screen
        await until(pilot, lambda: demo.replay.index >= 2, "the demo's moves")  # type: ignore[attr-defined]
        await pilot.press("x", "Q")  # any key stops the demo; Q leaves it
        await until(pilot, lambda: app.screen is not demo, "the board")
        assert not status(app).startswith("Looking"), status(app)


async def test_winnable_deals_only(found: list[int]) -> None:
    """With the setting on, a random deal is one the solver proved winnable: the
    menu asks the solver's workers for one and deals the number they found."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        app.services.settings.winnable_only = True
        lines = app.screen.query_one("#games")
        ids = [o.id for o in lines.options]  # type: ignore[attr-defined]
        lines.highlighted = ids.index("penguin")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen), "a deal")
        g = board(app).game
        assert found == [g.deal]
        from termsolitaire.solver import Budget, solve

        assert solve(new_game("penguin", g.deal), Budget(seconds=10)).verdict == "won"
        await pilot.press("N")  # a new deal on the board is one too
        await until(
            pilot,
            lambda: isinstance(app.screen, BoardScreen) and under(app).game.deal != g.deal,
            "another deal",
        )
        assert found[-1] == under(app).game.deal


async def test_new_deal_on_the_results_of_a_win_is_winnable_too(found: list[int]) -> None:
    """Winnable deals only, a game won: "New deal" on the results panel asks the
    solver for a winnable deal as N does (it dealt any deal: the finished game
    had switched the solver's help off, and the new deal's search with it)."""
    from termsolitaire.solver import solve

    line = solve(new_game("penguin", 5), 10).moves
    app = SolitaireApp("penguin", 5, {}, clock=False, winnable=True)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = board(app)
        for m in line[:-1]:
            screen.game.play(m)
        screen.play(line[-1])
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
        await pilot.press("n")
        await until(
            pilot,
            lambda: isinstance(app.screen, BoardScreen) and board(app).game.deal != 5,
            "a new deal",
        )
        assert found == [board(app).game.deal]


@pytest.mark.parametrize("name", ["penguin", "stjernen"])
async def test_the_bare_game_command_with_winnable_on_a_first_start(
    name: str, found: list[int]
) -> None:
    """`termsolitaire penguin --winnable` with no save: the deal is one the solver
    proved winnable, and nothing says a saved game is gone (there never was one).
    Stjernen's comes from its book, so it is found in a few seconds."""
    app = SolitaireApp(name, None, {}, resume=True, variant_given=False, winnable=True)
    async with app.run_test(size=(100, 40)) as pilot:
        # The board's status line, not only the board: the screen is current a
        # moment before its widgets are mounted (a race seen under load).
        await until(
            pilot,
            lambda: isinstance(app.screen, BoardScreen) and app.screen.query("#status"),
            "a deal",
        )
        assert found == [board(app).game.deal]
        assert name != "stjernen" or found[0] in BOOK
        assert "gone" not in status(app)


async def test_winnable_only_stjernen_deals_a_book_deal_not_yet_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every book deal but one is in the statistics already: that one is dealt."""
    # Its 10 s budget is wall-clock time (what a player waits): on a loaded
    # machine the first beam can miss it and the next book deal is drawn. What
    # is tested is which deal comes first, so the budget here is generous.
    monkeypatch.setattr(finding, "seconds_per_deal", lambda name: 120.0)
    app = SolitaireApp("stjernen", None, {}, resume=True, variant_given=False, winnable=True)
    for k, deal in enumerate(BOOK[1:]):
        app.services.stats.record(f"g{k}", "stjernen", {}, deal, False, 10, 50, 60.0)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BoardScreen), "a deal", timeout=120)
        assert board(app).game.deal == BOOK[0]


async def test_the_key_hint_keeps_its_help_key_beside_a_long_verdict() -> None:
    """At 80 columns Spider's verdict would take 31: it shrinks to its short form
    so the key line stays whole, "? help" included."""
    app = SolitaireApp("spider", 3, {"suits": 1}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable with the cards known", "the verdict")
        await pilot.pause()
        line = board(app).query_one("#status")
        shown = "".join(s.text for s in line.render_line(0)).rstrip()
        assert status(app).startswith("Keys: ") and len(status(app)) <= line.size.width
        assert shown == status(app) and shown.endswith("; ? help")
        assert board(app).query_one("#verdict").text == "winnable*"  # type: ignore[attr-defined]


async def test_asking_again_during_the_search_does_not_start_it_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``H`` pressed again while the hint's search runs, and ``S`` after it: the
    one search goes on (a restart on every press would never answer an
    impatient player) and its answer serves the last request."""
    from termsolitaire.solver.worker import SolverWorker

    monkeypatch.setattr(solving, "HINT_SECONDS", 1.5)
    asked: list[float] = []
    solve = SolverWorker.solve

    async def counted(self, game, budget=10.0, **how):  # type: ignore[no-untyped-def]
        asked.append(budget.seconds)
        return await solve(self, game, budget, **how)

    monkeypatch.setattr(SolverWorker, "solve", counted)
    app = SolitaireApp("stjernen", 1, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app) == "cannot tell yet", "the verdict")
        await pilot.press("H")
        assert status(app).startswith("Looking for a winning line")
        await pilot.press("H")
        assert status(app).startswith("Still looking for a winning line")
        await pilot.press("S")
        assert status(app).startswith("Still looking for a winning line")
        await until(
            pilot,
            lambda: (
                str(getattr(app.screen, "heading", "")).startswith("Best")
                and bool(app.screen.query("#stats"))
            ),
            "the line shown",
        )
    assert asked.count(1.5) == 1, asked


async def test_an_answer_after_the_board_closed_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search that ends while the app is quitting (the board's widgets already
    gone) is dropped instead of crashing the exit (seen once in CI)."""
    import asyncio

    from termsolitaire.solver.worker import SolverWorker

    release = asyncio.Event()
    solve = SolverWorker.solve

    async def late(self, game, budget=10.0, **how):  # type: ignore[no-untyped-def]
        await release.wait()
        return await solve(self, game, budget, **how)

    monkeypatch.setattr(SolverWorker, "solve", late)
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = board(app)
        search = asyncio.ensure_future(screen.solving._search(1.0))
        await pilot.pause()
        await screen.query_one("#verdict").remove()
        release.set()
        assert await search is None


@pytest.mark.parametrize(("name", "deal"), [("penguin", 5), ("napoleon", 1)])
async def test_the_verdict_whole_beside_the_keys_at_80x24(name: str, deal: int) -> None:
    """A fresh board at the smallest size shows its key hint and the verdict both
    whole: "winnable", not the clipped "win", which reads as a result. (Deals the
    solver wins at once: the verdict's 4 s are wall-clock, and Napoleon's deal 5,
    1.1 CPU-s, got no verdict twice under a load of 6.)"""
    app = SolitaireApp(name, deal, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        screen = board(app)
        await until(pilot, lambda: screen.query_one("#verdict", TextLine).text, "it shown")
        line = screen.query_one("#status", TextLine)
        assert line.text == screen.hint()
        assert fit_text(line.text, line.size.width) == line.text  # the keys whole
        assert screen.query_one("#verdict", TextLine).text == "winnable"


async def test_enter_right_after_a_hint_that_searches_waits_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``H`` where only the verdict's rough line is known searches for a hint;
    Enter pressed before it answers (the player who plays hints by H, Enter)
    says it is still looking and picks nothing up; then the hint shows and
    Enter plays it."""
    import asyncio

    from termsolitaire.solver.worker import SolverWorker

    release = asyncio.Event()
    solve = SolverWorker.solve

    async def held(self, game, budget=10.0, **how):  # type: ignore[no-untyped-def]
        if how.get("shorten", True):  # the hint's search waits; the verdict does not
            await release.wait()
        return await solve(self, game, budget, **how)

    monkeypatch.setattr(SolverWorker, "solve", held)
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        screen = board(app)
        await pilot.press("H")
        assert status(app).startswith("Looking for a winning line")
        await pilot.press("enter")
        assert status(app).startswith("Still looking for a winning line")
        assert screen.controller.hand.src is None and screen.game.log == ()
        release.set()
        await until(pilot, lambda: status(app).startswith("Hint: "), "the hint")
        hinted = screen.controller.hinted
        await pilot.press("enter")
        await until(pilot, lambda: screen.game.log, "the hint played")
        assert screen.game.log == (str(hinted),)
