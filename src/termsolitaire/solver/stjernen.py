"""The Stjernen solver: a beam search through the deals for good lines, and an
exhaustive search for proofs.

The stock's order is known, and dealing and collecting are moves, so the whole
future is fixed by the player's choices. Two searches share the budget:

- :class:`Prover`, a depth-first search over every legal move but the provably
  pointless ones (:func:`.stjernen_moves.sound_steps`) with a table of the
  positions seen. When it runs out of positions without a win, the position is
  lost: the only way this solver says ``lost``. On a fresh deal it never gets
  that far; near the end of a game it often does.
- :func:`beam`, the search that finds the lines. Time is counted in deals: for
  each deal of each round it keeps the ``width`` best positions (by
  :func:`.stjernen_eval.evaluate`), looks around each by a small best-first
  search over card moves and dig steps (foundation moves are played at once),
  keeps the best positions found, and deals. Several beams with different
  weights run in turn (a portfolio: each one's blind spots are different) until
  one wins or the time is up; the best line of all is the answer.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field

from termsolitaire.rules import Game

from .base import Budget, Result
from .stjernen_eval import Weights, evaluate
from .stjernen_moves import Step, auto, play, search_steps, sound_auto, sound_steps, undo
from .stjernen_state import COLLECT, DEAL, ROUNDS, State, to_move

WON = 104
_TT_ENTRY_BYTES = 120
"""Rough memory of one entry of the prover's table (an int in a set)."""


@dataclass(frozen=True, slots=True)
class BeamConfig:
    """One beam of the portfolio."""

    width: int = 20
    """Positions kept per deal."""
    look: int = 30
    """Positions expanded by the best-first look-around of each kept position."""
    ahead: int = 2
    """Dig for the cards wanted within this many turns of each suit."""
    dig_depth: int = 6
    """Dig for cards at most this deep."""
    weights: Weights = field(default_factory=Weights)


PORTFOLIO = (
    BeamConfig(width=10),
    BeamConfig(),
    BeamConfig(weights=Weights(horizon=80, lam=10, cap=130, burial=10)),
    BeamConfig(weights=Weights(lam=60)),
    BeamConfig(width=40),
    BeamConfig(width=80, weights=Weights(horizon=250)),
)


class _Lines:
    """The lines of a search as a tree: node ``k`` is reached from node
    ``parent[k]`` by ``moves[k]``. Keeps the best node seen."""

    def __init__(self, moves: tuple[int, ...], score: int) -> None:
        self.parent = [-1]
        self.moves = [moves]
        self.best_score = score
        self.best_node = 0

    def add(self, parent: int, moves: tuple[int, ...], score: int) -> int:
        node = len(self.parent)
        self.parent.append(parent)
        self.moves.append(moves)
        if score > self.best_score:
            self.best_score = score
            self.best_node = node
        return node

    def line(self, node: int) -> list[int]:
        out: list[int] = []
        while node >= 0:
            out[:0] = self.moves[node]
            node = self.parent[node]
        return out


Found = list[tuple[int, int, tuple[int, ...]]]
"""Positions found: (score, foundation cards, moves that reach it)."""


def _look_around(st: State, cfg: BeamConfig, seen: set[int], found: Found) -> None:
    """Best-first search over card moves from ``st`` (left as it was): up to
    ``cfg.look`` expansions; every new position goes into ``found`` as
    (score, foundation cards, moves from ``st``)."""
    w = cfg.weights
    heap: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
    tick = 0
    for _ in range(cfg.look):
        if not heap:
            return
        _, _, path = heapq.heappop(heap)
        base = [(m, st.make(m)) for m in path]
        for step in search_steps(st, cfg.ahead, cfg.dig_depth):
            done: list[tuple[int, int]] = []
            play(st, step, done)
            auto(st, done)
            if st.hash not in seen:
                seen.add(st.hash)
                moves = path + tuple(m for m, _ in done)
                score = evaluate(st, w)
                found.append((score, st.score, moves))
                tick += 1
                heapq.heappush(heap, (-score, tick, moves))
            undo(st, done)
        undo(st, base)


def beam(root: State, cfg: BeamConfig, deadline: float) -> tuple[int, list[int], int]:
    """Search from ``root`` (unchanged) until a win, the end of the stock or
    ``deadline``; return (best foundation count, its line, positions seen)."""
    st = root.copy()
    done: list[tuple[int, int]] = []
    auto(st, done)
    lines = _Lines(tuple(m for m, _ in done), st.score)
    layers: dict[tuple[int, int], list[tuple[object, int]]] = {(st.round, 0): [(st.snapshot(), 0)]}
    keys = [(st.round, 0)]
    positions = 0
    while keys and lines.best_score < WON and time.monotonic() < deadline:
        key = heapq.heappop(keys)
        layer = layers.pop(key)
        seen: set[int] = set()
        found: list[tuple[int, int, int, tuple[int, ...]]] = []
        for snap, node in layer:
            st.restore(snap)  # type: ignore[arg-type]
            if st.hash in seen:
                continue
            seen.add(st.hash)
            around: Found = [(evaluate(st, cfg.weights), st.score, ())]
            _look_around(st, cfg, seen, around)
            found.extend((score, f, node, moves) for score, f, moves in around)
            if time.monotonic() > deadline:
                break
        positions += len(seen)
        found.sort(key=lambda x: -x[0])
        snaps = dict((node, snap) for snap, node in layer)
        best_f = max(found, key=lambda x: x[1], default=None)
        if best_f and best_f[1] > lines.best_score:
            lines.add(best_f[2], best_f[3], best_f[1])
        for _, _, node, moves in found[: cfg.width]:
            st.restore(snaps[node])  # type: ignore[arg-type]
            for m in moves:
                st.make(m)
            kept = lines.add(node, moves, st.score)
            if st.stock:
                m, nk = DEAL, (key[0], key[1] + 1)
            elif st.round < ROUNDS:
                m, nk = COLLECT, (key[0] + 1, 0)
            else:
                continue
            done = [(m, st.make(m))]
            auto(st, done)
            child = lines.add(kept, tuple(x for x, _ in done), st.score)
            if nk not in layers:
                layers[nk] = []
                heapq.heappush(keys, nk)
            layers[nk].append((st.snapshot(), child))
    return lines.best_score, lines.line(lines.best_node), positions


class Prover:
    """Depth-first search over the sound move lists with a table of the positions
    entered: resumable (:meth:`run` again continues), so it can share the budget.

    ``status`` is ``"won"`` (``line`` holds the win), ``"lost"`` (every position
    reachable was searched) or ``None`` (not finished)."""

    def __init__(self, root: State, max_entries: int) -> None:
        self.st = root.copy()
        self.max_entries = max_entries
        self.status: str | None = None
        self.line: list[int] = []
        self.seen: set[int] = set()
        done: list[tuple[int, int]] = []
        sound_auto(self.st, done)
        self.seen.add(self.st.hash)
        self._root_moves = [m for m, _ in done]
        if self.st.score == WON:
            self.status = "won"
            self.line = self._root_moves
        # Each frame: the steps to try, the next index, what the step into it did.
        self._stack: list[tuple[list[int], int, list[tuple[int, int]]]] = [
            (sound_steps(self.st), 0, done)
        ]

    @property
    def positions(self) -> int:
        return len(self.seen)

    def run(self, deadline: float) -> str | None:
        st, seen, stack = self.st, self.seen, self._stack
        ticks = 0
        while self.status is None:
            if not stack:
                self.status = "lost"
                break
            steps, k, record = stack[-1]
            if k == len(steps):
                stack.pop()
                if stack:
                    undo(st, record)
                continue
            stack[-1] = (steps, k + 1, record)
            done: list[tuple[int, int]] = []
            play(st, steps[k], done)
            sound_auto(st, done)
            if st.hash in seen:
                undo(st, done)
                continue
            seen.add(st.hash)
            if st.score == WON:
                self.status = "won"
                self.line = [m for _, _, rec in stack[1:] for m, _ in rec] + [m for m, _ in done]
                self.line = self._root_moves + self.line
                break
            stack.append((sound_steps(st), 0, done))
            ticks += 1
            if ticks & 255 == 0 and (time.monotonic() > deadline or len(seen) > self.max_entries):
                break
        return self.status


def solve(game: Game, budget: Budget) -> Result:
    """Search ``game``'s position (left unchanged) within ``budget``."""
    start = time.monotonic()
    deadline = start + budget.seconds
    root = State.from_game(game)
    prover = Prover(root, budget.memory_mb * 1_000_000 // _TT_ENTRY_BYTES)
    prover.run(start + budget.seconds * 0.1)
    best, line, positions = root.score, [], 0
    if prover.status is None:
        for cfg in PORTFOLIO:
            if time.monotonic() >= deadline:
                break
            score, moves, seen = beam(root, cfg, deadline)
            positions += seen
            if score > best or not line:
                best, line = score, moves
            if best == WON:
                break
        if best < WON:
            prover.run(deadline)
    seconds = time.monotonic() - start
    positions += prover.positions
    if prover.status == "won":
        line, best = prover.line, WON
    verdict = "won" if best == WON else prover.status or "unknown"
    if verdict == "lost":
        best, line = _best_of_proof(root, line, best)
    return Result(
        verdict,  # type: ignore[arg-type]
        tuple(to_move(m) for m in line),
        seconds=seconds,
        positions=positions,
        best=best,
    )


def _best_of_proof(root: State, line: list[int], best: int) -> tuple[int, list[int]]:
    """A lost position still gets a best line: the beam's, or a short greedy one."""
    if line:
        return best, line
    st = root.copy()
    done: list[tuple[int, int]] = []
    auto(st, done)
    return st.score, [m for m, _ in done]


__all__ = ["PORTFOLIO", "BeamConfig", "Prover", "Step", "beam", "solve"]
