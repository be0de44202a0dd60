"""Share: the game just finished as two codes (issue 31; docs/share.md).

``s`` on a results panel opens it: the host code (at most eight characters,
kept in this host's match store; anyone here opens it with ``termsolitaire
replay CODE``, or over SSH with ``c`` in the match lobby) and the
self-contained code (replays anywhere, no store),
which also goes to the terminal's clipboard where the terminal takes it
(OSC 52). A game that cannot be a code, or a store that cannot take it, is a
sentence in the panel.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from termsolitaire.match import MatchError
from termsolitaire.match.shares import Shared, share_game
from termsolitaire.match.social import Social
from termsolitaire.rules import Game
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine


def share_text(shared: Shared) -> str:
    host = (
        f"On this host:\n  termsolitaire replay {shared.host}\n"
        f"  or over ssh: c in the match lobby, then {shared.host}"
        if shared.host
        else f"No host code: {shared.problem}"
    )
    return (
        f"{host}\n\nAnywhere, with no store (copied to the clipboard):\n"
        f"  termsolitaire replay 'CODE' (or c in a match lobby)\nwhere CODE is"
    )


INSIDE = 72
"""The code's room on one line inside the panel (76 wide, its frame and padding
off). A longer code is shown on the screen's whole width, the panel's sides
dropped: a drag over its lines then takes the code alone, where inside the
frame it took the frame's glyphs and padding with it at each line's ends."""


class ShareScreen(AsciiFrames, ModalScreen[None]):
    """The codes of ``game``; the host code through ``store`` (the match's), else
    through the host's match store opened for it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,s", "close", "Close", id="share-close"),
    ]
    DEFAULT_CSS = """
    ShareScreen { align: center middle; background: transparent; }
    ShareScreen #share-panel {
        width: 76; max-width: 100%; height: auto; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    ShareScreen #share-title { text-style: bold; margin-bottom: 1; }
    ShareScreen #share-code { margin-bottom: 1; }
    ShareScreen #share-panel.long {
        width: 100%; border-left: none; border-right: none; padding: 0;
    }
    ShareScreen #share-panel.long > Static { padding: 0 1; }
    ShareScreen #share-panel.long > #share-code { padding: 0; }
    """

    def __init__(self, game: Game, store: Social | None = None, *, whose: str = "your") -> None:
        super().__init__()
        self.game = game
        self.store = store
        self.whose = whose
        """Whose game the title names: "your", or a hot-seat player's ("Bob's"),
        as the results' "s shares Bob's game" does."""
        self.shared: Shared | None = None
        self.text = ""

    def compose(self) -> ComposeResult:
        try:
            self.shared = share_game(self.game, self.store)
            self.text = share_text(self.shared)
        except MatchError as e:
            self.text = e.reason
        g = self.game
        code = self.shared.code if self.shared is not None else ""
        with Vertical(id="share-panel", classes="long" if len(code) > INSIDE else ""):
            yield Static(f"Share {self.whose} game: {g.title}, deal {g.deal}", id="share-title")
            yield Static(self.text, id="share-codes")
            if code:
                yield Static(code, id="share-code")
            yield Static("Escape closes", id="share-keys")
        yield KeyLine()  # its own keys over the results', whose q and n do else here

    def on_mount(self) -> None:
        if self.shared is not None:
            self.app.copy_to_clipboard(self.shared.code)

    def action_close(self) -> None:
        self.dismiss(None)
