"""Screens: when a first layout paints at once, the notification rack and the
tooltip mounted when first needed, refreshes of a screen covered by an opaque
one, and the parts of a mount :mod:`termsolitaire.screens.styled` waits for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.screen", "Screen", "_compositor_refresh"),
    ("textual.screen", "Screen", "_refresh_layout"),
    ("textual.screen", "Screen", "_compositor"),
    ("textual.screen", "Screen", "_dirty_widgets"),
    ("textual._compositor", "Compositor", "_dirty_regions"),
    ("textual.widget", "Widget", "_set_dirty"),
    ("textual.app", "App", "_background_screens"),
    ("textual.app", "App", "_update_mouse_over"),
    ("textual.screen", "Screen", "_on_update"),
    ("textual.screen", "Screen", "_on_layout"),
    ("textual.widget", "Widget", "_size"),
    ("textual.widget", "Widget", "_repaint_required"),
    ("textual.widget", "Widget", "_layout_required"),
    ("textual.widget", "AwaitMount", "_parent"),
    ("textual.widget", "AwaitMount", "_widgets"),
    ("textual.message_pump", "MessagePump", "_mounted_event"),
    ("textual.app", "App", "_batch_count"),
    ("textual", "_time", "get_time"),
    ("textual.widgets._toast", "ToastRack", "show"),
    ("textual.app", "App", "_notifications"),
    ("textual.screen", "Screen", "_extend_compose"),
    ("textual.screen", "Screen", "_handle_mouse_move"),
    ("textual.app", "App", "_refresh_notifications"),
    ("textual.app", "App", "_disable_tooltips"),
    ("textual.app", "App", "_disable_notifications"),
    ("textual.dom", "DOMNode", "_nodes"),
    ("textual.message_pump", "MessagePump", "_closing"),
    ("textual.app", "App", "_load_screen_css"),
    ("textual.message_pump", "MessagePump", "_start_messages"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


def first_layout_paints_now(screen: Any) -> bool:
    """Whether Textual, resuming ``screen`` for the first time, lays it out and paints
    all of it at once (it is the app's current screen, at a size it was not laid
    out at, and no batch of updates holds the paint back)."""
    app = screen.app
    size = getattr(screen, "_size", None)
    return bool(
        size is not None
        and size != app.size
        and screen.is_attached
        and screen.is_current
        and getattr(app, "_batch_count", 1) == 0
        and not app.is_inline
    )


def read_screen_css(screen: Any) -> None:
    """Have Textual read ``screen``'s own CSS now (``App._load_screen_css``, which
    reads a screen's once); nothing where this Textual has no such method.
    :mod:`termsolitaire.screens.styled` calls it as the screen's messages start
    (``MessagePump._start_messages``), before any widget of it is styled."""
    load = getattr(screen.app, "_load_screen_css", None)
    if load is not None:
        load(screen)


def hide_toast_rack(screen: Any) -> None:
    """Say now that the screen's notification rack is hidden, as its CSS already has
    it, when there is nothing to show: Textual's resume then hides it again (its
    ``show``) without asking for a layout. Textual's default CSS hides the rack, and
    ``show`` sets the same rule on the widget itself, which Textual counts as a
    change: a second layout of every new screen for a rack that stays hidden."""
    try:
        from textual.widgets._toast import ToastRack
    except ImportError:
        return
    if getattr(screen.app, "_notifications", None):
        return
    for rack in screen.query_children(ToastRack):
        if not rack.display:
            rack.display = False


def forget_refresh_requests(widget: Any) -> None:
    """Drop the repaint and layout ``widget`` asked for and has not sent yet."""
    if hasattr(widget, "_repaint_required") and hasattr(widget, "_layout_required"):
        widget._repaint_required = False
        widget._layout_required = False


def message_clock() -> float:
    """Now, by the clock Textual stamps its messages with (``Message.time``)."""
    try:
        from textual._time import get_time
    except ImportError:  # then no message is older than anything we time
        return float("-inf")
    return float(get_time())


def mounting(callback: Any) -> tuple[Any, list[Any]] | None:
    """When ``callback`` is Textual's ``AwaitMount`` (which a mount schedules, and
    which lays the parent out once the widgets are mounted): the parent and the
    widgets it waits for; None for any other callback."""
    from textual.widget import AwaitMount

    if not isinstance(callback, AwaitMount):
        return None
    parent = getattr(callback, "_parent", None)
    widgets = getattr(callback, "_widgets", None)
    if parent is None or widgets is None:
        return None
    if not all(hasattr(w, "_mounted_event") for w in widgets):
        return None
    return parent, list(widgets)


async def mounted(widgets: Iterable[Any]) -> None:
    """Return once every one of ``widgets`` is mounted (as ``AwaitMount`` waits)."""
    for widget in widgets:
        await widget._mounted_event.wait()


def covered(screen: Any) -> bool:
    """Whether ``screen`` lies under the app's current screen and that one is opaque
    (its background's alpha is 1): nothing of it shows. False when it cannot be
    told (no screen yet, an inline app, a Textual this does not know)."""
    try:
        app = screen.app
        top = app.screen
        return bool(screen is not top and not app.is_inline and top.styles.background.a == 1)
    except Exception:
        return False


def refresh_covered(screen: Any) -> bool:
    """Textual's refresh of ``screen`` when it lies under the app's current screen and
    that one is opaque (its background's alpha is 1): the screen keeps what changed
    on it to paint when it is shown again, as Textual's does, without asking the
    screen on top to paint those places again (it covers them: Textual's repaint
    showed exactly what was there). False (nothing done) for any other screen: the
    current one, one under a screen that lets it show through, an inline app.

    Textual asks the top screen to repaint whatever changed on the screen just
    below it, opaque or not: on the login path a covered lobby or menu restyled
    as it is suspended had the board on top paint all of itself a second time."""
    if not covered(screen):
        return False
    app = screen.app
    try:
        below = app._background_screens
    except Exception:  # a Textual this does not know
        return False
    if screen not in below:
        return False
    compositor = screen._compositor
    regions = compositor._dirty_regions
    if regions:
        screen._set_dirty(*regions)
        screen._repaint_required = True
        regions.clear()
        screen._dirty_widgets.clear()
    app._update_mouse_over(screen)
    return True


def _give(screen: Any, kind: type, name: str) -> None:
    """Mount Textual's ``kind`` widget (``#name``) on ``screen`` where Textual's
    compose puts it (first), unless the screen has one or is going."""
    if any(isinstance(child, kind) for child in screen._nodes):
        return
    if not screen.is_attached or getattr(screen, "_closing", False):
        return
    screen.mount(kind(id=name), before=0 if screen._nodes else None)


def extras_when_needed() -> bool:
    """Give a screen Textual's notification rack when it first has a notification to
    show, and its tooltip when the mouse first moves on it, instead of composing both
    into every screen; False (nothing changed) when this Textual has no such hooks.

    Both are hidden until then (``display: none``), but each is a widget with its
    message pump, styles and layout at every new screen: 8 of a login's 87 widgets
    (the app's bottom screen, the lobby, the menu and the board), about 4% of its
    instructions (issue 33). Textual looks for them each time it needs one
    (``get_child_by_type``), so one mounted later is found as the composed one was.
    No widget of this program has a tooltip (Textual's own buttons and inputs could
    be given one): the tooltip is mounted at the first mouse move, not on demand,
    so one set later still shows."""
    try:
        from textual.app import App
        from textual.screen import Screen
        from textual.widgets import Tooltip
        from textual.widgets._toast import ToastRack
    except ImportError:
        return False
    if getattr(Screen, "_extras_when_needed", False):
        return True
    hooks: tuple[Any, ...] = (
        getattr(Screen, "_extend_compose", None),
        getattr(Screen, "_handle_mouse_move", None),
        getattr(App, "_refresh_notifications", None),
    )
    if not all(callable(hook) for hook in hooks):
        return False
    textuals_mouse_move, textuals_notifications = hooks[1], hooks[2]

    def _extend_compose(self: Any, widgets: list[Any]) -> None:
        """Textual's own widgets for the screen: none at its compose."""

    def _handle_mouse_move(self: Any, event: Any) -> None:
        if not self.app._disable_tooltips and not getattr(self, "_tooltip_given", False):
            self._tooltip_given = True
            _give(self, Tooltip, "textual-tooltip")
        textuals_mouse_move(self, event)

    def _refresh_notifications(self: Any) -> None:
        if self._notifications and not self._disable_notifications:
            try:
                screen = self.screen
            except Exception:  # no screen yet: Textual's finds none either
                screen = None
            if screen is not None:
                _give(screen, ToastRack, "textual-toastrack")
        textuals_notifications(self)

    for name, hook in (
        ("_extend_compose", _extend_compose),
        ("_handle_mouse_move", _handle_mouse_move),
    ):
        hook.__doc__ = getattr(Screen, name).__doc__
        setattr(Screen, name, hook)
    _refresh_notifications.__doc__ = textuals_notifications.__doc__
    App._refresh_notifications = _refresh_notifications  # type: ignore[method-assign]
    Screen._extras_when_needed = True  # type: ignore[attr-defined]
    return True
