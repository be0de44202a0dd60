"""The look-around of one kept position, the work of a beam's layer that the
beam's two processes share (:mod:`.beams` in this one, :mod:`.pair` in the
helper): a small best-first search over card moves and digs from each kept
position, every position found scored (:func:`.evaluation.evaluate`) and
classed by its progress, and the choice of the positions to keep
(:func:`select`). Both processes import this module and neither imports the
other's.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from .evaluation import Weights, evaluate
from .moves import auto, dig, diggable, play, search_steps, undo
from .state import COLLECT, DEAL, ROUNDS, State


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
    diverse: bool = True
    """Keep positions in turns by their progress (:func:`_progress`): the best
    of each, then the second best of each, and so on. Otherwise simply the
    best ``width``, which fills the beam with variants of a few positions that
    differ only in where the storage cards lie or which copy of a card was
    taken, and drops the different plans a win may need."""
    finish: int = 300
    """Expansions of the last look-around when no deal or collect is left."""
    peek: int = 0
    """If not 0: score the best ``peek * width`` positions again one deal later
    (:func:`_peek`) before keeping ``width`` of them."""
    late_round: int = 0
    """If not 0: from this round on keep at most ``late_width`` positions per
    deal. Wins are mostly made by round 4; a line stuck by then rarely gets
    much further, so the late rounds get little time and the early ones more."""
    late_width: int = 10
    adaptive: bool = False
    """Set each deal's width from the time left (:func:`_adapt`), ``width`` at
    most in the late rounds, instead of keeping ``width`` throughout."""
    jitter: int = 0
    """If not 0: add a random number up to this to each score (seeded by
    ``seed``), so beams with different seeds keep different positions."""
    seed: int = 0
    weights: Weights = field(default_factory=Weights)


Entry = tuple[int, int, int, tuple[int, ...], int, int]
"""A position found in a layer: (score, foundation cards, the node of the kept
position it was reached from, the moves from there, progress, hash)."""


def progress(st: State) -> int:
    """How far a position has got: the cards on each foundation and those left
    in each inner pile, seven bits each in one int (a pile holds at most 104
    cards; an int is cheaper to make, hash and compare than the tuple it
    stands for, and classes the positions alike). Positions alike in this
    differ in what the storage holds, where, and what is left in the
    upturned piles."""
    p = st.piles
    f = st.fcount
    return (
        f[0]
        | f[1] << 7
        | f[2] << 14
        | f[3] << 21
        | len(p[0]) << 28
        | len(p[1]) << 35
        | len(p[2]) << 42
        | len(p[3]) << 49
    )


def noise(h: int, cfg: BeamConfig) -> int:
    """A pseudo-random number in [0, jitter) fixed by the position and the seed."""
    return ((h ^ (cfg.seed * 0x9E3779B97F4A7C15)) * 0xBF58476D1CE4E5B9 >> 40) % cfg.jitter


_TICKS: Final = 1 << 24
"""More than the positions one look-around finds (at most ``finish`` expansions
of some dozens of steps each): its heap's keys are ``-score * _TICKS + tick``."""


def look_around(
    st: State, cfg: BeamConfig, seen: set[int], found: list[Entry], look: int, node: int
) -> None:
    """Best-first search over card moves from ``st`` (left as it was): up to
    ``look`` expansions; every new position goes into ``found``, as an entry
    reached from ``node``. Going from one position expanded to the next, only
    the moves after the lines' common start are taken back and played (the
    next is often a child of the last).

    Written for speed, as :func:`beam_steps` inline (no generator) and with
    the heap's (-score, tick) pairs as one int each (``-score * _TICKS +
    tick``: the same order, compared as ints), the lines in a list by tick."""
    w = cfg.weights
    hold = w.hold
    heap: list[int] = [0]
    paths: list[tuple[int, ...]] = [()]
    at: tuple[int, ...] = ()
    base: list[tuple[int, int]] = []
    for _ in range(look):
        if not heap:
            break
        path = paths[heapq.heappop(heap) & (_TICKS - 1)]
        n = 0
        limit = min(len(path), len(at))
        while n < limit and path[n] == at[n]:
            n += 1
        if n < len(base):
            undo(st, base[n:])
            del base[n:]
        for m in path[n:]:
            base.append((m, st.make(m)))
        at = path
        for step in search_steps(st):
            done: list[tuple[int, int]] = []
            play(st, step, done)
            auto(st, done, hold)
            _note(st, cfg, w, seen, found, node, heap, paths, path, done)
            undo(st, done)
        if cfg.dig_depth:
            for p, k in diggable(st, cfg.ahead, cfg.dig_depth):
                done = []
                if dig(st, p, k, done):
                    auto(st, done, hold)
                    _note(st, cfg, w, seen, found, node, heap, paths, path, done)
                    undo(st, done)
    undo(st, base)


def _note(
    st: State,
    cfg: BeamConfig,
    w: Weights,
    seen: set[int],
    found: list[Entry],
    node: int,
    heap: list[int],
    paths: list[tuple[int, ...]],
    path: tuple[int, ...],
    done: list[tuple[int, int]],
) -> None:
    """:func:`look_around`'s note of the position a step reached, if new."""
    h = st.hash
    if h in seen:
        return
    seen.add(h)
    moves = path + tuple([m for m, _ in done])
    score = evaluate(st, w)
    if cfg.jitter:
        score += noise(h, cfg)
    like = progress(st) if cfg.diverse else 0
    found.append((score, st.score, node, moves, like, h))
    heapq.heappush(heap, -score * _TICKS + len(paths))
    paths.append(moves)


def beam_steps(st: State, cfg: BeamConfig) -> Iterator[list[tuple[int, int]]]:
    """Play each step the beam tries from ``st`` in turn, with the foundation
    moves after it, and yield what was played; the step is taken back when the
    caller asks for the next. The card moves of :func:`search_steps` come first,
    then the digs, each worked out and played in one go. :func:`look_around`
    plays the same steps inline, for speed: a change here goes there too
    (tests/solver/test_stjernen_lines.py holds the two alike)."""
    for step in search_steps(st):
        done: list[tuple[int, int]] = []
        play(st, step, done)
        auto(st, done, cfg.weights.hold)
        yield done
        undo(st, done)
    if cfg.dig_depth:
        for p, k in diggable(st, cfg.ahead, cfg.dig_depth):
            done = []
            if dig(st, p, k, done):
                auto(st, done, cfg.weights.hold)
                yield done
                undo(st, done)


def expand(
    st: State,
    layer: list[tuple[object, int]],
    cfg: BeamConfig,
    deadline: float,
    clock: Callable[[], float],
) -> tuple[list[Entry], set[int]]:
    """Look around each kept position of ``layer`` (snapshot, node) in turn until
    ``deadline``; return every position found, each once, and the hashes of
    the positions seen, which are those of the positions found (``st`` is left
    anywhere). The beam keeps out what the helper found of them by the set,
    instead of building another of every position found (a tenth of the
    search's own work outside the look-arounds, stjernen25)."""
    seen: set[int] = set()
    found: list[Entry] = []
    for snap, node in layer:
        st.restore(snap)  # type: ignore[arg-type]
        if st.hash in seen:
            continue
        seen.add(st.hash)
        like = progress(st) if cfg.diverse else 0
        found.append((evaluate(st, cfg.weights), st.score, node, (), like, st.hash))
        look_around(st, cfg, seen, found, cfg.look, node)
        if clock() > deadline:
            break
    return found, seen


def select(found: list[Entry], cfg: BeamConfig, width: int) -> list[Entry]:
    """``width`` of ``found`` (sorted best first): with ``cfg.diverse`` the best
    of each progress first, then the second best of each, and so on; else the
    best ``width``."""
    if not cfg.diverse:
        return found[:width]
    # turns[n]: the entries that are the (n+1)-th of their class, best first;
    # taken turn by turn (what sorting (n, index) pairs gives, without the sort).
    # Once the first turn alone fills the width (in a wide beam, usually long
    # before the end of ``found``), the rest cannot be taken.
    count: dict[int, int] = {}
    firsts: list[Entry] = []
    turns: list[list[Entry]] = [firsts]
    for x in found:
        like = x[4]
        n = count.get(like, 0)
        count[like] = n + 1
        if not n:
            firsts.append(x)
            if len(firsts) == width:
                return firsts
        elif n == len(turns):
            turns.append([x])
        else:
            turns[n].append(x)
    out: list[Entry] = []
    for turn in turns:
        if len(out) + len(turn) >= width:
            out.extend(turn[: width - len(out)])
            return out
        out.extend(turn)
    return out


class Lines:
    """The lines of a search as a tree: node ``k`` is reached from node
    ``parent[k]`` by ``moves[k]``. Keeps the best node seen (the first of the
    best count)."""

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


Layers = dict[tuple[int, int], list[tuple[object, int]]]
"""A beam's layers to come: (round, deals made in it) -> the positions kept
there (snapshot, node)."""


def advance(
    st: State,
    chosen: list[Entry],
    snaps: dict[int, object],
    lines: Lines,
    hold: tuple[int, ...],
    key: tuple[int, int],
    layers: Layers,
    keys: list[tuple[int, int]],
    last: Callable[[State, int], None],
) -> None:
    """The beam's step from layer ``key`` to the next: each position ``chosen``
    (an entry reached from the snapshot of its node in ``snaps``) is played
    and kept in ``lines``, then dealt (or the stock collected) with the
    foundation moves after it, and goes into the layer it then belongs to
    (``layers``, its key pushed on the heap ``keys`` if new). A position with
    no deal or collect left goes to ``last`` (the position in ``st``, its
    node), in the order chosen. Compiled, for the beam's own work between its
    look-arounds (it was a sixth of a two-process search's, stjernen25)."""
    for entry in chosen:
        node = entry[2]
        moves = entry[3]
        st.restore(snaps[node])  # type: ignore[arg-type]
        for m in moves:
            st.make(m)
        kept = lines.add(node, moves, st.score)
        if st.stock:
            m, nk = DEAL, (key[0], key[1] + 1)
        elif st.round < ROUNDS:
            m, nk = COLLECT, (key[0] + 1, 0)
        else:
            last(st, kept)
            continue
        done = [(m, st.make(m))]
        auto(st, done, hold)
        child = lines.add(kept, tuple([x for x, _ in done]), st.score)
        into = layers.get(nk)
        if into is None:
            into = layers[nk] = []
            heapq.heappush(keys, nk)
        into.append((st.snapshot(), child))
