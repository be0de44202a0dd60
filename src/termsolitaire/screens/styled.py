"""Screens styled once when they first show, not twice; laid out twice, not three times.

When a screen is pushed, Textual styles each of its widgets as it mounts them,
then, on the screen's first ``ScreenResume``, styles the whole screen again
(``update_node_styles``): the same rules on the same widgets, a second pass
that was a tenth of what building the lobby, the menu or a board cost (issue
33). Only the screen itself needs it: Textual styles the screen before it
reads the screen's own stylesheet (``MenuScreen { align: center middle; }``).
The whole pass matters when a screen comes back after something changed while
it was covered (the theme, say), so only the first resume is cut to the screen.

Textual's first layout of a screen sends the screen a ``Resize`` to the size it
was just laid out at; the screen then lays itself out again, and every screen
below it too (hidden, each then asks the top one to be painted again): a layout
and a partial frame for nothing, and one more for each screen below, at each new
screen (issue 33; 4% of the calls from the menu to a board). Such a resize
still reaches the screen's own handlers (``on_resize``); only Textual's layout
is skipped. A resize to another size is Textual's as before.
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

    async def _on_resize(self, event: events.Resize) -> None:
        """Textual calls this after the screen's own ``on_resize`` and before the
        Screen's: a resize to the size the screen is already laid out at (its own
        first layout's) goes no further."""
        screen = cast("Screen[Any]", self)
        if event.size == screen.outer_size and not _breakpoints(screen):
            event.stop()
            event.prevent_default()


def _breakpoints(screen: Screen[Any]) -> bool:
    """Whether the screen's classes follow its width or height (Textual then needs
    every resize)."""
    app = screen.app
    return bool(
        screen.HORIZONTAL_BREAKPOINTS
        or app.HORIZONTAL_BREAKPOINTS
        or screen.VERTICAL_BREAKPOINTS
        or app.VERTICAL_BREAKPOINTS
    )
