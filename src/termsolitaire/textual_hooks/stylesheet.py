"""The stylesheet: each CSS source parsed once per process, each place a node
can be in matched against the rules once per process (:class:`SharedStylesheet`),
and a node's rules set at once, or left alone where unchanged
(:func:`set_fresh`, :func:`restyle`).
"""

from __future__ import annotations

from typing import Any

from textual.css.model import CombinatorType, SelectorType
from textual.css.stylesheet import Stylesheet
from textual.css.tokenize import tokenize_values
from textual.dom import DOMNode

from ._shared import _MATCHED_MOST, _MISSING

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.css.stylesheet", "Stylesheet", "_parse_rules"),
    ("textual.css.stylesheet", "Stylesheet", "_variables"),
    ("textual.css.stylesheet", "Stylesheet", "_variable_tokens"),
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
    ("textual.css.styles", "Styles", "_updates"),
)
"""(module, class, attribute): the private names of Textual used here, a part of
:data:`termsolitaire.textual_hooks.HOOKS`."""


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
_TOKENS: dict[int, Any] = {}
"""The CSS variables' values as tokens (what Textual's parser substitutes), by the
variables' number in :data:`_THEMES`."""
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

    @property
    def _variable_tokens(self) -> Any:
        """Textual's: the variables' values as tokens, made once per process for each
        set of variables, not once per stylesheet: :meth:`reparse` reads the sources
        again on a new stylesheet, which tokenized the theme's 168 values again (a
        board's launch did it twice, 5M instructions)."""
        number = self._theme()
        tokens = _TOKENS.get(number)
        if tokens is None:
            tokens = _TOKENS[number] = tokenize_values(self._variables)
        return tokens

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
    # set_fresh's four lines, not a function of their own: a call more at each
    # restyle and fresh set costs a forked login 0.8M instructions (0.09%)
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
