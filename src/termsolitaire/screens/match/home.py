"""The way back to the match lobby from the screens opened above it (a game, its
results, Watch): they know the lobby only as :class:`LobbyHome`, which the
lobby screen is, so nothing below the lobby imports it (no circle)."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from termsolitaire.screens.dialogs.stack import pop_to
from termsolitaire.screens.styled import StyledOnce


class LobbyHome(StyledOnce, Screen[None]):
    """What the lobby offers the screens above it (LobbyScreen says how)."""

    def reload(self) -> None:
        """Read the tables again."""
        raise NotImplementedError

    def action_new(self) -> None:
        """Open the New dialog."""
        raise NotImplementedError


def back_to_lobby(app: App[Any], new_game: bool = False) -> bool:
    """Close every screen above the lobby; ``new_game`` opens its New dialog.
    False when there is no lobby to go back to."""
    lobby = pop_to(app, LobbyHome)
    if lobby is None:
        return False
    lobby.reload()
    if new_game:  # asked from the lobby's own loop: Textual gives a dialog's answer to
        # the screen whose code pushed it, and the one running now has just been popped
        # (the New dialog's Enter opened nothing after a match that ran out of time)
        lobby.call_later(lobby.action_new)
    return True
