"""What a player reads names piles by the board's labels, never by the notation,
and the status line is never cut (issue 30, acceptance 1).

The notation (``t1``, ``c2``, ``p15``, ``i1``, ``o2``, ``u3``, ``f1``, ``suits=2``)
stays for files and ``solve``; these tests walk every screen at 80×24 (the
menu, each game's board at its start and after a few moves, its help, rules
page, move list and solution header, the statistics and settings, the match's
lobby, board and results) and every status-line sentence the four games can
say (:mod:`.wordskit`), and fail on any notation name. Then each game's longest
refusal and longest hint are shown with its longest verdict at 80 columns: both
must be whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from termsolitaire.app import SolitaireApp
from termsolitaire.play.advice import verdict_forms
from termsolitaire.replay import Replay
from termsolitaire.rules import games, new_game
from termsolitaire.screens.boards.replay import replay_screen
from termsolitaire.screens.dialogs.help import HelpScreen
from termsolitaire.screens.dialogs.rulebook import RulesScreen
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.match_results import MatchResultsScreen
from termsolitaire.solver.games import declaration
from termsolitaire.widgets.line import TextLine

from .conftest import SPIDER_KEYS, answer, board, chord
from .matchkit import WallClock, lobby_app, screen_text, shown_screen, until
from .test_match import transfer
from .wordskit import GAMES, NOTATION, sentences

SIZE = (80, 24)


def clean(where: str, text: str) -> None:
    """``text`` (what the screen shows) has no notation pile name."""
    found = sorted({m.group(0) for m in NOTATION.finditer(text)})
    assert not found, f"{where} shows {found}:\n{text}"


async def seen(pilot: Pilot[Any], where: str) -> str:
    await pilot.pause()
    text = screen_text(pilot.app)  # type: ignore[arg-type]
    clean(where, text)
    return text


# ---------------------------------------------------------------- the templates


@pytest.mark.parametrize("name", [n for n, _ in GAMES])
def test_no_status_sentence_names_a_notation_pile(name: str) -> None:
    """Every sentence the board's status line can say along a fixed playout
    (refusals of every pile pair, what is in hand, hints, done and undo texts,
    every mode's refusals) names piles by their keys."""
    said = sentences(name)
    assert said.refusals and said.hints and said.others  # the walk did reach them
    for text in sorted(said.every()):
        clean(f"{name}'s status line", text)


# ---------------------------------------------------------------- the screens


@pytest.mark.parametrize("name", [n for n, _ in GAMES])
async def test_every_board_screen_names_piles_by_their_keys(name: str) -> None:
    """A game's board at its start and after three moves, its move list, its help,
    its rules page, and a solution header stepped two moves in: no notation."""
    variant = dict(GAMES)[name]
    app = SolitaireApp(name, 7, variant, clock=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = board(app)
        await seen(pilot, f"{name} at its start")
        for _ in range(3):
            moves = screen.game.legal_moves()
            transfers = [m for m in moves if m.kind == "move"]
            if moves:
                screen.play((transfers or moves)[0])
        assert screen.game.history
        await seen(pilot, f"{name} after three moves")
        await pilot.press("M")
        text = await seen(pilot, f"{name}'s move list")
        assert f"Moves ({len(screen.game.history)})" in text
        await pilot.press("M", "question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await seen(pilot, f"{name}'s help")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
        await seen(pilot, f"{name}'s rules page")
        for _ in range(40):  # the whole page, a screenful at a time
            await pilot.press("pagedown")
            await seen(pilot, f"{name}'s rules page, further down")
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is screen, "the board again")
        line = list(screen.game.history)
        start = new_game(name, 7, **variant)
        app.push_screen(replay_screen(Replay(start, line), screen.look, heading="Solution"))
        await pilot.pause()
        await pilot.press("right", "right")
        text = await seen(pilot, f"{name}'s solution")
        word = "move" if all(m.kind == "move" for m in line) else "step"  # a deal is no move
        assert f"{word} 2 of {len(line)}" in text, text


async def test_the_menu_statistics_and_settings_name_no_notation() -> None:
    """The menu, its help and a rules page, the statistics with a 2-suit Spider
    game and a Penguin game recorded, and the settings."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=SIZE) as pilot:
        stats = app.services.stats
        stats.record("g1", "spider", {"suits": 2}, 9, False, 120, 80, 300.0)
        stats.record("g2", "penguin", {}, 5, True, 52, 90, 200.0)
        await seen(pilot, "the menu")
        await pilot.press("question_mark")
        await pilot.pause()
        await seen(pilot, "the menu's help")
        await pilot.press("escape", "r")
        await pilot.pause()
        await seen(pilot, "the rules from the menu")
        await pilot.press("escape", "s")
        await pilot.pause()
        text = await seen(pilot, "the statistics")
        assert "2 suits" in text, text
        await pilot.press("escape", "o")
        await pilot.pause()
        await seen(pilot, "the settings")


async def test_the_match_screens_name_no_notation(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The lobby, the match board after a move (its opponent panel), End, and the
    results: no notation."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    match.store.open_table(suits=2, minutes=10, deal=5)
    async with app.run_test(size=SIZE) as pilot:
        await seen(pilot, "the lobby")
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await seen(pilot, "the match board")
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        await seen(pilot, "the match board after a move")
        for keys in (["1", "1"], ["2", "7"], ["9", "0", "escape"], ["z"], ["H"], ["R"], ["P"]):
            await pilot.press(*keys)  # refused or played: the status line says so
            await seen(pilot, f"the match board after {' '.join(keys)}")
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        await seen(pilot, "the match results")


# ---------------------------------------------------------------- never cut


def longest_verdict(name: str) -> str:
    """The longest verdict the game's board can show ("with the cards known" when
    its solver reads face-down cards)."""
    found = declaration(name)
    known = " with the cards known" if found is not None and found.full_knowledge else ""
    return f"no longer winnable{known}"


@pytest.mark.parametrize("name", [g.name for g in games()])
async def test_the_longest_refusal_and_hint_are_never_cut_at_80_columns(name: str) -> None:
    """Each game's longest refusal and longest hint (a followed hint's "Played …
    Next: …" too), with the game's longest verdict beside them at 80 columns:
    the message is whole, and the verdict shows in one of its forms."""
    said = sentences(name)
    refusal = max(sorted(said.refusals), key=len)
    hint = max(sorted(said.hints), key=len)
    verdict = longest_verdict(name)
    app = SolitaireApp(name, 7, dict(GAMES)[name], clock=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = board(app)
        screen.solving.show_verdict(verdict)
        for message in (refusal, hint):
            screen.say(message)
            await pilot.pause()
            shown = screen.query_one("#status", TextLine).render_line(0).text.strip()
            beside = screen.query_one("#verdict", TextLine).render_line(0).text.strip()
            assert shown == message, f"cut: {shown!r} for {message!r}"
            assert beside and beside in verdict_forms(verdict), (message, beside)


@pytest.mark.parametrize("name", [n for n, _ in GAMES])
def test_no_status_sentence_is_longer_than_80_columns_hold(name: str) -> None:
    """Any sentence of the status line fits 80 columns whole (the verdict gives way
    to it): what is in hand with many places to go is said as a count, a move that
    leaves only foundation moves says "finishing" briefly."""
    width = SIZE[0] - 2  # the status line's padding
    for text in sorted(sentences(name).every()):
        assert len(text) <= width, f"{len(text)} columns: {text}"
