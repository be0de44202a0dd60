"""How the match screens follow the shared store: pushed changes where the
database pushes them, else a poll of the revision.

:class:`Follow` tells a screen that the store changed. With PostgreSQL every
write by any host sends a notification (``LISTEN``/``NOTIFY`` on the process's
one connection: :meth:`termsolitaire.match.pgdb.PgDatabase.subscribe`), and the
screen's handler runs at once on its own loop: no timer asks the database
anything. With the SQLite file, which pushes nothing, the screen's timer asks
for the revision (one small query a tick), as before.

A tick can still arrive while the app is closing and the screen's widgets are
already gone; :func:`while_shown` makes such a late tick do nothing instead of
raising ``NoMatches``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from textual.css.query import NoMatches
from textual.screen import Screen

from termsolitaire.match import StoreError

F = TypeVar("F", bound=Callable[..., Any])

FALLBACK = 5.0
"""Seconds after which a pushed screen looks at the store anyway (a notification
lost in an outage, a clock that starts by itself): one query, not four a second."""

RETRY = 1.0
"""Seconds after which a pushed screen whose look failed looks again (a store busy
or away: the next write by anyone may be long in coming)."""


def while_shown(method: F) -> F:
    """Run ``method`` unless its screen's widgets are gone (a late timer tick)."""

    @functools.wraps(method)
    def run(*args: Any, **kw: Any) -> Any:
        try:
            return method(*args, **kw)
        except NoMatches:
            return None

    return run  # type: ignore[return-value]


class Follow:
    """``changed`` runs on ``screen``'s loop as soon as anyone writes to ``store`` (a
    :class:`~termsolitaire.match.MatchStore`, or what a Watch reads),
    when its database pushes changes (:attr:`pushed`); else ``changed`` runs every
    ``every`` seconds (the poll of the file backend). Pushed changes closer than
    ``gap`` seconds are taken together. :meth:`due` says whether a tick should look
    at the store. Call :meth:`stop` when the screen goes."""

    def __init__(
        self,
        screen: Screen[Any],
        store: object,
        changed: Callable[[], None],
        every: float,
        gap: float = 0.0,
    ) -> None:
        self.screen = screen
        self.changed = changed
        self.gap = gap
        self.stale = True
        """A write not yet read; true at first, so that a new screen reads the store
        at its first tick (with pushed changes nothing else would tell it what was
        written before it subscribed: a board opened again showed no opponent)."""
        self.looked_at = time.monotonic()
        self.anyway = False
        """The last look that :meth:`due` allowed was the pushed screen's
        :data:`FALLBACK` one, no change heard: read what it shows again even if
        the revision says nothing moved (a read that raced a write stays right
        within the fallback, rather than until the next write)."""
        self._ran_at = -gap
        self._scheduled = False
        self._stop: Callable[[], None] | None = None
        self._loop = asyncio.get_running_loop()
        subscribe = getattr(getattr(store, "db", None), "subscribe", None)
        self._stop = subscribe(self._heard) if subscribe is not None else None
        self.pushed = self._stop is not None
        if not self.pushed:
            screen.set_interval(every, changed)

    def _heard(self) -> None:
        """From the listening thread: a write by anyone (or the database is back)."""
        self.stale = True
        try:
            self._loop.call_soon_threadsafe(self._schedule)
        except RuntimeError:  # the app's loop has ended
            self.stop()

    def _schedule(self) -> None:
        """Run ``changed`` now, or once ``gap`` seconds after its last run: a burst
        of writes costs one read, not one per write."""
        if self._scheduled:
            return
        self._scheduled = True
        wait = self._ran_at + self.gap - time.monotonic()
        if wait > 0:
            self._loop.call_later(wait, self._run)
        else:
            self._run()

    def _run(self) -> None:
        self._scheduled = False
        self._ran_at = time.monotonic()
        if not self.screen.is_attached:
            self.stop()
            return
        self.changed()

    def due(self) -> bool:
        """Whether to look at the store now: always when polling; when pushed, after
        a change was heard (once), or :data:`FALLBACK` seconds after the last look."""
        now = time.monotonic()
        if not self.pushed or self.stale or now - self.looked_at > FALLBACK:
            self.anyway = self.pushed and not self.stale
            self.stale = False
            self.looked_at = now
            return True
        return False

    def missed(self) -> None:
        """The read that the revision asked for failed (the store busy, or away for a
        moment): look again at the next tick, and a pushed screen in
        :data:`RETRY` seconds. Else a pushed screen kept what it showed before
        until the next write by anyone, or the fallback. (A revision that cannot
        be read is not a miss: the store is away, and its return is heard.)"""
        self.stale = True
        if self.pushed and not self._scheduled:
            self._scheduled = True
            self._loop.call_later(RETRY, self._run)

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Around the read a new revision asked for: a read the store failed (busy,
        away for a moment) is :meth:`missed`, and raised on. The screen remembers
        the revision only after the read, so a failed one is read again."""
        try:
            yield
        except StoreError:
            self.missed()
            raise

    def stop(self) -> None:
        stop, self._stop = self._stop, None
        if stop is not None:
            stop()
