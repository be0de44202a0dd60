"""Issue 33: a screen gets Textual's notification rack when it first has something
to show, and its tooltip at the first mouse move, not at every new screen
(textual_hooks.extras_when_needed). A player still sees every notification, on
the screen it came on and on the next one, and a widget's tooltip on hover."""

from __future__ import annotations

from textual.widgets import Tooltip
from textual.widgets._toast import Toast, ToastRack

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.boards.board import BoardScreen
from termsolitaire.screens.menu import MenuScreen

from .matchkit import shown_screen, until


def toasts(app: SolitaireApp) -> list[str]:
    """The notifications showing on the current screen, as drawn."""
    return [str(t.render()) for t in app.screen.query(Toast) if t.region.width > 0]


async def test_a_new_screen_has_neither_until_needed_and_a_notification_still_shows() -> None:
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24), notifications=True, tooltips=True) as pilot:
        menu = await shown_screen(pilot, MenuScreen)
        await pilot.pause()
        assert not list(menu.query_children(ToastRack))
        assert not list(menu.query_children(Tooltip))
        app.notify("Saved elsewhere", timeout=30)
        await until(pilot, lambda: toasts(app) == ["Saved elsewhere"], "the toast on the menu")
        await pilot.press("down", "enter")  # Penguin
        await shown_screen(pilot, BoardScreen)
        # Still showing on the next screen, as with Textual's own rack.
        await until(pilot, lambda: toasts(app) == ["Saved elsewhere"], "the toast on the board")
        app.clear_notifications()
        await until(pilot, lambda: not toasts(app), "the toast gone")


async def test_a_tooltip_shows_on_hover() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    app.TOOLTIP_DELAY = 0.05
    async with app.run_test(size=(80, 24), tooltips=True) as pilot:
        screen = await shown_screen(pilot, BoardScreen)
        await pilot.pause()
        assert not list(screen.query_children(Tooltip))
        status = screen.query_one("#status")
        status.tooltip = "the game so far"
        await pilot.hover(status)  # the first mouse move on the screen

        def shown() -> bool:
            found = list(screen.query_children(Tooltip))
            return bool(found) and found[0].display and found[0].region.width > 0

        await until(pilot, shown, "the tooltip")
        tooltip = screen.query_one(Tooltip)
        assert "the game so far" in str(tooltip.render())
