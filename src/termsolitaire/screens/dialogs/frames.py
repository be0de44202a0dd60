"""Dialog frames in ASCII under ``--ascii`` (or the ASCII card style).

The dialogs' TCSS draws their frames with box-drawing characters (``round``,
``thick``, ``tall``); a terminal that needs ``--ascii`` for the cards cannot
show those either. A dialog with :class:`AsciiFrames` among its bases redraws
every frame on it with ``+ - |`` when it is shown and the app's look is ASCII,
keeping each frame's colour. The look is the app's (``app.look``, the one the
boards are drawn with), so ``--ascii`` and the setting both reach it.
"""

from __future__ import annotations

from typing import Any, cast

from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Markdown, RadioButton

from termsolitaire.play.words import ASCII_TEXT
from termsolitaire.widgets.cards import app_look

NO_LINE = frozenset({"", "none", "hidden", "blank"})
EDGES = ("border_top", "border_right", "border_bottom", "border_left")


def ascii_look(node: DOMNode) -> bool:
    """Whether the app ``node`` belongs to draws with ASCII only."""
    return app_look(node).ascii


def ascii_frames(root: Widget) -> None:
    """Every frame on ``root`` and below it drawn with ASCII characters, in its colour."""
    for widget in [root, *root.query("*")]:
        styles = widget.styles
        for edge in EDGES:
            kind, colour = getattr(styles, edge)
            if kind not in NO_LINE:
                setattr(styles, edge, ("ascii", colour))


class AsciiRadioButton(RadioButton):
    """A radio button drawn ``(*)`` when chosen and ``( )`` when not: ASCII, and
    readable without colour (Textual's ``▐●▌`` tells them apart by colour only)."""

    BUTTON_LEFT = "("
    BUTTON_RIGHT = ")"

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "*" if self.value else " "


def radio_button(node: DOMNode) -> type[RadioButton]:
    """The radio button the app's look draws with."""
    return AsciiRadioButton if ascii_look(node) else RadioButton


class AsciiMarkdown(Markdown):
    """A Markdown page in ASCII: its bullets, its tables without Textual's
    box-drawn key lines, its rules; its text as :meth:`CardLook.words` writes it."""

    BULLETS = ["* ", "- ", "+ ", "* ", "- "]  # noqa: RUF012 (Markdown declares it so)
    DEFAULT_CSS = """
    AsciiMarkdown MarkdownTableContent { keyline: none; }
    AsciiMarkdown MarkdownHorizontalRule { border-bottom: ascii $secondary; }
    AsciiMarkdown MarkdownBlockQuote { border-left: ascii $text-primary 50%; }
    """

    def __init__(self, markdown: str, **kw: Any) -> None:
        super().__init__(markdown.translate(ASCII_TEXT), **kw)


def room_inside(panel: Widget, width: int) -> int:
    """The columns inside ``panel`` (its border and padding taken off) on a
    screen ``width`` columns wide: the panel's styled width where the screen is
    wider, else the screen's."""
    styled = panel.styles.width
    return min(width, int(styled.value) if styled else width) - panel.styles.gutter.width


class Page(VerticalScroll):
    """A scrolling page of help or rules. `End` stays at the end while the page is
    still being laid out: its Markdown is parsed in a thread and mounted after, so
    `End` pressed within about a second of opening it stopped short of the end."""

    def action_scroll_end(self) -> None:
        self.anchor()  # kept at the end as the page grows, until scrolled up


def markdown(node: DOMNode, text: str, **kw: Any) -> Markdown:
    """A Markdown page as the app's look draws it: ASCII under ``--ascii``."""
    return AsciiMarkdown(text, **kw) if ascii_look(node) else Markdown(text, **kw)


class AsciiFrames:
    """A dialog (screen) whose frames follow the app's ASCII look."""

    def on_mount(self) -> None:
        screen = cast(Screen[Any], self)
        if ascii_look(screen):
            ascii_frames(screen)

    async def built_again(self) -> None:
        """Compose the screen again in the app's look now (the card style was
        changed while it was open: its frames, radio buttons and arrows were
        drawn in the other one until the next start)."""
        screen = cast(Screen[Any], self)
        await screen.recompose()
        if ascii_look(screen):
            ascii_frames(screen)
        else:
            for edge in EDGES:  # the screen itself is not composed again
                screen.styles.clear_rule(edge)
