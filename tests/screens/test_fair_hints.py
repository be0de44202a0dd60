"""Fair hints on the board (issue 35, acceptance 4): with the setting on (the
default) no screen says "with the cards known" and the help says it is fair;
turned off, the full-knowledge help comes back and says so; in a match the
setting cannot be turned off.

Searches run in the solver's worker processes; each test waits for what shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.boards.replay import ReplayMixin
from termsolitaire.screens.palette import entries
from termsolitaire.screens.settings import FAIR_HINTS_WORDS, SettingsScreen
from termsolitaire.widgets.keyline import KeyLine

from .conftest import board, status
from .matchkit import screen_text, shown_screen
from .test_play_modes import match_board, open_table
from .test_solving import DONE, until, verdict

KNOWN = "with the cards known"


@pytest.fixture(autouse=True)
def _solver_help(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's help is off elsewhere in the tests (tests/conftest.py)."""
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "1")


def spider() -> SolitaireApp:
    """1-suit Spider deal 3: the full solver wins it within the verdict's search."""
    return SolitaireApp("spider", 3, {"suits": 1}, clock=False)


async def switch_fair_hints(pilot, app: SolitaireApp) -> str:  # type: ignore[no-untyped-def]
    """Open the settings, change "Fair hints" (the last row), come back: the note."""
    app.call_later(app.action_settings)
    screen = await shown_screen(pilot, SettingsScreen)
    options = screen.query_one(OptionList)
    options.highlighted = [name for name, _, _ in screen.rows].index("fair_hints")
    await pilot.press("right")
    note = str(screen.query_one("#settings-note").render())
    await pilot.press("escape")
    return note


async def test_fair_hints_by_default_never_say_with_the_cards_known() -> None:
    app = spider()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app).startswith("fair: "), "the fair verdict")
        assert KNOWN not in screen_text(app)
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Fair hint: "), "a fair hint")
        assert KNOWN not in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: status(app).startswith(DONE), "the hinted move")
        await until(pilot, lambda: verdict(app).startswith("fair: "), "the next verdict")
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, ReplayMixin), "the fair plan")
        text = screen_text(app)
        assert "Fair plan" in text and KNOWN not in text
        assert getattr(app.screen, "heading", "") == "Fair plan"
        await pilot.press("Q")
        await until(pilot, lambda: not isinstance(app.screen, ReplayMixin), "the board again")
        assert KNOWN not in screen_text(app)


async def test_turning_fair_hints_off_brings_the_full_knowledge_help_back() -> None:
    app = spider()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app).startswith("fair: "), "the fair verdict")
        note = await switch_fair_hints(pilot, app)
        assert note.startswith("Saved; hints see every card"), note
        await until(pilot, lambda: verdict(app) == f"winnable {KNOWN}", "the full verdict")
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Hint: "), "a full-knowledge hint")
        note = await switch_fair_hints(pilot, app)
        assert note == "Saved; hints see only the cards you see"
        await until(pilot, lambda: verdict(app).startswith("fair: "), "the fair verdict again")


async def test_in_a_match_the_setting_cannot_turn_fair_hints_off(tmp_path: Path) -> None:
    """A match board's help stays fair with the setting off from before (and a
    match gives no hints at all: its policy). Turned on there, the settings
    screen will not turn it off again while the match is on: its note says why,
    as the palette's entry does (the screen used to let it go off)."""
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text('{"version": 1, "fair_hints": false}\n')
    app, _ = await match_board(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_table(pilot)
        assert not app.services.settings.fair_hints
        assert screen.solving.fair
        await pilot.press("H")
        assert status(app).startswith("No hints in a match"), status(app)
        note = await switch_fair_hints(pilot, app)  # on
        assert note == "Saved; " + FAIR_HINTS_WORDS[True], note
        note = await switch_fair_hints(pilot, app)  # off: refused
        assert note == "Fair hints cannot be turned off in a match: the setting stays on", note
        assert app.services.settings.fair_hints
        assert screen.solving.fair
        assert KNOWN not in screen_text(app)
        assert board(app) is screen


async def test_an_open_game_keeps_its_verdict_and_hints_with_fair_hints_on() -> None:
    """Penguin shows every card: with fair hints on (the default) its verdict is
    still the solver's "winnable" and its hint "Hint:", as before."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Hint: "), "a hint")


async def test_a_fresh_stjernen_board_says_deal_next_not_that_no_move_helps() -> None:
    """Stjernen deal 2 at move 0: the fair plan is the first deal. Its verdict read
    "fair: no move helps", which a new player took for a lost game (playtest35);
    it names the deal, and the hint still deals."""
    app = SolitaireApp("stjernen", 2, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app).startswith("fair: "), "the fair verdict")
        assert verdict(app) == "fair: deal next"
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Fair hint: "), "a fair hint")
        assert status(app).startswith("Fair hint: deal")
        assert "no move helps" not in screen_text(app)


async def test_the_key_line_says_fair_hint_on_a_stjernen_board_at_80x24() -> None:
    """At 80×24 Stjernen's key hint takes the whole status line, so its verdict
    ("fair: …") does not show: nothing said which help H gives until it was
    pressed (playtest36). The key line names it as the status line does: "Fair
    hint" with the setting on, "Hint" (the full-knowledge one) with it off."""
    app = SolitaireApp("stjernen", 2, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        foot = board(app).query_one(KeyLine)
        await until(pilot, lambda: "Fair hint" in foot.shown(), "Fair hint on the key line")
        assert "fair" not in status(app)  # (the key hint has the line)
        await switch_fair_hints(pilot, app)
        await until(pilot, lambda: "Hint" in foot.shown(), "Hint on the key line")
        assert "Fair hint" not in foot.shown()
        await switch_fair_hints(pilot, app)
        await until(pilot, lambda: "Fair hint" in foot.shown(), "Fair hint again")


async def test_the_help_says_what_fair_hints_give() -> None:
    """The help's H, S and D rows said "the next move of a winning line", "a winning
    line" while (by default) they give a fair hint and the fair plan, which see
    only the cards the player sees and promise no win (playtest36). With the
    setting off the winning line comes back."""
    app = spider()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app).startswith("fair: "), "the fair verdict")
        rows = dict((words, keys) for keys, words in board(app).help_keys())
        assert not [w for w in rows if "winning line" in w], rows
        assert rows["a good move with the cards you see (a fair hint)"] == "H"
        assert [w for w in rows if "fair plan" in w and rows[w] == "S"]
        palette = {e.title: e.help for e in entries(board(app))}  # ctrl+p names it so too
        assert palette["Fair hint"].startswith("A good move with the cards you see"), palette
        await switch_fair_hints(pilot, app)
        await until(pilot, lambda: verdict(app) == f"winnable {KNOWN}", "the full verdict")
        rows = dict((words, keys) for keys, words in board(app).help_keys())
        assert rows["the next move of a winning line"] == "H"


async def test_an_open_game_keeps_hint_on_its_key_line() -> None:
    """Penguin shows every card: its help is the solver's own, and its key reads
    "Hint" with fair hints on."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        assert "Hint" in board(app).query_one(KeyLine).shown()


async def test_a_lost_stjernen_round_stays_lost_after_the_collect() -> None:
    """Round 5 of a lost Stjernen game, its stock dealt out: with every card in
    sight the solver proves it lost. The collect turns the stock face down, and
    the board then read "fair: deal next" and hinted a deal, as if the game had
    come back (playtest36). It stays "no longer winnable", and H says so, with
    the board's way on (lead36)."""
    from termsolitaire.rules import from_text

    from ..play.test_advice import LOST_ROUND_5

    app = SolitaireApp("stjernen", 2, {}, clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        board(app).start(from_text(LOST_ROUND_5))
        await pilot.press("8", "6")  # 10♥ on 9♥
        await until(pilot, lambda: verdict(app) == "no longer winnable", "the lost verdict")
        await pilot.press("o")
        await pilot.pause()
        assert status(app).startswith("Collected"), status(app)
        assert verdict(app) == "no longer winnable"
        await pilot.press("H")
        assert status(app) == "No winning line from here; 0 deals", status(app)
        await pilot.press("escape", "S")  # nor a fair plan to step through
        assert status(app) == "No winning line from here; 0 deals", status(app)
        assert KNOWN not in screen_text(app)


def palette_entry(app: SolitaireApp, title: str):  # type: ignore[no-untyped-def]
    """The command palette's entry ``title`` on the screen in view (ctrl+p, typed)."""
    found = {c.title: c for c in app.get_system_commands(app.screen)}
    assert title in found, sorted(found)
    return found[title]


def toasts(app: SolitaireApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_the_palette_turns_fair_hints_off_and_on_again() -> None:
    """ctrl+p had no entry for the setting: a player had to find it in the settings
    screen. "Turn fair hints off" (beside the board's "Fair hint") switches it,
    saves it and puts it into effect on the board in view: its key line reads
    "Hint" at once, the verdict is the full solver's; the entry then turns it on."""
    from termsolitaire.storage.paths import paths
    from termsolitaire.storage.settings import load_settings

    app = SolitaireApp("stjernen", 2, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        foot = board(app).query_one(KeyLine)
        await until(pilot, lambda: "Fair hint" in foot.shown(), "Fair hint on the key line")
        palette_entry(app, "Turn fair hints off").callback()
        assert not app.services.settings.fair_hints
        assert not load_settings(paths())[0].fair_hints  # saved
        said = "Fair hints off: " + FAIR_HINTS_WORDS[False]
        await until(pilot, lambda: said in toasts(app), "the toast")
        await until(pilot, lambda: "Hint" in foot.shown(), "Hint on the key line")
        assert "Fair hint" not in foot.shown()
        palette_entry(app, "Turn fair hints on").callback()
        assert app.services.settings.fair_hints
        await until(pilot, lambda: "Fair hint" in foot.shown(), "Fair hint again")


async def test_the_palette_says_fair_hints_stay_on_in_a_match_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """In a match the help is fair whatever the setting; the palette's entry says so
    there and leaves the setting as it was (on)."""
    app, _ = await match_board(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_table(pilot)
        assert app.services.settings.fair_hints
        palette_entry(app, "Turn fair hints off").callback()
        assert app.services.settings.fair_hints and screen.solving.fair
        said = "Fair hints cannot be turned off in a match: the setting stays on"
        await until(pilot, lambda: said in toasts(app), "the toast")
        assert app.services.settings.fair_hints


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The searches the boards ask the solver's workers for, in order (the full
    search's ``solve`` and the fair one's ``fair``, spied on)."""
    from termsolitaire.solver.worker import SolverWorker

    asked: list[str] = []
    for name in ("solve", "fair"):
        search = getattr(SolverWorker, name)

        async def spy(self, *args, _search=search, _name=name, **kw):  # type: ignore[no-untyped-def]
            asked.append(_name)
            return await _search(self, *args, **kw)

        monkeypatch.setattr(SolverWorker, name, spy)
    return asked


def proof_saved(app: SolitaireApp) -> bool:
    """Whether the board's save holds a proof of loss."""
    saved, _ = app.services.saves.load(board(app).game.name)
    return saved is not None and "lost" in saved.options


async def test_a_lost_stjernen_round_stays_lost_when_the_game_is_resumed(
    searches: list[str],
) -> None:
    """lead36: the solver proved the round lost, the player quit and resumed, and
    the board read "fair: deal next" again (the fair search, which proves nothing
    with the stock face down) until the proof was found again. The proof is kept
    with the save: the resumed board says "no longer winnable" from its first
    frame, and H what it said before, with no search at all."""
    from termsolitaire.rules import from_text

    from ..play.test_advice import LOST_ROUND_5

    app = SolitaireApp("stjernen", 2, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board(app).start(from_text(LOST_ROUND_5))
        await pilot.press("8", "6")  # 10♥ on 9♥
        await until(pilot, lambda: verdict(app) == "no longer winnable", "the lost verdict")
        # Saved as soon as it is found (a game killed now keeps it), not at the next move.
        await until(pilot, lambda: proof_saved(app), "the proof in the save")
        await pilot.press("o")
        await until(pilot, lambda: status(app).startswith("Collected"), "the collect")
        await pilot.press("H")
        before = status(app)
        assert before == "No winning line from here; 0 deals", before
        await pilot.press("Q")
        await pilot.pause()
    searches.clear()
    app = SolitaireApp("stjernen", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert [str(m) for m in board(app).game.history] == ["o1-o2", "collect"]
        assert verdict(app) == "no longer winnable"
        assert [w for w in app.workers if w.group == "solver"] == []  # none begun
        await pilot.press("H")
        assert status(app) == before
        assert verdict(app) == "no longer winnable"
        assert [w for w in app.workers if w.group == "solver"] == []
    assert searches == []


async def test_a_winning_line_followed_and_quit_gives_the_next_hint_at_once_on_resume(
    searches: list[str],
) -> None:
    """A player quit in the middle of following the hints (Penguin deal 2, two hints
    played); resumed, they waited for a new search before the verdict and the next
    hint. The line is kept with the save: "winnable" from the first frame, and H
    shows the hint it showed before the quit, with no search at all."""
    app = SolitaireApp("penguin", 2, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Hint: "), "the first hint")
        await pilot.press("enter")
        await pilot.press("H")  # the line's next move, at once
        await until(pilot, lambda: status(app).startswith("Hint: "), "the second hint")
        await pilot.press("enter")
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Hint: "), "the third hint")
        before = status(app)
        played = [str(m) for m in board(app).game.history]
        assert len(played) == 2 and verdict(app) == "winnable"
        await pilot.press("Q")
        await pilot.pause()
    searches.clear()
    app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert [str(m) for m in board(app).game.history] == played
        assert verdict(app) == "winnable"
        assert [w for w in app.workers if w.group == "solver"] == []  # none begun
        await pilot.press("H")
        assert status(app) == before
        await pilot.press("enter")  # played, and the next one at once
        await pilot.press("H")
        assert status(app).startswith("Hint: ")
        assert [w for w in app.workers if w.group == "solver"] == []
    assert searches == []


def line_saved(app: SolitaireApp) -> bool:
    """Whether the board's save holds a winning line."""
    saved, _ = app.services.saves.load(board(app).game.name)
    return saved is not None and "won_line" in saved.options


async def test_a_winning_line_found_goes_into_the_save_at_once() -> None:
    """A win found after the last move was saved only with the next move or on
    leaving: a connection dropped in between kept no line, and the resumed game
    searched again. It goes into the save as soon as it is found, as a proof of
    loss does."""
    app = SolitaireApp("penguin", 2, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        game = board(app).game
        board(app).do(board(app).controller.play(game.legal_moves()[0]))
        await until(pilot, lambda: verdict(app) == "winnable", "the verdict")
        await until(pilot, lambda: line_saved(app), "the line in the save", 5)
