"""Key bindings on every screen: no key twice, every pile has its key on screen and in
the help, the palette offers what the board can do, and the menu opens each board."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import games
from termsolitaire.screens.boards import board_class
from termsolitaire.screens.boards.actions import key_display
from termsolitaire.screens.boards.board import BOARDS, BoardScreen
from termsolitaire.screens.boards.replay import REPLAY_BINDINGS
from termsolitaire.screens.dialogs.dealnumber import DealNumberScreen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.screens.dialogs.stuck import StuckScreen
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.screens.settings import SettingsScreen
from termsolitaire.screens.stats import StatsScreen
from termsolitaire.widgets.keyline import KeyLine

from .conftest import board, status
from .matchkit import until

OTHER_SCREENS = [
    MenuScreen,
    SettingsScreen,
    StatsScreen,
    HelpScreen,
    DealNumberScreen,
    ResultsScreen,
    StuckScreen,
]


def footer_text(app: App[object]) -> str:
    """The descriptions of the footer's keys that are wholly on the screen."""
    return " ".join(app.screen.query_one(KeyLine).shown())


def keys_of(bindings: object) -> list[str]:
    out: list[str] = []
    for b in bindings:  # type: ignore[attr-defined]
        if isinstance(b, Binding):
            out += [k.strip() for k in b.key.split(",")]
    return out


def test_every_game_has_a_board() -> None:
    assert sorted(BOARDS) == sorted(g.name for g in games())


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_keys_are_unique_and_every_pile_is_labelled(name: str) -> None:
    screen = board_class(name)
    ours = keys_of(screen.BINDINGS)
    textual = set(keys_of(Screen.BINDINGS) + keys_of(App.BINDINGS))
    assert len(ours) == len(set(ours)), sorted(k for k in ours if ours.count(k) > 1)
    assert not set(ours) & textual
    labels = {p.key for p in screen.PLACES.values()}
    # Every label shown on a pile is a key (Spider's done pile shows a count instead).
    assert {k for k in labels if len(k) == 1} <= set(ours)
    piles = [n for n in screen.PLACES if any(b.id == f"pile-{n}" for b in screen.BINDINGS)]
    assert len({screen.PLACES[p].key for p in piles}) == len(piles)


@pytest.mark.parametrize("screen", OTHER_SCREENS, ids=lambda s: s.__name__)
def test_other_screens_bind_no_key_twice(screen: type[Screen[object]]) -> None:
    ours = keys_of(screen.BINDINGS)
    assert len(ours) == len(set(ours)), sorted(k for k in ours if ours.count(k) > 1)
    assert all(b.id for b in screen.BINDINGS if isinstance(b, Binding))


def test_replay_binds_no_key_twice() -> None:
    ours = keys_of(REPLAY_BINDINGS)
    assert len(ours) == len(set(ours))


@pytest.mark.parametrize("name", sorted(BOARDS))
async def test_help_lists_every_board_key(name: str) -> None:
    g = next(g for g in games() if g.name == name)
    app = SolitaireApp(name, 5, g.default_variant(), clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = board(app)
        listed = " ".join(k for k, _ in screen.help_keys()).split()
        for b in screen.BINDINGS:
            if isinstance(b, Binding):
                for key in b.key.split(","):
                    shown = key_display(app.get_key_display(Binding(key.strip(), b.action)))
                    assert shown in listed, (name, key)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, BoardScreen)


async def test_command_palette_offers_the_actions() -> None:
    """The palette lists the board's own actions, from its keys (each with what it
    does and its key), not Textual's generic Keys and Quit."""
    app = SolitaireApp("spider", 123, {"suits": 2}, clock=False)
    async with app.run_test(size=(80, 24)):
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        for title in ("Undo", "Redo", "Restart", "New", "Deal", "End", "Help", "Quit"):
            assert title in commands
        assert "To foundation" not in commands  # Spider has no foundations
        assert "Keys" not in commands and "Focus Next" not in commands
        assert commands["Undo"] == "Take back the last move; key z"
        assert commands["Quit"] == "Back to the menu, or leave; keys Q, q"
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)):
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "To foundation" in titles and "Deal" not in titles  # no stock


@pytest.mark.parametrize(("name", "own"), [("stjernen", "Collect"), ("napoleon", "Moves")])
async def test_the_palette_has_each_game_s_own_actions(name: str, own: str) -> None:
    """Stjernen's Collect and Napoleon's move list come from their boards' keys."""
    app = SolitaireApp(name, 3, {}, clock=False)
    async with app.run_test(size=(80, 24)):
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert own in titles and titles.count("Quit") == 1, titles


@pytest.mark.parametrize("name", ["spider", "napoleon"])
async def test_the_footer_keeps_quit_at_80_columns(name: str) -> None:
    """The footer's ``^p palette`` entry gives way to the board's own keys in a
    narrow window (ctrl+p still opens it) and comes back in a wide one."""
    app = SolitaireApp(name, 3, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Help" in footer_text(app), "the footer's keys")
        assert "Quit" in footer_text(app) and "palette" not in footer_text(app)
        await pilot.resize_terminal(120, 30)
        await until(pilot, lambda: "palette" in footer_text(app), "the palette in the footer")
        assert "Quit" in footer_text(app)
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "palette" not in footer_text(app), "no palette at 80")
        assert "Quit" in footer_text(app)


async def test_menu_opens_each_board_and_q_comes_back() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        for g in games():
            lines = app.screen.query_one("#games")
            ids = [o.id for o in lines.options]  # type: ignore[attr-defined]
            lines.highlighted = ids.index(g.name)  # type: ignore[attr-defined]
            await pilot.press("enter")
            assert g.name == board(app).GAME
            await pilot.press("Q")
            assert isinstance(app.screen, MenuScreen)


async def test_the_menu_s_palette_offers_no_maximize_and_says_what_restart_does() -> None:
    """On the menu the palette offered Textual's "Maximize the focused widget" (the
    list of games alone on a hatched screen, no key line) and "Restart; key R",
    which did nothing, not a word, unless a Resume line was highlighted."""
    from textual.widgets._toast import Toast

    from termsolitaire.screens.menu import MenuScreen

    from .matchkit import shown_screen

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        commands = {c.title: c for c in app.get_system_commands(menu)}
        assert "Maximize" not in commands, list(commands)
        restart = commands["Restart"]
        assert restart.help == "On a Resume line: that deal again from the start; key R"
        await restart.callback()
        await until(pilot, lambda: bool(menu.query(Toast)), "a word")
        assert "highlight its Resume line" in str(menu.query(Toast).first().render())


async def test_the_palette_s_screenshot_names_the_missing_downloads_folder(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The palette's Screenshot on an account with no Downloads folder (this
    machine's, a server's) said "Failed to save screenshot" and no more. It names
    the folder it would have saved in, and writes nothing."""
    from textual.widgets._toast import Toast

    from termsolitaire.screens.menu import MenuScreen

    from .matchkit import shown_screen

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    (tmp_path / "home").mkdir()
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        commands = {c.title: c for c in app.get_system_commands(menu)}
        commands["Screenshot"].callback()  # Textual's: a timer that delivers it
        await until(pilot, lambda: bool(app.screen.query(Toast)), "a word")
        said = " ".join(str(t.render()) for t in app.screen.query(Toast))
        assert "Failed" not in said and str(tmp_path / "home" / "Downloads") in said, said
    assert not any((tmp_path / "home").iterdir())


async def test_escape_after_a_pick_up_says_what_went_back(penguin_app: SolitaireApp) -> None:
    """Escape after ``7`` ("Column 7 in hand…") left the status line blank; it says
    what went back, in the board's card words, and the verdict stays beside it."""
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7")
        assert status(penguin_app).startswith("Column 7 in hand")
        await pilot.press("escape")
        assert status(penguin_app) == "Put back the 9♦"
        assert board(penguin_app).controller.hand.src is None
