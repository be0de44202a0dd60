"""Every private part of Textual this program reaches into, in one package.

Textual's public API does not cover a few things a terminal game needs (binding
a key at run time, a key typed ahead, mouse reporting switched while the app
runs, the terminal's size as the driver reads it, its Linux driver's input
loop, signal handlers and writer), and some of what every login runs costs far
more in Textual than it must (issue 33). Each hook is used through a function
with a fallback for when Textual renames what it reaches (the feature degrades,
nothing crashes); :data:`HOOKS` lists every private name they use, each module
its own, and ``tests/test_textual_hooks.py`` fails when one is gone from the
installed Textual, so an upgrade is noticed at once. All are checked against
Textual 8.2 (8.2.8 installed; pyproject.toml keeps Textual at ``>=8.2,<9``).

A module for each part of Textual the hooks touch. The ``*_once``,
``*_without_*`` and similar functions install a hook: the app calls each once
at import (:mod:`termsolitaire.app`), each answers whether it is in place, and
most keep Textual's own function as ``textuals_...`` on their module. The others
are called where they are needed. After each, the file that tests it:

:mod:`.driver`, the terminal and its keys
    :func:`key_bindings` (``DOMNode._bindings``: a key typed ahead;
    ``tests/screens/test_typeahead.py``); :func:`bind_key` (``BindingsMap.bind``:
    a dialog's answers; ``tests/screens/test_dialogs.py``); :func:`set_mouse`
    (the driver's mouse support, switched from the settings: no test but the
    names'); :func:`terminal_size` (``LinuxDriver._get_terminal_size``;
    ``tests/test_driver_signals.py``).
:mod:`.screens`, screens and mounts
    :func:`refresh_covered`, :func:`covered` (a screen's refresh under an opaque
    one; ``tests/screens/test_painted_once.py``); :func:`first_layout_paints_now`,
    :func:`hide_toast_rack`, :func:`forget_refresh_requests`, :func:`message_clock`,
    :func:`mounting`, :func:`mounted` (a screen laid out and painted once;
    ``tests/screens/test_laid_out_once.py``); :func:`extras_when_needed`
    (``Screen._extend_compose``, ``_handle_mouse_move``,
    ``App._refresh_notifications``; ``tests/screens/test_extras_when_needed.py``);
    :func:`read_screen_css` (``App._load_screen_css`` from
    ``MessagePump._start_messages``: a screen styled with its own CSS under
    Python 3.12+'s eager tasks; ``tests/serve/test_play.py`` on 3.12/3.13).
:mod:`.stylesheet`, the stylesheet
    :class:`SharedStylesheet` through :func:`shared_stylesheet` (``Stylesheet``'s
    ``parse``, ``reparse``, ``_parse_rules`` and ``apply``: once per process;
    ``tests/test_styles_matched_once.py``, ``tests/serve/test_warmup.py``);
    :func:`set_fresh`, :func:`restyle` (``replace_rules`` for a place already
    matched; ``tests/test_textual_hooks_restyle.py``; the switch
    ``stylesheet.RESTYLE_UNCHANGED``).
:mod:`.style_properties`, style descriptors
    :func:`scrollbar_colours_without_import` (``ScrollbarColorProperty.__set__``;
    ``tests/test_screen_lookup.py``); :func:`borders_read_at_once`
    (``BorderProperty.__get__``; ``tests/test_borders_at_once.py``).
:mod:`.drawing`, drawing and the compositor
    :func:`lazy_strip_caches` (``Strip.__init__`` and its seven caches;
    ``tests/test_textual_hooks.py``); :func:`covered_lines_not_divided`
    (``Compositor._render_chops``; ``tests/test_textual_hooks_chops.py``; the
    switch ``drawing.COVERED_NOT_DRAWN``); :func:`styles_cache_class` (the warm
    process lets go of the lines its rehearsal drew: run by
    ``tests/serve/test_warmup.py``, not checked).
:mod:`.messages`, the message pump
    :func:`dispatch_once` (``MessagePump._get_dispatch_methods``;
    ``tests/test_dispatch_once.py``); :func:`unheard_events_not_logged`
    (``textual.message_pump.log``; ``tests/test_unheard_events.py``);
    :func:`prevent_without_generator` (``MessagePump.prevent``;
    ``tests/test_prevent_plain.py``); :func:`message_hook_found_without_exception`
    (``textual._context.message_hook``; ``tests/test_lookups_without_exceptions.py``);
    :func:`cache_misses_without_exceptions` (``FIFOCache.get``,
    ``MessagePump._peek_message``; ``tests/test_misses_without_exceptions.py``).
:mod:`.callbacks`, calling a callback
    :func:`parameters_once` with :func:`count_parameters`
    (``textual._callback.count_parameters``; ``tests/test_parameter_counts.py``);
    :func:`none_is_not_awaited` (``isawaitable`` in ``textual._callback`` and
    ``textual.reactive``; ``tests/test_misses_without_exceptions.py``).
:mod:`.reactives`, reactive attributes
    :func:`reactive_reads` (``Reactive.__get__``; ``tests/test_reactive_reads.py``);
    :func:`reactives_set_at_once` (``Reactive._initialize_object``;
    ``tests/test_textual_hooks_reactives.py``).
:mod:`.themes`, the app's themes
    :func:`themes_read_in_place` (``App.get_theme``; ``tests/test_themes_in_place.py``);
    :func:`ansi_theme_direct` (``App.ansi_theme``;
    ``tests/test_textual_hooks_ansi_theme.py``).
:mod:`.dom`, nodes
    :func:`screen_lookup_without_import` (``DOMNode.screen``;
    ``tests/test_screen_lookup.py``); :func:`region_without_exceptions`
    (``Widget.region``; ``tests/test_lookups_without_exceptions.py``);
    :func:`auto_focus_without_query` (``Screen._update_auto_focus``;
    ``tests/test_textual_hooks_auto_focus.py``).

What changes after import is read and set on its module, never here (a name
here is a copy made at import): the switches ``stylesheet.RESTYLE_UNCHANGED``
and ``drawing.COVERED_NOT_DRAWN``, Textual's own functions (``textuals_...``),
and a function a test replaces (``stylesheet.set_fresh``).
"""

from __future__ import annotations

from . import (
    callbacks,
    dom,
    drawing,
    driver,
    messages,
    reactives,
    screens,
    style_properties,
    stylesheet,
    themes,
)
from .callbacks import count_parameters, none_is_not_awaited, parameters_once
from .dom import auto_focus_without_query, region_without_exceptions, screen_lookup_without_import
from .drawing import (
    STRIP_CACHES,
    STRIP_SLOTS,
    covered_lines_not_divided,
    lazy_strip_caches,
    styles_cache_class,
)
from .driver import bind_key, key_bindings, set_mouse, terminal_size
from .messages import (
    cache_misses_without_exceptions,
    dispatch_once,
    message_hook_found_without_exception,
    prevent_without_generator,
    unheard_events_not_logged,
)
from .reactives import reactive_reads, reactives_set_at_once
from .screens import (
    covered,
    extras_when_needed,
    first_layout_paints_now,
    forget_refresh_requests,
    hide_toast_rack,
    message_clock,
    mounted,
    mounting,
    read_screen_css,
    refresh_covered,
)
from .style_properties import borders_read_at_once, scrollbar_colours_without_import
from .stylesheet import SharedStylesheet, restyle, set_fresh, shared_stylesheet
from .themes import ansi_theme_direct, themes_read_in_place

HOOKS: tuple[tuple[str, str, str], ...] = (
    driver.HOOKS
    + stylesheet.HOOKS
    + messages.HOOKS
    + callbacks.HOOKS
    + drawing.HOOKS
    + screens.HOOKS
    + reactives.HOOKS
    + themes.HOOKS
    + dom.HOOKS
    + style_properties.HOOKS
)
"""(module, class, attribute): every private name used, each module's own. An
attribute set in ``__init__`` (not on the class) is checked on an instance by the
test."""

__all__ = [
    "HOOKS",
    "STRIP_CACHES",
    "STRIP_SLOTS",
    "SharedStylesheet",
    "ansi_theme_direct",
    "auto_focus_without_query",
    "bind_key",
    "borders_read_at_once",
    "cache_misses_without_exceptions",
    "count_parameters",
    "covered",
    "covered_lines_not_divided",
    "dispatch_once",
    "extras_when_needed",
    "first_layout_paints_now",
    "forget_refresh_requests",
    "hide_toast_rack",
    "key_bindings",
    "lazy_strip_caches",
    "message_clock",
    "message_hook_found_without_exception",
    "mounted",
    "mounting",
    "none_is_not_awaited",
    "parameters_once",
    "prevent_without_generator",
    "reactive_reads",
    "reactives_set_at_once",
    "read_screen_css",
    "refresh_covered",
    "region_without_exceptions",
    "restyle",
    "screen_lookup_without_import",
    "scrollbar_colours_without_import",
    "set_fresh",
    "set_mouse",
    "shared_stylesheet",
    "styles_cache_class",
    "terminal_size",
    "themes_read_in_place",
    "unheard_events_not_logged",
]
