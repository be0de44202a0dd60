"""The Stjernen evaluation written plainly (as it was before it was made
faster): every card's two burials in one pass per place, each wait walked on
its own. :mod:`termsolitaire.solver.stjernen.evaluation` must score every position
exactly as this does."""

from __future__ import annotations

from termsolitaire.solver.stjernen.evaluation import _TURNS, BIG, Weights, _late
from termsolitaire.solver.stjernen.state import CENTRE, INNER, OUTER, UP, State

_STORES = (CENTRE, *OUTER, *UP)


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


def _stock_burials(stock: list[int], round_: int, ws: int) -> tuple[list[int], list[int]]:
    """Burial arrays holding the stock's cards."""
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
    return b1, b2


def _next_round(st: State, ws: int) -> dict[tuple[int, int], int]:
    """Per upturned card, as (pile, index from the bottom): the deals before it
    turns up in the next round, found by dealing the stock out, gathering the
    piles and counting, as the rules do it (none in the last round)."""
    width = 7 - st.round
    if width == 1:
        return {}
    piles: list[list[tuple[int, int] | None]] = [
        [(u, k) for k in range(len(st.piles[u]))] for u in UP
    ]
    stock = len(st.stock)
    deals = 0
    while stock:
        deals += 1
        for j in range(width):
            if stock:
                piles[j].append(None)
                stock -= 1
    gathered = [tag for p in piles for tag in p]
    return {
        tag: (deals + t // (width - 1) + 1) * ws // 10
        for t, tag in enumerate(gathered)
        if tag is not None
    }


def evaluate(st: State, w: Weights) -> int:
    """The score of ``st`` (higher is better)."""
    piles = st.piles
    fcount = st.fcount
    b1, b2 = _stock_burials(st.stock, st.round, w.stock)
    again = _next_round(st, w.stock) if w.next_round else {}
    for p in _STORES:
        for k, c in enumerate(piles[p]):
            b = len(piles[p]) - 1 - k
            if (p, k) in again:
                b = min(b, again[p, k])
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
    # How long each outer position stays busy: the wait of its run's bottom card,
    # with the inner ring counted by its own depth only; then the inner ring with
    # that, leaving out copies that a run of their suit in front makes too late.
    depth = [k * w.inner // 10 for k in range(105)]
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
