"""The DOM: a node's screen found without an import, a widget's region without
exceptions, a screen's first focus without a CSS query.
"""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.dom", "DOMNode", "screen"),
    ("textual.dom", "NoScreen", "__init__"),
    ("textual.message_pump", "MessagePump", "_MessagePump__parent"),
    ("textual.screen", "Screen", "_update_auto_focus"),
    ("textual.screen", "Screen", "AUTO_FOCUS"),
    ("textual.app", "App", "AUTO_FOCUS"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


def _parents_known() -> bool:
    """Whether Textual's ``MessagePump._parent`` reads a weak reference kept in
    ``_MessagePump__parent`` (what the hooks here read directly: a property call
    less at each step up a node's parents, 10,000 a login)."""
    from textual.message_pump import MessagePump

    textuals = MessagePump.__dict__.get("_parent")
    getter = getattr(textuals, "fget", None)
    code = getattr(getter, "__code__", None)
    return code is not None and "_MessagePump__parent" in code.co_names


def screen_lookup_without_import() -> bool:
    """Let a node find its screen without an import statement at each look; False
    (nothing changed) when this Textual's nodes have no such property.

    Textual's ``DOMNode.screen`` walks up the node's parents to the screen, as here,
    but first runs ``from textual.screen import Screen`` each time: the import
    system's lookup of a module already loaded, which asks the module's spec
    whether it is still initializing and, the attribute missing, makes and drops
    an exception. A node asks for its screen for its region, its refreshes, its
    mount: 2,700 times a login (issue 33)."""
    try:
        from textual.dom import NoScreen
        from textual.screen import Screen
    except ImportError:
        return False
    if getattr(DOMNode, "_screen_without_import", False):
        return True
    textuals = DOMNode.__dict__.get("screen")
    if not isinstance(textuals, property) or not _parents_known():
        return False

    def screen(self: Any) -> Any:
        node = self
        try:
            while node is not None and not isinstance(node, Screen):
                parent = node._MessagePump__parent  # what Textual's _parent reads
                node = None if parent is None else parent()
        except AttributeError:
            raise RuntimeError(
                "Widget is missing attributes; have you called the constructor in your "
                "widget class?"
            ) from None
        if node is None:
            raise NoScreen("node has no screen")
        return node

    screen.__doc__ = textuals.__doc__
    DOMNode.screen = property(screen)  # type: ignore[assignment]
    DOMNode._screen_without_import = True  # type: ignore[attr-defined]
    return True


textuals_region: Any = None
"""Textual's own ``Widget.region``, once :func:`region_without_exceptions` replaced it."""


def region_without_exceptions() -> bool:
    """Let a widget find its region on its screen without the two or three
    exceptions Textual raises and catches when it is not laid out yet; False
    (nothing changed) when this Textual finds a widget's region elsewhere.

    Textual's ``Widget.region`` asks ``self.screen.find_widget(self)`` (three
    Python calls: the screen's, its compositor's), which raises ``NoScreen`` for a
    widget in no screen, ``KeyError`` then ``NoWidget`` for one not laid out yet
    (caught there: an empty region). Every refresh asks for the widget's size
    (``size``, ``content_region``, ``region``), most of them before the widget's
    first layout: 1,750 regions a login (issue 33). The same lookups in the same
    maps (the compositor's full map while it is current, else its visible map,
    else its full map made again), with ``dict.get``; a screen class with a
    ``find_widget`` of its own, or a compositor class other than Textual's, is
    asked as Textual asks it."""
    try:
        from textual._compositor import Compositor
        from textual.geometry import NULL_REGION
        from textual.screen import Screen
        from textual.widget import Widget
    except ImportError:
        return False
    if getattr(Widget, "_region_without_exceptions", False):
        return True
    textuals = Widget.__dict__.get("region")
    if not isinstance(textuals, property) or textuals.fget is None:
        return False
    screen_find = Screen.__dict__.get("find_widget")
    compositor_find = Compositor.__dict__.get("find_widget")
    full_map = Compositor.__dict__.get("full_map")
    if not callable(screen_find) or not callable(compositor_find):
        return False
    if not isinstance(full_map, property) or not _parents_known():
        return False
    names = compositor_find.__code__.co_names
    if not {"_full_map_invalidated", "_full_map", "_visible_map", "full_map"} <= set(names):
        return False  # a Textual whose compositor finds widgets otherwise
    fallback = textuals.fget

    def region(self: Any) -> Any:
        node = self
        while node is not None and not isinstance(node, Screen):
            parent = node._MessagePump__parent  # what Textual's _parent reads
            node = None if parent is None else parent()
        if node is None:
            return NULL_REGION  # Textual's: NoScreen caught
        if type(node).find_widget is not screen_find:
            return fallback(self)
        compositor = node._compositor
        if type(compositor) is not Compositor:
            return fallback(self)
        if compositor.root is None:
            return NULL_REGION
        if not compositor._full_map_invalidated:
            found = compositor._full_map.get(self)
            if found is not None:
                return found.region
        visible = compositor._visible_map
        if visible is not None:
            found = visible.get(self)
            if found is not None:
                return found.region
        found = compositor.full_map.get(self)
        return NULL_REGION if found is None else found.region

    global textuals_region
    textuals_region = textuals
    region.__doc__ = textuals.__doc__
    Widget.region = property(region)  # type: ignore[assignment,method-assign]
    Widget._region_without_exceptions = True  # type: ignore[attr-defined]
    return True


textuals_update_auto_focus: Any = None
"""Textual's own ``Screen._update_auto_focus``, once :func:`auto_focus_without_query`
replaced it."""


def auto_focus_without_query() -> bool:
    """Let a screen find the widget it focuses first (``AUTO_FOCUS = "*"``, Textual's
    default: the first focusable widget) by walking its widgets, without a CSS query
    that matches ``*`` against each of them; False (nothing changed) when this
    Textual focuses otherwise.

    Textual's ``_update_auto_focus`` (at every screen's compose and resume: 30 a
    login, issue 33) runs ``self.query("*")``: the query lists every widget under
    the screen in the order ``walk_children(Widget)`` gives, builds each one's CSS
    path (its ancestors) and matches the universal selector, which every widget
    matches, before the first focusable one is taken. The same widgets in the same
    order, the same first one focused. Any other ``AUTO_FOCUS`` selector, or a
    screen class with a query or walk of its own, is Textual's."""
    try:
        from textual.dom import DOMNode
        from textual.screen import Screen
        from textual.widget import Widget
    except ImportError:
        return False
    if getattr(Screen, "_auto_focus_without_query", False):
        return True
    textuals = Screen.__dict__.get("_update_auto_focus")
    if not callable(textuals):
        return False
    names = set(textuals.__code__.co_names)
    if not {"app_focus", "AUTO_FOCUS", "focused", "query", "focusable", "set_focus"} <= names:
        return False  # a Textual that focuses otherwise
    query = DOMNode.__dict__.get("query")
    walk = DOMNode.__dict__.get("walk_children")

    def _update_auto_focus(self: Any) -> None:
        kind = type(self)
        if kind.query is not query or kind.walk_children is not walk:
            textuals(self)
            return
        app = self.app
        if app.app_focus:
            auto_focus = app.AUTO_FOCUS if self.AUTO_FOCUS is None else self.AUTO_FOCUS
            if auto_focus != "*":
                textuals(self)
                return
            if self.focused is None:
                for widget in self.walk_children(Widget):
                    if widget.focusable:
                        widget.has_focus = True
                        self.set_focus(widget)
                        break

    global textuals_update_auto_focus
    textuals_update_auto_focus = textuals
    _update_auto_focus.__doc__ = textuals.__doc__
    Screen._update_auto_focus = _update_auto_focus  # type: ignore[method-assign]
    Screen._auto_focus_without_query = True  # type: ignore[attr-defined]
    return True
