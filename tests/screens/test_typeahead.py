"""Keys typed ahead (issue 9.18): keys that arrive in one burst with the key that
opens a screen (as over a slow SSH link, or pasted) belong to that screen."""

from __future__ import annotations

from textual import events

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.screens.settings import SettingsScreen

from .conftest import board, status


async def burst(app: SolitaireApp, pilot, keys: str | list[str]) -> None:
    """Keys posted to the app all at once, as one read of a terminal delivers them."""
    for key in keys:
        char = {"number_sign": "#", "enter": "\r", "down": None, "right": None}.get(key, key)
        app.post_message(events.Key(key, char))
    for _ in range(6):
        await pilot.pause()


async def test_a_deal_number_typed_in_one_burst_plays_that_deal() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(app, pilot, ["number_sign", "4", "3", "2", "1", "enter"])
        screen = board(app)
        assert screen.game.deal == 4321 and screen.game.log == ()
        assert status(app) == "Deal 4321"


async def test_keys_after_a_key_that_opens_a_screen_go_to_that_screen() -> None:
    """Menu: ``o`` then ↓ → in one burst changes the second setting (four-colour)."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await burst(app, pilot, ["o", "down", "right"])
        assert isinstance(app.screen, SettingsScreen)
        assert app.services.settings.four_colour is True
