"""Key bindings: no key twice on a screen, help lists them, the palette offers the actions."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.board import BoardScreen
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.screens.penguin import PenguinScreen
from termsolitaire.screens.spider import SpiderScreen

from .conftest import board


def keys_of(bindings: object) -> list[str]:
    out: list[str] = []
    for b in bindings:  # type: ignore[attr-defined]
        if isinstance(b, Binding):
            out += [k.strip() for k in b.key.split(",")]
    return out


@pytest.mark.parametrize("screen", [PenguinScreen, SpiderScreen, MenuScreen])
def test_no_key_bound_twice(screen: type[BoardScreen]) -> None:
    ours = keys_of(screen.BINDINGS)
    textual = set(keys_of(Screen.BINDINGS) + keys_of(App.BINDINGS))
    assert len(ours) == len(set(ours)), sorted(k for k in ours if ours.count(k) > 1)
    assert not set(ours) & textual


async def test_help_lists_every_board_key(penguin_app: SolitaireApp) -> None:
    async with penguin_app.run_test(size=(80, 24)) as pilot:
        listed = " ".join(k for k, _ in board(penguin_app).help_keys())
        for key in ("1", "7", "q", "u", "f", "z", "Z", "R", "N", "Q", "esc", "h", "space"):
            assert key in listed.split(), key
        await pilot.press("question_mark")
        assert type(penguin_app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        assert isinstance(penguin_app.screen, PenguinScreen)


async def test_command_palette_offers_the_actions(spider_app: SolitaireApp) -> None:
    async with spider_app.run_test(size=(80, 24)):
        titles = [c.title for c in spider_app.get_system_commands(spider_app.screen)]
        for title in ("Undo", "Redo", "Restart", "New deal", "Deal", "Help"):
            assert title in titles
        assert "Send to foundation" not in titles  # Spider has no foundations


async def test_menu_opens_a_board_and_q_comes_back() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("down", "enter")  # Penguin is first among the ready games
        assert isinstance(app.screen, SpiderScreen)
        await pilot.press("Q")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("up", "enter")
        assert isinstance(app.screen, PenguinScreen)
