"""Random keys, clicks, drags and resizes: the app keeps running and no card is lost.

CI plays a short sample on one board per run (the board changes from day to day;
``TERMSOLITAIRE_FUZZ=NAME`` picks one); TERMSOLITAIRE_FULL=1 plays the full 5,000
events on every board.
"""

from __future__ import annotations

import datetime
import os
import random

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.boards.board import BoardScreen

from .conftest import cards_of

EVENTS = 5000 if os.environ.get("TERMSOLITAIRE_FULL") else 150
COMMON = [*"zZRNyn", "number_sign", "plus", "minus", "question_mark", "escape", "f1"]
COMMON += ["space", "enter", "left", "right", "up", "down", "equals_sign", *"hjkl"]
PILE_KEYS = {
    "penguin": "1234567qwertyuf",
    "spider": "1234567890dt",
    "napoleon": "abcdegimnopqrstufM",
    "stjernen": "0123456789wdsaxcvbnmof000",
}
"""Each board's own keys (piles, deal, collect, foundation, move list)."""


def _game(app: SolitaireApp):  # type: ignore[no-untyped-def]
    for screen in reversed(app.screen_stack):
        if isinstance(screen, BoardScreen):
            return screen.game
    raise AssertionError("no board")


CONFIGS = [
    ("penguin", {}),
    ("spider", {"suits": 2}),
    ("spider", {"suits": 4}),
    ("napoleon", {}),
    ("stjernen", {}),
]


def _sample() -> list[tuple[str, dict[str, int]]]:
    """Every board in the full run; else one, the same in every xdist worker."""
    if os.environ.get("TERMSOLITAIRE_FULL"):
        return CONFIGS
    wanted = os.environ.get("TERMSOLITAIRE_FUZZ")
    if wanted:
        return [c for c in CONFIGS if c[0] == wanted] or CONFIGS
    return [CONFIGS[datetime.date.today().toordinal() % len(CONFIGS)]]


@pytest.mark.parametrize(("game", "variant"), _sample())
async def test_random_input_keeps_app_running_and_cards(game: str, variant: dict[str, int]) -> None:
    rng = random.Random(f"{game}{variant}")
    keys = [*PILE_KEYS[game], *COMMON]
    app = SolitaireApp(game, 42, variant, clock=False)
    size = (80, 24)
    async with app.run_test(size=size) as pilot:
        deck = cards_of(_game(app))
        for _ in range(EVENTS):
            kind = rng.random()
            w, h = size
            x, y = rng.randrange(w), rng.randrange(h - 1)  # not the footer: it can quit
            if kind < 0.6:
                await pilot.press(rng.choice(keys))
            elif kind < 0.8:
                await pilot.click(offset=(x, y), times=rng.choice((1, 1, 2)))
            elif kind < 0.95:
                await pilot.mouse_down(offset=(x, y))
                await pilot.hover(offset=(rng.randrange(w), rng.randrange(h - 1)))
                await pilot.mouse_up(offset=(rng.randrange(w), rng.randrange(h - 1)))
            else:
                size = (rng.randrange(50, 150), rng.randrange(12, 50))
                await pilot.resize_terminal(*size)
            assert app.is_running
            assert cards_of(_game(app)) == deck
        assert app.is_running
