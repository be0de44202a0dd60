"""Rules-core speed, per game: run by hand, figures go in the issue note.

    python bench/rules.py [--seconds 1.0]

- legal_moves(): calls per second on a mid-game position (deal 1 after 30
  random legal moves, seeded, still offering five or more moves);
- playouts: random games from deal 1 (up to 200 moves, no stuck check), each
  played forward and then undone to the start; reported as playouts per second
  and play+undo pairs per second.

The solver needs >= 20,000 legal_moves() calls per second per game.
"""

from __future__ import annotations

import argparse
import random
import time

from termsolitaire.rules import GAMES, game_class, new_game

VARIANTS = {"spider": [{"suits": 1}, {"suits": 2}, {"suits": 4}]}


def mid_game(name: str, variant: dict[str, int]):
    """Deal 1 after 30 random moves: the first seed whose position still offers
    at least five moves (a dead position would flatter the figure)."""
    for seed in range(1000):
        g = new_game(name, deal=1, **variant)
        rng = random.Random(seed)
        for _ in range(30):
            moves = [m for m in g.legal_moves() if m.kind == "move"] or g.legal_moves()
            if not moves:
                break
            g.play(rng.choice(moves))
        if len(g.history) == 30 and len(g.legal_moves()) >= 5:
            return g
    raise RuntimeError(f"no mid-game position found for {name}")


def rate(fn, seconds: float) -> tuple[float, int]:
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        n += fn()
    return n / elapsed, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    head = ("game", "legal_moves/s", "moves listed", "playouts/s", "play+undo/s")
    print(f"{head[0]:<16} {head[1]:>14} {head[2]:>12} {head[3]:>11} {head[4]:>12}")
    for name in GAMES:
        try:
            game_class(name)
        except (ImportError, AttributeError):
            print(f"{name:<16} (not built)")
            continue
        for variant in VARIANTS.get(name, [{}]):
            label = name + "".join(f" {k}={v}" for k, v in variant.items())
            g = mid_game(name, variant)
            listed = len(g.legal_moves())

            def calls(g=g) -> int:
                for _ in range(100):
                    g.legal_moves()
                return 100

            lm_rate, _ = rate(calls, args.seconds)
            rng = random.Random(2)
            pairs = [0]

            def playout(name=name, variant=variant, rng=rng, pairs=pairs) -> int:
                p = new_game(name, deal=1, **variant)
                for _ in range(200):
                    moves = p.legal_moves()
                    if not moves:
                        break
                    p.play(rng.choice(moves))
                n = len(p.history)
                while p.can_undo:
                    p.undo()
                pairs[0] += n
                return 1

            po_rate, count = rate(playout, args.seconds)
            pu_rate = po_rate * pairs[0] / max(count, 1)
            print(f"{label:<16} {lm_rate:>14,.0f} {listed:>12} {po_rate:>11,.1f} {pu_rate:>12,.0f}")


if __name__ == "__main__":
    main()
