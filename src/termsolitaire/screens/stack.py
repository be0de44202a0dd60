"""Moving down the app's stack of screens."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen


def pop_to(app: App[Any], screen_type: type[Screen[Any]]) -> bool:
    """Close every screen above the topmost ``screen_type`` one; False, with
    nothing closed, when the stack holds none."""
    if not any(isinstance(s, screen_type) for s in app.screen_stack):
        return False
    while not isinstance(app.screen, screen_type):
        app.pop_screen()
    return True
