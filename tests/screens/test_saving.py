"""Autosave, resume, statistics of finished and abandoned games, through Pilot."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.play.modes import Mode
from termsolitaire.play.session import Clock
from termsolitaire.rules import Game, from_json
from termsolitaire.rules.moves import DEAL
from termsolitaire.rules.penguin import Penguin
from termsolitaire.screens.dialogs.choice import ChoiceScreen
from termsolitaire.screens.dialogs.dealnumber import DealNumberScreen, parse_deal
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import SaveStore
from termsolitaire.storage.stats import Stats

from ..storage.test_saves import penguin_held_elsewhere
from .conftest import PENGUIN_KEYS, SPIDER_KEYS, answer, board, chord, status


def saved_json(
    app: SolitaireApp, name: str, variant: dict[str, int] | None = None
) -> tuple[str, str]:
    saved, problem = app.services.saves.load(name, variant)
    assert problem is None and saved is not None
    return saved.game.to_json(), saved.id


def without_clock(text: str) -> dict[str, object]:
    data = json.loads(text)
    data.pop("elapsed")
    return data


def rows(app: SolitaireApp) -> list[tuple[str, str, int]]:
    return [(f.id, f.result, f.moves) for f in app.services.stats.finished()]


def first_move(game: Game, kinds: tuple[str, ...] = ("move",)) -> list[str]:
    keys = SPIDER_KEYS if game.name == "spider" else PENGUIN_KEYS
    for m in game.legal_moves():
        if m.kind in kinds:
            return chord(m, keys)
    raise AssertionError("no move")


async def test_autosave_after_every_action_penguin(penguin_app: SolitaireApp) -> None:
    app = penguin_app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = board(app)
        assert saved_json(app, "penguin") == (screen.game.to_json(), screen.session.id)
        for keys in (["7", "3"], ["z"], ["Z"], ["R", "y"], ["N"]):
            old_id = screen.session.id
            await pilot.press(*keys)
            assert saved_json(app, "penguin") == (screen.game.to_json(), screen.session.id)
            if keys[0] in "RN":
                assert screen.session.id != old_id  # each game played has its own id
        assert screen.session.save_seconds  # the save after each action was timed


async def test_autosave_after_deal_and_turn_spider(spider_app: SolitaireApp) -> None:
    app = spider_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press(*first_move(screen.game))
        assert saved_json(app, "spider", {"suits": 2})[0] == screen.game.to_json()
        await pilot.press("d")
        assert screen.game.history[-1] == DEAL
        saved, _ = app.services.saves.load("spider", {"suits": 2})
        assert saved is not None and saved.game.to_json() == screen.game.to_json()
        assert not saved.game.can_undo  # the deal's barrier comes back from the save


async def test_resume_from_menu_continues_exactly() -> None:
    first = SolitaireApp("spider", 123, {"suits": 2}, time_limit=10, clock=False)
    async with first.run_test(size=(80, 24)) as pilot:
        screen = board(first)
        await pilot.press(*first_move(screen.game))
        await pilot.press(*first_move(screen.game))
        await pilot.press("d")
        await pilot.press(*first_move(screen.game))
        await pilot.press("z")  # a redo list to carry over
        screen.game.elapsed = 42.5
        await pilot.press("Q")  # started on a board: Q leaves, the save stays
        await pilot.pause()
        expected, game_id = screen.game.to_json(), screen.session.id
        assert screen.game.redo_list
    now = [1000.0]  # a clock the test steps by hand: no wall-clock speed in the test
    app = SolitaireApp(clock=Clock(running=True, now=lambda: now[0]))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        lines = menu.query_one("#games")
        assert lines.has_focus and lines.highlighted == 0  # type: ignore[attr-defined]
        line = str(lines.get_option_at_index(0).prompt)  # type: ignore[attr-defined]
        assert line.startswith("Resume Spider 2 suits — deal 123,") and "9:17 left" in line
        await pilot.press("enter")
        await pilot.pause()
        screen = board(app)
        assert without_clock(screen.game.to_json()) == without_clock(expected)
        assert screen.game.elapsed == 42.5
        assert screen.session.id == game_id
        assert screen.time_limit == 600
        assert not screen.game.can_undo and screen.game.redo_list
        now[0] += 3.0
        screen.tick()
        assert screen.game.elapsed == 45.5  # the clock goes on from where it stood
        clock = screen.query_one("#clock").text  # type: ignore[attr-defined]
        assert clock == "9:14"
        await pilot.press("Z")  # the redo list came back too
        assert app.services.saves.load("spider", {"suits": 2})[0].game.redo_list == ()  # type: ignore[union-attr]


async def test_won_game_recorded_once_and_save_deleted(
    penguin_app: SolitaireApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = penguin_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        won_id = screen.session.id
        monkeypatch.setattr(Penguin, "is_won", property(lambda self: True))
        await pilot.press("7", "3")
        assert isinstance(app.screen, ResultsScreen)
        assert rows(app) == [(won_id, "won", 1)]
        assert not app.services.saves.exists("penguin")
        await pilot.press("escape", "z", "Z")  # looking at the board changes nothing
        assert not app.services.saves.exists("penguin")
        monkeypatch.undo()
        await pilot.press("escape", "N")  # a finished game is not abandoned
        assert rows(app) == [(won_id, "won", 1)]
        assert app.services.saves.exists("penguin")


async def test_abandoned_after_a_move_counts_lost_once(penguin_app: SolitaireApp) -> None:
    app = penguin_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        lost_id = screen.session.id
        await answer(pilot, ["7", "3", "N"], "y")
        assert rows(app) == [(lost_id, "lost", 1)]
        await pilot.press("N", "R")  # no move in those games: nothing recorded
        assert rows(app) == [(lost_id, "lost", 1)]
        # Recording the same id again (two logins, a second abandon) counts once.
        assert not app.services.stats.record(lost_id, "penguin", {}, 5, False, 0, 1, 1.0)
        await pilot.press(*first_move(screen.game))
        second = screen.session.id
        await answer(pilot, ["z", "R"], "y")  # a move taken back is still a game played
        assert [r[:2] for r in rows(app)] == [(second, "lost"), (lost_id, "lost")]


async def test_deal_by_number_key(penguin_app: SolitaireApp) -> None:
    app = penguin_app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7", "3", "number_sign")
        assert isinstance(app.screen, DealNumberScreen)
        await pilot.press("x", "1", "enter")
        assert isinstance(app.screen, DealNumberScreen)  # refused, still asking
        why = str(app.screen.query_one("#why").render())
        assert "whole number" in why and "'x1'" in why
        await answer(pilot, ["backspace", "backspace", "4", "2", "enter"], "y")
        await pilot.pause()
        screen = board(app)
        assert screen.game.deal == 42 and screen.game.history == ()
        assert "Deal 42" in status(app)
        assert [r[1] for r in rows(app)] == ["lost"]
        await pilot.press("number_sign", "escape")
        assert board(app).game.deal == 42


def test_parse_deal() -> None:
    assert parse_deal("17") == (17, "")
    assert parse_deal(" 0 ")[0] == 0
    for bad in ("", "-1", "1.5", "abc", "٣", str(1 << 64)):
        assert parse_deal(bad)[0] is None


def test_parse_deal_names_the_range_in_digits() -> None:
    """Issue 30: "a whole number from 0 to 18446744073709551615", never ``2**64``."""
    for bad in ("abc", str(1 << 64)):
        why = parse_deal(bad)[1]
        assert "a whole number from 0 to 18446744073709551615" in why, why


async def test_unwritable_data_dir_says_so_once_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(blocker / "home"))
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert status(app).startswith("Not saving: cannot write")
        await pilot.press("7", "3")
        assert board(app).game.history  # the move was played
        assert status(app).startswith("Played")  # the message is not repeated
        await answer(pilot, ["N"], "y")  # statistics cannot be written either: a notice
        assert board(app).game.history == ()


async def test_broken_save_is_kept_aside_and_a_fresh_game_starts() -> None:
    home = paths()
    home.saves.mkdir(parents=True)
    home.save_file("penguin").write_text('{"format": "termsolitaire-autosave", "vers')
    app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "could not be read" in status(app)
        assert board(app).game.history == ()
        assert [p.name.split(".corrupt-")[0] for p in home.saves.glob("*.corrupt-*")] == [
            "penguin.json"
        ]
        saved, problem = app.services.saves.load("penguin")  # the fresh game is saved
        assert problem is None and saved is not None and saved.id == board(app).session.id


async def test_broken_save_in_the_menu() -> None:
    home = paths()
    home.saves.mkdir(parents=True)
    home.save_file("spider").write_bytes(b"\x00garbage")
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        prompts = [str(o.prompt) for o in app.screen.query_one("#games").options]  # type: ignore[attr-defined]
        assert not any(p.startswith("Resume") for p in prompts)
        assert any("could not be read" in str(n.message) for n in app._notifications)
        assert list(home.saves.glob("spider.json.corrupt-*"))


async def test_a_broken_file_s_notice_keeps_the_kept_aside_name_whole() -> None:
    """At 80 columns the notice was half the window wide and broke the name of
    the file kept aside over two lines ("settings.json.corrupt-20261206-05414",
    then "5"): a player looking for that file could not copy it."""
    from textual.widgets._toast import Toast

    from .test_solving import until

    home = paths()
    home.config.mkdir(parents=True, exist_ok=True)
    home.settings.write_text('{"card_style": 12')
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        kept = [p.name for p in home.config.glob("settings.json.corrupt-*")]
        assert len(kept) == 1
        await until(pilot, lambda: bool(app.screen.query(Toast)), "the notice")
        toast = app.screen.query_one(Toast)
        lines = [toast.render_line(y).text for y in range(toast.size.height)]
        assert any(kept[0] in line for line in lines), lines


async def test_a_settings_file_of_wrong_values_gives_one_notice_naming_them() -> None:
    """A hand-edited settings.json with six values of the wrong type or out of
    range gave six notices stacked over the menu, the first pushed off the top of
    an 80x24 window, each in the program's words ("setting theme=['x'] is not one
    of ('textual-dark', …)"). Now one notice names them all, says the defaults
    are used and where to choose; the values that were right are kept."""
    from textual.widgets._toast import Toast

    from .test_solving import until

    home = paths()
    home.config.mkdir(parents=True, exist_ok=True)
    home.settings.write_text(
        json.dumps(
            {
                "version": 1,
                "card_style": 7,
                "four_colour": "yes",
                "theme": ["x"],
                "mouse": None,
                "target_marks": False,
                "games": {"spider": {"suits": 3, "time_limit": "lots"}},
            }
        )
    )
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(pilot, lambda: bool(app.screen.query(Toast)), "the notice")
        await pilot.pause()
        assert len(app.screen.query(Toast)) == 1
        toast = app.screen.query_one(Toast)
        text = " ".join(toast.render_line(y).text.strip() for y in range(toast.size.height))
        for value in ("card_style=7", "four_colour='yes'", "theme=['x']", "mouse=None"):
            assert value in text, text
        assert "spider.suits=3" in text and "spider.time_limit='lots'" in text, text
        assert "using the defaults" in text, text
        assert app.services.settings.target_marks is False  # the right one kept


async def seed(name: str, deal: int, moves: int, **kw: object) -> tuple[str, str]:
    """Play ``moves`` first moves of a deal and leave; the save's JSON and id."""
    variant = {"suits": 2} if name == "spider" else {}
    app = SolitaireApp(name, deal, variant, clock=False, **kw)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        for _ in range(moves):
            await pilot.press(*first_move(screen.game))
        await pilot.press("Q")
        await pilot.pause()
        return screen.game.to_json(), screen.session.id


def question(app: SolitaireApp) -> str:
    screen = app.screen
    assert isinstance(screen, ChoiceScreen), screen
    return screen.headline


async def test_bare_game_command_resumes_and_deal_asks_first() -> None:
    """Issue 9.3: ``penguin --deal 9`` with a game in progress asks; keep, resume and
    abandon each do what they say, and only abandon counts it as lost."""
    expected, game_id = await seed("penguin", 5, 2)
    app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)):
        assert board(app).game.to_json() == expected and board(app).session.id == game_id
        assert rows(app) == []
    for key, kept in (("k", True), ("r", True), ("a", False)):
        app = SolitaireApp("penguin", 9, {}, clock=False, resume=True, variant_given=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert question(app).startswith("In progress: Penguin — deal 5, 2 moves")
            await pilot.press(key)
            await pilot.pause()
            if key == "k":
                assert isinstance(app.screen, MenuScreen)
            elif key == "r":
                assert board(app).game.deal == 5 and len(board(app).game.history) == 2
            else:
                assert board(app).game.deal == 9 and board(app).game.history == ()
        assert rows(app) == ([] if kept else [(game_id, "lost", 2)])


async def test_the_bare_game_command_deals_afresh_over_a_deal_left_without_a_move() -> None:
    """``termsolitaire penguin`` after a deal opened and left at once deals afresh,
    as the menu's game line does (the menu has no Resume line for that deal);
    until playtest35 it continued the unplayed deal, its clock still running. And
    ``termsolitaire spider`` continues the 2-suit game in progress, not a 4-suit
    deal opened after it and left without a move."""
    _, unplayed = await seed("penguin", 5, 0)
    app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)):
        assert board(app).session.id != unplayed and board(app).game.history == ()
        assert rows(app) == []  # nothing was played: nothing counts as lost
    expected, game_id = await seed("spider", 7, 1)
    app = SolitaireApp("spider", 3, {"suits": 4}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("Q")
        await pilot.pause()
    app = SolitaireApp("spider", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)):
        assert board(app).session.id == game_id and board(app).game.to_json() == expected


async def test_other_suits_on_the_command_line_leave_the_save_alone() -> None:
    """Issue 9.4: 4-suit Spider does not replace a 2-suit game in progress."""
    _, game_id = await seed("spider", 7, 1)
    app = SolitaireApp("spider", None, {"suits": 4}, clock=False, resume=True)
    async with app.run_test(size=(80, 24)):
        assert board(app).game.variant == {"suits": 4}
        assert rows(app) == []
        assert app.services.saves.load("spider", {"suits": 2})[0].id == game_id  # type: ignore[union-attr]


async def test_choosing_the_game_in_the_menu_asks_before_abandoning() -> None:
    """Issue 9.2: choosing Penguin by name while a Penguin game is in progress asks;
    ↑ ↓ go from the Resume line to the games."""
    _, game_id = await seed("penguin", 5, 1)
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = app.screen.query_one("#games")
        ids = [o.id for o in lines.options]  # type: ignore[attr-defined]
        while ids[lines.highlighted] != "penguin":  # type: ignore[attr-defined]
            await pilot.press("down")
        await pilot.press("enter")  # Penguin, a random deal: first the question
        await pilot.pause()
        assert question(app).startswith("In progress: Penguin — deal 5, 1 move")
        assert rows(app) == []
        await pilot.press("a")
        await pilot.pause()
        assert board(app).game.history == () and board(app).session.id != game_id
        assert rows(app) == [(game_id, "lost", 1)]
        await pilot.press("Q")  # back to the menu: the new deal, left without a
        await pilot.pause()  # move, is no Resume line (polish34); Penguin's line is lit
        lines = app.screen.query_one("#games")
        ids = [o.id for o in lines.options]  # type: ignore[attr-defined]
        assert not any(i and i.startswith("resume:") for i in ids)
        assert ids[lines.highlighted] == "penguin"  # type: ignore[attr-defined]


async def test_restart_saved_deal_from_the_menu() -> None:
    _, game_id = await seed("penguin", 5, 1)
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("a")  # yes, abandon it
        await pilot.pause()
        assert board(app).game.deal == 5 and board(app).game.history == ()
        assert rows(app) == [(game_id, "lost", 1)]


async def test_a_deal_number_typed_on_a_resume_line_plays_that_deal() -> None:
    """The menu opens on its Resume line; a player who types a deal number and
    presses Enter (or Play) wants that deal of the game, not the save resumed with
    the number thrown away (what happened): the game in progress is asked about
    first, as for any other deal of it."""
    _, game_id = await seed("penguin", 5, 1)
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        assert str(menu.highlighted()).startswith("resume:")
        menu.query_one("#deal").focus()
        await pilot.press("9", "enter")
        await pilot.pause()
        assert question(app).startswith("In progress: Penguin — deal 5, 1 move")
        await pilot.press("a")
        await pilot.pause()
        assert board(app).game.deal == 9 and board(app).game.history == ()
    assert rows(app) == [(game_id, "lost", 1)]


async def test_back_to_menu_and_quit_do_not_count() -> None:
    await seed("penguin", 5, 2)
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert len(board(app).game.history) == 2
        await pilot.press("Q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert rows(app) == [] and app.services.saves.exists("penguin")


async def test_spider_time_up_records_lost_and_deletes_the_save() -> None:
    app = SolitaireApp("spider", 123, {"suits": 2}, time_limit=5, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        assert app.services.saves.exists("spider", {"suits": 2})
        await pilot.press("1", "0")  # t1-t10: a game with an action (ui.md)
        screen.game.elapsed = 5 * 60.0
        screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert [r[1] for r in rows(app)] == ["lost"]
        assert not app.services.saves.exists("spider", {"suits": 2})


async def test_a_timed_game_s_clock_is_saved_while_nothing_is_played() -> None:
    """A 5-minute Spider killed (``kill -9``) at 4:32 left came back at 4:38: the
    clock was saved with each action only, so time spent thinking was given back
    each time. It is saved every 15 s of the clock now, moves or not."""
    app = SolitaireApp("spider", 123, {"suits": 2}, time_limit=5, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press("1", "0")  # an action: saved
        await pilot.pause()
        screen.game.elapsed = 40.0  # 40 s of thought, no move
        screen.tick()
        await pilot.pause()
        saved = app.services.saves.load("spider", {"suits": 2})[0]
        assert saved is not None and saved.game.elapsed == 40.0


async def test_spider_time_up_with_no_action_records_nothing() -> None:
    """ui.md: a game with no action is never recorded, however it ends."""
    app = SolitaireApp("spider", 123, {"suits": 2}, time_limit=5, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board(app).game.elapsed = 5 * 60.0
        board(app).tick()
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert rows(app) == []
        assert not app.services.saves.exists("spider", {"suits": 2})


async def test_hang_up_saves_and_exits(penguin_app: SolitaireApp) -> None:
    app = penguin_app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7", "3")
        board(app).game.elapsed = 12.0
        expected = board(app).game.to_json()
        app.on_hang_up()
        await pilot.pause()
    saved, _ = SaveStore(paths()).load("penguin")
    assert saved is not None and saved.game.to_json() == expected
    assert json.loads(expected)["elapsed"] == 12.0
    assert Stats(paths().stats_db).finished() == []


@pytest.mark.parametrize(
    ("name", "variant"),
    [("stjernen", {}), ("napoleon", {}), ("penguin", {}), ("spider", {"suits": 4})],
)
async def test_every_board_saves_and_resumes(name: str, variant: dict[str, int]) -> None:
    app = SolitaireApp(name, 11, variant, clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = board(app)
        for _ in range(3):
            moves = screen.game.legal_moves()
            if moves:
                screen.play(moves[0])
        await pilot.pause()
        screen.action_undo()
        expected = screen.game.to_json()
        await pilot.pause()  # the save follows the repaint
        assert saved_json(app, name, variant) == (expected, screen.session.id)
    again = SolitaireApp(name, None, {}, clock=False, resume=True, variant_given=False)
    async with again.run_test(size=(120, 40)):
        assert board(again).game.to_json() == expected


async def test_abandoning_asks_first_and_no_keeps_the_game(penguin_app: SolitaireApp) -> None:
    """With confirm_abandon on (the default), R/N/# after a move ask; n, Escape and
    Enter (the safe default) keep playing, y abandons; with the setting off nothing
    is asked."""
    from termsolitaire.screens.dialogs.confirm import ConfirmAbandonScreen

    app = penguin_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await pilot.press("7", "3", "N")
        assert isinstance(app.screen, ConfirmAbandonScreen)
        await pilot.press("n")
        assert app.screen is screen and screen.game.history and rows(app) == []
        assert status(app) == "Playing on"
        await pilot.press("R", "escape")
        assert screen.game.history and rows(app) == []
        await pilot.press("R", "enter")
        assert app.screen is screen and screen.game.history and rows(app) == []
        await pilot.press("R")
        assert isinstance(app.screen, ConfirmAbandonScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is screen and screen.game.history == () and len(rows(app)) == 1
        await pilot.press("7", "3")
        assert screen.game.history
        app.services.settings.confirm_abandon = False
        await pilot.press("R")
        assert app.screen is screen and screen.game.history == () and len(rows(app)) == 2


async def test_a_game_open_elsewhere_is_offered_read_only() -> None:
    """Issue 9.5: while another copy has Penguin open, this one says so and offers
    the saved game read only (nothing can be played, the save stays as it is) or
    another game; it never writes over the other copy's save."""
    expected, _ = await seed("penguin", 5, 2)
    home = Path(os.environ["TERMSOLITAIRE_HOME"])
    with penguin_held_elsewhere(home) as other:  # the other copy holds the game
        app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert question(app).startswith(
                f"Penguin is open in another window (process {other.pid} "
            )
            await pilot.press("v")
            await pilot.pause()
            screen = board(app)
            assert screen.controller.mode is Mode.READ_ONLY
            assert (
                len(screen.game.history) == 0
                and screen.game.to_text() == from_json(expected).to_text()
            )
            await pilot.press("7", "3")  # the board's keys do nothing here
            assert screen.game.to_text() == from_json(expected).to_text()
            await pilot.press("Q")  # started on the game: Q leaves, as on a board
            await pilot.pause()
            assert not app.is_running
        assert app.services.saves.load("penguin")[0].game.to_json() == expected  # type: ignore[union-attr]
        app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("o")  # another game: the menu
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
    app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
    async with app.run_test(size=(80, 24)):
        assert board(app).game.to_json() == expected  # free again: it resumes
