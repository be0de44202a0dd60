"""Planning on what the opponent can see: searches that never need a hidden card.

:func:`plan` looks for the best position reachable with the cards in view:
transfers, and turns whose card is a blank (it fits nowhere and takes nothing).
The opponent plays the line up to its first turn, sees the real card, and
plans again.
"""

from __future__ import annotations

import heapq
from typing import Any

from ..spider.search import line_of, search_moves
from ..spider.state import PILES, TURN, SpiderMove, SpiderState

FW = {
    "hidden": 25,
    "segs": 4,
    "bad": 4,
    "nat": 1,
    "empty": 8,
    "done": 20,
    "bare": 0,
    "clear": 0,
    "cover": 0,
    "move": 1,
    "square": 0,
    "room": 0,
}
"""The weights of :func:`evaluate` in 2- and 4-suit games."""

FW_ONE_SUIT = {**FW, "bare": 8, "clear": 6, "empty": 4}
"""The weights in 1-suit games. A pile holding only face-down cards takes any
card, like an empty one, and its card turns only when the player chooses: it
is room to work, worth keeping (``bare``), not a pile to fill with a run and
bury. A pile with no face-down card left (``clear``) can be emptied for good;
an empty pile weighs 4 rather than 8 (found by trial, with bare piles now
counted as room too). On 1-suit deals 1-400 the good level wins 85.5% with
these weights, 66.5% without; with two suits a run rarely fits the card a bare
pile turns up, and the same weights lose (35.0% against 47.2%)."""

FW_ONE_SUIT_EXPERT = {**FW_ONE_SUIT, "cover": 2}
"""The expert's weights in 1-suit games: a face-up segment on a pile that still
hides cards (``cover``) costs 2 more, the work between the player and those
cards. The expert wins 55 of 1-suit deals 1-60 with them, 52 without (730.4 mean
score against 708.8; 72 of 1-80 against 70, a small gain); the good level,
which looks 20 times less far, loses with them (333 of deals 1-400 against
342), so it keeps :data:`FW_ONE_SUIT` (docs/journal/match.md, expert12)."""


FW_FOUR = {**FW, "nat": 3, "square": 2}
"""The weights in 4-suit games. With four suits most cards that fit by rank
are of another suit, and a run of mixed suits is a wall: it moves only card by
card, and no suit completes inside it. So a break between suits costs more
(``nat`` 3, not 1) and a long same-suit run is worth more than its breaks say
(``square``: tenths of a point per squared run length, so joining two runs of
five gains 10, two runs of two 1): the planner then builds in suit where it can
and keeps the rank-only fits for when nothing else frees a card. The expert
wins 13 of 4-suit deals 1-40 (9 with the 2-suit weights, 340 mean score against
256); ``square`` 4 did worse (docs/journal/match.md)."""


def weights(suits: int) -> dict[str, int]:
    """The planner's weights for a game of ``suits`` suits."""
    return FW_ONE_SUIT if suits == 1 else FW if suits == 2 else FW_FOUR


def evaluate(state: SpiderState, w: dict[str, int]) -> int:
    """How far the position is from a win, as far as the opponent can see (lower is
    better), by the weights ``w``."""
    info = state.info
    down = state.down
    segs = bad = nat = empty = bare = cover = clear = square = 0
    for i in range(PILES):
        f = info[i]
        segs += f.segs
        square += f.square
        if down[i]:
            cover += f.segs
        else:
            clear += 1
        bad += f.bad
        nat += f.nat
        if not f.run:
            if down[i]:
                bare += 1
            else:
                empty += 1
    # Once the stock is dealt, no card comes to fill a pile: a board with no
    # empty pile and no bare one can go on only by cards that fit (``room``).
    room = w["room"] if not state.stock and not empty and not bare else 0
    return (
        room
        + sum(down) * w["hidden"]
        + segs * w["segs"]
        + bad * w["bad"]
        + nat * w["nat"]
        - empty * w["empty"]
        - bare * w["bare"]
        - len(state.done) * w["done"]
        + cover * w["cover"]
        - clear * w["clear"]
        - square * w["square"] // 10
    )


def plan(state: SpiderState, max_nodes: int, w: dict[str, int]) -> tuple[list[SpiderMove], int]:
    """The line (transfers and turns, no deal) to the best position found within
    ``max_nodes`` positions by :func:`evaluate` with the weights ``w``, and how
    much better than the start it is (0: none).

    Each move costs ``w["move"]`` (a move costs a point and a moment of the clock).
    """
    line, gain, _ = counted_plan(state, max_nodes, w)
    return line, gain


def counted_plan(
    state: SpiderState, max_nodes: int, w: dict[str, int]
) -> tuple[list[SpiderMove], int, int]:
    """:func:`plan`, and the positions it searched (at most ``max_nodes``)."""
    move_cost = w["move"]
    stock = state.stock[:]
    root_value = evaluate(state, w)
    parents = [-1]
    moves: list[SpiderMove] = [(-1, -1, 0)]
    depth = [0]
    done = [len(state.done)]
    seen = {state.key}
    heap: list[tuple[int, int, Any]] = [(root_value, 0, state.snapshot())]
    best, best_value = 0, root_value  # every value is an int (mypyc keeps a float apart)
    while heap and len(parents) < max_nodes:
        _, node, snap = heapq.heappop(heap)
        state.restore(snap, stock)
        g = depth[node] + 1
        # The move that takes back the one that led here returns to the parent,
        # a position seen: not made (unless that move completed a run, which a
        # move back does not restore).
        src, dst, k = moves[node]
        back = (dst, src, k) if node and dst >= 0 and done[node] == done[parents[node]] else None
        here = state.key
        for m in plan_moves(state):
            if m == back:
                continue
            # Most moves reach a position seen: its key is read from the
            # moved cards, and the move is made only when the key is new.
            read = state.child_key(m, here)
            if read is not None and read in seen:
                continue
            token = state.make(m)
            key = state.key if read is None else read
            if key not in seen:
                seen.add(key)
                n = len(parents)
                parents.append(node)
                moves.append(m)
                depth.append(g)
                done.append(len(state.done))
                value = evaluate(state, w) + g * move_cost
                if value < best_value:
                    best, best_value = n, value
                heapq.heappush(heap, (value, n, state.snapshot()))
            state.unmake(m, token)
    return line_of(parents, moves, best), root_value - best_value, len(parents)


def plan_moves(state: SpiderState) -> list[SpiderMove]:
    """The solver's moves worth trying
    (:func:`~termsolitaire.solver.spider.search.search_moves`), less deals and
    less swaps: a whole run that lies on a card one rank higher of another suit
    moving onto another card that is not of its suit."""
    piles, down, info = state.piles, state.down, state.info
    moves = []
    for m in search_moves(state):
        src, dst, k = m
        if src < 0:
            continue
        if dst >= 0 and k == info[src].run and piles[dst]:
            p = piles[src]
            follows = len(p) - k > down[src] and (p[-k - 1] & 15) == (p[-k] & 15) + 1
            if follows and len(piles[dst]) > down[dst] and (piles[dst][-1] >> 4) != (p[-k] >> 4):
                continue
        moves.append(m)
    return moves


def up_to_turn(line: list[SpiderMove]) -> list[SpiderMove]:
    """The start of ``line`` up to its first turn or deal, included."""
    for i, m in enumerate(line):
        if m[0] < 0 or m[1] == TURN:
            return line[: i + 1]
    return line
