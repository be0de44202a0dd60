"""The computer opponent under match rules, per level: run by hand, figures go in the issue note.

    nice -n 10 python bench/opponent.py                         # the acceptance run
    python bench/opponent.py --deals 1-20 --levels good,expert  # a quick look
    python bench/opponent.py --deals 1-40 --follow-only         # following fair hints only

Each level plays Spider 1-, 2- and 4-suit deals (default 1-200) alone, as in a
match: 10 minutes on the clock, counted at the level's pace (each action costs
``pace`` seconds whatever the computer really took), until it presses End, wins
or runs out of time. The rules core referees every action; the opponent sees
only what a player sees. Per level and suit count: mean score, win rate, runs
completed per game, actions per game, and the CPU seconds the computer spent per
game and per action, and the most one action took (``max s``). A live match
asks the computer for each action and waits for it, so an action whose plan
takes longer than the pace comes late (the computer's own clock runs on): the
pace binds each plan's thinking, not only the average.

Then, per suit count, a player who follows the fair hints (issue 35: presses
Enter on every hint, :func:`termsolitaire.solver.fair.follow`, which sees
only what the player sees) on the same deals, with no clock: how often that
wins, and its mean score (``--no-follow`` leaves this out).

Targets (issue 35; issue 12 asked 90% and 50% of 1- and 2-suit deals): the
levels strictly ordered by mean score at 1, 2 and 4 suits; the expert wins at
least 97% of 1-suit, 75% of 2-suit and 50% of 4-suit deals. Two worker
processes by default (the machine has two cores). The whole run (deals 1-200,
three suit counts, four levels and the fair hints) takes about three hours of
the two cores; on a shared machine run a sample (``--deals 1-40``) and say so.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import multiprocessing
import statistics
import time
from dataclasses import dataclass

from solver import deal_list

from termsolitaire.rules import new_game
from termsolitaire.solver import Budget, fair
from termsolitaire.solver.opponent import LEVELS, Opponent, play

FOLLOW = "fair hints"
"""The row of the player who follows the fair hints."""


@dataclass
class Row:
    level: str
    suits: int
    deal: int
    score: int
    won: bool
    runs: int
    actions: int
    cpu: float
    longest: float = 0.0
    """The most CPU seconds one action took (its plan's thinking, since the
    actions after the first of a plan are queued): what a live match waits."""
    game: str = ""
    """A digest of the actions played (SHA-256, 12 hex digits): two runs that
    print the same digest for a deal played the very same game, so a change
    meant to leave play alone (a faster search) is checked deal by deal."""


def _one(job: tuple[str, int, int, float]) -> Row:
    level, suits, deal, seconds = job
    if level == FOLLOW:
        return follow(suits, deal)
    game = new_game("spider", deal=deal, suits=suits)
    start = last = time.process_time()
    actions, longest = 0, 0.0
    played = hashlib.sha256()
    for move in play(game, Opponent(level, suits, seed=deal), seconds):
        now = time.process_time()
        actions, longest, last = actions + 1, max(longest, now - last), now
        played.update(f"{move}\n".encode())
    cpu = time.process_time() - start
    return Row(
        level, suits, deal, game.score, game.is_won, game.runs, actions, cpu, longest,
        played.hexdigest()[:12],
    )  # fmt: skip


def follow(suits: int, deal: int, limit: int = 3000) -> Row:
    """A player who plays every fair hint on ``deal`` until it wins or none is left."""
    game = new_game("spider", deal=deal, suits=suits)
    start = time.process_time()
    actions = fair.follow(game, Budget(4.0, cpu=True), limit)
    cpu = time.process_time() - start
    return Row(FOLLOW, suits, deal, game.score, game.is_won, game.runs, actions, cpu)


def set_field(item: str) -> None:
    """Change one field of a level (``expert.trials=6``) for this run: the workers,
    forked after, play with it. A tuple field takes numbers separated by ``/``
    (``expert.guess_suits=1/2``, ``expert.guess_suits=`` for none)."""
    name, _, value = item.partition("=")
    level, _, field = name.partition(".")
    old = getattr(LEVELS[level], field)
    new: object
    if isinstance(old, bool):
        new = value.lower() in ("1", "true", "yes", "on")
    elif isinstance(old, tuple):
        new = tuple(int(v) for v in value.split("/") if v)
    else:
        new = type(old)(value)
    LEVELS[level] = dataclasses.replace(LEVELS[level], **{field: new})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", default="1-200", help="deal numbers, e.g. 1-200 or 14,18")
    ap.add_argument("--suits", default="1,2,4", help="suit counts, e.g. 1,2,4")
    ap.add_argument("--levels", default=",".join(LEVELS), help="levels, weakest first")
    ap.add_argument("--minutes", type=float, default=10.0, help="the match's time limit")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--verbose", action="store_true", help="a line per game")
    ap.add_argument("--no-follow", action="store_true", help="leave out following fair hints")
    ap.add_argument("--follow-only", action="store_true", help="only follow fair hints")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="LEVEL.FIELD=VALUE",
        help="change a field of a level for this run (e.g. expert.trials=6; repeatable)",
    )
    args = ap.parse_args()
    for item in args.set:
        set_field(item)
    levels = [] if args.follow_only else args.levels.split(",")
    if not args.no_follow:
        levels.append(FOLLOW)
    suits = [int(s) for s in args.suits.split(",")]
    deals = deal_list(args.deals)
    jobs = [(lv, s, d, args.minutes * 60) for s in suits for lv in levels for d in deals]
    rows: list[Row] = []
    start = time.monotonic()
    with multiprocessing.Pool(args.workers) as pool:
        for row in pool.imap_unordered(_one, jobs, chunksize=1):
            rows.append(row)
            if args.verbose:
                print(row, flush=True)
    wall = time.monotonic() - start
    changed = f", set {' '.join(args.set)}" if args.set else ""
    print(
        f"deals {args.deals}, {args.minutes:g} minutes at each level's pace, "
        f"wall {wall:.0f} s{changed}"
    )
    head = ("suits", "level", "pace", "mean score", "won", "runs/game", "actions", "cpu s/game")
    print(
        f"{head[0]:>5} {head[1]:<10} {head[2]:>5} {head[3]:>10} {head[4]:>6} "
        f"{head[5]:>9} {head[6]:>7} {head[7]:>10} {'cpu ms/action':>13} {'max s':>5}"
    )
    for s in suits:
        for lv in levels:
            mine = [r for r in rows if r.suits == s and r.level == lv]
            if not mine:
                continue
            pace = f"{LEVELS[lv].pace:>5.1f}" if lv in LEVELS else f"{'-':>5}"
            per_action = 1000 * sum(r.cpu for r in mine) / max(1, sum(r.actions for r in mine))
            print(
                f"{s:>5} {lv:<10} {pace} "
                f"{statistics.mean(r.score for r in mine):>10.1f} "
                f"{100 * sum(r.won for r in mine) / len(mine):>5.1f}% "
                f"{statistics.mean(r.runs for r in mine):>9.2f} "
                f"{statistics.mean(r.actions for r in mine):>7.0f} "
                f"{statistics.mean(r.cpu for r in mine):>10.2f} "
                f"{per_action:>13.0f} "
                f"{max(r.longest for r in mine):>5.2f}"
            )


if __name__ == "__main__":
    main()
