"""Find Stjernen deals the solver's first beam wins, for the book of winnable deals.

    nice python bench/stjernen_book.py --count 500 --jobs 2 > /tmp/book.txt

Stjernen's solver wins about half the deals within 10 s, many of those only
with its later, wider beams; so "winnable deals only" drawing random deal
numbers would keep a player waiting ten or twenty seconds and sometimes find
none. The book (``termsolitaire.solver.stjernen.book.BOOK``) holds deal numbers, drawn at
random from the range random deals use, that the *first* beam of
:func:`termsolitaire.solver.stjernen.solve` wins. That beam's width is fixed
(not set by the clock), so it wins them on any machine, in 0.3-4.2 s of CPU
here: the game still proves each deal winnable when it deals one. Prints one
line per deal won: the deal, its CPU seconds, the length of the line.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from termsolitaire.rules import new_game
from termsolitaire.rules.deal import MAX_RANDOM_DEAL
from termsolitaire.solver.stjernen import FIRST_BEAM, WON, beam
from termsolitaire.solver.stjernen.state import State


def _one(deal: int) -> tuple[int, bool, float, int]:
    root = State.from_game(new_game("stjernen", deal=deal))
    began = time.process_time()
    score, line, _ = beam(root, FIRST_BEAM, float("inf"))
    return deal, score == WON, time.process_time() - began, len(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000, help="random deals to try")
    ap.add_argument("--seed", type=int, default=11, help="of the deal numbers")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--start", type=int, default=0, help="skip this many of the numbers")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    deals = [rng.randint(0, MAX_RANDOM_DEAL) for _ in range(args.start + args.count)]
    deals = deals[args.start :]
    won = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for deal, ok, seconds, length in pool.map(_one, deals):
            if ok:
                won += 1
                print(f"{deal} {seconds:.1f} {length}", flush=True)
    print(
        f"# {won} of {len(deals)} won by the first beam (numbers {args.start + 1}-"
        f"{args.start + len(deals)} of seed {args.seed})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
