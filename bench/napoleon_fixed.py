"""Napoleon's solver on a fixed amount of work, for instruction counts (issue 34).

    PYTHONPATH=src python bench/napoleon_fixed.py search
    PYTHONPATH=src python bench/napoleon_fixed.py shuffled --nodes 2000
    PYTHONPATH=src python bench/napoleon_fixed.py relax
    PYTHONPATH=src python bench/napoleon_fixed.py walk     # relax's positions alone
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
"""

from __future__ import annotations

import argparse
import random
import time

from termsolitaire.rules import new_game
from termsolitaire.solver.napoleon import SHUFFLED, STRATEGIES, Dives, NapoleonState, relaxed_lost
from termsolitaire.solver.search import BestFirst, DepthFirst

DEALS = (1, 2, 3, 16, 25, 48, 183, 675)
"""Easy deals and some of the 41 unknowns (won late, proved lost late, or not at all)."""
NODES = 6_000
"""Positions per search and deal."""
WALKS = 150
"""Random walks per deal for ``relax``."""
REPEAT = 4


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


def main() -> None:
    global NODES
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("search", "shuffled", "relax", "walk"))
    ap.add_argument("--nodes", type=int, default=NODES, help="positions per search")
    args = ap.parse_args()
    NODES = args.nodes
    t = time.process_time()
    if args.part == "search":
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
