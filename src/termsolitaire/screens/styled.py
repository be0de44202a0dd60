"""Screens styled once when they first show, not twice.

When a screen is pushed, Textual styles each of its widgets as it mounts them,
then, on the screen's first ``ScreenResume``, styles the whole screen again
(``update_node_styles``): the same rules on the same widgets, a second pass
that was a tenth of what building the lobby, the menu or a board cost (issue
33). Only the screen itself needs it: Textual styles the screen before it
reads the screen's own stylesheet (``MenuScreen { align: center middle; }``).
The whole pass matters when a screen comes back after something changed while
it was covered (the theme, say), so only the first resume is cut to the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual import events

if TYPE_CHECKING:
    from textual.screen import Screen


class StyledOnce:
    """Mix into a :class:`~textual.screen.Screen` (before it among the bases)."""

    _resumed_before = False

    def _on_screen_resume(self, event: events.ScreenResume) -> Any:
        """Textual calls this before the Screen's own handler (each class's in turn,
        subclasses first): at the first resume, the screen's widgets have their
        styles from their mount; the screen alone is styled again."""
        if not self._resumed_before:
            self._resumed_before = True
            screen = cast("Screen[Any]", self)
            screen.app.stylesheet.apply(screen)
            event.refresh_styles = False
