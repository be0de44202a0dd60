"""Every private part of Textual this program reaches into, in one place.

Textual's public API does not cover a few things a terminal game needs: binding
a key at run time (a dialog's answers), running a screen's binding for a key
that arrived before its widget had focus (typed ahead), switching mouse
reporting on and off while the app runs, the terminal's size as the driver
reads it, its Linux driver's input loop, signal handlers and writer, and the
stylesheet's parsing and matching (kept for the whole process:
:class:`SharedStylesheet`).

Each hook is used through a function here with a fallback for when Textual
renames it (the feature degrades, nothing crashes), and :data:`HOOKS` lists
them all: ``tests/test_textual_hooks.py`` fails when one is gone from the
installed Textual, so an upgrade is noticed at once (pyproject.toml also keeps
Textual below its next major version).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from functools import partial
from types import FunctionType, MethodType
from typing import Any

from textual.css.model import CombinatorType, SelectorType
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.dom", "DOMNode", "_bindings"),
    ("textual.binding", "BindingsMap", "key_to_bindings"),
    ("textual.binding", "BindingsMap", "bind"),
    ("textual.app", "App", "_driver"),
    ("textual.app", "App", "_on_key"),
    ("textual.app", "App", "_on_resize"),
    ("textual.driver", "Driver", "_mouse"),
    ("textual.driver", "Driver", "_app"),
    ("textual.driver", "Driver", "_loop"),
    ("textual.driver", "Driver", "_debug"),
    ("textual.driver", "Driver", "_auto_restart"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_get_terminal_size"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_enable_mouse_support"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_disable_mouse_support"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_sigcont_application"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_sigtstp_application"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_must_signal_resume"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_file"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_writer_thread"),
    ("textual.drivers.linux_driver", "LinuxDriver", "exit_event"),
    ("textual.drivers.linux_driver", "LinuxDriver", "run_input_thread"),
    ("textual._xterm_parser", "XTermParser", "feed"),
    ("textual._xterm_parser", "XTermParser", "tick"),
    ("textual.css.stylesheet", "Stylesheet", "_parse_rules"),
    ("textual.css.stylesheet", "Stylesheet", "_variables"),
    ("textual.css.stylesheet", "Stylesheet", "_invalid_css"),
    ("textual.css.stylesheet", "Stylesheet", "_rules"),
    ("textual.css.stylesheet", "Stylesheet", "_rules_map"),
    ("textual.css.stylesheet", "Stylesheet", "_require_parse"),
    ("textual.css.stylesheet", "Stylesheet", "_process_component_classes"),
    ("textual.css.stylesheet", "Stylesheet", "_EXCLUDE_PSEUDO_CLASSES_FROM_CACHE"),
    ("textual.dom", "DOMNode", "_selector_names"),
    ("textual.dom", "DOMNode", "_id"),
    ("textual.dom", "DOMNode", "_classes"),
    ("textual.dom", "DOMNode", "_has_hover_style"),
    ("textual.dom", "DOMNode", "_has_focus_within"),
    ("textual.dom", "DOMNode", "_has_order_style"),
    ("textual.dom", "DOMNode", "_has_odd_or_even"),
    ("textual.dom", "DOMNode", "_is_mounted"),
    ("textual.css.styles", "Styles", "_rules"),
    ("textual.message_pump", "MessagePump", "_get_dispatch_methods"),
    ("textual.message_pump", "MessagePump", "_decorated_handlers"),
    ("textual.message", "Message", "_no_default_action"),
    ("textual.message", "Message", "_sender"),
    ("textual._callback", "count_parameters", "__call__"),
    ("textual.reactive", "count_parameters", "__call__"),
    ("textual.css.styles", "Styles", "_updates"),
    ("textual._styles_cache", "StylesCache", "get_inner_outer"),
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
    ("textual.strip", "Strip", "__slots__"),
    ("textual.cache", "FIFOCache", "__init__"),
    ("textual.screen", "Screen", "_extend_compose"),
    ("textual.screen", "Screen", "_handle_mouse_move"),
    ("textual.app", "App", "_refresh_notifications"),
    ("textual.app", "App", "_disable_tooltips"),
    ("textual.app", "App", "_disable_notifications"),
    ("textual.dom", "DOMNode", "_nodes"),
    ("textual.message_pump", "MessagePump", "_closing"),
    ("textual.reactive", "Reactive", "__get__"),
    ("textual.app", "App", "get_theme"),
    ("textual.app", "App", "_registered_themes"),
    ("textual.dom", "DOMNode", "screen"),
    ("textual.dom", "NoScreen", "__init__"),
    ("textual.css._style_properties", "ScrollbarColorProperty", "__set__"),
    ("textual.css._style_properties", "ColorProperty", "__set__"),
    ("textual.css._style_properties", "BorderProperty", "__get__"),
    ("textual.css._style_properties", "BorderProperty", "_properties"),
    ("textual.css._style_properties", "BoxProperty", "_default_color"),
    ("textual.css.styles", "RenderStyles", "_inline_styles"),
    ("textual.css.styles", "RenderStyles", "_base_styles"),
    ("textual", "message_pump", "log"),
    ("textual", "_context", "active_app"),
    ("textual", "constants", "LOG_FILE"),
    ("textual.app", "App", "_is_devtools_connected"),
    ("textual.message_pump", "MessagePump", "prevent"),
    ("textual.message_pump", "MessagePump", "_prevent_message_types_stack"),
    ("textual", "_context", "message_hook"),
    ("textual.message_pump", "MessagePump", "_MessagePump__parent"),
    ("textual.cache", "FIFOCache", "_cache"),
    ("textual.message_pump", "MessagePump", "_peek_message"),
    ("textual.message_pump", "MessagePump", "_pending_message"),
    ("textual.message_pump", "MessagePump", "_closed"),
    ("textual._queue", "Queue", "values"),
    ("textual", "_callback", "isawaitable"),
    ("textual", "reactive", "isawaitable"),
    ("textual", "app", "message_hook_context_var"),
    ("textual", "message_pump", "message_hook_context_var"),
    ("textual.reactive", "Reactive", "_initialize_object"),
    ("textual.reactive", "Reactive", "_initialize_reactive"),
    ("textual.reactive", "Reactive", "_init"),
    ("textual.reactive", "Reactive", "_default"),
    ("textual.reactive", "Reactive", "_toggle_class"),
    ("textual.dom", "DOMNode", "_reactives"),
    ("textual.app", "App", "ansi_theme"),
    ("textual.app", "App", "current_theme"),
    ("textual.screen", "Screen", "_update_auto_focus"),
    ("textual.screen", "Screen", "AUTO_FOCUS"),
    ("textual.app", "App", "AUTO_FOCUS"),
    ("textual._compositor", "Compositor", "_render_chops"),
    ("textual._compositor", "Compositor", "_get_renders"),
    ("textual._compositor", "Compositor", "cuts"),
)
"""(module, class, attribute): every private name used. An attribute set in
``__init__`` (not on the class) is checked on an instance by the test."""


def key_bindings(node: Any, key: str) -> Iterable[Any]:
    """The bindings ``node`` has for ``key`` (its own, as Textual resolved them);
    from its ``BINDINGS`` list when Textual's map is gone."""
    found = getattr(getattr(node, "_bindings", None), "key_to_bindings", None)
    if isinstance(found, dict):
        return tuple(found.get(key, ()))
    from textual.binding import Binding

    return tuple(
        b
        for b in getattr(node, "BINDINGS", ())
        if isinstance(b, Binding) and key in (k.strip() for k in b.key.split(","))
    )


def bind_key(screen: Any, key: str, action: str) -> bool:
    """Bind ``key`` to ``action`` on ``screen`` at run time (a dialog's answers);
    False when Textual no longer lets it (the dialog's buttons still answer)."""
    bind = getattr(getattr(screen, "_bindings", None), "bind", None)
    if bind is None:
        return False
    bind(key, action, show=False)
    return True


def set_mouse(app: Any, on: bool) -> bool:
    """Switch the terminal's mouse reporting now; False when the driver cannot
    (the setting then takes effect at the next start)."""
    driver = getattr(app, "_driver", None)
    enable = getattr(driver, "_enable_mouse_support", None)
    disable = getattr(driver, "_disable_mouse_support", None)
    if driver is None or enable is None or disable is None or not hasattr(driver, "_mouse"):
        return False
    if on:
        driver._mouse = True
        enable()
    else:
        disable()
        driver._mouse = False
    return True


def terminal_size(driver: Any) -> tuple[int, int]:
    """The terminal's size as the driver reads it (else as the OS says)."""
    read = getattr(driver, "_get_terminal_size", None)
    if read is not None:
        width, height = read()
        return int(width), int(height)
    size = shutil.get_terminal_size()
    return size.columns, size.lines


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


def styles_cache_class() -> type | None:
    """Textual's per-widget cache of drawn lines (None when this Textual has none)."""
    try:
        from textual._styles_cache import StylesCache
    except ImportError:
        return None
    return StylesCache


_PARSED: dict[tuple[Any, ...], list[Any]] = {}
"""Rule sets parsed from a CSS source, for the whole process: by the source, where
it was read from, its kind, its scope and the variables (the theme) it was read
with (their number). Textual parses its rule sets once and only reads them
afterwards."""
_SHEETS: dict[tuple[Any, ...], tuple[list[Any], dict[str, list[Any]]]] = {}
"""What a whole stylesheet parses to (its rule sets, and their map by selector),
by its variables' number and all its sources (where each was read from, its text,
kind, tie breaker and scope, in order)."""
_THEMES: dict[tuple[tuple[str, str], ...], int] = {}
"""A number for each set of CSS variables (a theme, as the app gives it)."""
_VARIABLES: dict[int, tuple[int, dict[str, str]]] = {}
"""By the identity of a stylesheet's variables: their number in :data:`_THEMES`
(and the variables, so the identity stays theirs). Textual gives a stylesheet a
new dict when the variables change (``set_variables``), never changes one."""


def _theme_number(variables: dict[str, str]) -> int:
    """The number of ``variables`` in :data:`_THEMES`."""
    known = _VARIABLES.get(id(variables))
    if known is None:
        items = tuple(sorted(variables.items()))
        number = _THEMES.setdefault(items, len(_THEMES))
        if len(_VARIABLES) >= _MATCHED_MOST:
            _VARIABLES.clear()
        known = _VARIABLES[id(variables)] = (number, variables)
    return known[0]


class SharedStylesheet(Stylesheet):
    """Textual's stylesheet, parsing each source once per process, and matching a
    node's place against its rules once per process.

    Textual reads every source again whenever one is added (a screen's ``.tcss``
    the first time the screen is shown, a widget's ``DEFAULT_CSS`` the first time
    one is mounted) or the theme changes: ``reparse`` starts from a new
    stylesheet whose parse cache is empty. Reaching a board from the lobby
    parsed the whole of the CSS three times, a sixth of the screens' cost
    (issue 33). Here a source read with the same variables is parsed once, by
    the first app of the process (a session forked from the warm process, the
    tests).

    Textual also matches every node it styles against every rule that may apply
    to it, each time (a node as it mounts, a screen's every node at its first
    resume, each part of a widget, ``Button--label``, as a node of its own): a
    fifth of building a screen, where a login styles some 280 nodes in a few
    dozen places. :meth:`apply` keeps what it found for each place
    (:data:`_MATCHED`), the warm process's rehearsal finds them all, and a
    forked session only sets them."""

    def _theme(self) -> int:
        """The number of this stylesheet's variables (:func:`_theme_number`)."""
        return _theme_number(self._variables)

    def _parse_rules(
        self,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[Any]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._theme())
        rules = _PARSED.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _PARSED[key] = rules
        return rules

    def _sheet_key(self) -> tuple[Any, ...] | None:
        """The key of what this stylesheet's sources parse to in :data:`_SHEETS`; None
        when a source was found invalid (Textual then leaves it out)."""
        if self._invalid_css:
            return None
        return (self._theme(), tuple(self.source.items()))

    def parse(self) -> None:
        """Textual's ``parse``, once per process for the same sources read with the
        same variables: a second app, or a screen whose CSS another app has read,
        takes the rule sets (and their map by selector) the first one made."""
        key = self._sheet_key()
        known = _SHEETS.get(key) if key is not None else None
        if known is None:
            super().parse()
            if key is not None:
                if len(_SHEETS) >= _MATCHED_MOST:
                    _SHEETS.clear()
                known = _SHEETS[key] = (self._rules, self.rules_map)
            return
        self._rules, self._rules_map = known
        self._require_parse = False

    def reparse(self) -> None:
        """Textual's ``reparse``, through a stylesheet of this class (so that what
        was parsed is not parsed again)."""
        key = self._sheet_key()
        known = _SHEETS.get(key) if key is not None else None
        if known is not None:
            self._rules, self._rules_map = known
            self._require_parse = False
            return
        fresh = type(self)(variables=self._variables)
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            fresh.add_source(
                css,
                read_from=read_from,
                is_default_css=is_defaults,
                tie_breaker=tie_breaker,
                scope=scope,
            )
        try:
            fresh.parse()
        except Exception:
            self._invalid_css.update(fresh._invalid_css)
            raise
        self._rules = fresh.rules
        self._rules_map = fresh._rules_map
        self.source = fresh.source
        self._require_parse = False

    _rules_seen: list[Any] | None = None
    _rules_number = -1
    _ids: frozenset[str] = frozenset()

    def apply(
        self,
        node: DOMNode,
        *,
        animate: bool = False,
        cache: dict[tuple[Any, ...], Any] | None = None,
    ) -> None:
        """Textual's ``apply``, with the rules a node matches found once per process
        for each place a node can be in (:data:`_MATCHED`)."""
        rules = self.rules
        if rules is not self._rules_seen:
            self._rules_seen = rules
            self._rules_number, self._ids = _rules_number(rules)
        try:
            ids = self._ids
            own = (
                self._rules_number,
                type(node),
                node._id if node._id in ids else None,
                frozenset(node._classes),
            )
            kind = _KINDS.get(own)
            if kind is None:
                kind = _KINDS[own] = self._kind(node)
            key = _place(own, kind, node, ids)
            flags = kind[2]
        except Exception:  # a Textual this does not know: Textual's own apply
            key = None
        if key is None:
            super().apply(node, animate=animate, cache=cache)
            return
        found = _MATCHED.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            # Textual's, with a cache of its own: Textual puts the rules it found
            # there (nothing when it found none).
            made: dict[tuple[Any, ...], Any] = {}
            super().apply(node, animate=animate, cache=made)
            if len(_MATCHED) >= _MATCHED_MOST:
                _MATCHED.clear()
            found = _MATCHED[key] = next(iter(made.values()), None)
            if found is not None:
                _set_as(found)
            return
        # What Textual's apply does with the rules it found in its own cache.
        (
            node._has_hover_style,
            node._has_focus_within,
            node._has_order_style,
            node._has_odd_or_even,
        ) = flags
        if found is not None and not (
            restyle(node, found, animate)
            if animate or getattr(node, "_is_mounted", True)
            else set_fresh(node, found) or restyle(node, found)
        ):
            self.replace_rules(node, found, animate=animate)
        self._process_component_classes(node)

    def _kind(self, node: DOMNode) -> _Kind:
        """The pseudo-classes read by the rules ``node`` may match (Textual's
        candidates: by its type names, classes and id): of the node itself, of the
        nodes above it, None for both when Textual never caches what such rules give
        (pseudo-classes that depend on the node's siblings); and the flags Textual
        sets on the node from them."""
        rules_map = self.rules_map
        every: set[str] = set()
        mine: set[str] = set()
        theirs: set[str] = set()
        for name in rules_map.keys() & node._selector_names:
            for rule in rules_map[name]:
                every.update(rule.pseudo_classes)
                of_node, above = _rule_pseudo(rule)
                mine.update(of_node)
                theirs.update(above)
        flags = (
            "hover" in every,
            "focus-within" in every,
            not every.isdisjoint(
                {"first-of-type", "last-of-type", "first-child", "last-child", "empty"}
            ),
            "odd" in every or "even" in every,
        )
        if not every.isdisjoint(self._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE):
            return None, None, flags
        return tuple(sorted(mine)), tuple(sorted(theirs)), flags


_Kind = tuple[tuple[str, ...] | None, tuple[str, ...] | None, tuple[bool, bool, bool, bool]]
"""What :meth:`SharedStylesheet._kind` says of a node."""
_UNKNOWN: Any = object()
_RULES_NUMBERS: dict[tuple[int, ...], tuple[int, frozenset[str], list[Any]]] = {}
"""A number for each list of rule sets a stylesheet has had, by the identities of
its rule sets, and the ids they name (the list kept, so that those identities
stay theirs)."""
_KINDS: dict[tuple[Any, ...], _Kind] = {}
"""By a list of rules' number and a node's type, id and classes: its :data:`_Kind`."""
_MATCHED: dict[tuple[Any, ...], Any] = {}
"""The rules a node is given (what Textual's ``apply`` found, None for none), by
everything Textual's matching reads: the stylesheet's rules (their number), and
for the node and each node above it, its type (its type names in the CSS), id,
classes and the pseudo-classes the rules it may match read (its focus, hover,
disabled state, the theme's darkness...). Filled by the warm process's rehearsal
of a login (:mod:`termsolitaire.serve.warmup`), it answers for every session
forked from it: styling a node is then Textual's ``replace_rules`` alone.

A stylesheet read again (a new screen's CSS, another theme, four colours or
ASCII cards) has new rules, a new number, and so finds what it finds afresh."""
_MATCHED_MOST = 20_000
"""Past this many places, :data:`_MATCHED` starts again (a bound, never reached by
a session: a login and every board are some 500)."""


_PLAIN_PROPERTIES: tuple[str, ...] = (
    "StringEnumProperty",
    "BooleanProperty",
    "ColorProperty",
    "StyleFlagsProperty",
    "FractionalProperty",
    "SpacingProperty",
    "OffsetProperty",
    "BoxProperty",
    "KeylineProperty",
    "ScalarProperty",
    "DockProperty",
    "SplitProperty",
    "NameListProperty",
    "NameProperty",
    "IntegerProperty",
    "ScalarListProperty",
)
"""Textual's style descriptors that, setting a rule of a node not yet mounted, only
store a value (Textual's ``set_rule``; their refresh does nothing before the
mount). ``ScrollbarColorProperty`` does too unless the node shows a scrollbar
(it refreshes it). ``OverflowProperty`` refreshes the scrollbars, and a
``StringEnumProperty`` for ``display`` updates the parent's list of shown
children, for ``pointer`` the screen's pointer: those are set through the
descriptor, as Textual does. So is ``layout``: its descriptor gives each node a
layout object of its own, which Textual's grid layout keeps figures in."""
_PLAIN: dict[str, int] = {}
"""By a rule's name: 1 when its descriptor is one of :data:`_PLAIN_PROPERTIES`, 2
for a scrollbar's colour, 0 for the others."""
_SetAs = tuple[dict[str, Any], tuple[tuple[str, Any], ...], Any]
_SET_AS: dict[tuple[int, bool], _SetAs] = {}
"""By the identity of a rules map in :data:`_MATCHED` and whether the node shows a
scrollbar: what Textual's descriptors store for its plain rules (a descriptor
may convert a value: a border ``none`` to ``""``, a width in % to one in
``w``), the other rules, and the map itself (so that the identity stays its)."""


def _plain(name: str) -> int:
    """:data:`_PLAIN` for ``name``."""
    plain = _PLAIN.get(name)
    if plain is None:
        from textual.css.styles import Styles

        descriptor = next((k.__dict__[name] for k in Styles.__mro__ if name in k.__dict__), None)
        kind = type(descriptor).__name__
        if kind == "ScrollbarColorProperty":
            plain = 2
        else:
            plain = int(
                kind in _PLAIN_PROPERTIES
                and not getattr(descriptor, "_display", False)
                and not getattr(descriptor, "_pointer", False)
            )
        _PLAIN[name] = plain
    return plain


def _set_as(rules: Any, scrollbars: bool = False) -> _SetAs:
    """What :data:`_SET_AS` keeps for ``rules``, found now and kept (in the warm
    process, as it finds the rules)."""
    from textual.css.styles import Styles

    scratch = Styles()
    others = []
    most = 1 if scrollbars else 2
    for name, value in rules.items():
        if 0 < _plain(name) <= most:
            setattr(scratch, name, value)
        else:
            others.append((name, value))
    if len(_SET_AS) >= _MATCHED_MOST:
        _SET_AS.clear()
    known = _SET_AS[id(rules), scrollbars] = (dict(scratch._rules), tuple(others), rules)
    return known


def set_fresh(node: DOMNode, rules: Any) -> bool:
    """Give ``node``, not mounted and with no rules from a stylesheet yet, the rules
    ``rules`` (a map of :data:`_MATCHED`) as Textual's ``replace_rules`` would; False
    (nothing done) when the node has rules already.

    Textual sets each rule through its descriptor (some 5,200 sets a login), each
    then asking for a refresh that does nothing before the mount. Here what the
    descriptors store is found once per map (on a styles object of no node), and a
    fresh node's rules are that, copied at once; rules whose descriptors do more
    (display, pointer, overflow, layout) go through them as before."""
    base = node.styles.base
    if getattr(base, "_rules", True) or not hasattr(base, "_updates"):
        return False
    scrollbars = bool(
        getattr(node, "show_vertical_scrollbar", False)
        or getattr(node, "show_horizontal_scrollbar", False)
    )
    plain, others, _ = _SET_AS.get((id(rules), scrollbars)) or _set_as(rules, scrollbars)
    base._rules.update(plain)  # type: ignore[typeddict-item]
    base._updates += len(plain)
    for name, value in others:
        setattr(base, name, value)
    node.notify_style_update()
    return True


RESTYLE_UNCHANGED = True
"""Whether :func:`restyle` leaves a mounted node's unchanged plain rules alone (off:
Textual's ``replace_rules`` sets every rule again, as before issue 33's perf15)."""


def restyle(node: DOMNode, rules: Any, animate: bool = False) -> bool:
    """Give ``node`` the rules ``rules`` (a map of :data:`_MATCHED`) as Textual's
    ``replace_rules`` would; False (nothing done) when its styles are not Textual's
    as this knows them, or when an animated restyle has transitions to run.

    Textual sets every rule the node had or gets through its descriptor, again at
    every restyle (a screen's CSS read, a class added, focus: some 3,000 sets a
    login), and a rule whose value is the same changes nothing: the descriptor
    stores an equal value, sees no change and asks for no refresh. Here a plain
    rule (:data:`_PLAIN_PROPERTIES`: one that only stores a value and refreshes
    when it changed) whose stored value is already what its descriptor would
    store (:data:`_SET_AS`, of the same type and equal) is left as it is; every
    other rule, and a rule the node loses, goes through its descriptor as in
    Textual, in Textual's order.

    Animated (``animate``), Textual first compares a new ``Styles`` of the rules with
    the node's and stops if they are equal; then it animates a changed rule only
    where the rules name a transition for it, and sets every other rule as without
    animation: with no ``transitions`` rule, the same sets."""
    base = node.styles.base
    current = getattr(base, "_rules", None)
    if not RESTYLE_UNCHANGED or type(current) is not dict or not hasattr(base, "_updates"):
        return False
    if animate:
        if "transitions" in rules or "transitions" in current:
            return False
        from textual.css.styles import Styles

        if Styles(node, rules) == base:
            return True  # Textual's: nothing to do
    scrollbars = bool(
        getattr(node, "show_vertical_scrollbar", False)
        or getattr(node, "show_horizontal_scrollbar", False)
    )
    plain, _, _ = _SET_AS.get((id(rules), scrollbars)) or _set_as(rules, scrollbars)
    get_rule = rules.get
    for name in current.keys() | rules.keys():
        stored = plain.get(name, _MISSING)
        if stored is not _MISSING:
            now = current.get(name, _MISSING)
            if now is stored or (type(now) is type(stored) and now == stored):
                continue
        setattr(base, name, get_rule(name))
    node.notify_style_update()
    return True


_RULE_PSEUDO: dict[int, tuple[frozenset[str], frozenset[str], Any]] = {}
"""By a rule set's identity: the pseudo-classes its selectors read of the node
they style, of the nodes above it (and the rule set, so the identity stays its)."""


def _rule_pseudo(rule: Any) -> tuple[frozenset[str], frozenset[str]]:
    """The pseudo-classes ``rule``'s selectors read of the node it styles and of the
    nodes above it. The last compound selector (``Button.primary:hover``) is the
    only one checked against the node itself to any effect."""
    known = _RULE_PSEUDO.get(id(rule))
    if known is None:
        mine: set[str] = set()
        theirs: set[str] = set()
        for selector_set in rule.selector_set:
            selectors = selector_set.selectors
            last = len(selectors) - 1
            while last > 0 and selectors[last].combinator == CombinatorType.SAME:
                last -= 1
            for at, selector in enumerate(selectors):
                (mine if at >= last else theirs).update(selector.pseudo_classes)
        known = _RULE_PSEUDO[id(rule)] = (frozenset(mine), frozenset(theirs), rule)
    return known[0], known[1]


def _rules_number(rules: list[Any]) -> tuple[int, frozenset[str]]:
    """A number for the list of rule sets ``rules``, and the ids its selectors name
    (a node's id matters to none of them otherwise: the 18 piles of a board,
    each with its own id, are then styled from what the first one found)."""
    ids = tuple(map(id, rules))
    known = _RULES_NUMBERS.get(ids)
    if known is None:
        named = frozenset(
            selector.name
            for rule in rules
            for selector_set in rule.selector_set
            for selector in selector_set.selectors
            if selector.type == SelectorType.ID
        )
        known = _RULES_NUMBERS[ids] = (len(_RULES_NUMBERS), named, list(rules))
    return known[0], known[1]


def _has_pseudo(node: Any, name: str) -> Any:
    """``node.has_pseudo_class(name)``: Textual's, its check inlined."""
    check = node._PSEUDO_CLASSES.get(name)
    return False if check is None else check(node)


def _place(
    own: tuple[Any, ...], kind: _Kind, node: DOMNode, ids: frozenset[str]
) -> tuple[Any, ...] | None:
    """The key of ``node`` in :data:`_MATCHED`; None when Textual would not cache it.
    ``ids``: those the rules name (no other id matters)."""
    mine, theirs, _ = kind
    if mine is None or theirs is None:
        return None
    # node.css_path_nodes[:-1]: its parents from the app down, their weak
    # references read as Textual's _parent reads them
    above: list[Any] = []
    parent = node._MessagePump__parent  # type: ignore[attr-defined]
    while parent is not None:
        n = parent()
        if not isinstance(n, DOMNode):
            break
        above.append(n)
        parent = n._MessagePump__parent  # type: ignore[attr-defined]
    above.reverse()
    if theirs:
        path: list[Any] = [
            (
                type(n),
                n._id if n._id in ids else None,
                frozenset(n._classes),
                tuple([_has_pseudo(n, p) for p in theirs]),
            )
            for n in above
        ]
    else:
        path = [(type(n), n._id if n._id in ids else None, frozenset(n._classes)) for n in above]
    return own, tuple([_has_pseudo(node, p) for p in mine]), tuple(path)


def shared_stylesheet(current: Stylesheet) -> Stylesheet:
    """A :class:`SharedStylesheet` in place of an app's new ``current`` one (no source
    read yet); ``current`` itself when this Textual lacks what it overrides."""
    names = ("_parse_rules", "_variables", "_invalid_css", "_rules", "_rules_map")
    if current.source or not all(hasattr(current, name) for name in names):
        return current
    return SharedStylesheet(variables=current._variables)


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


_DISPATCH: dict[tuple[type, type, str], tuple[tuple[type, tuple[Any, ...], Any], ...]] = {}
"""By a message pump's class, a message's class and a handler's name: for each
class in the pump's MRO that handles it, its decorated handlers (``@on``: the
function and its selectors) and its handler by name (``_on_key`` or
``on_key``; None when none or when decorated), in the order Textual tries them."""


def _dispatch_plan(
    pump_class: type, message_class: type, method_name: str
) -> tuple[tuple[type, tuple[Any, ...], Any], ...]:
    """What Textual's ``_get_dispatch_methods`` reads of the classes, found once."""
    from textual.message import Message

    message_mro = [kind for kind in message_class.__mro__ if issubclass(kind, Message)]
    plan = []
    for cls in pump_class.__mro__:
        decorated_handlers = cls.__dict__.get("_decorated_handlers")
        decorated: list[Any] = []
        if decorated_handlers:
            for message_kind in message_mro:
                decorated.extend(decorated_handlers.get(message_kind, ()))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None
        if decorated or method is not None:
            plan.append((cls, tuple(decorated), method))
    found = tuple(plan)
    if len(_DISPATCH) >= _MATCHED_MOST:
        _DISPATCH.clear()
    _DISPATCH[pump_class, message_class, method_name] = found
    return found


textuals_dispatch: Any = None
"""Textual's own ``_get_dispatch_methods``, once :func:`dispatch_once` replaced it."""


def dispatch_once() -> bool:
    """Let Textual find a message's handlers in a widget's classes once per widget
    class and message class, not at every message; False (nothing changed) when
    this Textual's message pump has no ``_get_dispatch_methods``.

    Textual walks the widget's MRO (some 20 classes) and each one's decorated
    handlers for every message it dispatches (5,000 a login). The classes do not
    change while the program runs, so what it finds there is kept
    (:data:`_DISPATCH`); what depends on the message is still asked of it, as
    Textual does: whether its default action was prevented (before each class),
    and for a handler with selectors (``@on(Button.Pressed, "#ok")``), whether its
    sender matches them."""
    try:
        from textual._on import OnNoWidget
        from textual.css.match import match
        from textual.message_pump import MessagePump
        from textual.widget import Widget
    except ImportError:
        return False
    if getattr(MessagePump, "_dispatch_once", False):
        return True
    if not hasattr(MessagePump, "_get_dispatch_methods"):
        return False

    def _get_dispatch_methods(self: Any, method_name: str, message: Any) -> Iterable[Any]:
        plan = _DISPATCH.get((type(self), type(message), method_name))
        if plan is None:
            plan = _dispatch_plan(type(self), type(message), method_name)
        methods_dispatched: set[Any] = set()
        for cls, decorated, by_name in plan:
            if message._no_default_action:
                break
            for method, selectors in decorated:
                if method in methods_dispatched:
                    continue
                if not selectors:
                    yield cls, method.__get__(self, cls)
                    methods_dispatched.add(method)
                    continue
                if not message._sender:
                    continue
                for attribute, selector in selectors.items():
                    node = getattr(message, attribute)
                    if node is None:
                        break
                    if not isinstance(node, Widget):
                        raise OnNoWidget(
                            f"on decorator can't match against {attribute!r} as it is not a widget."
                        )
                    if not match(selector, node):
                        break
                else:
                    yield cls, method.__get__(self, cls)
                    methods_dispatched.add(method)
            if by_name is not None:
                yield cls, by_name.__get__(self, cls)

    global textuals_dispatch
    textuals_dispatch = MessagePump._get_dispatch_methods
    _get_dispatch_methods.__doc__ = textuals_dispatch.__doc__
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
    MessagePump._dispatch_once = True  # type: ignore[attr-defined]
    return True


_PARAMETERS: dict[int, tuple[int, Any]] = {}
"""By the identity of a function's code object: how many parameters its signature
has (and the code, so the identity stays its). By identity: a code object's hash
is computed anew each time, from its constants and names. A function's
``__dict__`` is not read (it would be made for each function that has none, and
written in a session for each warm one that has: pages copied)."""
_VARARGS = 4  # CO_VARARGS
_VARKEYWORDS = 8  # CO_VARKEYWORDS


def count_parameters(func: Any) -> int:
    """How many parameters ``func`` takes (as ``len(inspect.signature(func)
    .parameters)``, less one for a bound method), read from its code object once.

    Textual counts a callback's parameters before every call (``invoke``: each
    message handler, timer and ``call_later``): from an attribute it sets on the
    function, else from ``inspect.signature``, which it asks again for every new
    function object (a lambda or a closure made at each call: 600 a login).
    A plain function's count depends only on its code; one whose signature is
    not its code's (``functools.wraps``, ``__signature__``) is counted by
    ``inspect`` once, kept on the function as its count unbound (Textual keeps
    its count less one there when it first meets it bound, and then counts
    one too few for it unbound). ``functools.partial`` and other callables are
    counted as Textual counts them (a partial: what it wraps, less what it
    gives; other callables: by Textual)."""
    if type(func) is MethodType:
        function = func.__func__
        less = 1
    else:
        function = func
        less = 0
    if type(function) is FunctionType:
        if (
            getattr(function, "__wrapped__", None) is not None
            or getattr(function, "__signature__", None) is not None
        ):
            count = getattr(function, "_signature_count", None)
            if count is None:
                from inspect import signature

                count = len(signature(function).parameters)
                function._signature_count = count  # type: ignore[attr-defined]
            return int(count) - less
        code = function.__code__
        known = _PARAMETERS.get(id(code))
        if known is None:
            flags = code.co_flags
            known = _PARAMETERS[id(code)] = (
                code.co_argcount
                + code.co_kwonlyargcount
                + bool(flags & _VARARGS)
                + bool(flags & _VARKEYWORDS),
                code,
            )
        return known[0] - less
    if type(func) is partial:
        return count_parameters(func.func) - len(func.args) - len(func.keywords)
    call = _CALLS.get(type(func), _CALL_UNKNOWN)
    if call is _CALL_UNKNOWN:
        call = _CALLS[type(func)] = _plain_call(type(func))
    if call is not None and func.__dict__.get("__signature__") is None:
        # an instance whose class's __call__ is a plain function (Textual's
        # AwaitMount, AwaitRemove: a new one at each mount): its parameters less
        # self, as inspect.signature counts them
        return count_parameters(call) - 1
    return int(_textuals_count(func))


_CALLS: dict[type, Any] = {}
"""By a callable object's class: its ``__call__`` when that is a plain function and
nothing else changes how ``inspect.signature`` reads an instance (else None)."""
_CALL_UNKNOWN = object()


def _plain_call(kind: type) -> Any:
    """``kind.__call__`` when ``inspect.signature`` of an instance of ``kind`` is
    that function's less its first parameter; None otherwise (a class, a class with
    a ``__signature__``, slots, no ``__dict__``, a wrapped or partial ``__call__``)."""
    if isinstance(kind, type) and issubclass(kind, type):
        return None  # a class: signature reads __init__ or __new__
    if type(kind) is not type or "__dict__" not in dir(kind):
        return None  # a metaclass's __call__, or no __dict__ to look for __signature__ in
    if any("__signature__" in vars(k) for k in kind.__mro__):
        return None
    call = getattr(kind, "__call__", None)  # noqa: B004  (the class's, not a check)
    if type(call) is not FunctionType or getattr(call, "__wrapped__", None) is not None:
        return None
    if getattr(call, "__signature__", None) is not None:
        return None
    code = call.__code__
    if code.co_argcount < 1:
        return None  # no self to drop: inspect would fail
    return call


_textuals_count: Any = None
"""Textual's own ``count_parameters``, once :func:`parameters_once` replaced it."""


def parameters_once() -> bool:
    """Let Textual count a callback's parameters with :func:`count_parameters`;
    False (nothing changed) when this Textual counts them elsewhere."""
    global _textuals_count
    try:
        from textual import _callback, reactive
    except ImportError:
        return False
    if _callback.count_parameters is count_parameters:
        return True
    if not callable(getattr(_callback, "count_parameters", None)):
        return False
    if getattr(reactive, "count_parameters", None) is not _callback.count_parameters:
        return False
    _textuals_count = _callback.count_parameters
    _callback.count_parameters = count_parameters
    setattr(reactive, "count_parameters", count_parameters)  # noqa: B010  (not exported)
    return True


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


textuals_reactive_get: Any = None
"""Textual's own ``Reactive.__get__``, once :func:`reactive_reads` replaced it."""
_COMPUTES: dict[tuple[type, str], bool] = {}
"""By a node's class and a reactive's compute method's name: whether the class has
that method (Textual asks the node at every read)."""


def reactive_reads() -> bool:
    """Let a reactive attribute that has its value and no compute method be read
    from the node's ``__dict__``, without Textual's three ``hasattr`` a read; False
    (nothing changed) when this Textual's reactives store their values elsewhere.

    Textual's ``Reactive.__get__`` asks the node, at every read, whether it has an
    ``id`` (to word an error), its value, and a compute method: the last one fails
    for nearly every reactive, and a failed ``hasattr`` makes and drops an
    exception: 11,000 reads a login (issue 33). Whether a class has a compute
    method does not change while the program runs (Textual looks for it on the
    class when the reactive is declared, and calls it as a method); it is looked
    up once per class and name. A read that finds no value yet, or a compute
    method, is Textual's."""
    try:
        from textual.reactive import Reactive
    except ImportError:
        return False
    if getattr(Reactive, "_reads_from_dict", False):
        return True
    textuals_get = Reactive.__dict__.get("__get__")
    if not callable(textuals_get):
        return False
    probe: Any = Reactive(0)
    probe.__set_name__(type("Probe", (), {}), "probe")
    if not isinstance(getattr(probe, "internal_name", None), str) or not isinstance(
        getattr(probe, "compute_name", None), str
    ):
        return False

    def __get__(self: Any, obj: Any, obj_type: Any = None) -> Any:
        if obj is None:
            return self
        kind = type(obj)
        compute = _COMPUTES.get((kind, self.compute_name))
        if compute is None:
            compute = _COMPUTES[kind, self.compute_name] = hasattr(kind, self.compute_name)
        if not compute:
            try:
                return obj.__dict__[self.internal_name]
            except (KeyError, AttributeError):
                pass
        return textuals_get(self, obj, obj_type)

    global textuals_reactive_get
    textuals_reactive_get = textuals_get
    __get__.__doc__ = textuals_get.__doc__
    Reactive.__get__ = __get__  # type: ignore[method-assign]
    Reactive._reads_from_dict = True  # type: ignore[attr-defined]
    return True


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


def scrollbar_colours_without_import() -> bool:
    """Let a scrollbar colour be set on a widget's styles without an import statement
    at each set; False (nothing changed) when this Textual sets them elsewhere.

    Textual's ``ScrollbarColorProperty.__set__`` runs ``from textual.widget import
    Widget`` each time a node's scrollbar colour is set (every styled node has its
    seven set: 650 a login, issue 33); an import of a loaded module costs some
    twenty times a name already bound (:func:`screen_lookup_without_import`). The
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


class _Unheard:
    """An event logger that no one hears: its verbosities are itself, a call does
    nothing (Textual's ``Logger`` when there is no log file and the app has no
    devtools connected)."""

    def verbosity(self, verbose: bool) -> _Unheard:
        return self

    def __call__(self, *args: object, **kwargs: object) -> None:
        return None


_UNHEARD = _Unheard()


class _PumpLog:
    """Textual's ``log`` as the message pump reads it: its ``event`` logger a silent
    one while no one could hear it, Textual's own otherwise, and every other name
    Textual's."""

    def __init__(self, textuals: Any, constants: Any, active_app: Any) -> None:
        self._textuals = textuals
        self._constants = constants
        self._active_app = active_app

    @property
    def event(self) -> Any:
        if not self._constants.LOG_FILE:
            try:
                app = self._active_app.get()
            except LookupError:  # Textual's prints it in debug mode
                return self._textuals.event
            if not app._is_devtools_connected:
                return _UNHEARD
        return self._textuals.event

    def __call__(self, *args: object, **kwargs: object) -> None:
        self._textuals(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._textuals, name)


def unheard_events_not_logged() -> bool:
    """Let the message pump skip logging a message it handles when no one could
    read the line (no log file, no devtools connected); False (nothing changed)
    when this Textual's message pump logs otherwise.

    Textual's ``_on_message`` logs every message each handler gets, through
    ``log.event.verbosity(...)(...)``: two new loggers (each with a weak reference
    to the app), and the call that finds no log file and no devtools and returns:
    some ten Python calls a message, 1,700 messages a login (issue 33). With a
    log file or devtools (``textual run --dev``), or no active app, Textual's
    logger does it all as before."""
    try:
        from textual import Logger, constants, message_pump
        from textual._context import active_app
        from textual.app import App
    except ImportError:
        return False
    textuals = getattr(message_pump, "log", None)
    if isinstance(textuals, _PumpLog):
        return True
    if not isinstance(textuals, Logger) or not isinstance(
        getattr(App, "_is_devtools_connected", None), property
    ):
        return False
    if not hasattr(constants, "LOG_FILE"):
        return False
    setattr(message_pump, "log", _PumpLog(textuals, constants, active_app))  # noqa: B010
    return True


class _Prevented:
    """Textual's ``prevent`` as a plain context manager: ``message_types`` prevented
    from being posted on ``pump`` while the block runs (pushed on the pump's
    stack at the start, popped at the end, as Textual's generator does)."""

    __slots__ = ("_pump", "_stack", "_types")

    def __init__(self, pump: Any, message_types: tuple[type, ...]) -> None:
        self._pump = pump
        self._types = message_types

    def __enter__(self) -> None:
        stack = self._stack = self._pump._prevent_message_types_stack
        stack.append(stack[-1].union(self._types))

    def __exit__(self, *exc: object) -> None:
        self._stack.pop()


class _NothingPrevented:
    """Textual's ``prevent`` with no message types: a block that changes nothing."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NOTHING_PREVENTED = _NothingPrevented()
textuals_prevent: Any = None
"""Textual's own ``MessagePump.prevent``, once :func:`prevent_without_generator`
replaced it."""


def prevent_without_generator() -> bool:
    """Let a message pump's ``prevent`` be a plain context manager, not a generator
    wrapped by ``contextlib.contextmanager``; False (nothing changed) when this
    Textual's pumps prevent messages otherwise.

    Textual dispatches every message and every callback inside ``with
    self.prevent(*message._prevent)``, nearly always with no types to prevent:
    the wrapper, its ``__init__``, the generator started and finished, its
    ``__enter__`` and ``__exit__``, some seven Python frames each time, 3,500
    times a login (issue 33). The same stack pushed and popped, in three."""
    try:
        from textual.message_pump import MessagePump
    except ImportError:
        return False
    if getattr(MessagePump, "_prevent_without_generator", False):
        return True
    textuals = MessagePump.__dict__.get("prevent")
    if not callable(getattr(textuals, "__wrapped__", None)) or not isinstance(
        MessagePump.__dict__.get("_prevent_message_types_stack"), property
    ):
        return False

    def prevent(self: Any, *message_types: type) -> Any:
        if message_types:
            return _Prevented(self, message_types)
        return _NOTHING_PREVENTED

    global textuals_prevent
    textuals_prevent = textuals
    prevent.__doc__ = textuals.__doc__
    MessagePump.prevent = prevent  # type: ignore[method-assign]
    MessagePump._prevent_without_generator = True  # type: ignore[attr-defined]
    return True


def _no_message_hook(message: object) -> None:
    """The message hook of a pump with none set: nothing is done with the message."""
    return None


_message_hook: Any = None
"""The context variable :func:`message_hook_found_without_exception` put in place of
Textual's."""


def message_hook_found_without_exception() -> bool:
    """Let a message pump find that no message hook is set without an exception made
    and dropped at each message; False (nothing changed) when this Textual keeps
    its message hook elsewhere.

    Textual's ``_dispatch_message`` asks ``message_hook_context_var.get()`` for each
    message it dispatches; with no hook set (only the test pilot's
    ``run_test(message_hook=...)`` sets one) the context variable has no value and
    no default, so it raises ``LookupError``, caught there: 1,900 times a login
    (issue 33). The same context variable with a default that does nothing,
    shared by every module of Textual's that names it: a hook set is called as
    before."""
    try:
        from contextvars import ContextVar

        from textual import _context, message_pump
        from textual import app as app_module
    except ImportError:
        return False
    global _message_hook
    textuals = getattr(_context, "message_hook", None)
    if textuals is not None and textuals is _message_hook:
        return True
    if not isinstance(textuals, ContextVar):
        return False
    if textuals.get(None) is not None:  # a hook set already: leave Textual's as it is
        return False
    users = (message_pump, app_module)
    if any(getattr(m, "message_hook_context_var", None) is not textuals for m in users):
        return False
    found: ContextVar[Any] = ContextVar("message_hook", default=_no_message_hook)
    _context.message_hook = _message_hook = found
    for module in users:
        setattr(module, "message_hook_context_var", found)  # noqa: B010  (not exported)
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


_MISSING: Any = object()
"""What a cache's dict gives for a key it does not hold (no ``KeyError`` made)."""


textuals_fifo_get: Any = None
"""Textual's own ``FIFOCache.get``, once :func:`cache_misses_without_exceptions`
replaced it."""
textuals_peek_message: Any = None
"""Textual's own ``MessagePump._peek_message``, likewise."""


def cache_misses_without_exceptions() -> bool:
    """Let Textual's ``FIFOCache.get`` find a missing key without a ``KeyError`` made
    and caught, and a message pump peek at an empty queue without a ``QueueEmpty``;
    False (nothing changed) when this Textual keeps either otherwise.

    ``FIFOCache.get`` (a drawn line's caches, a widget's render caches) reads its
    dict in a ``try`` and counts a miss in the ``except KeyError``: 1,200 misses a
    login. ``MessagePump._peek_message`` asks its queue ``get_nowait``, which raises
    ``QueueEmpty`` when it has nothing: 700 times a login (issue 33). The same
    counts, the same values, the same message taken; a queue of another class than
    Textual's is asked as Textual asks it."""
    try:
        from textual._queue import Queue
        from textual.cache import FIFOCache
        from textual.message_pump import MessagePump, MessagePumpClosed
    except ImportError:
        return False
    if getattr(FIFOCache, "_misses_without_exceptions", False):
        return True
    textuals_get = FIFOCache.__dict__.get("get")
    textuals_peek = MessagePump.__dict__.get("_peek_message")
    if not callable(textuals_get) or not callable(textuals_peek):
        return False
    if not {"_cache", "hits", "misses"} <= set(getattr(FIFOCache, "__slots__", ())):
        return False
    probe: Any = Queue()
    if (
        not hasattr(probe, "values")
        or "_pending_message" not in MessagePump.__init__.__code__.co_names
    ):
        return False

    def get(self: Any, key: Any, default: Any = None) -> Any:
        result = self._cache.get(key, _MISSING)
        if result is _MISSING:
            self.misses += 1
            return default
        self.hits += 1
        return result

    def _peek_message(self: Any) -> Any:
        if self._pending_message is None:
            queue = self._message_queue
            if type(queue) is not Queue:
                return textuals_peek(self)
            if queue.values:
                message = queue.get_nowait()
                if message is None:
                    self._closed = True
                    raise MessagePumpClosed("The message pump is now closed")
                self._pending_message = message
        return self._pending_message

    global textuals_fifo_get, textuals_peek_message
    textuals_fifo_get, textuals_peek_message = textuals_get, textuals_peek
    get.__doc__ = textuals_get.__doc__
    _peek_message.__doc__ = textuals_peek.__doc__
    FIFOCache.get = get  # type: ignore[method-assign]
    MessagePump._peek_message = _peek_message  # type: ignore[method-assign]
    FIFOCache._misses_without_exceptions = True  # type: ignore[attr-defined]
    return True


def _awaitable(value: Any) -> bool:
    """``inspect.isawaitable(value)``, None answered at once (what nearly every
    handler returns), without the ``Awaitable`` ABC's check."""
    return value is not None and _isawaitable(value)


_isawaitable: Any = None
"""``inspect.isawaitable``, once :func:`none_is_not_awaited` is installed."""


def none_is_not_awaited() -> bool:
    """Let Textual's callback and watcher invocation see that a callback returned
    None without asking ``inspect.isawaitable``; False (nothing changed) when this
    Textual asks elsewhere.

    ``invoke`` asks ``isawaitable`` of every callback's result (each message
    handler, timer, ``call_later``: 2,900 a login, issue 33); for None, nearly
    always, that is two ``isinstance`` and then the ``collections.abc.Awaitable``
    check, a Python-level ``__instancecheck__``. None is never awaitable: the
    answer is the same."""
    global _isawaitable
    import inspect

    try:
        from textual import _callback, reactive
    except ImportError:
        return False
    if getattr(_callback, "isawaitable", None) is _awaitable:
        return True
    users = [m for m in (_callback, reactive) if getattr(m, "isawaitable", None) is not None]
    if not users or any(m.isawaitable is not inspect.isawaitable for m in users):
        return False
    _isawaitable = inspect.isawaitable
    for module in users:
        setattr(module, "isawaitable", _awaitable)  # noqa: B010  (not exported)
    return True


textuals_initialize_object: Any = None
"""Textual's own ``Reactive._initialize_object``, once
:func:`reactives_set_at_once` replaced it."""
_PLAINLY_SET: dict[type, tuple[tuple[str, Any, str], ...]] = {}
"""By a node's class: the reactives whose initial value is set plainly (no watcher
called, no compute method, no class toggled), each as (name, reactive, the name
of its value in the node's ``__dict__``), in Textual's order; the others as
``(name, reactive, "")``: Textual's."""


def _plainly_set(kind: Any, initialize: Any, check: Any) -> tuple[tuple[str, Any, str], ...]:
    """:data:`_PLAINLY_SET` for ``kind``, found now and kept."""
    python: Any = object
    plain = (
        kind.__setattr__ is python.__setattr__
        and kind.__getattribute__ is python.__getattribute__
        and not hasattr(kind, "__getattr__")
    )
    plan = []
    for name, reactive in kind._reactives.items():
        internal = f"_reactive_{name}"
        ours = (
            plain
            and type(reactive)._initialize_reactive is initialize
            and getattr(type(reactive)._check_watchers, "__func__", None) is check
            and not reactive._init
            and reactive._toggle_class is None
            and not hasattr(kind, internal)
        )
        plan.append((name, reactive, internal if ours else ""))
    return tuple(plan)


def reactives_set_at_once() -> bool:
    """Let a node's reactive attributes get their first values without Textual's
    two failed look-ups each; False (nothing changed) when this Textual initializes
    them otherwise.

    Textual's ``Reactive._initialize_object`` (at every node's mount) asks, for each
    of the node's reactives (a widget has some twenty), ``hasattr`` of its value and
    ``getattr`` of its compute method, both nearly always missing: each a
    ``AttributeError`` made and dropped, 4,000 reactives a login (issue 33). For a
    reactive that calls no watcher at its start (``init=False``), toggles no class,
    on a class with Python's own attribute access and nothing of that name, the
    value is found in or put into the node's ``__dict__``, made from the default as
    Textual makes it; its compute method is not read (Textual reads it only to
    call it when ``init`` is set). Every other reactive is Textual's, in the same
    order."""
    try:
        from textual.reactive import Initialize, Reactive
    except ImportError:
        return False
    if getattr(Reactive, "_set_at_once", False):
        return True
    textuals = Reactive.__dict__.get("_initialize_object")
    initialize = Reactive.__dict__.get("_initialize_reactive")
    check = Reactive.__dict__.get("_check_watchers")
    if not isinstance(textuals, classmethod) or not callable(initialize):
        return False
    if not isinstance(check, classmethod):
        return False
    names = initialize.__code__.co_names
    if not {"_init", "_default", "_toggle_class", "compute_name"} <= set(names):
        return False  # a Textual whose reactives start otherwise
    check = check.__func__
    textuals_function = textuals.__func__

    def _initialize_object(cls: Any, obj: Any) -> None:
        kind = type(obj)
        if cls is not Reactive:
            textuals_function(cls, obj)
            return
        plan = _PLAINLY_SET.get(kind)
        if plan is None:
            plan = _PLAINLY_SET[kind] = _plainly_set(kind, initialize, check)
        values = obj.__dict__
        for name, reactive, internal in plan:
            if not internal:
                reactive._initialize_reactive(obj, name)
            elif internal not in values:
                default = reactive._default
                if callable(default):
                    default = default(obj) if isinstance(default, Initialize) else default()
                values[internal] = default

    global textuals_initialize_object
    textuals_initialize_object = textuals
    _initialize_object.__doc__ = textuals_function.__doc__
    Reactive._initialize_object = classmethod(_initialize_object)  # type: ignore[assignment,method-assign]
    Reactive._set_at_once = True  # type: ignore[attr-defined]
    return True


textuals_ansi_theme: Any = None
"""Textual's own ``App.ansi_theme`` property, once :func:`ansi_theme_direct`
replaced it."""
_THEMES_PLAIN: dict[type, bool] = {}
"""By an app's class: whether it reads its theme as Textual's ``App`` does (its
``current_theme``, ``get_theme`` and theme reactives Textual's, or this module's
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
