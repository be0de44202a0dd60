"""The wall of the relaxed game, searched in the real game (issue 34, stjernen26).

``bench/stjernen.py --wall STATES`` runs :func:`wall_search` on each fresh
deal. A measuring tool for the next session's proofs of loss, not used by the
solver.

:mod:`termsolitaire.solver.stjernen.relax` gives every suit a height its
foundation can never pass while the inner ring holds what it holds: the
climb stops at a card whose copies are all still in the inner ring (both, on
a suit's first pass). Call those cards the *blocking* cards. As long as no
copy of a blocking card leaves the inner ring, no foundation passes its
height, so a position from which no line ever moves a blocking card out of
the inner ring is lost whenever the heights add up to less than 104.

:func:`wall_search` asks exactly that of the real game: a depth-first
search over the prover's move lists (:func:`.moves.sound_steps` and
:func:`.moves.sound_auto`: every legal move but those proven not to matter,
the same for this question as for a win, since they only leave out moves to
places alike or a card going home that nothing can ever be built on), with
a table of the positions seen, that stops at the first move taking a
blocking card out of an inner pile (an *escape*). If the table runs out of
positions first, the answer is ``"wall"``: the position is lost. Nothing is
relaxed, so the answer is a proof; the search is the prover's cut at the
wall, so it is smaller than the prover's but, on a fresh deal, not small:
it also counts the distinct tables (inner ring, storage, foundations) among
the positions it saw, to show what its states differ in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from termsolitaire.solver.stjernen.moves import play, sound_auto, sound_steps, undo
from termsolitaire.solver.stjernen.relax import Relaxation
from termsolitaire.solver.stjernen.state import FULL, INNER_END, NEEDED, WON, State

TABLE_PLACES = range(4, 9)
"""The outer ring and the centre (a table: these, the inner ring's heights, the foundations)."""


def blocking(st: State) -> tuple[frozenset[int], list[int]]:
    """The cards at which the relaxed game's foundations stop (one a suit not full),
    and those heights: no foundation passes its height while every copy of its
    blocking card stays in the inner ring."""
    relax = Relaxation(st)
    heights = relax.heights(relax.remaining(tuple(len(p) for p in relax.piles)))
    cards = frozenset(NEEDED[s][heights[s]] for s in range(4) if heights[s] < FULL)
    return cards, heights


@dataclass
class WallResult:
    verdict: str
    """``"wall"`` (no line escapes: lost), ``"escape"`` (a line moves a blocking card
    out of the inner ring, or the relaxed foundations are not stopped at all) or
    ``"unfinished"`` (``max_states`` or ``cpu`` ran out)."""
    states: int
    bound: int
    """Cards home at most while the wall holds."""
    blocking: frozenset[int]
    tables: int
    """Distinct (inner heights, outer ring and centre, foundations) among the states."""
    rounds: list[int]
    """States seen in each round (1-6)."""
    cpu: float


def wall_search(st: State, max_states: int, cpu: float = float("inf")) -> WallResult:
    """Search the real game from ``st`` (left unchanged) for an escape past the
    wall of the relaxed game (the module's docstring)."""
    started = time.process_time()
    st = st.copy()
    cards, heights = blocking(st)
    bound = sum(heights)
    tables: set[tuple[object, ...]] = set()
    rounds = [0] * 7

    def result(verdict: str) -> WallResult:
        return WallResult(
            verdict,
            len(seen),
            bound,
            cards,
            len(tables),
            rounds[1:],
            time.process_time() - started,
        )

    def past(st: State) -> bool:
        return any(st.fcount[s] > heights[s] for s in range(4))

    done: list[tuple[int, int]] = []
    sound_auto(st, done)
    seen = {st.hash}
    if bound >= WON or past(st):
        return result("escape")
    stack = [(sound_steps(st), 0, done)]
    while stack:
        steps, k, record = stack[-1]
        if k == len(steps):
            stack.pop()
            if stack:
                undo(st, record)
            continue
        stack[-1] = (steps, k + 1, record)
        m = steps[k]
        if m >= 0 and m >> 5 < INNER_END and st.piles[m >> 5][-1] in cards:
            return result("escape")
        done = []
        play(st, m, done)
        sound_auto(st, done)
        if past(st):  # a blocking card went home through its empty outer position
            return result("escape")
        if st.hash in seen:
            undo(st, done)
            continue
        seen.add(st.hash)
        rounds[st.round] += 1
        p = st.piles
        tables.add(
            (
                len(p[0]),
                len(p[1]),
                len(p[2]),
                len(p[3]),
                *(tuple(p[q]) for q in TABLE_PLACES),
                tuple(st.fcount),
            )
        )
        stack.append((sound_steps(st), 0, done))
        if len(seen) > max_states or (not len(seen) & 1023 and time.process_time() - started > cpu):
            return result("unfinished")
    return result("wall")
