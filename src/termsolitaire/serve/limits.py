"""The limits that keep one machine usable: sessions in all and per key, and a
token bucket of connections per address.

Each check answers with the one line the player reads (None: admitted), so the
server never has to word a refusal itself.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Refusal:
    """Why a session may not start: the line the player reads, the reason logged."""

    line: str
    why: str


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimit:
    """Connections per address: ``burst`` at once, then ``per_minute`` a minute.

    >>> now = [0.0]
    >>> r = RateLimit(burst=2, per_minute=6, clock=lambda: now[0])
    >>> r.admit("10.0.0.1"), r.admit("10.0.0.1"), r.admit("10.0.0.1").why
    (None, None, 'per-address rate')
    >>> now[0] = 10.0  # one token back every 10 s
    >>> r.admit("10.0.0.1") is None, r.admit("10.0.0.2") is None
    (True, True)
    """

    burst: int
    per_minute: float
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def wait(self, address: str) -> float:
        """Seconds until ``address`` may connect again (0: now); takes a token when 0."""
        if self.burst <= 0 or self.per_minute <= 0:
            return 0.0  # no limit
        now = self.clock()
        rate = self.per_minute / 60.0
        b = self._buckets.get(address)
        if b is None:
            b = self._buckets[address] = _Bucket(float(self.burst), now)
        b.tokens = min(float(self.burst), b.tokens + (now - b.stamp) * rate)
        b.stamp = now
        if len(self._buckets) > 10_000:
            self._forget_full(now, rate)
        if b.tokens >= 1.0:
            b.tokens -= 1.0
            return 0.0
        return (1.0 - b.tokens) / rate

    def admit(self, address: str) -> Refusal | None:
        """None when ``address`` may connect now (a token is taken), else the refusal."""
        wait = self.wait(address)
        if wait <= 0:
            return None
        line = (
            f"Too many connections from {address}: "
            f"try again in {math.ceil(wait)} s (at most {self.per_minute:g} a minute)."
        )
        return Refusal(line, "per-address rate")

    def _forget_full(self, now: float, rate: float) -> None:
        """Drop the buckets that have filled up again: they hold nothing worth keeping."""
        for address, b in list(self._buckets.items()):
            if b.tokens + (now - b.stamp) * rate >= self.burst:
                del self._buckets[address]


@dataclass
class Caps:
    """Sessions running: at most ``total`` in all and ``per_key`` for one account.

    >>> caps = Caps(total=2, per_key=1)
    >>> caps.admit("alice") is None
    True
    >>> caps.add("alice"); print(caps.admit("alice").line)
    You already have 1 session here (the most one key may have); close one and connect again.
    >>> caps.add("bob"); caps.admit("carol")
    Refusal(line='The server is full (2 sessions); try again later.', why='total cap')
    >>> caps.remove("bob"); caps.admit("carol") is None
    True
    """

    total: int
    per_key: int
    _running: Counter[str] = field(default_factory=Counter)
    shared: ClassVar[bool] = False
    """Whether other hosts count these sessions (then :meth:`beat` must run)."""
    where: ClassVar[str] = "here"
    """Where the player's sessions were counted, as the per-key refusal says it."""

    def admit(self, key: str | None) -> Refusal | None:
        """None when one more session for ``key`` (None: a guest) fits, else the refusal."""
        if self.total > 0 and sum(self._running.values()) >= self.total:
            line = f"The server is full ({self.total} sessions); try again later."
            return Refusal(line, "total cap")
        if key is not None and self.per_key > 0 and self._running[key] >= self.per_key:
            return self._key_full()
        return None

    def _key_full(self) -> Refusal:
        """The refusal of one more session to a key that has its ``per_key``:
        the same words whether this host counts or all hosts do (:attr:`where`)."""
        n = self.per_key
        line = (
            f"You already have {n} session{'s' if n != 1 else ''} {self.where} "
            "(the most one key may have); close one and connect again."
        )
        return Refusal(line, "per-key cap")

    def add(self, key: str | None) -> None:
        self._running[key or ""] += 1

    def remove(self, key: str | None) -> None:
        self._running[key or ""] -= 1
        if self._running[key or ""] <= 0:
            del self._running[key or ""]

    def count(self, key: str | None = None) -> int:
        """Sessions running for ``key``, or in all when None."""
        return sum(self._running.values()) if key is None else self._running[key]

    def beat(self) -> None:
        """Refresh what other hosts see of this one's sessions (nothing here: the
        count is this host's own; :class:`~.sessions.SharedCaps` shares it)."""

    def stop(self) -> None:
        """A clean stop begins (nothing here; :class:`~.sessions.SharedCaps` marks its
        rows)."""

    def close(self) -> None:
        """This host stops counting."""


def parse_duration(text: str) -> float:
    """Seconds from ``90s``, ``30m``, ``8h`` or a bare number of minutes; 0 turns a
    limit off.

    >>> parse_duration("30"), parse_duration("90s"), parse_duration("1.5h"), parse_duration("0")
    (1800.0, 90.0, 5400.0, 0.0)
    """
    text = text.strip().lower()
    unit = {"s": 1.0, "m": 60.0, "h": 3600.0}.get(text[-1:])
    number = text[:-1] if unit is not None else text
    try:
        value = float(number)
    except ValueError:
        raise ValueError(f"not a duration: {text!r} (try 30m, 90s or 8h)") from None
    if value < 0 or not math.isfinite(value):
        raise ValueError(f"not a duration: {text!r} (try 30m, 90s or 8h)")
    return value * (unit if unit is not None else 60.0)


def duration_text(seconds: float) -> str:
    """``1 h 30 min``, ``30 min``, ``45 s``: a limit as the player reads it.

    >>> duration_text(5400), duration_text(1800), duration_text(45), duration_text(90)
    ('1 h 30 min', '30 min', '45 s', '90 s')

    Under half a second (a session refused at once, in the log's ``after=``) is
    ``0 s``, not ``0 min``:

    >>> duration_text(0.2)
    '0 s'
    """
    s = round(seconds)
    if s < 120 and (s % 60 or not s):
        return f"{s} s"
    h, m = divmod(s // 60, 60)
    if h and m:
        return f"{h} h {m} min"
    return f"{h} h" if h else f"{m} min"
