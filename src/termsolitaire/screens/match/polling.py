"""Timer callbacks of the match screens, which poll the shared store.

A tick can still arrive while the app is closing and the screen's widgets are
already gone; :func:`while_shown` makes such a late tick do nothing instead of
raising ``NoMatches``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from textual.css.query import NoMatches

F = TypeVar("F", bound=Callable[..., Any])


def while_shown(method: F) -> F:
    """Run ``method`` unless its screen's widgets are gone (a late timer tick)."""

    @functools.wraps(method)
    def run(*args: Any, **kw: Any) -> Any:
        try:
            return method(*args, **kw)
        except NoMatches:
            return None

    return run  # type: ignore[return-value]
