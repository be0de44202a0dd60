"""Napoleon: proving positions lost with a relaxed game.

If not even a game in which uncovered cards stay free for good can bring every
card home, the real one cannot (:func:`relaxed_lost`). The test is cheap next to
a search, and it cuts off most dead ends long before a search would have
exhausted them.
"""

from __future__ import annotations

from .cards import HOME, INFO, PILES, RANK, SUIT


def relaxed_lost(piles: list[bytes], found: list[int], loc: bytearray, idx: bytearray) -> bool:
    """Whether not even a relaxed game gets every card home. In it a card once
    uncovered stays free for good (whatever is put on it) and a host once
    uncovered takes every guest; only empty piles are counted: each king that
    is not at the bottom of its pile needs one of its own, as in the real game.
    Every real win is a relaxed win too, so ``True`` proves the position lost.

    Each pile is taken down from its top as far as the relaxed rules allow: a
    card leaves when it could go home, or onto a host that is not home and has
    been uncovered, over and over until nothing changes (:func:`_relax`).
    Every pile taken down to nothing, and every king that went home after
    taking one, makes an empty pile; when only kings are left to move, each
    king that could take an empty pile is tried in turn.
    """
    ptr = [len(p) - 1 for p in piles]
    return not _relax(piles, loc, idx, ptr, list(found), ptr.count(-1), 0)


def _relax(
    piles: list[bytes],
    loc: bytearray,
    idx: bytearray,
    ptr: list[int],
    home: list[int],
    empty: int,
    kings: int,
) -> bool:
    """Run the relaxed game on (``ptr``, ``home``, ``empty`` piles, ``kings``: a
    bit per suit whose king took an empty pile); whether every card gets home."""
    info = INFO
    moved = True
    while moved:
        moved = False
        for i in range(PILES):
            t = start = ptr[i]
            p = piles[i]
            while t >= 0:
                s, r, h1, h2 = info[p[t]]
                at = home[s]
                if at >= r - 1:
                    if at == r - 1:
                        home[s] = r
                elif r == 13:
                    break
                else:  # onto a host that is not home and has been uncovered
                    i1 = loc[h1]
                    if i1 == HOME or idx[h1] < ptr[i1]:
                        i2 = loc[h2]
                        if i2 == HOME or idx[h2] < ptr[i2]:
                            break
                t -= 1
            if t != start:
                moved = True
                ptr[i] = t
                if t < 0:
                    empty += 1
        for s in range(4):
            at = home[s]
            while at < 13 and idx[s * 13 + at] >= ptr[loc[s * 13 + at]]:
                at += 1
                moved = True
                if at == 13 and kings >> s & 1:
                    empty += 1  # that king leaves its pile empty
            home[s] = at
    if home == [13, 13, 13, 13]:
        return True
    if not empty:
        return False
    for i in range(PILES):
        t = ptr[i]
        if t > 0 and RANK[piles[i][t]] == 13:
            s = SUIT[piles[i][t]]
            branch = ptr.copy()
            branch[i] = t - 1
            if _relax(piles, loc, idx, branch, home.copy(), empty - 1, kings | 1 << s):
                return True
    return False
