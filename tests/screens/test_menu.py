"""The menu and the rules pages (issue 9.9, 9.10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Label, Markdown, OptionList

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import games, new_game
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.dialogs.rulebook import RulesScreen, rules_document
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import SaveStore

from .conftest import deal_from_menu
from .matchkit import key_line, shown_screen

DOCS = Path(__file__).parents[2] / "docs" / "rules.md"


def _save_four() -> None:
    store = SaveStore(paths())
    for name, variant in [("penguin", {}), ("spider", {"suits": 1}), ("spider", {"suits": 2})]:
        g = new_game(name, 3, **variant)
        g.play(g.legal_moves()[0])
        store.save(g, f"id-{name}{variant}")
    g = new_game("napoleon", 3)
    g.play(g.legal_moves()[0])  # (a deal left without a move has no Resume line)
    store.save(g, "id-napoleon")


async def test_menu_fits_80x24_with_four_resume_lines_and_arrows_go_through() -> None:
    _save_four()
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        lines = menu.query_one("#games")
        ids = [o.id for o in lines.options]  # type: ignore[attr-defined]
        assert sum(1 for i in ids if i and i.startswith("resume:")) == 4
        assert lines.has_focus and lines.highlighted == 0  # the first line, a Resume line
        for button in menu.query(Button):  # every button is on the screen, whole
            r = button.region
            assert r.height >= 1 and r.right <= 80 and r.bottom <= 23, (button.id, r)
        menu_box = menu.query_one("#menu").region
        assert menu_box.bottom <= 23  # the border is not cut (the footer is row 23)
        first_game = ids.index(games()[0].name)
        for _ in range(first_game):
            await pilot.press("down")  # ↓ goes from the Resume lines into the games
        assert lines.highlighted == first_game  # type: ignore[attr-defined]


@pytest.fixture(params=["files", "postgres"])
def saves_on(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The player's saves in files, or on PostgreSQL (as a served player's)."""
    if request.param == "postgres":
        monkeypatch.setenv("TERMSOLITAIRE_DATABASE", request.getfixturevalue("postgres"))
        monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "SHA256:ann")
    return str(request.param)


def resume_lines(menu: MenuScreen) -> list[str]:
    options = menu.query_one("#games", OptionList).options
    return [str(o.prompt) for o in options if o.id and o.id.startswith("resume:")]


async def test_a_deal_left_without_a_move_is_no_resume_line(saves_on: str) -> None:
    """A Napoleon deal opened and left at once stayed in the menu as "Resume
    Napoleon — deal N, 0 moves": nothing to resume. Each game's deal left
    unplayed has no Resume line; one left after a move has."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)

        async def left(game: str, moves: int) -> None:
            screen = await deal_from_menu(pilot, menu, game)
            assert screen.game.name == game
            for _ in range(moves):
                screen.do(screen.controller.play(screen.game.legal_moves()[0]))
            await pilot.press("Q")
            await shown_screen(pilot, MenuScreen)

        for game in (g.name for g in games()):
            await left(game, 0)
            assert resume_lines(menu) == [], game
        await left("napoleon", 1)
        (line,) = resume_lines(menu)
        assert line.startswith("Resume Napoleon — deal ") and ", 1 move, " in line


async def test_a_spider_game_of_deals_alone_says_so_on_its_resume_line() -> None:
    """Spider counts card moves only (a deal is no move): a game where rows were
    dealt and no card moved read "Resume Spider 1 suit — deal N, 0 moves", as if
    never played. It says the rows dealt; after a move, the moves, as the header."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        screen = await deal_from_menu(pilot, menu, "spider")
        await pilot.press("d")
        await pilot.press("Q")
        await shown_screen(pilot, MenuScreen)
        (line,) = resume_lines(menu)
        assert line.startswith("Resume Spider 1 suit — deal ") and ", 1 row dealt, " in line
        await pilot.press("enter")
        screen = await shown_screen(pilot, BoardScreen)
        assert screen.game.moves == 0 and len(screen.game.history) == 1
        move = next(m for m in screen.game.legal_moves() if m.kind == "move")
        screen.do(screen.controller.play(move))
        await pilot.press("Q")
        await shown_screen(pilot, MenuScreen)
        (line,) = resume_lines(menu)
        assert ", 1 move, " in line


async def test_a_game_whose_every_move_was_taken_back_says_so_on_its_resume_line() -> None:
    """A Penguin move, z, then the same deal again: "Deal N is in
    progress: Penguin — deal N, 0 moves, 0:38. Resume it, or start it again
    (it counts as lost)?", a game never played by its words. A game with its
    every move taken back is still in progress (its redo kept): it says so."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        screen = await deal_from_menu(pilot, menu, "penguin")
        move = next(m for m in screen.game.legal_moves() if m.kind == "move")
        screen.do(screen.controller.play(move))
        await pilot.press("z")
        assert screen.game.moves == 0 and screen.game.can_redo
        await pilot.press("Q")
        await shown_screen(pilot, MenuScreen)
        (line,) = resume_lines(menu)
        assert line.startswith("Resume Penguin — deal ") and ", every move taken back, " in line


async def test_a_click_on_an_option_s_chosen_value_highlights_its_game() -> None:
    """Over ssh at 80x24: a click on Spider's "1" (the suits already chosen), then
    Enter, dealt Stjernen, the line lit when the menu opened; a click on "2"
    lit Spider's line. A click on any value of a game's option lights its game."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        assert menu.highlighted() == "stjernen"
        await pilot.click("#spider-suits-1")
        await pilot.pause()
        assert menu.highlighted() == "spider"
        await pilot.press("enter")
        screen = await shown_screen(pilot, BoardScreen)
        assert screen.game.name == "spider" and screen.game.variant == {"suits": 1}


async def test_a_click_on_a_game_highlights_it_and_a_second_plays_it() -> None:
    """A click on the Spider line dealt Spider at once, with 1 suit, before the
    player could click the suits under it; a click highlights it now, and a click
    on the highlighted line (or Play, or Enter) plays it."""
    from termsolitaire.screens.boards.board import BoardScreen

    from .matchkit import shown_screen

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        lines = menu.query_one("#games")
        ids = [o.id for o in lines.options]  # type: ignore[attr-defined]
        spider = ids.index("spider")
        await pilot.click("#games", offset=(2, spider))
        await pilot.pause()
        assert app.screen is menu and menu.highlighted() == "spider"
        await pilot.click("#spider-suits-2")
        await pilot.click("#games", offset=(2, spider))
        board = await shown_screen(pilot, BoardScreen)
        assert board.game.name == "spider" and board.game.variant == {"suits": 2}


def test_docs_rules_md_is_the_rules_pages_of_the_program() -> None:
    assert DOCS.read_text(encoding="utf-8") == rules_document(), (
        "docs/rules.md differs from the pages in the program: "
        "python -m termsolitaire.screens.dialogs.rulebook > docs/rules.md"
    )
    text = rules_document()
    for needle in ("beak", "wrapping", "Scoring", "rounds", "1st", "Undo", "clockwise"):
        assert needle in text


def test_the_rules_of_stjernen_and_napoleon_say_what_the_score_counts() -> None:
    """Their header shows a score (Napoleon's "score 4/52" at the start, the aces):
    neither rules page said what it counts."""
    from termsolitaire.screens.dialogs.rulebook import rules_text

    for game, whole in (("stjernen", "104"), ("napoleon", "52")):
        text = " ".join(rules_text(game).split())
        assert "**Score.** The cards on the foundations" in text, game
        assert f"{whole} when the game is won" in text, game


def test_the_spider_rules_say_what_the_new_dialogs_4_extra_is() -> None:
    """The lobby's New dialog offers suits "1 2 4 (extra)" and nothing a player
    reads said what the 4 suits are or why "extra": the Spider rules say both."""
    from termsolitaire.screens.dialogs.rulebook import rules_text
    from termsolitaire.screens.match.newgame import value_text

    text = " ".join(rules_text("spider").split())
    assert "**4 suits** (two runs of each suit; the hardest)" in text
    shown = value_text("suits", 4)
    if "extra" in shown:
        assert f'"{shown}"' in text and "the StarGames rules have 1 and 2" in text


async def test_rules_from_the_menu_and_from_a_board_help() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen) and app.screen.game == games()[0].name
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "penguin"
        assert "beak" in app.screen.query_one(Markdown).source


async def test_ascii_draws_the_menu_and_settings_frames_and_choices_in_ascii() -> None:
    """Under ``--ascii`` the menu's and the settings' frames are ``+ - |`` like the
    dialogs', and the menu's choices read ``(*)`` chosen, ``( )`` not, without
    colour; a choice clicked moves the ``*``. The keys are named in words, the
    Resume line's dash is ``-``, and so is the rule under the Resume lines."""
    import re
    from dataclasses import replace

    from termsolitaire.screens.settings import SettingsScreen

    from .matchkit import screen_text, shown_screen

    # box drawing, Textual's ▐ ▌ and its key glyphs, the key line's ▏, ‹ › and —
    lines = re.compile("[\u2500-\u257f\u2590\u258c\u258f←→⏎‹›—]")
    g = new_game("penguin", 3)
    g.play(g.legal_moves()[0])
    SaveStore(paths()).save(g, "id-penguin")  # a Resume line (its dash)
    app = SolitaireApp(clock=False)
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.pause()
        text = screen_text(app)
        flat = text.replace(" ", "")  # (the SVG leaves out some spaces)
        assert "+----" in text and not lines.search(text), lines.findall(text)[:5]
        assert "ResumePenguin-deal3" in flat and "|^ppalette" in flat
        assert "|" + "-" * 60 in flat  # the rule under the Resume lines
        await pilot.press("down")  # the cursor passes over the rule
        assert app.screen.highlighted() == "stjernen"  # type: ignore[attr-defined]
        assert "Spidersuits(*)1()2()4" in flat
        await pilot.click("#spider-suits-2")
        await pilot.pause()
        assert "Spidersuits()1(*)2()4" in screen_text(app).replace(" ", "")
        await pilot.press("o")
        await shown_screen(pilot, SettingsScreen)
        await pilot.pause()
        text = screen_text(app)
        flat = text.replace(" ", "")
        assert "+----" in text and not lines.search(text), lines.findall(text)[:5]
        assert "LeftPreviouschoice" in flat and "<textual-dark>" in flat


async def test_the_card_style_changed_in_the_settings_redraws_the_menu_and_the_settings() -> None:
    """A player whose terminal lacks the glyphs (the notice on a Linux console
    sends them there) sets Card style to ASCII: the boards followed at once, but
    the settings' own frame and the menu's frame, radio buttons (``▐●▌``) and key
    line kept them until the next start. Both follow now, either way, with the
    menu's choices and the settings' row kept."""
    import re

    from termsolitaire.screens.settings import SettingsScreen

    from .matchkit import screen_text, shown_screen, until

    lines = re.compile("[\u2500-\u257f\u2590\u258c\u258f‹›]")
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        await pilot.click("#spider-suits-2")
        await pilot.press("o")
        await shown_screen(pilot, SettingsScreen)
        await pilot.press("enter")  # Card style: ASCII
        await until(pilot, lambda: "+----" in screen_text(app), "the settings in ASCII")
        text = screen_text(app)
        assert "+----" in text and not lines.search(text), lines.findall(text)[:5]
        assert "Saved; open boards redrawn" in text
        assert app.screen.query_one("#settings-list").highlighted == 0  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is menu
        text = screen_text(app)
        assert "+----" in text and not lines.search(text), lines.findall(text)[:5]
        assert "Spidersuits()1(*)2()4" in text.replace(" ", "")  # the choice kept
        await pilot.press("o")
        await shown_screen(pilot, SettingsScreen)
        await pilot.press("enter")  # and back to Unicode
        await until(pilot, lambda: "╭────" in screen_text(app), "the settings in Unicode")
        await pilot.press("escape")
        await pilot.pause()
        text = screen_text(app)
        assert "╭────" in text and "+----" not in text and "(*)" not in text


@pytest.mark.parametrize("width", [67, 70, 75, 80])
async def test_a_narrow_menu_keeps_every_choice_button_and_unit_whole(width: int) -> None:
    """From 67 columns (the narrowest board) to 80, the time limit's "20", its
    unit and the Quit button lie inside the frame (at 70 the unit was cut to "m",
    at 66 the 20 was gone and Quit half cut); a game's blurb that wraps goes on
    under itself, not under the game's name."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu")
        inner = menu.content_region
        unit = app.screen.query_one(".option-unit", Label)
        for part in ("#spider-time_limit-20", "#quit"):
            region = app.screen.query_one(part).region
            assert inner.contains_region(region), (part, region, inner)
        assert str(unit.render()) in ("minutes", "min") and inner.contains_region(unit.region)
        games = menu.query_one("#games")
        first, second = (games.render_line(y).text for y in (0, 1))
        if not first.rstrip().endswith("stock"):  # Stjernen's blurb wraps
            assert second.startswith(" " * 10) and second.strip() in "rounds of stock", second


async def test_at_67x18_the_menu_keeps_its_buttons() -> None:
    """67×18 is the smallest screen Penguin's board fits; with a saved game the
    menu there lost its whole row of buttons (Play ... Quit) under its frame.
    Under 24 rows it drops its blank lines, and every button is inside it."""
    from .matchkit import shown_screen

    g = new_game("spider", 3, suits=1)
    g.play(g.legal_moves()[0])
    SaveStore(paths()).save(g, "id-spider")
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(67, 18)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        await pilot.pause()
        inner = menu.query_one("#menu").content_region
        for button in menu.query(Button):
            region = button.region
            assert region.height == 1 and inner.contains_region(region), (button.id, region)


@pytest.mark.parametrize("width", [58, 60, 63])
async def test_under_64_columns_the_menu_wraps_its_labels_and_keeps_the_20_whole(
    width: int,
) -> None:
    """Under 64 columns the time limit's row, closed up and without its unit, was
    still too wide: its "20" was cut ("▐●▌" alone at 60). The labels wrap in a
    narrower column instead ("Spider time" over "limit"), every word of them shown."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu")
        inner = menu.content_region
        for part in ("#spider-time_limit-20", "#spider-suits-4", "#quit", "#deal"):
            region = app.screen.query_one(part).region
            assert inner.contains_region(region), (part, region, inner)
        label = app.screen.query(".option-label").results(Label)
        for each in label:
            shown = " ".join(each.render_line(y).text.strip() for y in range(each.size.height))
            assert shown.strip() == str(each.render()), (shown, each.size)
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(64, 24)) as pilot:  # the wide labels where they fit
        await pilot.pause()
        assert app.screen.query(".option-label").first().size.width == 19


async def test_the_menu_s_help_offers_no_rules_key() -> None:
    """The menu's help has no game's rules to show (``r`` there did nothing): its
    key line offers Escape alone."""

    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert key_line(app) == ["Close help"]
        await pilot.press("r")
        assert isinstance(app.screen, HelpScreen)


async def test_the_arrows_on_an_option_row_choose_its_value_and_its_game() -> None:
    """As in the settings and the New dialog, ← → on the menu's option rows
    choose the value beside the chosen one, ↑ ↓ go from row to row, and the
    game whose option was chosen is highlighted: Penguin lit, Tab, → → (Spider
    suits 4), ↓ → (5 minutes), Escape back to the list, Enter deals Spider with
    4 suits and 5 minutes. Textual's ← → only moved a highlight, told from the
    chosen value by colour alone, and that Enter dealt Penguin."""
    from dataclasses import replace

    from termsolitaire.screens.boards.board import BoardScreen

    from .matchkit import screen_text, shown_screen

    app = SolitaireApp(clock=False)
    app.look = replace(app.look, ascii=True)  # the chosen value is (*) in the text
    async with app.run_test(size=(80, 24)) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        await pilot.press("down")
        assert menu.highlighted() == "penguin"
        await pilot.press("tab", "right", "right")
        await pilot.pause()
        assert "Spidersuits()1()2(*)4" in screen_text(app).replace(" ", "")
        await pilot.press("down", "right", "escape")
        await pilot.pause()
        assert "timelimit()none(*)5()10" in screen_text(app).replace(" ", "")
        assert menu.highlighted() == "spider"
        await pilot.press("enter")
        board = await shown_screen(pilot, BoardScreen)
        assert board.game.name == "spider" and board.game.variant == {"suits": 4}
        assert board.session.time_limit == 5 * 60


async def test_the_menu_s_help_says_escape_goes_back_to_the_lobby_it_was_opened_from(
    tmp_path: Path,
) -> None:
    """Over SSH every session opens on the lobby, g the menu: its help said
    "Escape  back to the list of games (never quits)", and Escape went back to
    the lobby. Opened from the lobby the help says so; alone, as before."""
    from .matchkit import lobby_first

    def escape_row(help_screen: HelpScreen) -> str:
        return dict(help_screen.keys)["Escape"]

    with lobby_first(tmp_path / "lobby") as app:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("g")
            await shown_screen(pilot, MenuScreen)
            await pilot.press("question_mark")
            help_screen = await shown_screen(pilot, HelpScreen)
            assert escape_row(help_screen) == "back to the match lobby (never quits)"
            await pilot.press("escape", "escape")
            await shown_screen(pilot, LobbyScreen)
    app = SolitaireApp(data_dir=str(tmp_path / "alone"), clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("question_mark")
        help_screen = await shown_screen(pilot, HelpScreen)
        assert escape_row(help_screen) == "back to the list of games (never quits)"
