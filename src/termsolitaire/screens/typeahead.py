"""Keys typed ahead belong to the screen they were typed for.

Over a slow SSH link, or when pasted, keys arrive in a burst: ``#4321`` and Enter
in one read. Textual hands all five to the screen that was current when they
arrived, the board; its ``#`` opens the deal-number dialog, and the digits that
follow would be read by the board (as pile keys) or lost. Two mixins put them
where the player meant them:

- :class:`KeysFollowTheScreen`, on a screen that opens other screens by a key,
  marks each key with the screen it was typed on; the app
  (:meth:`~termsolitaire.app.SolitaireApp._on_key`) sends a key whose screen
  is no longer on top to the screen now on top, in the order typed, instead
  of reading it against that screen's keys;
- :class:`TypeAheadMixin`, on a screen that opens with a widget to type in: a
  key that reaches it before that widget has focus goes to that widget (text
  to an input, Enter to submit it, arrows and Enter to a list).

An Escape and the key after it in one read (or less than Textual's 100 ms
apart) reach Textual as one key: the terminal's way of sending Alt with a key.
Escape then ``1`` came as ``¡`` (the Option layer of a Mac keyboard) and
Escape then ``q`` as ``alt+q``, neither bound, so both keys were lost: the
player's "put it back, take pile 1 instead" did nothing, or the next key
played with the wrong pile in hand. :func:`after_escape` gives the key back,
and the app plays Escape then that key (no screen binds an Alt key). After
Escape a space, ``#`` or ``?`` arrives alone and the Escape is lost in
Textual's parser; ``f`` and ``b`` come as Ctrl+→ and Ctrl+←, which the keys
themselves send too; and ``3`` and ``6`` as ``£`` and ``§``, keys of their own
on some keyboards (:data:`_OPTION_LAYER`). The terminal driver (the local game
and SSH) sends such an Escape on its own before the parser sees it
(:func:`termsolitaire.terminal.driver.escape_first`), so there every key after
an Escape comes as itself; this hook covers the browser, where Textual reads
the input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.widgets import Input

from termsolitaire import textual_hooks

TYPED_ON = "_termsolitaire_screen"
"""The attribute a key carries: the screen it was typed on."""


_OPTION_LAYER = dict(zip("¡™¢∞¶•ªº–≠", "12457890-=", strict=True))
"""What Textual makes of Escape and a digit, ``-`` or ``=`` sent in one read.
Not ``£`` (Escape 3) or ``§`` (Escape 6): a British or a German keyboard types
them with Shift+3, and a key pressed by mistake must change nothing."""


def after_escape(event: events.Key) -> str | None:
    """The key that came with an Escape as one key (``alt+q`` is Escape then
    ``q``), or None where ``event`` is a key of its own."""
    key = event.key
    if key.startswith("alt+"):
        rest = key[4:]
        if len(rest) == 1:
            return rest
        if rest.startswith("shift+") and len(rest) == 7:
            return rest[6].upper()
        return None
    return _OPTION_LAYER.get(event.character or "")


class KeysFollowTheScreen:
    """Mixed into a screen (before ``Screen``): marks each key with this screen."""

    async def on_key(self, event: events.Key) -> None:
        setattr(event, TYPED_ON, self)


def stray(event: events.Key, current: Any) -> bool:
    """Whether ``event`` was typed on a screen that is no longer ``current``."""
    typed_on = getattr(event, TYPED_ON, None)
    return typed_on is not None and typed_on is not current


_GIVEN = "_termsolitaire_given"


class TypeAheadMixin:
    """Mixed into a screen (before ``Screen``) whose ``AUTO_FOCUS`` names its widget."""

    if TYPE_CHECKING:  # given by the Screen it is mixed into
        AUTO_FOCUS: ClassVar[str | None]
        focused: Any

        def query_one(self, *args: Any, **kw: Any) -> Any: ...

    async def on_key(self, event: events.Key) -> None:
        if not self.AUTO_FOCUS or getattr(event, _GIVEN, False):
            return
        try:
            target = self.query_one(self.AUTO_FOCUS)
        except Exception:  # not mounted yet: nothing can take it
            return
        if target.has_focus or self.focused is not None:
            return  # the key went to a widget already (and bubbled up here)
        setattr(event, _GIVEN, True)
        if await _give(target, event):
            event.stop()
            event.prevent_default()
            target.focus()


async def _give(target: Any, event: events.Key) -> bool:
    """Do what ``target`` would do with ``event`` had it focus: type a character
    into an input, or run the target's own binding for the key. Whether it did."""
    if isinstance(target, Input) and event.is_printable and event.character:
        target.insert_text_at_cursor(event.character)
        return True
    for node in target.ancestors_with_self:
        for binding in textual_hooks.key_bindings(node, event.key):
            await target.run_action(binding.action, node)
            return True
        if node is target.screen:
            break
    return False
