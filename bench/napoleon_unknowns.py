"""Napoleon's deals that stay unknown at 10 s (issue 34), one after another.

    PYTHONPATH=src nice -n 10 python bench/napoleon_unknowns.py
    PYTHONPATH=src nice -n 10 python bench/napoleon_unknowns.py 16 48 183 --budget 30

Each deal gets ``termsolitaire.solver.solve`` with ``Budget(seconds, 1024,
cpu=True)`` in this one process (deal after deal: the figures are CPU seconds,
so the load on the machine slows the wall clock but not the answers). Every
won line is replayed through the rules core by ``solve``. Prints a line per
deal (verdict, CPU seconds, positions, cards home in the best line) and the
counts.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from termsolitaire.rules import new_game
from termsolitaire.solver import Budget, solve

UNKNOWN = (
    "16 25 48 114 141 159 183 223 346 380 386 396 400 405 408 438 446 500 509 513 533"
    " 560 589 597 598 610 621 659 675 678 686 704 740 840 859 879 887 890 905 947 963"
)
"""The 41 deals of 1-1000 left unknown by napoleon5's run (10 CPU-s, 1 GB)."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deals", nargs="*", type=int, help="deals (default: the 41)")
    ap.add_argument("--budget", type=float, default=10.0, help="CPU seconds per deal")
    args = ap.parse_args()
    counts: Counter[str] = Counter()
    for deal in args.deals or [int(d) for d in UNKNOWN.split()]:
        start = time.process_time()
        result = solve(new_game("napoleon", deal), Budget(args.budget, 1024, cpu=True))
        took = time.process_time() - start
        counts[result.verdict] += 1
        line = f"{deal:5d} {result.verdict:8s} {took:6.2f} s {result.positions:9,d}"
        print(f"{line} best {result.best}", flush=True)
    print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())), flush=True)


if __name__ == "__main__":
    main()
