"""The screens a login goes through to its first board (the menu, then Penguin),
for the tests that compare a Textual hook with Textual's own on every node there."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

from termsolitaire.app import SolitaireApp


@contextlib.asynccontextmanager
async def at_the_board() -> AsyncIterator[SolitaireApp]:
    """A new app at 80×24, Penguin chosen from the menu and shown."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # Penguin, from the menu
        await pilot.pause()
        yield app


def nodes(app: SolitaireApp) -> Iterator[tuple[Any, Any]]:
    """(screen, node) for every screen on the stack and every node on it, the
    screen itself first."""
    for screen in app.screen_stack:
        for node in [screen, *screen.walk_children()]:
            yield screen, node
