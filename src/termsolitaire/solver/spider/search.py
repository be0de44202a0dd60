"""The two searches of the Spider solver (see :mod:`termsolitaire.solver.spider`).

:class:`BestFirst` finds wins: a best-first search guided by :func:`evaluate`,
over the moves :func:`search_moves` thinks worth trying, with one queue per
number of packets left in the stock. It cannot prove a loss (it leaves moves
out). :func:`prove` can: a depth-first search over every legal move, whose
only shortcut is exact (once the stock is empty, the piles are interchangeable
and one empty pile stands for all); when it runs out of positions, no win exists.
The finders skip positions by a 64-bit hash (:attr:`SpiderState.key`): a
collision could hide a win from them, never make a loss. The prover keeps the
positions themselves (:meth:`SpiderState.exact`), so no collision can prune it.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from .state import _ZAT, _ZSTOCK, DEAL_MOVE, MASK, PILES, TURN, SpiderMove, SpiderState

Outcome = Literal["won", "lost", "exhausted", "unknown"]

HIDDEN, SEGS, BAD, NAT, STOCK, BARE, BARE_CAP, DONE = 16, 4, 4, 1, 5, 6, 3, 20
"""Weights of :func:`evaluate`, tuned on deals 1-200 of 2-suit Spider."""
DEPTH = 4
"""Every ``DEPTH`` moves from the start cost one point in the search's order:
among equal positions, the shorter line first."""
BYTES_PER_POSITION = 1000
"""A generous estimate of the memory one position costs the search."""


class Weights(NamedTuple):
    """The weights of :func:`evaluate` and of a line's length in :class:`BestFirst`."""

    hidden: int = HIDDEN
    segs: int = SEGS
    bad: int = BAD
    nat: int = NAT
    stock: int = STOCK
    bare: int = BARE
    bare_cap: int = BARE_CAP
    done: int = DONE
    square: int = 0
    """Tenths of a point per squared length of a same-suit run: long runs are
    worth more than their breaks say (a suit is completed as one run of 13)."""
    depth: int = DEPTH
    noise: int = 0
    """With a seed, each position's order gets a random ``0..noise-1`` points
    more: a restart (:func:`~termsolitaire.solver.spider.solve`) then walks the
    plateau of positions the evaluation cannot tell apart in another order."""
    lateral: bool = True
    """Whether :func:`search_moves` tries runs moved across, from a card of the
    right rank to another (without, it tries fewer moves)."""
    turn: bool = False
    """Whether a move that leaves a pile with only face-down cards is followed
    by its turn in the same step (:class:`BestFirst`): no run is then parked
    on face-down cards, and the search weighs the position after the turn."""


PLAIN = Weights()
"""The weights tuned on 2-suit Spider (and the computer opponent's)."""


def evaluate(state: SpiderState, w: Weights = PLAIN) -> int:
    """How far the position is from a win (lower is better).

    Face-down cards and stock cards are work to come; so is every break between
    runs (more when the cards do not even descend by rank); piles that show no
    face-up card are room to work; completed runs are progress, and so, with
    ``w.square``, are long runs. A turn gains (a face-down card less outweighs
    a run more and a bare pile less).
    """
    info = state.info
    segs = bad = nat = bare = square = 0
    for f in info:
        segs += f.segs
        bad += f.bad
        nat += f.nat
        square += f.square
        if not f.run:
            bare += 1
    return (
        sum(state.down) * w.hidden
        + segs * w.segs
        + bad * w.bad
        + nat * w.nat
        + len(state.stock) * w.stock
        - min(bare, w.bare_cap) * w.bare
        - len(state.done) * w.done
        - square * w.square // 10
    )


def search_moves(state: SpiderState, lateral: bool = True) -> list[SpiderMove]:
    """The moves worth trying: every legal action but those that rarely help.

    Left out: splitting a run onto a card of another suit, splitting a run onto
    a bare pile, moving a whole pile onto a bare one (the same board, piles
    swapped, or worse), and every empty pile but the first as a target. Without
    ``lateral``, also a run that lies on a card one rank higher moved onto
    another card of another suit, unless the card it uncovers can take a run
    of its own suit at once (the move joins no run and frees nothing else),
    and every bare pile as a target but the one with fewest face-down cards.
    """
    down, info = state.down, state.info
    tops: dict[int, list[int]] = {}
    empty = -1
    bare: list[int] = []
    for i in range(PILES):
        f = info[i]
        if f.run:
            r = f.top & 15
            if r in tops:
                tops[r].append(i)
            else:
                tops[r] = [i]
        elif down[i]:
            bare.append(i)
        elif empty < 0:
            empty = i
    depots = bare if lateral or len(bare) < 2 else [min(bare, key=down.__getitem__)]
    moves: list[SpiderMove] = []
    for i in range(PILES):
        f = info[i]
        run = f.run
        if not run:
            if down[i]:
                moves.append((i, TURN, 0))
            continue
        top = f.top
        rank = top & 15
        suit = top >> 4
        idle = None  # worked out when first needed
        for r in range(rank + 1, (f.base & 15) + 2):
            targets = tops.get(r)
            if targets:
                k = r - rank
                for d in targets:
                    if info[d].top >> 4 != suit:
                        if k < run:
                            continue
                        if not lateral:
                            if idle is None:
                                idle = _idle(state, i)
                            if idle:
                                continue
                    moves.append((i, d, k))
        if f.segs == 1 and not down[i]:
            continue
        if empty >= 0:
            moves.append((i, empty, run))
        for d in depots:
            moves.append((i, d, run))
    if state.stock:
        moves.append(DEAL_MOVE)
    return moves


def _idle(state: SpiderState, i: int) -> bool:
    """Whether pile ``i``'s top run lies on a card one rank higher (of another
    suit) that no run of that card's suit could join if it were uncovered."""
    p, f = state.piles[i], state.info[i]
    under = len(p) - f.run - 1
    if under < state.down[i]:
        return False
    host = p[under]
    if (host & 15) - (f.base & 15) != 1:
        return False
    guest = host - 1
    for j, g in enumerate(state.info):
        if j != i and g.run and g.top >> 4 == guest >> 4 and g.top <= guest <= g.base:
            return False
    return True


class BestFirst:
    """A best-first search for a win from one position (the state is changed).

    :meth:`run` searches to the end (a win, no position left, the deadline or
    ``max_positions``); :meth:`advance` searches on for a while and can be
    called again, so that several searches can take turns (:func:`solve`).
    """

    def __init__(
        self,
        state: SpiderState,
        deadline: float,
        max_positions: int,
        clock: Callable[[], float] = time.monotonic,
        weights: Weights = PLAIN,
        seed: int | None = None,
    ) -> None:
        self.state = state
        self._noise = random.Random(seed).randrange if seed is not None and weights.noise else None
        self.deadline = deadline
        self.clock = clock
        self.max_positions = max_positions
        self.weights = weights
        self.positions = 0
        self.best_done = len(state.done)
        self.best_value = evaluate(state, weights)
        self.best_line: list[SpiderMove] = []
        """The line to the best position found (the lowest :func:`evaluate`)."""
        self.line: list[SpiderMove] = []
        """The winning line, once :meth:`advance` has said ``won``."""
        self._stock = state.stock[:]
        self._parents = [-1]
        self._moves: list[SpiderMove] = [DEAL_MOVE]
        self._depth = [0]
        self._turned: dict[int, list[int]] = {}
        """The piles turned at once after a node's move (``weights.turn``)."""
        self._seen = {state.key}
        # One queue per number of packets left, taken in turn every other time
        # (and the best of all queues in between): a search that dealt too
        # early goes on improving the earlier stages too.
        self._heaps: list[list[tuple[int, int, Any]]] = [[] for _ in range(6)]
        self._heaps[len(self._stock) // 10].append((self.best_value, 0, state.snapshot()))
        self._best_node = 0
        self._turn = self._step = 0

    def run(self) -> tuple[Outcome, list[SpiderMove]]:
        """``won`` and the line; ``exhausted`` when no position is left to try;
        ``unknown`` when the time or the positions allowed ran out."""
        outcome = self.advance(self.max_positions)
        if outcome is None:
            outcome = "unknown"
        self.best_line = line_of(self._parents, self._moves, self._best_node, self._turned)
        return outcome, self.line

    def advance(self, until: int) -> Outcome | None:
        """Search on until ``until`` positions have been seen: ``won`` (the line
        in :attr:`line`), ``exhausted``, ``unknown`` (the deadline or
        ``max_positions``), or ``None`` when paused at ``until``."""
        state = self.state
        if state.won:
            return "won"
        stock, parents, moves, depth = self._stock, self._parents, self._moves, self._depth
        seen, heaps = self._seen, self._heaps
        clock = self.clock
        weights = self.weights
        per_move = weights.depth
        lateral = weights.lateral
        noise = self._noise
        spread = weights.noise
        at_once = weights.turn
        turned = self._turned
        turn, step = self._turn, self._step
        capped = until >= self.max_positions
        until = min(until, self.max_positions)
        outcome: Outcome | None = "exhausted"
        while True:
            if len(parents) > until:
                outcome = "unknown" if capped else None
                break
            step += 1
            if step & 15 == 0 and clock() > self.deadline:  # the clock can be slow to read
                outcome = "unknown"
                break
            if step & 1:
                for _ in range(6):
                    turn = (turn + 1) % 6
                    if heaps[turn]:
                        break
                else:
                    break
                level = turn
            else:
                tops = [(h[0][0], i) for i, h in enumerate(heaps) if h]
                if not tops:
                    break
                level = min(tops)[1]
            _, node, snap = heapq.heappop(heaps[level])
            if snap[0] is None:  # a deal not played yet: play it now
                state.restore(snap[1], stock)
                state.make(DEAL_MOVE)
            else:
                state.restore(snap, stock)
            g = depth[node] + 1
            here = state.key
            for m in search_moves(state, lateral):
                if m[0] < 0:
                    dealt = dealt_key(state, weights)
                    if dealt is not None:
                        key, value = dealt
                        if key not in seen:
                            seen.add(key)
                            n = len(parents)
                            parents.append(node)
                            moves.append(m)
                            depth.append(g)
                            if value < self.best_value:
                                self.best_value, self._best_node = value, n
                            order = value + g // per_move
                            if noise is not None:
                                order += noise(spread)
                            later = (None, state.snapshot())
                            heapq.heappush(heaps[len(state.stock) // 10 - 1], (order, n, later))
                        continue
                # Most moves reach a position seen: its key is read from the
                # moved cards, and the move is made only when the key is new.
                read = None if at_once else state.child_key(m, here)
                if read is not None and read in seen:
                    continue
                token = state.make(m)
                turns = _turn_bare(state, m) if at_once else None
                key = state.key if read is None else read
                if key not in seen:
                    seen.add(key)
                    n = len(parents)
                    parents.append(node)
                    moves.append(m)
                    depth.append(g)
                    if turns:
                        turned[n] = [t[0] for t in turns]
                    if state.won:
                        self.positions = len(seen)
                        self.best_done = len(state.done)
                        self.line = self.best_line = line_of(parents, moves, n, turned)
                        return "won"
                    if len(state.done) > self.best_done:
                        self.best_done = len(state.done)
                    value = evaluate(state, weights)
                    if value < self.best_value:
                        self.best_value, self._best_node = value, n
                    order = value + g // per_move
                    if noise is not None:
                        order += noise(spread)
                    heapq.heappush(heaps[len(state.stock) // 10], (order, n, state.snapshot()))
                if turns:
                    for i, t in reversed(turns):
                        state.unmake((i, TURN, 0), t)
                state.unmake(m, token)
        self._turn, self._step = turn, step
        self.positions = len(seen)
        return outcome

    def release(self) -> None:
        """Drop the tables (:attr:`best_line` stays)."""
        self.best_line = line_of(self._parents, self._moves, self._best_node, self._turned)
        self._parents, self._moves, self._depth = [-1], [DEAL_MOVE], [0]
        self._turned = {}
        self._seen, self._heaps = set(), [[] for _ in range(6)]


def dealt_key(state: SpiderState, w: Weights) -> tuple[int, int] | None:
    """The key and :func:`evaluate` of the position after a deal, without
    playing it: ``None`` for the last deal and when the deal would complete a
    run (then it is played).

    A deal is tried from nearly every position and puts a card on all ten
    piles, so playing it for its key and value made over half the piles'
    summaries the search built; the position itself is built only if the
    search takes it up (a :class:`BestFirst` queue keeps the position before
    the deal until then).
    """
    stock, piles, down, info = state.stock, state.piles, state.down, state.info
    n = len(stock)
    if n <= PILES:
        return None  # the last deal: the key then forgets the piles' order
    segs = bad = nat = square = 0
    placed = 0
    for i in range(PILES):
        f = info[i]
        c = stock[n - 1 - i]
        h = len(piles[i])
        placed += f.placed ^ _ZAT[i][(h << 6) | c]
        if not f.run:
            segs += 1
            square += 1
            continue
        top = f.top
        segs += f.segs
        bad += f.bad
        nat += f.nat
        if top - c == 1:
            run = f.run + 1
            if run >= 13 and c & 15 == 1:
                return None
            square += f.square + 2 * run - 1
        else:
            segs += 1
            square += f.square + 1
            if (top & 15) - (c & 15) == 1:
                nat += 1
            else:
                bad += 1
    key = (_ZSTOCK[n - PILES] + placed) & MASK
    value = (
        sum(down) * w.hidden
        + segs * w.segs
        + bad * w.bad
        + nat * w.nat
        + (n - PILES) * w.stock
        - len(state.done) * w.done
        - square * w.square // 10
    )
    return key, value


def _turn_bare(state: SpiderState, m: SpiderMove) -> list[tuple[int, object]]:
    """Turn the top card of each pile ``m`` (just made) left with only
    face-down cards; the piles turned and :meth:`~SpiderState.make`'s tokens.

    The tokens are typed ``object``, not ``Any``: mypyc (of mypy 2.4.1) fails
    with an internal error on ``reversed()`` of a list of tuples holding ``Any``."""
    src, dst, _ = m
    if dst == TURN and src >= 0:
        return []
    info, down = state.info, state.down
    done: list[tuple[int, object]] = []
    for i in range(PILES) if src < 0 else (src, dst):
        if down[i] and not info[i].run:
            done.append((i, state.make((i, TURN, 0))))
    return done


def line_of(
    parents: list[int],
    moves: list[SpiderMove],
    node: int,
    turned: dict[int, list[int]] | None = None,
) -> list[SpiderMove]:
    """The moves from the root to ``node`` of a search tree kept as parent
    links (``turned``: the piles turned at once after a node's move)."""
    line: list[SpiderMove] = []
    while node > 0:
        if turned and node in turned:
            line.extend((i, TURN, 0) for i in reversed(turned[node]))
        line.append(moves[node])
        node = parents[node]
    line.reverse()
    return line


def proof_moves(state: SpiderState) -> list[SpiderMove]:
    """Every legal action, but once the stock is empty only the first empty pile
    as a target: then the piles are interchangeable, so nothing is lost.

    Ordered for :func:`prove`, which tries the last first: turns, then runs
    joined to their own suit, then the rest, the deal last. The order changes
    no answer (every move is tried before ``lost``), only how soon a win is
    met: with many empty piles, runs split among them are a search of their own.
    """
    moves = state.legal()
    piles = state.piles
    if not state.stock:
        first = next((i for i in range(PILES) if not piles[i]), -1)
        moves = [m for m in moves if m[1] < 0 or piles[m[1]] or m[1] == first]

    def promise(m: SpiderMove) -> int:
        src, dst, k = m
        if src < 0:
            return 0
        if dst == TURN:
            return 3
        pd = piles[dst]
        return 2 if pd and pd[-1] - piles[src][-k] == 1 else 1

    moves.sort(key=promise)
    return moves


def prove(
    state: SpiderState,
    deadline: float,
    max_positions: int,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[Outcome, list[SpiderMove], int]:
    """Depth-first over every move: ``won`` and a line, ``lost`` when every
    position reachable has been seen without a win, or ``unknown``; and the
    number of positions seen. The state is changed."""
    if state.won:
        return "won", [], 1
    seen = {state.exact()}
    path: list[SpiderMove] = []
    tokens: list[Any] = []
    stack: list[list[SpiderMove]] = [proof_moves(state)]
    count = 0
    while stack:
        count += 1
        if count & 1023 == 0 and (clock() > deadline or len(seen) > max_positions):
            return "unknown", [], len(seen)
        todo = stack[-1]
        if not todo:
            stack.pop()
            if path:
                state.unmake(path.pop(), tokens.pop())
            continue
        m = todo.pop()
        token = state.make(m)
        key = state.exact()
        if key in seen:
            state.unmake(m, token)
            continue
        seen.add(key)
        path.append(m)
        tokens.append(token)
        if state.won:
            return "won", path, len(seen)
        stack.append(proof_moves(state))
    return "lost", [], len(seen)
