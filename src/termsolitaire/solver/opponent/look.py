"""Looking past the next card, without peeking: the expert's lookahead.

:func:`~.plan.plan` values a turn with its card unknown (a blank), and a deal
not at all. Here the planner weighs its best few candidate lines — each up to
a turn, or arrangements to deal from — by what may come of them: on each of a
few guesses of the card that turns up (or of the ten a deal brings), drawn
from the cards not seen, it plans again from the position the guess makes,
with every other hidden card still unknown, and scores the line by the best
position that second plan reaches, averaged over the guesses.

A guess only decides what a card turns out to be *when it shows*: the second
plan cannot see any card still face down, so it arranges nothing with
hindsight (the trap of searching whole guessed deals, docs/match.md). Every
line is judged on the same guesses (the first unseen card of each shuffle
turns up, whichever pile it is turned on), so the comparison between lines
is not blurred by luck. The guesses come from the view's unseen cards, a
set without places, so the choice cannot depend on where a hidden card lies.
"""

from __future__ import annotations

import random

from ..spider.search import line_of
from ..spider.state import DEAL_MOVE, PILES, TURN, PileInfo, SpiderMove, SpiderState
from .plan import Tree, search


def guesses(unseen: tuple[int, ...], count: int, rng: random.Random) -> list[list[int]]:
    """``count`` shuffles of the unseen cards: the order in which they might show."""
    out = []
    for _ in range(count):
        cards = list(unseen)
        rng.shuffle(cards)
        out.append(cards)
    return out


def _first_turns(tree: Tree) -> list[int]:
    """For each node, the node of the first turn on its line (-1: none)."""
    first = [-1] * len(tree.parents)
    for n in range(1, len(tree.parents)):
        p = first[tree.parents[n]]
        first[n] = p if p >= 0 else (n if tree.moves[n][1] == TURN else -1)
    return first


def _best_nodes(tree: Tree) -> list[int]:
    return sorted(range(len(tree.values)), key=lambda n: (tree.values[n], n))


def _followed(state: SpiderState, tree: Tree, node: int, nodes: int, w: dict[str, int]) -> float:
    """The best value a plan of ``nodes`` positions reaches from ``state``,
    plus the moves to ``node`` that led there."""
    sub = search(state, nodes, w)
    depth = 0
    while node > 0:
        depth += 1
        node = tree.parents[node]
    return sub.values[sub.best] + depth * w["move"]


def choose_turn(
    state: SpiderState,
    tree: Tree,
    limit: int,
    shows: list[list[int]],
    nodes: int,
    w: dict[str, int],
) -> list[SpiderMove] | None:
    """Of the ``limit`` best lines up to a turn in ``tree`` (searched from
    ``state``, a known state, unchanged), the one whose turned card, guessed
    as each of ``shows``, leads to the best second plan of ``nodes`` positions;
    None when the best line of the tree does not turn a card."""
    first = _first_turns(tree)
    if first[tree.best] < 0 or not shows:
        return None
    ends: list[int] = []
    for n in _best_nodes(tree):
        t = first[n]
        if t >= 0 and t not in ends:
            ends.append(t)
            if len(ends) >= limit:
                break
    if len(ends) == 1:
        return line_of(tree.parents, tree.moves, ends[0])
    scores = []
    for t in ends:
        line = line_of(tree.parents, tree.moves, t)
        total = 0.0
        for cards in shows:
            s = state.copy()
            for m in line:
                s.make(m)
            i = line[-1][0]
            s.piles[i] = (*s.piles[i][:-1], cards[0])
            s.info[i] = PileInfo(s.piles[i], s.down[i], i)
            total += _followed(s, tree, t, nodes, w)
        scores.append(total / len(shows))
    best = min(range(len(ends)), key=lambda j: (scores[j], j))
    return line_of(tree.parents, tree.moves, ends[best])


def choose_deal(
    state: SpiderState,
    tree: Tree,
    limit: int,
    shows: list[list[int]],
    nodes: int,
    w: dict[str, int],
) -> list[SpiderMove]:
    """The line (transfers, then the deal) to the best of the ``limit`` best
    positions of ``tree`` to deal from: the one whose deal, guessed as each of
    ``shows``, leads to the best second plan of ``nodes`` positions."""
    first = _first_turns(tree)
    ends = [n for n in _best_nodes(tree) if first[n] < 0][:limit]
    if 0 not in ends:
        ends.append(0)
    if len(ends) == 1 or not shows:
        return [DEAL_MOVE]
    scores = []
    for t in ends:
        line = line_of(tree.parents, tree.moves, t)
        total = 0.0
        for cards in shows:
            s = state.copy()
            for m in line:
                s.make(m)
            s.stock[-PILES:] = cards[:PILES]
            s.make(DEAL_MOVE)
            total += _followed(s, tree, t, nodes, w)
        scores.append(total / len(shows))
    best = min(range(len(ends)), key=lambda j: (scores[j], j))
    return [*line_of(tree.parents, tree.moves, ends[best]), DEAL_MOVE]
