"""The app ending while a board is still being built: a player quitting, or an
SSH link dropping, just as a board or a replay opens. The half-built screen's
mount and resize find none of its widgets; they must do nothing, not raise
(a traceback on the way out, and under the server a session that ends in an
error instead of closing)."""

from __future__ import annotations

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
