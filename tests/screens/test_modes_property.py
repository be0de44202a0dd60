"""Issue 28, acceptance 1: no key or click ever acts on a hidden or read-only board,
and no key stops a match clock.

Random sequences of keys and clicks (hypothesis) on each of the four boards
(paused, too small, covered by a dialog, or playing), a match board, a replay
and a watched game. Before each event the test notes whether the board is
hidden (paused, covered by a dialog, too small for the window) or read only;
after it, a board that was hidden or read only must show the same position,
the same history and the same clock. A replay may only step along its own
line. A match clock counts down by the store's clock whatever is pressed.

Every example starts an app, so CI plays a few per board; TERMSOLITAIRE_FULL=1
plays many more.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.app import SolitaireApp
from termsolitaire.match import MatchStore, Player
from termsolitaire.play.modes import Mode
from termsolitaire.play.session import Clock
from termsolitaire.replay import Replay
from termsolitaire.rules import new_game
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.dialogs.choice import ChoiceScreen

from ..conftest import FULL
from .matchkit import WallClock, lobby_app, shown_screen

EXAMPLES = 40 if FULL else 4
COMMON = ["z", "Z", "R", "N", "H", "S", "D", "P", "e", "d", "t", "f", "o", "M", "number_sign"]
COMMON += ["question_mark", "escape", "space", "enter", "left", "right", "up", "down", "plus"]
KEYS = {
    "penguin": [*"1234567qwertyu", *COMMON],
    "spider": [*"1234567890", *COMMON],
    "napoleon": [*"abcdegimnopqrstu", *COMMON],
    "stjernen": [*"0123456789wdsaxcvbnm", *COMMON],
}


def events(game: str) -> st.SearchStrategy[list[tuple[str, Any]]]:
    key = st.tuples(st.just("key"), st.sampled_from(KEYS[game]))
    click = st.tuples(st.just("click"), st.tuples(st.integers(0, 79), st.integers(0, 22)))
    return st.lists(st.one_of(key, key, key, click), min_size=1, max_size=25)


def state(screen: BoardScreen) -> tuple[str, tuple[str, ...], float]:
    g = screen.game
    return g.to_text(), tuple(str(m) for m in g.history), g.elapsed


def hidden(app: SolitaireApp, screen: BoardScreen) -> bool:
    c = screen.controller
    return app.screen is not screen or screen.too_small or c.mode in (Mode.PAUSED, Mode.READ_ONLY)


async def play(pilot: Any, event: tuple[str, Any]) -> None:
    kind, what = event
    if kind == "key":
        await pilot.press(what)
    else:
        width, height = pilot.app.size
        x, y = what
        await pilot.click(offset=(min(x, width - 1), min(y, height - 2)))
    await pilot.pause()


async def check_board(game: str, variant: dict[str, int], setup: str, seq: list[Any]) -> None:
    now = [0.0]
    size = (50, 14) if setup == "small" else (80, 24)
    # Each example has its own data directory: a game left in progress by one
    # example would otherwise open the next with "Deal 7 is in progress".
    with tempfile.TemporaryDirectory(prefix="modes-") as home:
        app = SolitaireApp(
            game, 7, variant, clock=Clock(running=True, now=lambda: now[0]), data_dir=home
        )
        await drive_board(app, size, setup, seq, now)


async def drive_board(
    app: SolitaireApp, size: tuple[int, int], setup: str, seq: list[Any], now: list[float]
) -> None:
    async with app.run_test(size=size) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        if setup == "paused":
            await pilot.press("P")
        elif setup == "dialog":
            await pilot.press("question_mark")
        for event in seq:
            if screen not in app.screen_stack:
                break  # the board was left: nothing more to check on it
            was_hidden = hidden(app, screen)
            # A question the board asked about itself ("Restart deal 7?"; the stuck
            # offer) may change it once answered: that is the answer, not a key
            # reaching the board. A key that leaves the question up is checked.
            asked = app.screen if isinstance(app.screen, ChoiceScreen) else None
            before = state(screen)
            now[0] += 1.0
            screen.tick()
            await play(pilot, event)
            answered = asked is not None and asked is not app.screen
            if was_hidden and not answered and screen in app.screen_stack:
                assert state(screen) == before, (setup, event)


@pytest.mark.parametrize("setup", ["paused", "small", "dialog", "playing"])
@pytest.mark.parametrize(
    ("game", "variant"),
    [("penguin", {}), ("spider", {"suits": 2}), ("napoleon", {}), ("stjernen", {})],
)
def test_no_key_acts_on_a_hidden_board(game: str, variant: dict[str, int], setup: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(seq=events(game))
    def run(seq: list[Any]) -> None:
        asyncio.run(check_board(game, variant, setup, seq))

    run()


async def check_replay(seq: list[Any]) -> None:
    start = new_game("penguin", 5)
    line = []
    g = start.copy()
    for _ in range(6):
        move = next(m for m in g.legal_moves() if m.kind == "move")
        g.play(move)
        line.append(move)
    replay = Replay(start.copy(), list(line))
    with tempfile.TemporaryDirectory(prefix="modes-") as home:
        await drive_replay(
            SolitaireApp(clock=False, replay=replay, data_dir=home), replay, line, seq
        )


async def drive_replay(app: SolitaireApp, replay: Replay, line: list[Any], seq: list[Any]) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        for event in seq:
            if screen not in app.screen_stack:
                break
            await play(pilot, event)
            history = list(screen.game.history)
            assert history == line[: len(history)], event  # only steps along its line
            assert replay.moves == line


def test_a_replay_only_steps_along_its_line() -> None:
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seq=events("penguin"))
    def run(seq: list[Any]) -> None:
        asyncio.run(check_replay(seq))

    run()


async def check_match(tmp: Path, seq: list[Any], watch: bool) -> None:
    from termsolitaire.screens.match.match import MatchScreen
    from termsolitaire.screens.match.watch import WatchScreen

    clock = WallClock()
    shared = tmp / "match"
    app, match = lobby_app(shared, clock, tmp / "home")
    seat = match.store.open_table(suits=1, minutes=10, deal=5)
    bob = MatchStore(Player.make("bob"), shared, now=clock, keep_dir=tmp / "bob")
    bseat = bob.join(seat.table_id)
    bseat.start()
    if watch:
        seat.start()
        seat.end()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        if watch:
            await pilot.press("w")
            screen: BoardScreen = await shown_screen(pilot, WatchScreen)
        else:
            screen = await shown_screen(pilot, MatchScreen)
        start = clock.t
        for event in seq:
            if screen not in app.screen_stack:
                break
            before = state(screen)
            clock.advance(1.0)
            await play(pilot, event)
            if watch:
                assert state(screen)[:2] == before[:2], event
            else:
                assert (
                    screen.seat.remaining() == pytest.approx(600 - (clock.t - start), abs=1.0)
                    or screen.seat.finished
                ), event
    bob.close()


@pytest.mark.parametrize("watch", [False, True], ids=["match", "watch"])
def test_a_match_clock_never_stops_and_a_watched_game_never_plays(
    tmp_path_factory: pytest.TempPathFactory, watch: bool
) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seq=events("spider"))
    def run(seq: list[Any]) -> None:
        asyncio.run(check_match(tmp_path_factory.mktemp("m"), seq, watch))

    run()
