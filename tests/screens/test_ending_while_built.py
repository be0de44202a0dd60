"""The app ending while a board is still being built: a player quitting, or an
SSH link dropping, just as a board or a replay opens. The half-built screen's
mount and resize find none of its widgets; they must do nothing, not raise
(a traceback on the way out, and under the server a session that ends in an
error instead of closing)."""

from __future__ import annotations

import asyncio

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.replay import Replay
from termsolitaire.rules import new_game
from termsolitaire.screens.boards.replay import replay_screen

from .conftest import board
from .matchkit import until

GAMES = [("penguin", {}), ("stjernen", {}), ("napoleon", {}), ("spider", {"suits": 1})]


@pytest.mark.parametrize(("name", "variant"), GAMES, ids=[g for g, _ in GAMES])
async def test_a_replay_opened_as_the_app_ends(name: str, variant: dict[str, int]) -> None:
    app = SolitaireApp(name, 3, variant, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: board(app).game.name == name, "the board")
        start = new_game(name, 3, **variant)
        app.push_screen(replay_screen(Replay(start, []), board(app).look, heading="Solution"))
    # Leaving the block ended the app before the replay was composed: it closed
    # cleanly (run_test re-raises what a handler raised).
    assert app.return_code in (None, 0)


async def test_an_error_in_a_handler_after_a_hang_up_is_no_crash() -> None:
    """A terminal hung up about 0.2 s after the start (an SSH client gone at once):
    Textual mounts none of a closing screen's widgets but still sends it its
    ``Mount``, and the first screen's handler (the board's, the menu's, the
    lobby's) raised looking for them, so the process ended in a traceback with
    status 1. After a hang-up the games are saved and the app is leaving: such
    an error now ends nothing and the app leaves with status 0."""
    from textual.screen import Screen

    from termsolitaire import lifeline

    mounted: list[bool] = []

    class HalfBuilt(Screen[None]):
        def on_mount(self) -> None:
            mounted.append(True)
            self.query_one("#stats")  # as the board's redraw did, with nothing composed

    app = SolitaireApp("penguin", 3, {}, clock=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: board(app).game.name == "penguin", "the board")
            lifeline.hang_up("terminal closed")  # (headless: no lifeline to end it)
            app.push_screen(HalfBuilt())
            # (not pilot.pause(): it waits on the screen, whose handler raised)
            for _ in range(400):
                if mounted:
                    break
                await asyncio.sleep(0.05)
            assert mounted
            app.on_hang_up("terminal closed")
    finally:
        lifeline.uninstall()
    assert app.return_code in (None, 0)


async def test_an_error_in_a_handler_without_a_hang_up_is_still_a_crash() -> None:
    from textual.css.query import NoMatches
    from textual.screen import Screen

    class Broken(Screen[None]):
        def on_mount(self) -> None:
            self.query_one("#stats")

    app = SolitaireApp("penguin", 3, {}, clock=False)
    with pytest.raises(NoMatches):
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: board(app).game.name == "penguin", "the board")
            app.push_screen(Broken())
            await pilot.pause()
    assert app.return_code == 1
