"""Glicko-2 ratings of the match players (Glickman, "Example of the Glicko-2
system", 2013), worked out from the match outcomes the store keeps.

Nothing about a rating is stored: every rating is computed again from the
append-only ``outcomes`` (one pair of rows per finished match, written once,
the same by every process because results are replayed), in the order the
matches were recorded. So no player can change another's rating, and a
killed process loses none: its match is rated once its outcome is written.

Each match is a rating period of its own for both players (their ratings just
before it are the ones used). The computer levels are fixed anchors
(:data:`ANCHORS`): playing them moves a person's rating, never theirs, so a
rating means the same on every host. A player is *provisional* until
:data:`PROVISIONAL` matches.

Glickman's worked example: a 1500 player (RD 200, volatility 0.06) beats a
1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300). The paper
prints 1464.06, 151.52 and 0.05999 from rounded intermediate values
(mu' = -0.2069); unrounded, the rating is 1464.05:

>>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0),
...     (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
>>> round(r.rating, 2), round(r.deviation, 2), round(r.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .identity import is_guest

SCALE = 173.7178
"""Glicko-2's factor between the Glicko scale and its own."""
TAU = 0.5
"""The system constant (how much the volatility may change): Glickman suggests 0.3 to 1.2."""
EPSILON = 0.000001
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
MIN_DEVIATION = 30.0
"""A deviation never goes below this, so a long-settled rating still moves."""
PROVISIONAL = 10
"""A player is provisional until this many rated matches."""

ANCHORS: dict[str, float] = {
    "computer:beginner": 1100.0,
    "computer:casual": 1400.0,
    "computer:good": 1700.0,
    "computer:expert": 2000.0,
}
"""The computer levels' fixed ratings (docs/match.md says why these)."""
ANCHOR_DEVIATION = 50.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating, its deviation (RD) and volatility, on the Glicko scale;
    ``matches`` counts the rated matches behind it."""

    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    matches: int = 0

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL

    def text(self) -> str:
        """``1523 ±87``, with ``?`` while provisional.

        >>> Rating().text(), Rating(1612.4, 61.2, matches=12).text()
        ('1500 ±350?', '1612 ±61')
        """
        mark = "?" if self.provisional else ""
        return f"{self.rating:.0f} ±{self.deviation:.0f}{mark}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float) -> float:
    """Step 5 of the paper: the new volatility (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[tuple[Rating, float]]) -> Rating:
    """``player`` after one rating period of ``games``: (opponent, score) with score
    1 for a win, 0.5 a draw, 0 a loss. No games: only the deviation grows."""
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(phi_star * SCALE, START_DEVIATION), sigma, player.matches)
    v_inv = 0.0
    total = 0.0
    for opp, score in games:
        mu_j = (opp.rating - START) / SCALE
        phi_j = opp.deviation / SCALE
        e = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma2 = _volatility(sigma, phi, v, delta)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    deviation = min(max(phi2 * SCALE, MIN_DEVIATION), START_DEVIATION)
    return Rating(mu2 * SCALE + START, deviation, sigma2, player.matches + len(games))


def anchor(player_id: str) -> Rating | None:
    """The fixed rating of a computer level; None for a person."""
    value = ANCHORS.get(player_id)
    if value is None:
        return None
    return Rating(value, ANCHOR_DEVIATION, START_VOLATILITY, PROVISIONAL)


SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def rate(matches: Iterable[tuple[str, str, str]]) -> dict[str, Rating]:
    """Every player's rating after ``matches``, in order: ``(player, opponent,
    result)`` with ``result`` the first player's ``win``, ``loss`` or ``draw``.

    A match with a guest on either side is not rated (it stays in both records):
    a hot-seat guest is any name the host types, and a guest of ``serve --open``
    a new id at every connection, so beating made-up guests raised a rating
    at will (playtest40: 1468 to 1619 in one hot-seat match against "ann").

    >>> r = rate([("ann", "bob", "win")])
    >>> r["ann"].rating > 1500 > r["bob"].rating, r["ann"].matches
    (True, 1)
    >>> rate([("ann", "computer:expert", "loss")])["computer:expert"].rating
    2000.0
    >>> "ann" in rate([("ann", "guest:ann:Bob", "win")])
    False
    """
    out: dict[str, Rating] = {}

    def current(pid: str) -> Rating:
        return anchor(pid) or out.get(pid) or Rating()

    for a, b, result in matches:
        if is_guest(a) or is_guest(b):
            continue
        ra, rb = current(a), current(b)
        score = SCORES[result]
        if anchor(a) is None:
            out[a] = update(ra, [(rb, score)])
        if anchor(b) is None:
            out[b] = update(rb, [(ra, 1.0 - score)])
    for pid in ANCHORS:
        out.setdefault(pid, current(pid))
    return out


def read_ratings(db: sqlite3.Connection) -> dict[str, Rating]:
    """Every player's rating from the match outcomes in ``db``, in the order the
    matches were recorded (one row per match: the pair's first player's)."""
    rows = db.execute(
        "SELECT player, opponent, result FROM outcomes WHERE player < opponent "
        "ORDER BY at, table_id"
    ).fetchall()
    return rate((r["player"], r["opponent"], r["result"]) for r in rows)
