"""Napoleon: proving positions lost with a relaxed game.

If not even a game in which uncovered cards stay free for good can bring every
card home, the real one cannot (:func:`relaxed_lost`). The test is cheap next to
a search, and it cuts off most dead ends long before a search would have
exhausted them.
"""

from __future__ import annotations

from .cards import GUESTS, HOME, INFO, PILES, RANK, SUIT

ALL_HOME = [13, 13, 13, 13]
NEIGHBOURS = [g if len(g) == 2 else (c, c) for c, g in enumerate(GUESTS)]
"""Each card's two guests (an ace: itself twice), the cards that may leave
their piles once it is uncovered."""


def relaxed_lost(piles: list[bytes], found: list[int], loc: bytearray, idx: bytearray) -> bool:
    """Whether not even a relaxed game gets every card home. In it a card once
    uncovered stays free for good (whatever is put on it) and a host once
    uncovered takes every guest; only empty piles are counted: each king that
    is not at the bottom of its pile needs one of its own, as in the real game.
    Every real win is a relaxed win too, so ``True`` proves the position lost.

    Each pile is taken down from its top as far as the relaxed rules allow: a
    card leaves when it could go home, or onto a host that is uncovered (and
    not home in the position itself), until nothing changes (:func:`_close`).
    Every pile taken down to nothing, and every king that went home after
    taking one, makes an empty pile; when only kings are left to move, each
    king that could take an empty pile is tried in turn.
    """
    ptr = []
    free = bytearray(52)
    empty = 0
    for p in piles:
        if p:
            ptr.append(len(p) - 1)
            free[p[-1]] = 1
        else:
            ptr.append(-1)
            empty += 1
    home = list(found)
    empty = _close(piles, loc, idx, ptr, home, free, list(range(PILES)), empty, 0)
    return home != ALL_HOME and not _relax(piles, loc, idx, ptr, home, free, empty, 0, set())


def _relax(
    piles: list[bytes],
    loc: bytearray,
    idx: bytearray,
    ptr: list[int],
    home: list[int],
    free: bytearray,
    empty: int,
    kings: int,
    lost: set[int],
) -> bool:
    """Whether every card gets home from (``ptr``, ``home``, ``free``,
    ``empty`` piles, ``kings``: a bit per suit whose king took an empty pile), a position
    :func:`_close` has taken as far as it goes: when only kings can move, each
    in turn takes an empty pile.

    Where that leads depends only on which kings took a pile, not in what
    order (each is a king on top of its pile, and :func:`_close`'s end does
    not depend on the order), so the sets of kings found ``lost`` are kept and
    not searched again: at most 16 closes, not the 65 orders of four kings."""
    if home == ALL_HOME:
        return True
    if not empty:
        return False
    for i in range(PILES):
        t = ptr[i]
        if t > 0 and RANK[piles[i][t]] == 13:
            s = SUIT[piles[i][t]]
            after, up, now = ptr.copy(), home.copy(), bytearray(free)
            after[i] = t - 1
            now[piles[i][t - 1]] = 1
            g1, g2 = NEIGHBOURS[piles[i][t - 1]]
            todo = [i]
            for g in g1, g2:
                j = loc[g]
                if j != HOME and idx[g] == after[j]:
                    todo.append(j)
            more = kings | 1 << s
            if more in lost:
                continue
            left = _close(piles, loc, idx, after, up, now, todo, empty - 1, more)
            if _relax(piles, loc, idx, after, up, now, left, more, lost):
                return True
            lost.add(more)
    return False


def _close(
    piles: list[bytes],
    loc: bytearray,
    idx: bytearray,
    ptr: list[int],
    home: list[int],
    free: bytearray,
    todo: list[int],
    empty: int,
    kings: int,
) -> int:
    """Take down the piles of ``todo`` and every pile that changes lets a card
    leave, until none can; ``ptr``, ``home`` and ``free`` (the cards uncovered:
    on top of their piles or gone from them, and not home in the position
    itself) are updated, the count of empty piles is returned.

    A pile's top card leaves when it could go home, or when one of its hosts
    (not home in the position itself) is uncovered. Those only get easier as
    the game goes on, so the piles may be taken in any order and the end is
    the same: a pile is looked at again only when the card it is stuck on may
    have come free (its suit reached one below it, or one of its hosts was
    uncovered). A card uncovered stays free, and goes home when its suit
    reaches it."""
    info, neighbours = INFO, NEIGHBOURS
    pop, push = todo.pop, todo.append
    while todo:
        i = pop()
        t = ptr[i]
        if t < 0:
            continue
        p = piles[i]
        while True:
            s, r, h1, h2 = info[p[t]]
            at = home[s]
            if at == r - 1:  # home, and after it the suit's cards already free
                # (a card still in its place is never past its suit's foundation)
                base = s * 13
                while r < 13:
                    c = base + r
                    j = loc[c]
                    d = idx[c] - ptr[j]
                    if d > 0:
                        r += 1
                    else:
                        if d == 0:
                            push(j)
                        break
                if r == 13 and kings >> s & 1:
                    empty += 1  # that king leaves its pile empty
                home[s] = r
            elif r == 13 or not (free[h1] or free[h2]):
                break  # a king waits for an empty pile, any other card for a host
            t -= 1
            ptr[i] = t
            if t < 0:
                empty += 1
                break
            c = p[t]
            free[c] = 1
            g1, g2 = neighbours[c]  # uncovered: its guests may leave their piles
            j = loc[g1]
            if j != HOME and idx[g1] == ptr[j]:
                push(j)
            j = loc[g2]
            if j != HOME and idx[g2] == ptr[j]:
                push(j)
    return empty
