"""Helpers for the Pilot tests: an app on a fixed deal, a board's game, its status line."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import Game, Move
from termsolitaire.screens.boards.board import BoardScreen

from .matchkit import WallClock, until

PENGUIN_KEYS = {f"t{i}": str(i) for i in range(1, 8)} | {
    f"c{i}": k for i, k in enumerate("qwertyu", 1)
}
SPIDER_KEYS = {f"t{i}": k for i, k in enumerate("1234567890", 1)}


def board(app: SolitaireApp) -> BoardScreen:
    screen = app.screen
    assert isinstance(screen, BoardScreen), screen
    return screen


async def deal_from_menu(pilot: Pilot[Any], menu: Any, game: str) -> BoardScreen:
    """The menu's line of ``game`` highlighted and Enter pressed: its board, shown."""
    from textual.widgets import OptionList

    from .matchkit import shown_screen

    lines = menu.query_one("#games", OptionList)
    lines.highlighted = lines.get_option_index(game)
    await pilot.press("enter")
    return await shown_screen(pilot, BoardScreen)


def status(app: SolitaireApp) -> str:
    return board(app).query_one("#status").text  # type: ignore[attr-defined]


def cards_of(game: Game) -> Counter[str]:
    """Every card of the game, wherever it lies (face ignored)."""
    return Counter(str(c) for name in game.pile_names for c, _ in game.pile(name))


def chord(move: Move, keys: dict[str, str]) -> list[str]:
    """The keys that play ``move`` as a chord (source key, destination key)."""
    if move.kind == "deal":
        return ["d"]
    if move.kind == "turn":
        return ["t", keys[move.src]]
    dst = "f" if move.dst.startswith("f") else keys[move.dst]
    return [keys[move.src], dst]


async def answer(pilot: Pilot[Any], keys: list[str], reply: str, timeout: float = 20.0) -> None:
    """Press ``keys``, which open a dialog; once it is on the screen, press ``reply``
    and wait until it is gone. (Keys pressed in one go may reach the old screen
    before the dialog is pushed, on a busy machine.)"""
    app = pilot.app
    before = app.screen
    await pilot.press(*keys)
    end = time.monotonic() + timeout
    while app.screen is before or not isinstance(app.screen, ModalScreen):
        assert time.monotonic() < end, f"no dialog after {keys}: {app.screen}"
        await pilot.pause(0.02)
    dialog = app.screen
    await pilot.press(reply)
    while dialog in app.screen_stack:
        assert time.monotonic() < end, f"{dialog} still open after {reply!r}"
        await pilot.pause(0.02)


@pytest.fixture
def penguin_app() -> SolitaireApp:
    return SolitaireApp("penguin", 5, {}, clock=False)


@pytest.fixture
def spider_app() -> SolitaireApp:
    return SolitaireApp("spider", 123, {"suits": 2}, clock=False)


def winning_line(
    game: Game, order: Callable[[Move], Any], budget: int = 200_000
) -> list[Move] | None:
    """A small depth-first search over legal_moves() in ``order``, no position twice;
    the winning line, or None when ``budget`` steps find none."""
    seen = {game.to_text()}
    stack = [sorted(game.legal_moves(), key=order)]
    line: list[Move] = []
    while stack and budget:
        budget -= 1
        if game.is_won:
            return line
        if not stack[-1]:
            stack.pop()
            if line:
                line.pop()
                game.undo()
            continue
        m = stack[-1].pop(0)
        game.play(m)
        key = game.to_text()
        if key in seen:
            game.undo()
            continue
        seen.add(key)
        line.append(m)
        stack.append(sorted(game.legal_moves(), key=order))
    return None


async def play_to_the_end(pilot: Pilot[Any], app: SolitaireApp, line: list[Move], play: Any) -> int:
    """Play ``line`` with ``play(move)`` (keys, clicks) until the board finishes by
    itself (only foundation moves left) or the line ends; wait for the results.
    How many moves the player made."""
    from termsolitaire.screens.dialogs.results import ResultsScreen

    screen = board(app)
    played = 0
    for move in line:
        if screen.controller.finishing or screen.over:
            break
        await play(move)
        played += 1
    await until(pilot, lambda: isinstance(app.screen, ResultsScreen), "the results")
    return played


def assert_finished(game: Game, line: list[Move], played: int) -> None:
    """``game`` is won along ``line`` for the ``played`` moves the player made, and
    by foundation moves alone after them (the board's auto-finish)."""
    assert game.is_won
    assert [str(m) for m in game.history[:played]] == [str(m) for m in line[:played]]
    assert all(m.dst in game.foundations for m in game.history[played:])


@pytest.fixture
def clock() -> WallClock:
    """The match store's wall clock, moved by the test (tests/screens/matchkit.py)."""
    return WallClock()


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """The shared match directory of a test's players."""
    return tmp_path / "match"
