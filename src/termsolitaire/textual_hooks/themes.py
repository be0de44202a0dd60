"""The app's themes: a theme found in Textual's registry itself, the ANSI theme a
line is drawn with read where Textual keeps it.
"""

from __future__ import annotations

from typing import Any

from ._shared import _MISSING
from .reactives import reactive_reads

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.app", "App", "get_theme"),
    ("textual.app", "App", "_registered_themes"),
    ("textual.app", "App", "ansi_theme"),
    ("textual.app", "App", "current_theme"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


def themes_read_in_place() -> bool:
    """Let Textual find a theme by its name in its registry itself, not in a copy
    of it; False (nothing changed) when this Textual keeps its themes elsewhere.

    Textual's ``get_theme`` looks each name up in ``available_themes``, a property
    that copies the registry (some twenty themes) at every read, twice a call; and
    every line Textual draws asks for the current theme (``ansi_theme``): 1,400
    calls a login (issue 33). An app whose class gives ``available_themes`` a
    meaning of its own is left to Textual's."""
    try:
        from textual.app import App
    except ImportError:
        return False
    if getattr(App, "_themes_in_place", False):
        return True
    textuals_get_theme = App.__dict__.get("get_theme")
    textuals_available = App.__dict__.get("available_themes")
    if not callable(textuals_get_theme) or not isinstance(textuals_available, property):
        return False

    def get_theme(self: Any, theme_name: str) -> Any:
        themes = getattr(self, "_registered_themes", None)
        if type(themes) is not dict or type(self).available_themes is not textuals_available:
            return textuals_get_theme(self, theme_name)
        for name in theme_name.split(","):
            theme = themes.get(name.strip())
            if theme is not None:
                return theme
        return None

    get_theme.__doc__ = textuals_get_theme.__doc__
    App.get_theme = get_theme  # type: ignore[method-assign]
    App._themes_in_place = True  # type: ignore[attr-defined]
    return True


textuals_ansi_theme: Any = None
"""Textual's own ``App.ansi_theme`` property, once :func:`ansi_theme_direct`
replaced it."""
_THEMES_PLAIN: dict[type, bool] = {}
"""By an app's class: whether it reads its theme as Textual's ``App`` does (its
``current_theme``, ``get_theme`` and theme reactives Textual's, or these hooks'
equivalents, and no compute method for them)."""


_ONE_NAME: dict[str, bool] = {}
"""By a theme's name: whether ``get_theme`` looks it up as it is (no comma, no
spaces around it)."""


def _themes_plain(kind: Any, current: Any, reactive: Any) -> bool:
    """:data:`_THEMES_PLAIN` for ``kind``, found now and kept."""
    from inspect import getattr_static

    from textual.app import App

    python: Any = object
    plain = (
        getattr_static(kind, "current_theme", None) is current
        and getattr_static(kind, "get_theme", None) is App.__dict__.get("get_theme")
        and getattr(App, "_themes_in_place", False)
        and kind.__getattribute__ is python.__getattribute__
    )
    for name in ("theme", "ansi_theme_dark", "ansi_theme_light"):
        descriptor = getattr_static(kind, name, None)
        plain = (
            plain and type(descriptor) is reactive and not hasattr(kind, descriptor.compute_name)
        )
    _THEMES_PLAIN[kind] = plain
    return plain


def ansi_theme_direct() -> bool:
    """Let an app answer which ANSI theme it draws with by reading its theme's name,
    the theme and the two ANSI themes where Textual keeps them; False (nothing
    changed) when this Textual keeps them otherwise.

    Every line Textual draws asks ``App.ansi_theme`` (1,200 lines a login, issue
    33): a property that reads ``current_theme``, another property, which reads
    the ``theme`` reactive and calls ``get_theme`` (its name split at commas), and
    then one of two more reactives: six Python calls for what three dict reads
    give. A name that is not one registered theme (a list of names, spaces, none
    found: Textual then falls back), a value not set yet, or an app class that
    changes any of it is Textual's."""
    try:
        from textual.app import App
        from textual.reactive import Reactive
    except ImportError:
        return False
    if getattr(App, "_ansi_theme_direct", False):
        return True
    textuals = App.__dict__.get("ansi_theme")
    current = App.__dict__.get("current_theme")
    if not isinstance(textuals, property) or not isinstance(current, property):
        return False
    if not themes_read_in_place() or not reactive_reads():
        return False
    for name in ("theme", "ansi_theme_dark", "ansi_theme_light"):
        if type(App.__dict__.get(name)) is not Reactive:
            return False
    fallback: Any = textuals.fget

    def ansi_theme(self: Any) -> Any:
        kind = type(self)
        plain = _THEMES_PLAIN.get(kind)
        if plain is None:
            plain = _themes_plain(kind, current, Reactive)
        values = self.__dict__
        themes = values.get("_registered_themes")
        name = values.get("_reactive_theme")
        if plain and type(themes) is dict and type(name) is str:
            one = _ONE_NAME.get(name)
            if one is None:
                one = _ONE_NAME[name] = "," not in name and name == name.strip()
            theme = themes.get(name) if one else None
            if theme is not None:
                dark = values.get("_reactive_ansi_theme_dark", _MISSING)
                light = values.get("_reactive_ansi_theme_light", _MISSING)
                if dark is not _MISSING and light is not _MISSING:
                    return dark if theme.dark else light
        return fallback(self)

    global textuals_ansi_theme
    textuals_ansi_theme = textuals
    ansi_theme.__doc__ = fallback.__doc__
    App.ansi_theme = property(ansi_theme)  # type: ignore[assignment,method-assign]
    App._ansi_theme_direct = True  # type: ignore[attr-defined]
    return True
