"""Tune the planner's weights (:func:`~termsolitaire.solver.opponent.plan.evaluate`) by play.

    nice -n 10 python bench/tune_planner.py --deals 1001-1200              # coordinate search
    nice -n 10 python bench/tune_planner.py --deals 1401-1600 --compare \\
        'nat=3,square=2' 'nat=4,square=3,hidden=30'                        # sets side by side

A weight set is scored by a level (the good one by default) playing Spider
deals under match rules, as bench/opponent.py does (10 minutes at the level's
pace): the mean game score over the deals (less noisy than wins; each deal is
played by every set, so two sets are compared on the same deals) and the wins.
The weights are those of the suit count played (``FW_FOUR`` at 4 suits, ``FW``
at 2, ``FW_ONE_SUIT`` at 1), changed in place in each worker, so the compiled
build plays them too; every level at that suit count uses them.

The search is a plain coordinate search: for each weight of ``--keys`` in
turn, try it a step up and then a step down (a step is three tenths of the
weight, at least 2; no weight but ``square`` goes below 0); the first change
whose mean score beats the best so far by more than ``--margin`` standard
errors of the paired difference (2 by default) is kept. Rounds repeat until
none keeps a change or ``--rounds`` is reached.
Every set scored is appended to ``--log`` as a JSON line (weights, mean,
wins, CPU), so a run can be read while it goes and its sets compared again.

Tune on deals no figure is judged on (the acceptance's 1-200 and the fresh
deals of the journals are not), and confirm the best set on held-out deals
with ``--compare``: the best of many sets on the training deals is partly
luck. And mind the noise: at 4 suits nearly every game changes when a weight
does (the game is chaotic), so pairing the deals hardly narrows the
difference: on 300 deals its standard error is 13-14 points a game at the
good level (docs/journal/2026-12-07-expert18.md), and a step that gains 10
is not yet told from chance.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time

from solver import deal_list

from termsolitaire.rules import new_game
from termsolitaire.solver.opponent import Opponent, plan, play

KEYS = (
    "hidden",
    "segs",
    "bad",
    "nat",
    "empty",
    "done",
    "bare",
    "clear",
    "cover",
    "square",
    "move",
)
"""The weights of :func:`~termsolitaire.solver.opponent.plan.evaluate`."""


def table(suits: int) -> dict[str, int]:
    """The module's weight dict the planner reads at ``suits`` suits (changed in place)."""
    return plan.weights(suits)


def _one(job: tuple[str, int, int, dict[str, int], float]) -> tuple[int, int, bool, float]:
    level, suits, deal, weights, seconds = job
    w = table(suits)
    w.clear()
    w.update(weights)
    game = new_game("spider", deal=deal, suits=suits)
    start = time.process_time()
    for _ in play(game, Opponent(level, suits, seed=deal), seconds):
        pass
    return deal, game.score, game.is_won, time.process_time() - start


class Scorer:
    """Plays weight sets on the same deals and remembers each set's scores."""

    def __init__(self, pool: multiprocessing.pool.Pool, args: argparse.Namespace) -> None:
        self.pool, self.args = pool, args
        self.deals = deal_list(args.deals)
        self.seen: dict[tuple[tuple[str, int], ...], dict[int, int]] = {}

    def score(self, weights: dict[str, int], note: str = "") -> dict[int, int]:
        """Each deal's score with ``weights`` (played once per set)."""
        key = tuple(sorted(weights.items()))
        if key in self.seen:
            return self.seen[key]
        a = self.args
        jobs = [(a.level, a.suits, d, weights, a.minutes * 60) for d in self.deals]
        start = time.monotonic()
        rows = self.pool.map(_one, jobs, chunksize=4)
        scores = {d: s for d, s, _, _ in rows}
        wins = sum(won for _, _, won, _ in rows)
        cpu = sum(c for _, _, _, c in rows)
        self.seen[key] = scores
        mean = statistics.mean(scores.values())
        record = {
            "note": note,
            "deals": a.deals,
            "level": a.level,
            "suits": a.suits,
            "weights": weights,
            "mean": round(mean, 2),
            "wins": wins,
            "games": len(rows),
            "cpu": round(cpu, 1),
            "wall": round(time.monotonic() - start, 1),
            "scores": [scores[d] for d in self.deals],
        }
        with open(a.log, "a") as f:
            f.write(json.dumps(record) + "\n")
        print(
            f"{mean:8.2f} {wins:4d} won  cpu {cpu:6.0f} s  {note:<14} {_text(weights)}",
            flush=True,
        )
        return scores


def _text(weights: dict[str, int]) -> str:
    return ",".join(f"{k}={weights[k]}" for k in KEYS if k in weights)


def _parse(text: str, base: dict[str, int]) -> dict[str, int]:
    w = dict(base)
    for part in text.split(","):
        if part.strip():
            k, _, v = part.partition("=")
            if k.strip() not in w:
                raise SystemExit(f"no weight {k.strip()!r}; the weights are {', '.join(w)}")
            w[k.strip()] = int(v)
    return w


def paired(old: dict[int, int], new: dict[int, int]) -> tuple[float, float]:
    """How much ``new`` scores above ``old`` a deal on the same deals, and the
    standard error of that mean difference."""
    diffs = [new[d] - old[d] for d in old]
    return statistics.mean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


def steps(value: int) -> list[int]:
    """A step up and a step down from ``value``: three tenths of it, at least 2."""
    step = max(2, round(abs(value) * 0.3))
    return [value + step, value - step]


def search(scorer: Scorer, start: dict[str, int], args: argparse.Namespace) -> dict[str, int]:
    """Coordinate search from ``start``; see the module docstring."""
    best = dict(start)
    best_scores = scorer.score(best, "start")
    keys = args.keys.split(",")
    for r in range(args.rounds):
        changed = False
        for k in keys:
            for v in steps(best[k]):
                if k != "square" and v < 0:
                    continue
                trial = {**best, k: v}
                scores = scorer.score(trial, f"r{r + 1} {k}={v}")
                gain, se = paired(best_scores, scores)
                print(f"  {gain:+.1f} a game (standard error {se:.1f})", flush=True)
                if gain > args.margin * se:
                    best, best_scores, changed = trial, scores, True
                    print(f"  kept {k}={v}", flush=True)
                    break
        if not changed:
            break
    print(f"best {statistics.mean(best_scores.values()):.2f}: {_text(best)}")
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", default="1001-1200", help="training deals, e.g. 1001-1200")
    ap.add_argument("--suits", type=int, default=4)
    ap.add_argument("--level", default="good")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--start", default="", help="changes to the current weights to start from")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--margin",
        type=float,
        default=2.0,
        help="standard errors of the paired difference a change must gain",
    )
    ap.add_argument(
        "--keys",
        default=",".join(KEYS),
        help="the weights searched, in this order (e.g. cover,hidden,nat)",
    )
    ap.add_argument("--log", default="tune_planner.jsonl")
    ap.add_argument("--compare", nargs="*", help="score these sets (changes, '' the current)")
    args = ap.parse_args()
    base = dict(table(args.suits))
    with multiprocessing.Pool(args.workers) as pool:
        scorer = Scorer(pool, args)
        if args.compare is not None:
            first: dict[int, int] = {}
            for text in args.compare or [""]:
                scores = scorer.score(_parse(text, base), "compare")
                if first:
                    gain, se = paired(first, scores)
                    print(f"  {gain:+.1f} a game on the first (standard error {se:.1f})")
                first = first or scores
            return
        search(scorer, _parse(args.start, base), args)


if __name__ == "__main__":
    main()
