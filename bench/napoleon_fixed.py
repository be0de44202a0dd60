"""Napoleon's solver on a fixed amount of work, for instruction counts (issue 34).

    PYTHONPATH=src python bench/napoleon_fixed.py search
    PYTHONPATH=src python bench/napoleon_fixed.py shuffled --nodes 2000
    PYTHONPATH=src python bench/napoleon_fixed.py relax
    PYTHONPATH=src python bench/napoleon_fixed.py walk     # relax's positions alone
    PYTHONPATH=src python bench/napoleon_fixed.py capacity --nodes 3000000  # whole proofs
    PYTHONPATH=src python bench/napoleon_fixed.py partial
    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=cachegrind --cache-sim=no \\
        --cachegrind-out-file=/dev/null python bench/napoleon_fixed.py search

The work never depends on the clock, so on a machine shared with other work
the instruction counts valgrind reports (``I refs``) compare two versions of
the code where seconds would not (``PYTHONHASHSEED=0``: the tables keyed by
``bytes`` then hash alike from run to run, else the counts vary by about 0.3%):

- ``search``: on each of :data:`DEALS`, the prover (depth-first) and the
  first best-first finder of ``solve``, each for :data:`NODES` positions,
  from the deal after its safe moves (``solve``'s start proof, ``blocked``,
  is left out). Prints each search's verdict, positions and best progress:
  a change that keeps the search the same must keep these lines the same.
- ``shuffled``: the same with the searches in a random order (the prover
  seeded as ``solve`` seeds it, and a ``Dives``), which also checks that the
  moves are drawn in the same order.
- ``relax``: ``relaxed_lost`` :data:`REPEAT` times on each of the positions of
  ``walk`` (seeded random play over ``search_moves``, a few walks per deal);
  prints how many were proved lost. The walk itself costs what ``walk``
  reports: the instructions of ``relax`` minus those of ``walk`` are
  ``relaxed_lost``'s.
- ``capacity``: :class:`~termsolitaire.solver.napoleon.capacity.Capacity`'s
  ordered search for a proof on each of :data:`CAPACITY_DEALS`, ``--nodes``
  relaxed positions (default :data:`CAPACITY_NODES`), and its first dives
  (``DIVING``) on each of :data:`DEALS`; prints each verdict and count.
- ``partial``: ``blocked`` (:mod:`~termsolitaire.solver.napoleon.partial`'s
  proofs at the start of ``solve``) on deals 1-:data:`PARTIAL_DEALS`; prints
  how many were proved lost.

Each part prints its CPU seconds last: run it on two ``src`` trees (say one
compiled with mypyc, one not) to compare their speed on the same work; the
lines before it must be the same.
"""

from __future__ import annotations

import argparse
import random
import time

from termsolitaire.rules import new_game
from termsolitaire.solver.napoleon import (
    SHUFFLED,
    STRATEGIES,
    Dives,
    NapoleonState,
    blocked,
    relaxed_lost,
)
from termsolitaire.solver.napoleon.capacity import DIVING, Capacity
from termsolitaire.solver.search import BestFirst, DepthFirst

DEALS = (1, 2, 3, 16, 25, 48, 183, 675)
"""Easy deals and some of the 41 unknowns (won late, proved lost late, or not at all)."""
NODES = 6_000
"""Positions per search and deal."""
WALKS = 150
"""Random walks per deal for ``relax``."""
REPEAT = 4
CAPACITY_DEALS = (380, 610)
"""Deals whose capacity game needs over a million relaxed positions for its proof."""
CAPACITY_NODES = 400_000
PARTIAL_DEALS = 200


def start(deal: int) -> tuple[NapoleonState, list[tuple[int, int]]]:
    state = NapoleonState.from_game(new_game("napoleon", deal))
    return state, state.autoplay()


def search() -> None:
    for deal in DEALS:
        state, first = start(deal)
        state.dead_cache = {}  # shared by the copies: each search starts afresh
        prover, finder = state.copy(), state.copy(STRATEGIES[0])
        finder.dead_cache = {}
        for label, s in (
            ("prover", DepthFirst(prover, first)),
            ("finder", BestFirst(finder, first)),
        ):
            verdict = s.run(NODES)
            print(f"{deal:4d} {label} {verdict} {s.size:6d} best {s.best}")


def shuffled() -> None:
    """As :func:`search`, with the searches whose moves come in a random order:
    the prover as ``solve`` seeds it, and a :class:`Dives`."""
    for deal in DEALS:
        state, first = start(deal)
        state.dead_cache = {}
        prover = state.copy(jitter=deal, spread=SHUFFLED)
        searches = (("shuffled", DepthFirst(prover, first)), ("dives", Dives(state, first, deal)))
        for label, s in searches:
            verdict = s.run(NODES)
            print(f"{deal:4d} {label} {verdict} {s.size:6d} best {s.best}")


def walk() -> list[tuple[list[bytes], list[int], bytearray, bytearray]]:
    """Positions met on seeded random walks (each a copy of piles, found, loc, idx)."""
    out = []
    for deal in DEALS:
        rng = random.Random(deal)
        for _ in range(WALKS):
            state, _ = start(deal)
            while not state.won():
                out.append((list(state.piles), list(state.found), state.loc[:], state.idx[:]))
                moves = state.search_moves()
                if not moves:
                    break
                state.play(rng.choice(moves[-4:]))
    return out


def relax(positions: list[tuple[list[bytes], list[int], bytearray, bytearray]]) -> None:
    lost = 0
    for _ in range(REPEAT):
        lost = sum(relaxed_lost(*p) for p in positions)
    print(f"{len(positions)} positions, {lost} proved lost by relaxed_lost")


def capacity(nodes: int) -> None:
    for deal in CAPACITY_DEALS:
        state, _ = start(deal)
        c = Capacity(state.piles, state.found, state.loc, state.idx)
        print(f"{deal:4d} prove {c.prove(nodes)} {c.nodes:9d}")
    for deal in DEALS:
        state, _ = start(deal)
        c = Capacity(state.piles, state.found, state.loc, state.idx, deal)
        print(f"{deal:4d} dives {c.step(DIVING)} {c.verdict} {c.nodes:9d}")


def partial() -> None:
    lost = [deal for deal in range(1, PARTIAL_DEALS + 1) if blocked(start(deal)[0])]
    print(f"blocked: {lost}")


def main() -> None:
    global NODES
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("search", "shuffled", "relax", "walk", "capacity", "partial"))
    ap.add_argument(
        "--nodes", type=int, help="positions per search (capacity: relaxed positions per proof)"
    )
    args = ap.parse_args()
    NODES = args.nodes or NODES
    t = time.process_time()
    if args.part == "capacity":
        capacity(args.nodes or CAPACITY_NODES)
    elif args.part == "partial":
        partial()
    elif args.part == "search":
        search()
    elif args.part == "shuffled":
        shuffled()
    else:
        positions = walk()
        print(f"{len(positions)} positions walked")
        if args.part == "relax":
            relax(positions)
    print(f"{time.process_time() - t:.2f} CPU s")


if __name__ == "__main__":
    main()
