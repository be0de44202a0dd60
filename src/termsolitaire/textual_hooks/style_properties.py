"""Textual's style descriptors: a scrollbar colour set without an import, a border
or outline read in one step.
"""

from __future__ import annotations

from typing import Any

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.css._style_properties", "ScrollbarColorProperty", "__set__"),
    ("textual.css._style_properties", "ColorProperty", "__set__"),
    ("textual.css._style_properties", "BorderProperty", "__get__"),
    ("textual.css._style_properties", "BorderProperty", "_properties"),
    ("textual.css._style_properties", "BoxProperty", "_default_color"),
    ("textual.css.styles", "RenderStyles", "_inline_styles"),
    ("textual.css.styles", "RenderStyles", "_base_styles"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


def scrollbar_colours_without_import() -> bool:
    """Let a scrollbar colour be set on a widget's styles without an import statement
    at each set; False (nothing changed) when this Textual sets them elsewhere.

    Textual's ``ScrollbarColorProperty.__set__`` runs ``from textual.widget import
    Widget`` each time a node's scrollbar colour is set (every styled node has its
    seven set: 650 a login, issue 33); an import of a loaded module costs some
    twenty times a name already bound (:func:`.dom.screen_lookup_without_import`). The
    same steps, the class bound once."""
    try:
        from textual.css._style_properties import ColorProperty, ScrollbarColorProperty
        from textual.widget import Widget
    except ImportError:
        return False
    if getattr(ScrollbarColorProperty, "_without_import", False):
        return True
    textuals = ScrollbarColorProperty.__dict__.get("__set__")
    if not callable(textuals) or not callable(ColorProperty.__dict__.get("__set__")):
        return False
    colour_set = ColorProperty.__set__

    def __set__(self: Any, obj: Any, color: Any) -> None:
        colour_set(self, obj, color)
        node = obj.node
        if node is None or not isinstance(node, Widget):
            return
        if node.show_horizontal_scrollbar:
            node.horizontal_scrollbar.refresh()
        if node.show_vertical_scrollbar:
            node.vertical_scrollbar.refresh()

    __set__.__doc__ = textuals.__doc__
    ScrollbarColorProperty.__set__ = __set__  # type: ignore[method-assign]
    ScrollbarColorProperty._without_import = True  # type: ignore[attr-defined]
    return True


textuals_border_get: Any = None
"""Textual's own ``BorderProperty.__get__``, once :func:`borders_read_at_once`
replaced it."""


def borders_read_at_once() -> bool:
    """Let a node's border or outline be read from its styles' rules in one step, not
    through Textual's four edge properties and their rule lookups; False (nothing
    changed) when this Textual keeps a border's edges elsewhere.

    Textual's ``BorderProperty.__get__`` reads the four edges (``border_top``...)
    through their own descriptors, each of which asks the styles for its rule
    (``RenderStyles.get_rule``: the inline styles' rule, else the stylesheet's):
    nine Python calls a read. Every line Textual draws reads the border and the
    outline, and every gutter a widget's size needs the border: 2,600 reads a
    login (issue 33). The same lookups, in the dictionaries Textual's own
    ``Styles.get_rule`` reads (``_rules.get``); styles of any other class than
    Textual's two, and any edge whose descriptor is not Textual's box property,
    are left to Textual's."""
    try:
        from textual.css._style_properties import BorderProperty, BoxProperty, Edges
        from textual.css.styles import RenderStyles, Styles
    except ImportError:
        return False
    from inspect import getattr_static

    if getattr(BorderProperty, "_read_at_once", False):
        return True
    textuals = BorderProperty.__dict__.get("__get__")
    if not callable(textuals) or not callable(BoxProperty.__dict__.get("__get__")):
        return False
    probe = Styles()
    if getattr(probe.get_rule, "__self__", None) is not probe._rules:
        return False  # a Textual whose Styles reads its rules elsewhere
    defaults: dict[str, tuple[tuple[str, Any], ...]] = {}
    for border in ("border", "outline"):
        property_ = getattr_static(RenderStyles, border, None)
        if not isinstance(property_, BorderProperty):
            return False
        edges = []
        for name in getattr(property_, "_properties", ()):
            edge = getattr_static(RenderStyles, name, None)
            if type(edge) is not BoxProperty or getattr_static(Styles, name, None) is not edge:
                return False
            edges.append((name, edge._default_color))
        if len(edges) != 4:
            return False
        defaults[border] = tuple(edges)

    def __get__(self: Any, obj: Any, objtype: Any = None) -> Any:
        edges = defaults.get(self.name)
        kind = type(obj)
        if edges is None or (kind is not RenderStyles and kind is not Styles):
            return textuals(self, obj, objtype)
        if kind is Styles:
            rules = obj._rules
            return Edges(*[rules.get(name) or ("", default) for name, default in edges])
        inline = obj._inline_styles._rules
        base = obj._base_styles._rules
        return Edges(
            *[
                (inline.get(name) if name in inline else base.get(name)) or ("", default)
                for name, default in edges
            ]
        )

    global textuals_border_get
    textuals_border_get = textuals
    __get__.__doc__ = textuals.__doc__
    BorderProperty.__get__ = __get__  # type: ignore[method-assign]
    BorderProperty._read_at_once = True  # type: ignore[attr-defined]
    return True
