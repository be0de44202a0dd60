"""How promising a Stjernen position looks, for the solver's beam search.

Each foundation takes its suit K Q J ... A and then K ... A again, so every card
off the foundations has a turn: the place in its suit's sequence where it is
wanted (of two copies of a card, the one less in the way takes the earlier
turn). Each card also has a *burial*, the work before it can be played:

- in an upturned pile, the outer ring or the centre: the cards above it;
- in the stock: the deals before it turns up;
- in the inner ring: the cards above it (weighted, as each must go through the
  outer position in front), plus how long the outer position in front will stay
  busy (until the bottom card of the run there goes up). A copy behind a run of
  its own suit that must go up before the run's bottom card cannot serve that
  turn: for it, the copy counts as absent (a dead end if both copies are).

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
    bottom: bool = True
    """Block the inner pile behind an outer run by the wait of the run's bottom
    card (the last to leave), not its top."""
    late: bool = True
    """An inner card behind an outer run of its suit that must go up first counts
    as absent for the turns before the run's bottom card."""


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


def _penalty(fcount: list[int], b1: list[int], b2: list[int], w: Weights) -> int:
    """Go through each suit's remaining turns up to the horizon and return the
    sum of burial times urgency (a turn's wait only grows along a suit, so the
    walk stops at the first turn past the horizon)."""
    horizon, lam = w.horizon, w.lam
    pen = 0
    for s in range(4):
        cum = 0
        for c, later, e in _TURNS[s][fcount[s]]:
            e += lam * cum // 10
            if e >= horizon:
                break
            b = b2[c] if later else b1[c]
            pen += b * (horizon - e)
            cum += b
    return pen


def _wait(fcount: list[int], b1: list[int], b2: list[int], card: int, lam: int, cap: int) -> int:
    """The wait of ``card``'s first turn (the turns before it in its suit, and
    the burial of the cards wanted in them), at most ``cap``."""
    s = card // 13
    cum = 0
    for c, later, e in _TURNS[s][fcount[s]]:
        e += lam * cum // 10
        if e >= cap:
            return cap
        if c == card and not later:
            return e
        cum += b2[c] if later else b1[c]
    return cap


def _turn(n: int, r: int) -> int:
    """The first turn at or after ``n`` of rank index ``r`` (0 ace, 12 king)."""
    k = 12 - r
    return k if k >= n else k + 13


def _stuck(piles: list[list[int]], fcount: list[int]) -> list[list[int] | None]:
    """For each inner pile behind an outer run that cannot move away (two cards or
    more, or no other outer position empty): per card code, 1 if a copy there can
    serve only the later of its suit's turns (its first comes before the run's
    bottom card can go up), 2 if it can serve none (a dead end); else None."""
    out: list[list[int] | None] = [None, None, None, None]
    spare = sum(1 for o in OUTER if not piles[o])
    for i in INNER:
        run = piles[i + 4]
        if not run or not piles[i] or (len(run) == 1 and spare):
            continue
        out[i] = _late(run[0], fcount[run[0] // 13])
    return out


_LATE: dict[tuple[int, int], list[int]] = {}


def _late(bottom: int, n: int) -> list[int]:
    """Per card code, behind an outer run whose bottom card is ``bottom`` with ``n``
    cards of its suit up: 0 free, 1 only for the later turn, 2 of no use."""
    got = _LATE.get((bottom, n))
    if got is None:
        s = bottom // 13
        kb = _turn(n, bottom % 13)
        got = [0] * 52
        for r in range(13):
            k1 = _turn(n, r)
            if k1 < kb:
                k2 = k1 + 13
                got[s * 13 + r] = 1 if kb < k2 < 26 else 2
        _LATE[bottom, n] = got
    return got


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


_STORES = (CENTRE, *OUTER, *UP)
_DEPTHS: dict[int, list[int]] = {}


def _depths(wi: int) -> list[int]:
    """Burial of an inner card by the cards from it to the top (itself included)."""
    got = _DEPTHS.get(wi)
    if got is None:
        got = _DEPTHS[wi] = [k * wi // 10 for k in range(105)]
    return got


def evaluate(st: State, w: Weights) -> int:
    """The score of ``st`` (higher is better)."""
    piles = st.piles
    fcount = st.fcount
    b1, b2 = _stock_burials(st.stock, st.round, w.stock)
    for p in _STORES:
        b = len(piles[p])
        for c in piles[p]:
            b -= 1
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
    # How long each outer position stays busy: the wait of its run's bottom card,
    # with the inner ring counted by its own depth only; then the inner ring with
    # that, leaving out copies that a run of their suit in front makes too late.
    depth = _depths(w.inner)
    extra = [0, 0, 0, 0]
    busy = [i for i in INNER if piles[i] and piles[i + 4]]
    if busy:
        c1 = b1[:]
        c2 = b2[:]
        for i in INNER:
            k = len(piles[i])
            for c in piles[i]:
                b = depth[k]
                k -= 1
                if b < c1[c]:
                    c2[c] = c1[c]
                    c1[c] = b
                elif b < c2[c]:
                    c2[c] = b
        for i in busy:
            run = piles[i + 4]
            wait = _wait(fcount, c1, c2, run[0] if w.bottom else run[-1], w.lam, w.cap)
            extra[i] = wait * w.block // 100
    stuck = _stuck(piles, fcount) if w.late and busy else None
    later: list[tuple[int, int]] = []
    for i in INNER:
        k = len(piles[i])
        x = extra[i]
        late = stuck[i] if stuck else None
        for c in piles[i]:
            b = depth[k] + x
            k -= 1
            if late is not None and late[c]:
                if late[c] == 1:
                    later.append((c, b))
                continue
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
    # A copy that can serve only its suit's later turn: the first turn waits for
    # the other copy (absent if there is none).
    for c, b in later:
        if b < b2[c]:
            b2[c] = b
    pen = _penalty(fcount, b1, b2, w)
    score = w.foundation * sum(fcount) - w.burial * pen // 10
    cap, lam = w.cap, w.lam
    for o in OUTER:
        q = piles[o]
        if q:
            score -= w.occupied * _wait(fcount, b1, b2, q[-1], lam, cap) // 10
        else:
            score += w.empty
    centre = piles[CENTRE]
    if centre:
        score -= w.centre * _wait(fcount, b1, b2, centre[-1], lam, cap) // 10
    return score
