"""How promising a Stjernen position looks, for the solver's beam search.

Each foundation takes its suit K Q J ... A and then K ... A again, so every card
off the foundations has a turn: the place in its suit's sequence where it is
wanted (of two copies of a card, the one less in the way takes the earlier
turn). Each card also has a *burial*, the work before it can be played:

- in an upturned pile, the outer ring or the centre: the cards above it;
- in the stock: the deals before it turns up;
- in the inner ring: the cards above it (weighted, as each must go through the
  outer position in front), plus how long the outer position in front will stay
  busy.

A card's *wait* counts the turns before its own and the burial of the cards
wanted in those turns (a run waiting for a buried card waits long). The score
is the foundation cards, less the burial of each card weighted by how soon it is
wanted, less the wait of what each outer position and the centre hold, plus a
bonus per empty outer position. Units: a foundation card is worth
``Weights.foundation``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .stjernen_state import CENTRE, FULL, INNER, OUTER, UP, State

BIG = 50
"""Burial of a copy that is not there (on a foundation already)."""
_NO_WAIT = 999


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights (waits and horizons in tenths of a turn)."""

    foundation: int = 1000
    inner: int = 40
    """Burial per inner card above, in tenths."""
    stock: int = 10
    """Burial per deal still to come before a stock card turns up, in tenths."""
    burial: int = 20
    """Weight of burial times urgency, in tenths."""
    horizon: int = 150
    """Cards wanted later than this wait (tenths of a turn) do not count."""
    lam: int = 30
    """How much the burial of earlier cards adds to a card's wait, in tenths."""
    block: int = 20
    """Burial added to inner cards per tenth of the wait of the outer card in front."""
    cap: int = 300
    """The longest wait counted for a card in the outer ring or the centre."""
    occupied: int = 100
    """Cost per turn of wait of an outer position's top card."""
    empty: int = 300
    """Bonus per empty outer position."""
    centre: int = 100
    """Cost per turn of wait of the centre's top card."""


def _turns() -> list[list[list[tuple[int, bool, int]]]]:
    """For each suit and foundation height: the turns still to come, each as
    (card, whether it is the later copy's turn, turns before it in tenths)."""
    table = []
    for s in range(4):
        rows = []
        for n in range(FULL + 1):
            row = []
            for k in range(n, FULL):
                r = 12 - k % 13
                row.append((s * 13 + r, k >= 13 and n <= 12 - r, (k - n) * 10))
            rows.append(row)
        table.append(rows)
    return table


_TURNS = _turns()


def _walk(
    fcount: list[int], b1: list[int], b2: list[int], eff1: list[int], eff2: list[int], w: Weights
) -> int:
    """Go through each suit's remaining turns; fill the wait of each copy's turn
    (``eff1`` the earlier copy, ``eff2`` the later) and return the sum of burial
    times urgency."""
    horizon, lam = w.horizon, w.lam
    pen = 0
    for s in range(4):
        cum = 0
        for c, later, e in _TURNS[s][fcount[s]]:
            e += lam * cum // 10
            if later:
                b = b2[c]
                eff2[c] = e
            else:
                b = b1[c]
                eff1[c] = e
            if e < horizon:
                pen += b * (horizon - e)
            cum += b
    return pen


def _wait(fcount: list[int], b1: list[int], b2: list[int], card: int, lam: int) -> int:
    """The wait of ``card``'s first turn (a short :func:`_walk` of one suit)."""
    s = card // 13
    cum = 0
    for c, later, e in _TURNS[s][fcount[s]]:
        if c == card and not later:
            return e + lam * cum // 10
        cum += b2[c] if later else b1[c]
    return _NO_WAIT


_STOCK_CACHE: dict[tuple[int, int, tuple[int, ...]], tuple[list[int], list[int]]] = {}


def _stock_burials(stock: list[int], round_: int, ws: int) -> tuple[list[int], list[int]]:
    """Fresh burial arrays holding the stock's cards (the stock changes only when
    dealt or collected, so the work is kept)."""
    key = (round_, ws, tuple(stock))
    got = _STOCK_CACHE.get(key)
    if got is None:
        b1 = [BIG] * 52
        b2 = [BIG] * 52
        top = len(stock) - 1
        width = 7 - round_
        for d, c in enumerate(stock):
            b = ((top - d) // width + 1) * ws // 10
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
        if len(_STOCK_CACHE) > 4096:
            _STOCK_CACHE.clear()
        got = _STOCK_CACHE[key] = (b1, b2)
    return got[0][:], got[1][:]


def evaluate(st: State, w: Weights) -> int:
    """The score of ``st`` (higher is better)."""
    piles = st.piles
    fcount = st.fcount
    b1, b2 = _stock_burials(st.stock, st.round, w.stock)
    for p in (CENTRE, *OUTER, *UP):
        cards = piles[p]
        top = len(cards) - 1
        for d, c in enumerate(cards):
            b = top - d
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
    # How long each outer position stays busy: the wait of its top card, with
    # the inner ring counted by its own depth only; then the inner ring with that.
    wi = w.inner
    extra = [0, 0, 0, 0]
    busy = [i for i in INNER if piles[i] and piles[i + 4]]
    if busy:
        c1 = b1[:]
        c2 = b2[:]
        for i in INNER:
            cards = piles[i]
            n = len(cards)
            for d, c in enumerate(cards):
                b = (n - d) * wi // 10
                if b < c1[c]:
                    c2[c] = c1[c]
                    c1[c] = b
                elif b < c2[c]:
                    c2[c] = b
        for i in busy:
            top = piles[i + 4][-1]
            wait = _wait(fcount, c1, c2, top, w.lam)
            extra[i] = min(w.cap, wait) * w.block // 100
    for i in INNER:
        cards = piles[i]
        n = len(cards)
        x = extra[i]
        for d, c in enumerate(cards):
            b = (n - d) * wi // 10 + x
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
    eff1 = [_NO_WAIT] * 52
    eff2 = [_NO_WAIT] * 52
    pen = _walk(fcount, b1, b2, eff1, eff2, w)
    score = w.foundation * sum(fcount) - w.burial * pen // 10
    cap = w.cap
    for o in OUTER:
        p = piles[o]
        if p:
            score -= w.occupied * min(cap, eff1[p[-1]]) // 10
        else:
            score += w.empty
    c = piles[CENTRE]
    if c:
        score -= w.centre * min(cap, eff1[c[-1]]) // 10
    return score
