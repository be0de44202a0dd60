"""A token bucket: how much of something may pass, at a rate, with a burst.

Plain Python, for the terminal driver (keys a person can type) and the SSH server
(bytes a session passes on).
"""

from __future__ import annotations

import time
from collections.abc import Callable


class Bucket:
    """``rate`` tokens a second, at most ``burst`` at once.

    >>> now = [0.0]
    >>> b = Bucket(2.0, 3, clock=lambda: now[0])
    >>> [b.take() for _ in range(4)]
    [True, True, True, False]
    >>> now[0] = 0.5; b.take(), b.take()
    (True, False)
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self, n: float = 1.0) -> bool:
        """Take ``n`` tokens if there are that many (True), else take none (False)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False
