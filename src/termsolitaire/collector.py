"""The cyclic collector paused for a launch, from the command line to the app's
first frame.

A launch makes some 35,000 objects that live as long as the process (modules,
classes, functions) and then the first screen's widgets and styles, which live
as long as the screen. The collector's young collections walked them again and
again on the way: about 6 ms of a board's 0.23 s to its first frame even after
the imports were frozen (issue 33, the local launch), where a bare Textual app
spends some 20 ms. Nothing a launch makes is garbage worth a collection before
the player sees the board, so the collector waits until then: :func:`pause`
when the command line starts, :func:`resume` once the app has painted its first
screen, or at once for a command that starts no app.
"""

from __future__ import annotations

import gc

_paused = False
"""The collector was on and :func:`pause` turned it off."""


def pause() -> None:
    """Turn the collector off until :func:`resume` (nothing when it is off already)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Turn the collector back on if :func:`pause` turned it off; nothing otherwise
    (so the app may call it whether or not its launch paused it)."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()


def paused() -> bool:
    """Whether :func:`pause` holds the collector off now."""
    return _paused
