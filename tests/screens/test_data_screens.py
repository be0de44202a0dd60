"""Pilot tests of the statistics, settings and replay screens."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from termsolitaire.app import SolitaireApp
from termsolitaire.cli import main
from termsolitaire.replay import Replay, load_replay, parse_replay, replay_of
from termsolitaire.rules import new_game
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.boards.replay import ReplayMixin
from termsolitaire.screens.settings import SettingsScreen
from termsolitaire.screens.stats import StatsScreen
from termsolitaire.storage.paths import paths
from termsolitaire.storage.settings import load_settings
from termsolitaire.widgets.keyline import KeyLine

from .matchkit import shown_screen, until

GAMES = [  # id, game, variant, deal, won, score, moves, seconds (oldest first)
    ("a", "penguin", {}, 5, True, 52, 80, 200.0),
    ("b", "penguin", {}, 6, False, 20, 40, 100.0),
    ("c", "penguin", {}, 7, True, 52, 70, 150.0),
    ("d", "spider", {"suits": 2}, 123, False, 480, 60, 300.0),
]


def recorded_app(**kw: object) -> SolitaireApp:
    app = SolitaireApp(clock=False, **kw)  # type: ignore[arg-type]
    for row in GAMES:
        app.services.stats.record(*row)
    return app


def cell_texts(table: DataTable[object], row: int) -> list[str]:
    return [str(c) for c in table.get_row_at(row)]


# ------------------------------------------------------------------ statistics


async def test_stats_screen_shows_the_figures() -> None:
    app = recorded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        summary = screen.query_one("#summary", DataTable)
        penguin = cell_texts(summary, 0)
        # variants in words (issue 30): "2 suits", never "suits=2"
        #        game       variant played won win% best fastest fewest streak longest
        # games by the names the menu gives them (they read "penguin", "spider")
        assert penguin == ["Penguin", "-", "3", "2", "67", "52", "2:30", "70", "1", "1"]
        assert cell_texts(summary, 1)[:5] == ["Spider", "2 suits", "1", "0", "0"]
        finished = screen.query_one("#finished", DataTable)
        assert finished.row_count == 4
        # newest first: d (spider), c, b, a
        assert cell_texts(finished, 0)[1:] == [
            "Spider",
            "2 suits",
            "123",
            "lost",
            "480",
            "60",
            "5:00",
        ]
        sparks = [str(s.render()) for s in screen.query(".spark-line")]
        # penguin: won, lost with 20, won; spider: one lost game, its bar well short of full
        assert sparks == ["█▂█", "▅"]
        assert [str(g.render()).strip() for g in screen.query(".spark-game")] == [
            "Penguin",
            "Spider",
        ]


def test_a_game_with_no_win_never_draws_a_full_bar() -> None:
    """Issue 9.17: lost games never draw a full bar; a score of 0 draws none."""
    from termsolitaire.screens.stats import bars

    assert bars([(0, False)] * 3) == "   "
    assert "█" not in bars([(17, False), (3, False), (17, False)])
    assert bars([(5, False), (52, True)])[-1] == "█"


async def test_a_lost_game_s_bar_reads_as_a_loss_beside_a_win_s() -> None:
    """A lone lost game at the best score drew ▇, next to a win's █: "last 1: 0 won"
    alone said it was lost. A lost game's bar is at most ▅ now; under the ASCII
    look (whose bars were ▁…█ all the same) a win is # and a loss . - or =."""
    from termsolitaire.screens.stats import bars

    assert bars([(480, False)]) == "▅"
    assert max(bars([(s, False) for s in range(0, 53, 4)])) == "▅"
    app = recorded_app()
    app.look = replace(app.look, ascii=True)  # as run() does for --ascii
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        screen = await shown_screen(pilot, StatsScreen)
        sparks = [str(s.render()) for s in screen.query(".spark-line")]
        assert sparks == ["#.#", "="]


async def test_stats_screen_starts_a_finished_deal_again() -> None:
    app = recorded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # b: penguin deal 6
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BoardScreen)
        assert (screen.game.name, screen.game.deal, screen.game.history) == ("penguin", 6, ())
        assert not any(isinstance(s, StatsScreen) for s in app.screen_stack)


async def test_a_double_click_on_a_finished_game_deals_it_once() -> None:
    """Two clicks on the highlighted row (a double click) selected it twice before
    the statistics closed: the deal was opened twice, and the second found the
    first's lock, "Penguin is open in another window (process N …)", N being
    this very process."""
    app = recorded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("down", "down")  # b: penguin deal 6
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        stats.action_play_selected()
        stats.action_play_selected()  # the second click, before the screen is gone
        await pilot.pause()
        await pilot.pause()
        boards = [s for s in app.screen_stack if isinstance(s, BoardScreen)]
        assert len(boards) == 1 and app.screen is boards[0], app.screen_stack
        assert (boards[0].game.name, boards[0].game.deal) == ("penguin", 6)


async def test_stats_screen_deals_a_spider_variant_again() -> None:
    app = recorded_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_statistics()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        game = app.screen.game  # type: ignore[attr-defined]
        assert (game.name, game.deal, game.variant) == ("spider", 123, {"suits": 2})


async def test_a_timed_game_is_dealt_again_with_the_limit_it_was_played_with() -> None:
    """A 5-minute Spider game dealt again from the statistics came back with the
    settings' limit (none here): the statistics kept no limit. Its row says the
    limit too."""
    from termsolitaire.play.session import GameSession

    app = SolitaireApp(clock=False)
    app.services.settings.set("spider.time_limit", 0)
    timed = GameSession(app.services, new_game("spider", 77, suits=2), None, 5)
    timed.game.play(timed.game.legal_moves()[0])
    assert timed.record(won=False) == []
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_statistics()
        stats = await shown_screen(pilot, StatsScreen)
        await until(pilot, lambda: bool(stats.query("#finished")), "the finished games")
        row = stats.query_one("#finished", DataTable).get_row_at(0)
        assert "2 suits, 5 min" in [str(cell).strip() for cell in row]
        await pilot.press("enter")
        board = await shown_screen(pilot, BoardScreen)
        assert (board.game.deal, board.session.time_limit) == (77, 5 * 60)


async def test_stats_screen_empty() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        text = str(app.screen.query_one("#stats-empty", Static).render())
        assert "No solo game finished yet" in text
        # a daily or a match just ended is not here: it says where they are
        assert "leaderboard (d)" in text and "match lobby (m)" in text
        # nothing to deal again, so the key line does not offer Enter
        assert "Play this deal" not in app.screen.query_one(KeyLine).shown()
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "MenuScreen"


async def test_stats_from_a_board_by_the_palette_action() -> None:
    app = recorded_app(game="penguin", deal=5)
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_statistics()
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)


# -------------------------------------------------------------------- settings


async def test_settings_change_is_saved_and_applied_at_once() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("enter")  # card style: Unicode -> ASCII
        await pilot.press("down", "right")  # four-colour deck on
        await pilot.press("down", "right")  # theme: the next one
        await pilot.press("down", "right")  # Spider suits 2
        await pilot.press("down", "left")  # Spider time limit 20
        await pilot.pause()
        saved = json.loads(paths().settings.read_text())
        assert saved["card_style"] == "ascii"
        assert saved["four_colour"] is True
        assert saved["theme"] == "textual-light"
        assert saved["games"]["spider"] == {"suits": 2, "time_limit": 20}
        assert app.theme == "textual-light"
        assert app.look.ascii and app.look.four_colour
        await pilot.press("escape")
        await pilot.pause()
        menu = app.screen
        assert menu.query_one("#spider-suits-2").value  # type: ignore[attr-defined]
        assert menu.query_one("#spider-time_limit-20").value  # type: ignore[attr-defined]
        menu.query_one("#games").highlighted = 1  # type: ignore[attr-defined]
        await pilot.press("enter")  # Penguin with the new look
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert board.look.ascii and board.look.four_colour
    assert load_settings(paths())[0].card_style == "ascii"


async def test_a_setting_changed_in_a_second_window_keeps_the_first_window_s() -> None:
    """Two windows on one player's files: the theme changed in one, then the card
    style in the other (opened before). The second save used to write back every
    setting as that window had read it at its start, undoing the theme."""
    first = SolitaireApp(clock=False)  # opened first: reads the settings now
    second = SolitaireApp(clock=False)
    async with second.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("down", "down", "right")  # theme: the next one
        await pilot.pause()
    assert load_settings(paths())[0].theme == "textual-light"
    async with first.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")  # card style: ASCII
        await pilot.pause()
        assert first.look.ascii
    kept = load_settings(paths())[0]
    assert kept.card_style == "ascii"
    assert kept.theme == "textual-light"


async def test_a_click_on_a_setting_s_choice_chooses_it_and_on_its_name_only_shows_it() -> None:
    """A click anywhere on a row moved the setting to its next choice: "20 min"
    clicked with none chosen gave 5 min, and a click on "Fair hints" to read its
    help turned them off. A click on a choice now chooses it; on the row's name
    it highlights the row and shows its help, changing nothing."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        settings = app.screen
        assert isinstance(settings, SettingsScreen)
        listed = settings.query_one("#settings-list")
        rows = [name for name, _, _ in settings.rows]
        limit = rows.index("spider.time_limit")
        row = settings.row("spider.time_limit", settings.rows[limit][1]).plain
        # the list's frame and padding, then the row's text
        await pilot.click("#settings-list", offset=(2 + row.index("20 min"), 1 + limit))
        await pilot.pause()
        assert app.services.settings.get("spider.time_limit") == 20
        fair = rows.index("fair_hints")
        await pilot.click("#settings-list", offset=(4, 1 + fair))  # on "Fair hints"
        await pilot.pause()
        assert app.services.settings.fair_hints is True
        assert listed.highlighted == fair  # type: ignore[attr-defined]
        help_text = str(settings.query_one("#settings-help", Static).render())
        assert help_text == settings.rows[fair][2]
    assert load_settings(paths())[0].get("spider.time_limit") == 20


async def test_settings_redraw_an_open_board() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen
        assert isinstance(board, BoardScreen)
        app.action_settings()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert board.look.ascii
        assert board.board.look.ascii


async def test_settings_apply_at_start() -> None:
    home = paths()
    home.config.mkdir(parents=True, exist_ok=True)
    home.settings.write_text(
        json.dumps({"version": 1, "card_style": "ascii", "theme": "nord", "mouse": False})
    )
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "nord"
        assert app.look.ascii
        assert app.screen.look.ascii  # type: ignore[attr-defined]
        assert app.services.settings.mouse is False


async def test_corrupted_settings_give_a_message_and_defaults() -> None:
    home = paths()
    home.config.mkdir(parents=True, exist_ok=True)
    home.settings.write_text('{"card_style": "asc')
    app = SolitaireApp(clock=False)
    notes: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notes = [n.message for n in app._notifications]
        assert app.services.settings.card_style == "unicode"
        assert not app.look.ascii
    assert any("Settings file could not be read" in n for n in notes), notes
    assert list(home.config.glob("settings.json.corrupt-*"))


async def test_unwritable_settings_say_so_and_play_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    app = SolitaireApp(clock=False, data_dir=str(blocker / "home"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        note = str(app.screen.query_one("#settings-note", Static).render())
        assert note.startswith("Settings not saved")
        assert app.look.ascii  # applied all the same


# ---------------------------------------------------------------------- replay


def replay_file(tmp_path: Path, name: str, deal: int, n: int, **variant: int) -> Path:
    """A move list of the first ``n`` moves a simple player makes."""
    g = new_game(name, deal, **variant)
    moves = []
    for _ in range(n):
        legal = g.legal_moves()
        if not legal:
            break
        move = legal[len(moves) % len(legal)]
        g.play(move)
        moves.append(str(move))
    head = f"game: {name}\n" + (
        f"variant: {','.join(f'{k}={v}' for k, v in variant.items())}\n" if variant else ""
    )
    path = tmp_path / f"{name}.txt"
    path.write_text(head + f"deal: {deal}\n" + " ".join(moves) + "\n")
    return path


def position(replay: Replay, index: int) -> str:
    return replay.go(index).to_text()


@pytest.mark.parametrize(
    ("game", "deal", "variant"),
    [("penguin", 5, {}), ("spider", 123, {"suits": 2}), ("napoleon", 3, {}), ("stjernen", 9, {})],
)
async def test_replay_steps_both_ways(
    tmp_path: Path, game: str, deal: int, variant: dict[str, int]
) -> None:
    path = replay_file(tmp_path, game, deal, 6, **variant)
    expected = load_replay(path)
    n = len(expected)
    assert n >= 3
    # Deals and turns are not moves (RULES.md): a line with one counts steps.
    word = "move" if all(m.kind == "move" for m in expected.moves) else "step"
    app = SolitaireApp(clock=False, replay=load_replay(path))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayMixin)
        assert screen.game.to_text() == position(expected, 0)

        async def at(i: int) -> None:
            await pilot.pause()
            assert screen.game.to_text() == position(expected, i)
            header = screen.query_one("#stats").text  # type: ignore[attr-defined]
            if i:
                said = screen.move_text(expected.moves[i - 1])  # as the board labels piles
                assert header == f"{word} {i} of {n}: {said}"
                assert not re.search(r"\b[tcpiouf]\d+\b", header), header
            else:
                assert header == f"start of {n} {word}s"

        await pilot.press("right")
        await at(1)
        await pilot.press("l", "n")
        await at(3)
        await pilot.press("left")
        await at(2)
        await pilot.press("end")
        await at(n)
        await pilot.press("right")  # past the end: stays
        await at(n)
        await pilot.press("home")
        await at(0)
        await pilot.press("G")
        await at(n)
        await pilot.press("g", "p")
        await at(0)
        # the board's keys and actions play nothing
        await pilot.press("1", "2", "d", "z", "space")
        await at(0)
        screen.action_undo()  # type: ignore[attr-defined]
        screen.action_restart()  # type: ignore[attr-defined]
        await at(0)
        await pilot.press("Q")
        await pilot.pause()
    assert app.return_value == 0
    # a replay is never saved nor counted
    assert app.services.stats.finished() == []
    assert not list(paths().saves.glob("*.json")) if paths().saves.exists() else True


async def test_a_replay_s_status_line_names_no_key_its_key_line_shows(tmp_path: Path) -> None:
    """At 80x24 a replay's status line read "→ l n next, ← h p previous, Home g
    start, End G end, Q quit, ? help" over a key line of the same keys: it says
    only what the key line does not (the move list's M, the other step keys),
    at the start and after each step."""
    app = SolitaireApp(clock=False, replay=load_replay(replay_file(tmp_path, "penguin", 5, 4)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        foot = screen.query_one(KeyLine)
        await until(pilot, lambda: "Next" in foot.shown(), "the replay's key line")
        on_line = {key.display for key in foot.keys if key.description in foot.shown()}
        assert {"→", "←", "Q", "?"} <= on_line
        for press in ["", "right", "end", "home"]:
            if press:
                await pilot.press(press)
            said = screen.query_one("#status").text  # type: ignore[attr-defined]
            words = set(re.split(r"[\s,;:]+", said))
            assert "M" in words and not words & on_line, (press, said)


async def test_a_board_key_in_a_replay_says_it_is_read_only(tmp_path: Path) -> None:
    """In the replay of a won Penguin game, ``1``, ``z`` and ``H`` did nothing at
    all, not a word (a click says the replay is read only): a player pressing
    ``z`` to go back a move could not tell why. Each says so and names the keys
    that step; the position stays."""
    app = SolitaireApp(clock=False, replay=load_replay(replay_file(tmp_path, "penguin", 5, 4)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        await pilot.press("end")
        shown = screen.game.to_text()
        for key in ("1", "z", "H", "f"):
            screen.say("")
            await pilot.press(key)
            said = screen.query_one("#status").text  # type: ignore[attr-defined]
            assert said.startswith("A replay is read only: → next, ← previous"), (key, said)
        assert screen.game.to_text() == shown
        await pilot.press("left")
        assert screen.game.to_text() != shown


async def test_replay_of_a_saved_game_json(tmp_path: Path) -> None:
    g = new_game("penguin", 5)
    for _ in range(3):
        g.play(g.legal_moves()[0])
    path = tmp_path / "game.json"
    path.write_text(g.to_json())
    replay = load_replay(path)
    app = SolitaireApp(clock=False, replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        assert app.screen.game.to_text() == g.to_text()  # type: ignore[attr-defined]


def test_cli_replay_bad_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("game: penguin\ndeal: 5\nt9-t1\n")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("termsolitaire replay: ")
    assert "t9" in err
    assert main(["replay", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\xff\xfe\x00")
    assert main(["replay", str(garbage)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_replay_bad_arguments_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "termsolitaire", "replay"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("termsolitaire replay: error:")


def test_replay_header_text() -> None:
    from termsolitaire.screens.boards.replay import move_text

    r = parse_replay(b"game: penguin\ndeal: 5\n")
    assert move_text(r) == "start of 0 moves"


def test_a_replay_that_deals_or_turns_counts_steps_not_moves() -> None:
    """Dealing and turning are not moves (RULES.md): a Spider replay says ``step``,
    so its count never reads against the board's and the results' ``moves``."""
    from termsolitaire.screens.boards.replay import move_text

    game = new_game("spider", 5, suits=1)
    deal = next(m for m in game.legal_moves() if m.kind == "deal")
    game.play(deal)
    transfer = next(m for m in game.legal_moves() if m.kind == "move")
    game.play(transfer)
    r = replay_of(game)
    assert move_text(r) == "start of 2 steps"
    r.go(2)
    assert move_text(r) == f"step 2 of 2: {transfer}"
    assert game.moves == 1  # the board's count: the transfer alone


async def test_a_replay_from_a_position_without_a_deal_names_no_deal() -> None:
    """``solve --position`` of a position text with no ``deal:`` line writes a line
    that ``replay`` opens: its header read "Replay · Penguin · deal None · beak 5".
    A game without a deal number leaves the deal out of its header."""
    from .matchkit import screen_text

    text = "\n".join(
        ln for ln in new_game("penguin", 3).to_text().splitlines() if "deal:" not in ln
    )
    replay = parse_replay(f"{text}\n".encode())
    assert replay.game.deal is None
    app = SolitaireApp(clock=False, replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Penguin" in screen_text(app), "the replay's header")
        header = screen_text(app).strip().splitlines()[0]
        assert header.startswith("Replay · Penguin · beak 5") and "None" not in header, header


async def test_the_replay_s_help_teaches_no_keys_that_play(tmp_path: Path) -> None:
    """`?` in a replay listed its keys, then "Three ways to play": "Press the key
    of the pile to take cards from…", keys that do nothing in a replay (nor when
    watching a table). Those screens' help is their keys alone; a board's keeps
    the section."""
    from textual.widgets import Markdown

    from termsolitaire.screens.dialogs.help import HelpScreen

    from .matchkit import screen_text

    app = SolitaireApp(clock=False, replay=load_replay(replay_file(tmp_path, "penguin", 5, 6)))
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, ReplayMixin)  # type: ignore[type-abstract]
        await pilot.press("question_mark")
        await shown_screen(pilot, HelpScreen)
        await until(pilot, lambda: "Replay: keys" in screen_text(app), "the help")
        assert "Three ways to play" not in screen_text(app)
        assert not app.screen.query(Markdown)
    board = SolitaireApp("penguin", 5, clock=False)
    async with board.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, BoardScreen)
        await pilot.press("question_mark")
        shown = await shown_screen(pilot, HelpScreen)
        await pilot.pause()
        assert shown.query(Markdown), "the section (below the keys)"
