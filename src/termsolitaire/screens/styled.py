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

A new screen is painted once, not three times. Textual lays a new screen out and
paints all of it at its first ``ScreenResume``; everything its widgets asked for
before that paint (a repaint or a layout from their mount, from being given a
size by that very layout, the screen's own ``refresh()`` at the end of the
resume, the layout the mount of its composed widgets asks for once they are
mounted, the notification rack hidden again) then still came: a second layout
and two more frames of the whole screen showing exactly what the first did,
about a sixth of the Python calls from the lobby to a board (issue 33). Those
requests are dropped when the first paint has answered them: the ones not sent
yet at the paint, the messages sent before it, the mount's layout when the
widgets were in place before it. What a widget asks
for after the paint (a label updated on mount, a list that learnt its width
while drawn) is Textual's as before.

A screen under an opaque one does not have the screen on top painted again.
Textual asks the current screen to repaint whatever changed on the screen just
below it, even when the current one covers it all: the lobby and the menu,
restyled as they are covered, had the menu and the Penguin board painted twice
on the login path (issue 33). What changed is kept for when the screen shows
again (textual_hooks.refresh_covered); under a screen that lets it show through
(a dialog), Textual's as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from textual import events, messages
from textual.message import Message

from termsolitaire import collector, textual_hooks

if TYPE_CHECKING:
    from textual.screen import Screen


class StyledOnce:
    """Mix into a :class:`~textual.screen.Screen` (before it among the bases)."""

    _resumed_before = False
    _first_paint_due = False
    """Textual is resuming the screen for the first time and will paint all of it."""
    _painted_at: float | None = None
    """When the first paint began, by the clock of Textual's messages."""
    _drop_refresh = False
    """The resume's own ``refresh()`` (right after the first paint) is dropped."""

    def _start_messages(self) -> None:
        """Textual's, once the screen's own CSS is read. Textual reads it just after
        it starts the screen's messages, and the first resume below counts on the
        screen's widgets being styled with it when they mount. Where a task starts
        at once (Textual's ``run`` sets asyncio's eager task factory on Python 3.12
        and newer) the screen composed and styled its widgets before that read:
        every screen showed without its CSS (the menu's buttons off the window).
        Read here first, Textual's own read then finds it read."""
        textual_hooks.read_screen_css(self)
        super()._start_messages()  # type: ignore[misc]

    def _on_screen_resume(self, event: events.ScreenResume) -> Any:
        """Textual calls this before the Screen's own handler (each class's in turn,
        subclasses first): at the first resume, the screen's widgets have their
        styles from their mount; the screen alone is styled again."""
        if not self._resumed_before:
            self._resumed_before = True
            screen = cast("Screen[Any]", self)
            screen.app.stylesheet.apply(screen)
            event.refresh_styles = False
            if textual_hooks.first_layout_paints_now(screen):
                # Screen's handler, called next, lays out and paints; what it does
                # not do at once (a change in Textual) is not waited for.
                self._first_paint_due = True
                textual_hooks.hide_toast_rack(screen)
                asyncio.get_running_loop().call_soon(self._forget_first_paint)

    def _forget_first_paint(self) -> None:
        self._first_paint_due = self._drop_refresh = False

    def _compositor_refresh(self) -> None:
        """Textual's paint of the screen: at the first, the widgets' requests so far
        are answered by it (they all have their sizes and are all drawn now)."""
        if self._first_paint_due:
            self._first_paint_due = False
            self._painted_at = textual_hooks.message_clock()
            screen = cast("Screen[Any]", self)
            textual_hooks.forget_refresh_requests(screen)
            for widget in screen.walk_children():
                textual_hooks.forget_refresh_requests(widget)
            self._drop_refresh = True
            super()._compositor_refresh()  # type: ignore[misc]
            # The launch's first frame is painted: the collector, off since the
            # command line started, runs again (termsolitaire.collector).
            collector.resume()
            return
        if textual_hooks.refresh_covered(self):
            return
        super()._compositor_refresh()  # type: ignore[misc]

    def refresh(
        self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Any:
        """Textual's, but for the repaint a first resume asks for after its paint."""
        if self._drop_refresh and not (regions or layout or recompose) and repaint:
            self._drop_refresh = False
            return self
        return super().refresh(  # type: ignore[misc]
            *regions, repaint=repaint, layout=layout, recompose=recompose
        )

    def _answered(self, message: Message) -> bool:
        """Whether ``message`` was sent before the first paint (which answered it)."""
        painted = self._painted_at
        if painted is None or message.time >= painted:
            return False
        message.stop()
        message.prevent_default()
        return True

    async def _on_update(self, message: messages.Update) -> None:
        """Textual calls this before the Screen's own: a repaint asked before the
        first paint goes no further."""
        self._answered(message)

    async def _on_layout(self, message: messages.Layout) -> None:
        """As :meth:`_on_update`, for a layout."""
        self._answered(message)

    def call_next(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Textual's, with :func:`unless_painted` (a mount into the screen)."""
        super().call_next(unless_painted(callback), *args, **kwargs)  # type: ignore[misc]

    async def _on_resize(self, event: events.Resize) -> None:
        """Textual calls this after the screen's own ``on_resize`` and before the
        Screen's: a resize to the size the screen is already laid out at (its own
        first layout's) goes no further."""
        screen = cast("Screen[Any]", self)
        if event.size == screen.outer_size and not _breakpoints(screen):
            event.stop()
            event.prevent_default()


def unless_painted(callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback``, or when it is the ``AwaitMount`` of widgets put into a screen
    that has not had its first paint (the screen itself, put into the app; its
    composed widgets), one that asks for the screen's layout only if that paint
    did not come after the widgets were in place (the paint answered it)."""
    found = textual_hooks.mounting(callback)
    if found is None:
        return callback
    screen, widgets = found
    if not isinstance(screen, StyledOnce) or screen._painted_at is not None:
        return callback
    placed = textual_hooks.message_clock()

    async def lay_out_unless_painted() -> None:
        await textual_hooks.mounted(widgets)
        painted = screen._painted_at
        if painted is None or painted < placed:
            # What Textual's AwaitMount does, at once (it waits for the widgets
            # again, past the first paint); the paint the layout leads to updates
            # what the pointer is over, as the AwaitMount did too.
            cast("Screen[Any]", screen).refresh(layout=True)

    return lay_out_unless_painted


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
