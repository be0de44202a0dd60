"""Share-code lengths on typical won games: the figures of docs/share.md.

    nice -n 10 python bench/share.py            # 15 won deals per game
    nice -n 10 python bench/share.py --deals 40 --budget 10
    nice -n 10 python bench/share.py --games spider:2 --budget 10

For each game (Spider with 1 suit), the solver's winning line of deals 1, 2, …
(only deals it wins within ``--budget`` CPU seconds count) is played on the
deal and the game turned into a self-contained code by each body method of
:mod:`termsolitaire.rules.sharecode`; it prints the median and largest code
length per method (characters) and the median line length (actions). Every
code is decoded again and checked to give the same history and position.
"""

from __future__ import annotations

import argparse
import statistics
import time

from termsolitaire.rules import new_game
from termsolitaire.rules.sharecode import GAME_IDS, METHODS, decode, encode
from termsolitaire.solver.base import Budget
from termsolitaire.solver.games import solve


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=15, help="won deals per game")
    p.add_argument("--budget", type=float, default=5.0, help="CPU seconds per deal")
    p.add_argument("--games", default=",".join(GAME_IDS))
    args = p.parse_args()
    for spec in args.games.split(","):
        name, _, suits = spec.partition(":")  # spider:2 is Spider with 2 suits
        variant = {"suits": int(suits)} if suits else {}
        lengths: dict[int, list[int]] = {m: [] for m in METHODS}
        actions: list[int] = []
        deal = 0
        tried = 0
        start = time.process_time()
        while len(actions) < args.deals and tried < args.deals * 6:
            deal += 1
            tried += 1
            game = new_game(name, deal, **variant)
            result = solve(game, Budget(seconds=args.budget, cpu=True))
            if result.verdict != "won":
                continue
            for m in result.moves:
                game.play(m)
            actions.append(len(game.log))
            for method in METHODS:
                code = encode(game, method)
                back = decode(code)
                assert back.history == game.history and back.to_text() == game.to_text()
                lengths[method].append(len(code))
        cpu = time.process_time() - start
        print(
            f"{spec}: {len(actions)} won of {tried} deals, "
            f"median {statistics.median(actions) if actions else 0} actions, {cpu:.0f} CPU s"
        )
        for method, values in lengths.items():
            if values:
                print(
                    f"  {METHODS[method]:<12} median {statistics.median(values):>5} "
                    f"max {max(values):>5} characters"
                )


if __name__ == "__main__":
    main()
