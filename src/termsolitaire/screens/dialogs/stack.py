"""Moving down the app's stack of screens."""

from __future__ import annotations

from typing import Any, TypeVar

from textual.app import App
from textual.screen import Screen

S = TypeVar("S", bound=Screen[Any])


def pop_to(app: App[Any], screen_type: type[S]) -> S | None:
    """Close every screen above the topmost ``screen_type`` one and return it;
    None, with nothing closed, when the stack holds none."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, screen_type):
            while app.screen is not screen:
                app.pop_screen()
            return screen
    return None
