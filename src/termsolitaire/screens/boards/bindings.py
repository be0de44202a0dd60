"""The board screens' keys as data: the keys every board has, and per-pile keys.

Every binding has an ``id`` (a keymap can override it) and a tooltip the help
screen shows. Pile keys carry the action ``pile('NAME')`` and the id
``pile-NAME``; their description, ``"<Kind> NAME"``, groups them in the help.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from textual.binding import Binding, BindingType

COMMON_BINDINGS: list[BindingType] = [
    Binding(
        "escape",
        "cancel",
        "Cancel",
        show=False,
        id="cancel",
        tooltip="put the cards in hand back; cancel a half-typed chord; then hide the move list",
    ),
    Binding("z", "undo", "Undo", id="undo", tooltip="take back the last move"),
    Binding("Z", "redo", "Redo", show=False, id="redo", tooltip="play again what undo took back"),
    Binding("R", "restart", "Restart", id="restart", tooltip="this deal from the start"),
    Binding("N", "new_game", "New", id="new-game", tooltip="a new random deal"),
    Binding(
        "number_sign",
        "deal_number",
        "Deal #",
        show=False,
        id="deal-number",
        tooltip="type a deal number to play",
    ),
    Binding("H", "hint", "Hint", id="hint", tooltip="the next move of a winning line"),
    Binding(
        "S",
        "solution",
        "Solution",
        show=False,
        id="solution",
        tooltip="step through a winning line from here (→ ←), D there plays it",
    ),
    Binding(
        "D", "demo", "Demo", show=False, id="demo", tooltip="play a winning line; any key stops"
    ),
    Binding(
        "M",
        "move_list",
        "Moves",
        show=False,
        id="move-list",
        tooltip="show or hide the list of moves played",
    ),
    Binding("question_mark,f1", "help", "Help", id="help", tooltip="this help"),
    Binding(
        "P", "pause", "Pause", show=False, id="pause", tooltip="hide the board and stop the clock"
    ),
    Binding("Q", "quit", "Quit", id="quit", tooltip="back to the menu, or leave"),
    Binding(
        "left,h",
        "cursor(-1, 0)",
        "Left",
        show=False,
        id="cursor-left",
        tooltip="cursor to the pile on the left",
    ),
    Binding(
        "right,l",
        "cursor(1, 0)",
        "Right",
        show=False,
        id="cursor-right",
        tooltip="cursor to the pile on the right",
    ),
    Binding(
        "up,k",
        "cursor(0, -1)",
        "Up",
        show=False,
        id="cursor-up",
        tooltip="cursor up the pile over one more card, then to the row above",
    ),
    Binding(
        "down,j",
        "cursor(0, 1)",
        "Down",
        show=False,
        id="cursor-down",
        tooltip="cursor down the pile over one card fewer, then to the row below",
    ),
    Binding(
        "space,enter",
        "grab",
        "Pick up / drop",
        show=False,
        id="grab",
        tooltip="pick up the cards under the cursor, or put the cards in hand there",
    ),
    Binding(
        "plus,equals_sign",
        "more",
        "One card more",
        show=False,
        id="more",
        tooltip="one card more in hand (or under the cursor)",
    ),
    Binding(
        "minus",
        "fewer",
        "One card fewer",
        show=False,
        id="fewer",
        tooltip="one card fewer in hand (or under the cursor)",
    ),
]

FAIR_TOOLTIPS = {
    "hint": "a good move with the cards you see (a fair hint)",
    "solution": (
        "step through the fair plan from here, up to a card not seen yet (→ ←), D there plays it"
    ),
    "demo": "play the fair plan; any key stops",
}
"""What ``H``, ``S`` and ``D`` do while the help sees only the cards the player sees
(the setting "Fair hints", a match): no winning line is promised, as the
tooltips above do for the solver that sees every card."""

NEAREST_CURSOR: list[BindingType] = [
    Binding(
        key,
        f"cursor({dx}, {dy})",
        name,
        show=False,
        id=f"cursor-{name.lower()}",
        tooltip=f"cursor to the nearest pile {where}",
    )
    for key, dx, dy, name, where in (
        ("left,h", -1, 0, "Left", "on the left"),
        ("right,l", 1, 0, "Right", "on the right"),
        ("up,k", 0, -1, "Up", "above"),
        ("down,j", 0, 1, "Down", "below"),
    )
]
"""Cursor keys for boards laid out by geometry (the circle, the star): each arrow
goes to the nearest pile that way."""

FOUNDATION_BINDING = Binding(
    "f",
    "foundation",
    "To foundation",
    id="foundation",
    tooltip="send the card in hand (or under the cursor) to its foundation",
)


def pile_bindings(keys: Mapping[str, str], kind: str | Mapping[str, str]) -> list[BindingType]:
    """One binding per pile: ``keys`` maps pile name to key, ``kind`` names what the
    piles are (``"Column"``), or maps each pile to its kind."""
    return [
        Binding(
            key,
            f"pile('{pile}')",
            f"{kind if isinstance(kind, str) else kind[pile]} {pile}",
            show=False,
            id=f"pile-{pile}",
        )
        for pile, key in keys.items()
    ]


def board_bindings(
    *extra: BindingType, cursor: list[BindingType] | None = None, drop: tuple[str, ...] = ()
) -> list[BindingType]:
    """A board's bindings: its own (``extra``), then the common ones; ``cursor``
    replaces the common cursor keys, and ids in ``drop`` are left out."""
    common = [b for b in COMMON_BINDINGS if not (isinstance(b, Binding) and b.id in drop)]
    if cursor is not None:
        ids = {b.id for b in cursor if isinstance(b, Binding)}
        common = [b for b in common if not (isinstance(b, Binding) and b.id in ids)]
        common += cursor
    taken = {k.strip() for b in extra if isinstance(b, Binding) for k in b.key.split(",")}
    if "q" not in taken:  # q goes back too, where it is not a pile's key
        common.append(Binding("q", "quit", "Quit", show=False, id="quit-q"))
    return [*extra, *common]


_BINDINGS: dict[type[Any], list[Binding]] = {}
_KEYS: dict[type[Any], dict[str, str]] = {}


def _merged(screen: type[Any]) -> Iterator[Binding]:
    """``screen``'s bindings in the order Textual merges them: the class's own first,
    then those it inherits, up to a class that inherits none."""
    for base in screen.__mro__:
        for b in base.__dict__.get("BINDINGS", ()):
            if isinstance(b, Binding):
                yield b
        if not base.__dict__.get("_inherit_bindings", True):
            break


def screen_bindings(screen: type[Any]) -> list[Binding]:
    """The board's own bindings (every one of ours has an id) as Textual merges
    them, one for each id; Textual's own (tab, copy) are left out. A subclass
    that adds keys of its own (a daily's End, a match's Watch) keeps its board's
    pile keys: what names piles, lists keys in the help and refreshes the footer
    reads them here, not in the class's own ``BINDINGS``."""
    found = _BINDINGS.get(screen)
    if found is None:
        found, ids = [], set()
        for b in _merged(screen):
            if b.id is not None and b.id not in ids:
                found.append(b)
                ids.add(b.id)
        _BINDINGS[screen] = found
    return found


def key_actions(screen: type[Any]) -> dict[str, str]:
    """Every key ``screen`` binds and its action (the class's own bindings first,
    then those it inherits, as Textual merges them)."""
    keys = _KEYS.get(screen)
    if keys is None:
        keys = {}
        for b in _merged(screen):
            for k in b.key.split(","):
                keys.setdefault(k.strip(), b.action)
        _KEYS[screen] = keys
    return keys
