"""What opening a store found for the player (a damaged file kept aside, a
setting's value not used, a save that could not be written), said as warning
toasts: one place for how they show, for the app, the boards, the menu, the
lobby and the statistics alike."""

from __future__ import annotations

from collections.abc import Iterable

from textual.dom import DOMNode

TIMEOUT = 10
"""Seconds a notice shows: long enough to read a file's name in it."""


def tell(node: DOMNode, messages: Iterable[str]) -> None:
    """Each of ``messages`` as a warning toast of ``node``'s app."""
    for message in messages:
        node.app.notify(message, severity="warning", timeout=TIMEOUT)
