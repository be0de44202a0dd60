"""How often short restarted searches win a Napoleon deal, by move order (issue 34).

    PYTHONPATH=src nice -n 10 python bench/napoleon_tickets.py 509 183 --spread 1000
    PYTHONPATH=src nice -n 10 python bench/napoleon_tickets.py 509 --spread 25 --home 45
    PYTHONPATH=src nice -n 10 python bench/napoleon_tickets.py 16 --cutoff 3000 --positions 150000
    PYTHONPATH=src nice -n 10 python bench/napoleon_tickets.py 905 48 --best-first

On each deal (after its safe moves), *tickets* one after another: depth-first
searches with :meth:`NapoleonState.search_moves` shuffled by a seed among moves
scored less than ``--spread`` apart (and a card going home scored ``--home``),
or with ``--best-first`` best-first ones with random weights as ``finders``
draws them; each stops at ``--cutoff`` positions, and tickets are drawn until
``--positions`` in all (no clock: the counts do not depend on the load). All
share one table of relaxed answers, as ``solve``'s searches do. Prints per
deal the wins, tickets, positions, the smallest winning tickets and CPU
seconds. Seeded from the deal: the same arguments print the same counts.
"""

from __future__ import annotations

import argparse
import random
import time

from termsolitaire.rules import new_game
from termsolitaire.solver.napoleon import NapoleonState
from termsolitaire.solver.search import BestFirst, DepthFirst, Search


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deals", nargs="+", type=int)
    ap.add_argument("--spread", type=int, default=1000)
    ap.add_argument("--home", type=int, default=100)
    ap.add_argument("--cutoff", type=int, default=600)
    ap.add_argument("--positions", type=int, default=60_000)
    ap.add_argument("--best-first", action="store_true")
    args = ap.parse_args()
    for deal in args.deals:
        state = NapoleonState.from_game(new_game("napoleon", deal))
        first = state.autoplay()
        rng = random.Random(deal)
        used = tickets = 0
        wins: list[int] = []
        t = time.process_time()
        while used < args.positions:
            s: Search[tuple[int, int], tuple[tuple[int, int], ...]]
            if args.best_first:
                weights = (rng.randint(2, 10), rng.randint(0, 3), rng.randint(0, 3))
                s = BestFirst(state.copy(weights), first, seed=rng.randrange(1 << 30))
            else:
                mine = state.copy(jitter=rng.randrange(1 << 30), spread=args.spread)
                mine.home = args.home
                s = DepthFirst(mine, first)
            verdict = None
            while verdict is None and s.size < args.cutoff:
                verdict = s.run(64)
            used += s.size
            tickets += 1
            if verdict == "won":
                wins.append(s.size)
            elif verdict == "lost":
                print(f"{deal:5d} lost (a ticket saw every position)")
                break
        took = time.process_time() - t
        print(
            f"{deal:5d} wins {len(wins):3d} tickets {tickets:4d} positions {used:8,d}"
            f" smallest {sorted(wins)[:3]} {took:.1f} CPU s",
            flush=True,
        )


if __name__ == "__main__":
    main()
