"""The pile nearest another in a direction: arrow keys on the circle and the star.

Positions are board cells, where a row is about twice as tall as a column is
wide, so rows count double. A pile is a candidate when it lies ahead (in the
direction pressed) within a cone twice as wide as it is deep; the one with
the least distance ahead plus twice the distance sideways wins. On a board in
rows and columns (the star, read like a keypad, where Left from 3 is 2), a pile
within a narrow cone (a quarter as wide as it is deep) comes first.

>>> centres = {"n": (10, 0), "e": (20, 5), "s": (10, 10), "c": (10, 5)}
>>> nearest(centres, "c", 0, -1), nearest(centres, "c", 1, 0), nearest(centres, "e", 1, 0)
('n', 'e', None)
"""

from __future__ import annotations

from collections.abc import Mapping


def nearest(
    centres: Mapping[str, tuple[float, float]],
    start: str,
    dx: int,
    dy: int,
    *,
    lines: bool = False,
) -> str | None:
    """The pile nearest ``start`` in direction (``dx``, ``dy``), or None; with
    ``lines`` (a board laid out in rows and columns, like the star's keypad), a
    pile in the same row or column comes first."""
    if start not in centres:
        return None
    x0, y0 = centres[start]
    for width in (0.25, 2.0) if lines else (2.0,):
        best: tuple[float, str] | None = None
        for name, (x, y) in centres.items():
            if name == start:
                continue
            ex, ey = (x - x0) / 2, y - y0
            along = ex * dx + ey * dy
            across = abs(ex * dy - ey * dx)
            if along <= 0 or across > width * along:
                continue
            score = along + 2 * across
            if best is None or score < best[0]:
                best = (score, name)
        if best is not None:
            return best[1]
    return None
