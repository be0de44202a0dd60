"""The keys line at the foot of a screen: Textual's Footer, drawn by one widget.

Textual's :class:`~textual.widgets.Footer` is a container of one widget per
key, each styled with two component classes, and it builds them only after
the screen's first frame (a second layout) and again whenever the keys change
(a key dimmed or lit). Styling those widgets was a fifth of what building a
screen costs (issue 33). :class:`KeyLine` shows the same keys, the same words
and the same colours (the theme's ``$footer-*`` variables) on one line that
it paints itself: the first frame already has its keys, and a change of keys
repaints the line (the terminal driver sends only the cells that changed).

What it keeps from the Footer: the screen's active bindings with ``show`` (the
first key of each action), a dimmed key for an action that cannot be done now,
the command palette's key at the right edge (``show_command_palette``) where
the screen's keys leave room for it (where they do not, the keys win: the
Footer cut them, and a daily's "q Back" went at 80 columns), a
click on a key pressing it (a bell on a dimmed one), the key under the pointer
lit, and its tooltip. What it leaves out: scrolling the line sideways with the
wheel when it is wider than the window, and binding groups (no screen here has
one). Where the keys do not all fit, the ways out and the help (:data:`KEPT`)
stay whole and the others go from the end of the line, each whole (the Footer
cut the line at the edge: the lobby under 68 columns read "q Q" for Quit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from termsolitaire.widgets.cards import app_look

if TYPE_CHECKING:
    from textual.screen import Screen

PALETTE_BORDER = "▏"
"""The line before the palette's key (Textual's ``vkey`` border)."""

KEPT = frozenset({"q", "Q", "escape", "question_mark", "f1"})
"""The keys that stay on a line too narrow for all: the ways out of a screen
and its help (which lists every key)."""

LEFT_OFF = "key_left_off"
"""A screen's method ``key_left_off(action) -> bool``, where it has one: an action
whose key still works but whose words would be wrong now, left off the line
(Stjernen's ``0`` collects once the stock is empty: not "Deal" then, and its
``o Collect`` already says so). A screen that has it refreshes its bindings when
the answer changes."""

WORDS = "key_words"
"""A screen's method ``key_words(action) -> str | None``, where it has one: the
words an action's key goes by now, in place of its binding's (None: the
binding's). A board's ``H`` reads "Fair hint" while its help sees only the cards
the player sees, the status line's own word for what it gives (issue 35: the
key line says which help is on where the verdict has no room). A screen that
has it refreshes its bindings when the answer changes."""

TOOLTIP = "key_tooltip"
"""A screen's method ``key_tooltip(action) -> str | None``, where it has one: what
an action's key does now, in place of its binding's tooltip (None: the
binding's), shown under the pointer."""


def said_now(screen: object, hook: str, action: str, default: str) -> str:
    """What ``screen``'s ``hook`` (:data:`WORDS` or :data:`TOOLTIP`) says of
    ``action`` now, or ``default`` (the binding's) where it says nothing or the
    screen has no such hook: the key line and the command palette ask alike."""
    said = getattr(screen, hook, None)
    return (said(action) if said is not None else None) or default


@dataclass(frozen=True, slots=True)
class Key:
    """One key on the line: what is pressed, what shows, and whether it can be now."""

    key: str
    display: str
    description: str
    enabled: bool
    tooltip: str = ""


class KeyLine(Widget):
    """The screen's keys on one line, as Textual's Footer shows them."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "keyline--key",
        "keyline--description",
        "keyline--hover",
        "keyline--border",
    }
    DEFAULT_CSS = """
    KeyLine {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        .keyline--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .keyline--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .keyline--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        .keyline--border {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, *, show_command_palette: bool = True, **kw: Any) -> None:
        super().__init__(**kw)
        self._show_command_palette = show_command_palette
        self._keys: tuple[Key, ...] | None = None
        self._palette: Key | None = None
        self._spans: list[tuple[int, int, Key]] = []
        """Where each key lies on the line as last drawn: (start, end, key)."""
        self._hover: Key | None = None

    @property
    def show_command_palette(self) -> bool:
        """Whether the command palette's key shows at the right."""
        return self._show_command_palette

    @show_command_palette.setter
    def show_command_palette(self, show: bool) -> None:
        if show != self._show_command_palette:
            self._show_command_palette = show
            self.refresh()

    # ------------------------------------------------------------ the keys

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's keys may have changed: read them again, and repaint if they did.
        Not while the terminal has lost the focus (as the Footer: the keys of a
        blurred widget would come and go)."""
        if not screen.app.app_focus or screen is not self.screen:
            return
        keys, palette = self.read_keys()
        if (keys, palette) != (self._keys, self._palette):
            self._keys, self._palette = keys, palette
            self.refresh()

    def read_keys(self) -> tuple[tuple[Key, ...], Key | None]:
        """The keys to show (the first binding of each action whose binding shows),
        and the command palette's key."""
        app = self.app
        active = self.screen.active_bindings
        left_off = getattr(self.screen, LEFT_OFF, None)
        seen: set[str] = set()
        keys: list[Key] = []
        for _node, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            if left_off is not None and left_off(binding.action):
                continue
            seen.add(binding.action)
            display = app.get_key_display(binding)
            said = said_now(self.screen, WORDS, binding.action, binding.description)
            tip = said_now(self.screen, TOOLTIP, binding.action, tooltip)
            keys.append(Key(binding.key, display, said, enabled, tip))
        palette = None
        found = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
        if found is not None:
            _node, binding, enabled, tooltip = found
            palette = Key(
                binding.key,
                app.get_key_display(binding),
                binding.description,
                enabled,
                binding.tooltip or tooltip or binding.description,
            )
        return tuple(keys), palette

    @property
    def keys(self) -> tuple[Key, ...]:
        """The keys on the line (the palette's aside)."""
        if self._keys is None:
            self._keys, self._palette = self.read_keys()
        return self._keys

    def shown(self) -> list[str]:
        """The descriptions of the keys wholly on the line as last drawn (the
        palette's last), for the tests."""
        return [key.description for _, _, key in self._spans]

    # ------------------------------------------------------------ drawing

    def _styles(self, key: Key) -> tuple[Style, Style]:
        """The key's and the description's styles (lit under the pointer, dim when
        the action cannot be done now)."""
        key_style = self.get_component_rich_style("keyline--key")
        text_style = self.get_component_rich_style("keyline--description")
        if key == self._hover:
            hover = self.get_component_rich_style("keyline--hover")
            lit = Style(bgcolor=hover.bgcolor)
            key_style, text_style = key_style + lit, text_style + lit
        if not key.enabled:
            dim = Style(dim=True)
            key_style, text_style = key_style + dim, text_style + dim
        return key_style, text_style

    @staticmethod
    def _texts(key: Key) -> tuple[str, ...]:
        """What a key is drawn as: its key, then its words (a key without words, alone)."""
        return (f" {key.display} ", f"{key.description} ") if key.description else (key.display,)

    @classmethod
    def _fitting(cls, keys: tuple[Key, ...], room: int) -> tuple[Key, ...]:
        """``keys`` as ``room`` columns hold them: all, or without the last of the
        keys not :data:`KEPT` until the rest fits (cut at the edge if even the
        kept ones do not)."""
        shown = list(keys)
        for key in reversed(keys):
            if cls._keys_width(tuple(shown)) <= room:
                break
            if key.key not in KEPT:
                shown.remove(key)
        return tuple(shown)

    @classmethod
    def _keys_width(cls, keys: tuple[Key, ...]) -> int:
        """The cells the keys take, each drawn whole (the last one's closing blank
        may go: the palette's border stands there)."""
        width = sum(cell_len(text) for key in keys for text in cls._texts(key))
        return width - 1 if keys and keys[-1].description else width

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        keys = self.keys
        palette = self._palette if self._show_command_palette else None
        base = Style(bgcolor=self.rich_style.bgcolor)  # the blanks: the felt of the line
        ascii_look = app_look(self).ascii
        right: list[Segment] = []
        if palette is not None:  # compact, as Textual's own: no padding round the key
            key_style, text_style = self._styles(palette)
            border = self.get_component_rich_style("keyline--border")
            right = [
                Segment("|" if ascii_look else PALETTE_BORDER, border),
                Segment(palette.display, key_style),
                Segment(f" {palette.description}", text_style),
                Segment(" ", base),
            ]
            if self._keys_width(keys) > width - sum(cell_len(s.text) for s in right):
                palette, right = None, []  # the screen's own keys first: ^p is in every help
        room = width - sum(cell_len(s.text) for s in right)
        keys = self._fitting(keys, room)
        segments: list[Segment] = []
        spans: list[tuple[int, int, Key]] = []
        x = 0
        for key in keys:
            parts = list(zip(self._texts(key), self._styles(key), strict=False))
            length = sum(cell_len(text) for text, _ in parts)
            if x + length <= room:
                spans.append((x, x + length, key))
            for text, style in parts:
                if x >= room:
                    break
                if x + cell_len(text) > room:
                    text = set_cell_size(text, room - x)
                segments.append(Segment(text, style))
                x += cell_len(text)
        if x < room:
            segments.append(Segment(" " * (room - x), base))
        if palette is not None and room >= 0:
            spans.append((room, width, palette))
        self._spans = spans
        return Strip([*segments, *right], width).crop(0, width)

    # ------------------------------------------------------------ the mouse

    def key_at(self, x: int) -> Key | None:
        """The key drawn at column ``x``, if any."""
        return next((key for start, end, key in self._spans if start <= x < end), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click presses the key (a dimmed key rings the bell instead)."""
        key = self.key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._light(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._light(None)

    def _light(self, key: Key | None) -> None:
        if key != self._hover:
            self._hover = key
            self.tooltip = key.tooltip if key is not None and key.tooltip else None
            self.refresh()
