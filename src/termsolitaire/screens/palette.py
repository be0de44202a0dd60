"""The command palette's entries (ctrl+p), derived from the screen's own keys.

Every action a screen binds to a key is offered by name, with what it does and
its key: a board offers its game's actions (Stjernen's Collect, Napoleon's
Moves, Spider's End) because its bindings name them, and a fifth game's board
offers its own the same way. The keys that move the cursor and the cards in
hand (:data:`POINTER_ACTIONS`) stay keys. What the screen cannot do at all
(its ``check_action`` says False) is left out; what it cannot do just now stays,
and says why when chosen, as its key would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from termsolitaire.widgets.keyline import TOOLTIP, WORDS, said_now

POINTER_ACTIONS = frozenset({"cursor", "pile", "grab", "more", "fewer", "cancel"})
"""Actions for the keyboard's pointer: a palette entry would be of no use."""

TEXTUAL_ACTIONS = frozenset(b.action for b in Screen.BINDINGS if isinstance(b, Binding))
"""The keys every Textual screen has (focus, copy): not the game's."""


@dataclass(frozen=True)
class Entry:
    """One palette entry: its title, what it does (with its key) and the action."""

    title: str
    help: str
    action: str


def entries(screen: Screen[Any]) -> Iterator[Entry]:
    """The palette entries of ``screen``'s own key bindings, in their order, one per
    action."""
    seen: set[str] = set()
    keys: dict[str, list[str]] = {}
    bindings: dict[str, Binding] = {}
    for key, active in screen.active_bindings.items():
        b = active.binding
        if active.node is not screen or b.action in TEXTUAL_ACTIONS:
            continue
        if b.action.partition("(")[0] in POINTER_ACTIONS:
            continue
        bindings.setdefault(b.action, b)
        keys.setdefault(b.action, []).append(screen.app.get_key_display(Binding(key, b.action)))
    for action, b in bindings.items():
        if action in seen or not b.description:
            continue
        seen.add(action)
        # a board's H is "Fair hint" while it gives one
        title = said_now(screen, WORDS, action, b.description)
        tooltip = said_now(screen, TOOLTIP, action, b.tooltip)
        what = tooltip[:1].upper() + tooltip[1:] if tooltip else title
        key = "keys" if len(keys[action]) > 1 else "key"
        yield Entry(title, f"{what}; {key} {', '.join(keys[action])}", action)
