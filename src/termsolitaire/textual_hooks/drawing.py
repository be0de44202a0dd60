"""Drawing: a drawn line's caches made when first used, a widget covered by the
widgets in front neither cut up nor drawn, and Textual's cache of a widget's
drawn lines (for the warm process).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual._styles_cache", "StylesCache", "get_inner_outer"),
    ("textual.strip", "Strip", "__slots__"),
    ("textual.cache", "FIFOCache", "__init__"),
    ("textual._compositor", "Compositor", "_render_chops"),
    ("textual._compositor", "Compositor", "_get_renders"),
    ("textual._compositor", "Compositor", "cuts"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


def styles_cache_class() -> type | None:
    """Textual's per-widget cache of drawn lines (None when this Textual has none)."""
    try:
        from textual._styles_cache import StylesCache
    except ImportError:
        return None
    return StylesCache


STRIP_SLOTS = (
    "_segments",
    "_cell_length",
    "_divide_cache",
    "_crop_cache",
    "_style_cache",
    "_filter_cache",
    "_render_cache",
    "_line_length_cache",
    "_crop_extend_cache",
    "_offsets_cache",
    "_link_ids",
    "_cell_count",
)
"""Textual's ``Strip`` as :func:`lazy_strip_caches` knows it (its ``__slots__``)."""
STRIP_CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""A strip's caches and their sizes, as Textual's ``Strip.__init__`` makes them."""


def lazy_strip_caches() -> bool:
    """Let each of Textual's drawn lines (``Strip``) make its seven caches when it
    first uses one, not when it is made; False (nothing changed) when this
    Textual's ``Strip`` is not the one this knows.

    Textual gives every strip seven small caches (a ``FIFOCache`` and its dict
    each) at once; most strips never use most of them. A session at its board
    keeps some 1,800 strips: 12,500 caches, 1.6 MiB of a session's 5 MiB of its
    own objects, and 14 objects made for every line drawn. Here a strip starts
    without them; the first read of one (``strip._crop_cache``) makes it, the
    same size as Textual's, and it stays for the strip's life, as before."""
    try:
        from textual.cache import FIFOCache
        from textual.strip import Strip
    except ImportError:
        return False
    if getattr(Strip, "_lazy_caches", False):
        return True
    if tuple(getattr(Strip, "__slots__", ())) != STRIP_SLOTS:
        return False

    def __init__(self: Any, segments: Iterable[Any], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    __init__.__doc__ = Strip.__init__.__doc__
    Strip.__init__ = __init__  # type: ignore[method-assign]
    for name, size in STRIP_CACHES.items():
        setattr(Strip, name, _made_when_read(Strip.__dict__[name], size, FIFOCache))
    Strip._lazy_caches = True  # type: ignore[attr-defined]
    return True


def _made_when_read(slot: Any, size: int, cache: type) -> property:
    """A strip's cache ``slot``, made (``cache(size)``) when first read. A property
    rather than a ``__getattr__`` on ``Strip``: with one, Python 3.11 could no
    longer specialize any attribute read of a strip."""

    def read(strip: Any) -> Any:
        try:
            return slot.__get__(strip, None)
        except AttributeError:
            made = cache(size)
            slot.__set__(strip, made)
            return made

    return property(read, slot.__set__, slot.__delete__)


textuals_render_chops: Any = None
"""Textual's own ``Compositor._render_chops``, once :func:`covered_lines_not_divided`
replaced it."""
COVERED_NOT_DRAWN = True
"""Whether a widget of Textual's own drawing that the widgets in front cover
wholly is not drawn for a frame (:func:`_renders`; off: drawn and thrown away,
as Textual does)."""
_DRAWN_PLAINLY: dict[type, bool] = {}
"""By a widget's class: whether it is drawn by Textual's own code alone (its
``render_lines``, ``render_line`` and ``render`` Textual's): drawing it changes
nothing but its own caches of drawn lines."""


def _drawn_plainly(kind: Any) -> bool:
    """:data:`_DRAWN_PLAINLY` for ``kind``, found now and kept."""
    from textual.widget import Widget

    render = getattr(kind, "render", None)
    plain = (
        kind.render_lines is Widget.render_lines
        and kind.render_line is Widget.render_line
        and getattr(render, "__module__", "").startswith("textual.")
    )
    _DRAWN_PLAINLY[kind] = plain
    return plain


def _covered(region: Any, chops: Any, cuts: Any, is_rendered_line: Any) -> bool:
    """Whether every line of ``region`` that is drawn has every piece taken."""
    first_cut, last_cut = region.column_span
    for y in region.line_range:
        if not is_rendered_line(y):
            continue
        get_chops_line = chops[y].get
        for cut in cuts[y]:
            if last_cut > cut >= first_cut and get_chops_line(cut) is None:
                return False
    return True


def _renders(compositor: Any, crop: Any, chops: Any, cuts: Any, is_rendered_line: Any) -> Any:
    """Textual's ``Compositor._get_renders``, front to back, but a widget drawn by
    Textual's own code (:func:`_drawn_plainly`: a container, a screen's background,
    a label...) whose every drawn piece a widget in front already gave, as ``chops``
    has it when its turn comes, is not drawn: every piece of it would be thrown
    away. Its cache of drawn lines is left as it was (it draws what it must when
    it shows)."""
    from textual.geometry import Region

    visible_widgets = compositor.visible_widgets
    if crop:
        crop_overlaps = crop.overlaps
        widget_regions = [
            (widget, region, clip)
            for widget, (region, clip) in visible_widgets.items()
            if crop_overlaps(clip)
        ]
    else:
        widget_regions = [
            (widget, region, clip) for widget, (region, clip) in visible_widgets.items()
        ]
    intersection = Region.intersection
    contains_region = Region.contains_region
    for widget, region, clip in widget_regions:
        if contains_region(clip, region):
            lines = Region(0, 0, region.width, region.height)
        else:
            new_x, new_y, new_width, new_height = intersection(region, clip)
            if not (new_width and new_height):
                continue
            lines = Region(new_x - region.x, new_y - region.y, new_width, new_height)
        kind = type(widget)
        plain = _DRAWN_PLAINLY.get(kind)
        if plain is None:
            plain = _drawn_plainly(kind)
        if plain and _covered(intersection(region, clip), chops, cuts, is_rendered_line):
            continue
        yield region, clip, widget.render_lines(lines)


def covered_lines_not_divided() -> bool:
    """Let the compositor skip cutting a widget's line into pieces where every piece
    of it is already covered by the widgets in front; False (nothing changed) when
    this Textual composes its frames otherwise.

    Textual's ``_render_chops`` goes through the widgets front to back and, for each
    line of each, cuts the line at every widget edge in that row of the screen
    (``Strip.divide``, Rich's ``Segment.divide``: 4,600 a login, issue 33), then
    keeps each piece only where no widget in front has given one. A container's
    or a screen's line under its children is cut and thrown away whole. Here a
    line whose every place is taken already is passed over: the pieces kept, and
    so every frame, are the same. Textual's code otherwise, line for line."""
    try:
        from textual._compositor import Compositor
        from textual.geometry import Region
    except ImportError:
        return False
    if getattr(Compositor, "_covered_lines_not_divided", False):
        return True
    textuals = Compositor.__dict__.get("_render_chops")
    if not callable(textuals):
        return False
    names = set(textuals.__code__.co_names)
    if not {"cuts", "fromkeys", "_get_renders", "intersection", "divide", "line_range"} <= names:
        return False  # a Textual that composes otherwise
    fromkeys = dict.fromkeys
    intersection = Region.intersection

    def _render_chops(self: Any, crop: Any, is_rendered_line: Any) -> Any:
        cuts = self.cuts
        chops = [fromkeys(cut_set[:-1]) for cut_set in cuts]
        if type(self)._get_renders is textuals_get_renders and COVERED_NOT_DRAWN:
            renders = _renders(self, crop, chops, cuts, is_rendered_line)
        else:
            renders = self._get_renders(crop)
        for region, clip, strips in renders:
            render_region = intersection(region, clip)
            render_x = render_region.x
            first_cut, last_cut = render_region.column_span

            for y, strip in zip(render_region.line_range, strips, strict=False):
                if not is_rendered_line(y):
                    continue

                chops_line = chops[y]
                final_cuts = [cut for cut in cuts[y] if (last_cut >= cut >= first_cut)]
                get_chops_line = chops_line.get
                for cut in final_cuts[:-1]:
                    if get_chops_line(cut) is None:
                        break
                else:
                    continue  # every piece already taken by a widget in front
                cut_strips = strip.divide([cut - render_x for cut in final_cuts[1:]])
                for cut, piece in zip(final_cuts, cut_strips, strict=False):
                    if get_chops_line(cut) is None:
                        chops_line[cut] = piece
        return chops

    textuals_get_renders = Compositor.__dict__.get("_get_renders")
    if not callable(textuals_get_renders) or not {
        "visible_widgets",
        "overlaps",
        "contains_region",
        "intersection",
        "render_lines",
    } <= set(textuals_get_renders.__code__.co_names):
        return False

    global textuals_render_chops
    textuals_render_chops = textuals
    _render_chops.__doc__ = textuals.__doc__
    Compositor._render_chops = _render_chops  # type: ignore[method-assign]
    Compositor._covered_lines_not_divided = True  # type: ignore[attr-defined]
    return True
