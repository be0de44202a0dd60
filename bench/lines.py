"""Winning lines before and after :func:`~termsolitaire.solver.shorten.shorten_line`.

    PYTHONPATH=src python bench/lines.py penguin 1-50
    PYTHONPATH=src python bench/lines.py napoleon 1-50
    PYTHONPATH=src python bench/lines.py spider 1-20 --suits 1
    PYTHONPATH=src python bench/lines.py stjernen 1-6 --book   # the book's first 6 deals
    PYTHONPATH=src python bench/lines.py penguin 1-50 --end-to-end   # beside:
    PYTHONPATH=/work/main/src python bench/lines.py penguin 1-50 --end-to-end

Each deal is searched once by the game's own search (its ``SOLVER.solve``,
which is what ``solve`` returned before the pass: the same line a main
without the pass shows), then the pass runs on that line with the effort
``solve`` gives it for the budget (:func:`~.shorten.plays_for`). Prints per
deal the moves before and after, the CPU seconds of the pass and the effort
``solve`` gives it (``plays``, in moves), and checks the line that comes out wins
with a score as high (Spider's points); then the totals. Budgets count CPU
seconds, so the machine's load does not change which lines are found.
``--book`` takes the deals ``A-B`` as places in the solver's book
(``SOLVER.book``, the deals winnable-only draws from: Stjernen's are won);
``--moves`` prints each line that comes out, to compare two checkouts' passes
move by move (``diff`` the two outputs without the ``pass_s`` column).

``--end-to-end`` times ``solve`` itself (search, replay and, where there is
one, the pass) and needs nothing of the pass: run it on a checkout without it
at the same time, for the cost of the pass as a player's search sees it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from termsolitaire.rules import Game, Move, new_game
from termsolitaire.solver import Budget
from termsolitaire.solver.games import declaration


def final(game: Game, moves: tuple[Move, ...]) -> Game:
    g = game.copy()
    for m in moves:
        g.play(m)
    return g


def deals(args: argparse.Namespace) -> list[int]:
    """The deal numbers ``A-B`` names (places in the book with ``--book``)."""
    first, last = (int(x) for x in args.deals.split("-"))
    if not args.book:
        return list(range(first, last + 1))
    found = declaration(args.game)
    assert found is not None and found.book, f"no book for {args.game}"
    return list(found.book[first - 1 : last])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("deals", help="A-B")
    parser.add_argument("--suits", type=int)
    parser.add_argument("--budget", type=float, default=10.0, help="CPU seconds per search")
    parser.add_argument("--book", action="store_true", help="A-B: places in the solver's book")
    parser.add_argument("--moves", action="store_true", help="print each shortened line too")
    parser.add_argument("--end-to-end", action="store_true", help="time solve() alone")
    args = parser.parse_args()
    if args.end_to_end:
        end_to_end(args)
        return
    from termsolitaire.solver.shorten import plays_for, shorten_line

    found = declaration(args.game)
    assert found is not None, f"no solver for {args.game}"
    variant = {"suits": args.suits} if args.suits else {}
    budget = Budget(seconds=args.budget, cpu=True)
    before, after, seconds = [], [], []
    print("deal before after pass_s plays score_before score_after")
    for deal in deals(args):
        game = new_game(args.game, deal, **variant)
        r = found.solve(game, budget)
        if r.verdict != "won":
            print(deal, r.verdict)
            continue
        plays = plays_for(budget)
        t = time.process_time()
        short = shorten_line(game, r.moves, plays)
        dt = time.process_time() - t
        a, b = final(game, r.moves), final(game, short)
        assert b.is_won and b.score >= a.score and len(short) <= len(r.moves), deal
        before.append(len(r.moves))
        after.append(len(short))
        seconds.append(dt)
        print(deal, len(r.moves), len(short), f"{dt:.3f}", plays, a.score, b.score, flush=True)
        if args.moves:
            print("  ", " ".join(map(str, short)))
    n = len(before)
    print(
        f"{args.game} {args.deals}: {n} won; moves {sum(before)} -> {sum(after)}"
        f" ({100 * (1 - sum(after) / max(1, sum(before))):.1f}% fewer);"
        f" mean {sum(before) / max(1, n):.1f} -> {sum(after) / max(1, n):.1f};"
        f" shortened {sum(a < b for a, b in zip(after, before, strict=True))};"
        f" pass CPU s median {statistics.median(seconds):.3f}, max {max(seconds):.3f},"
        f" total {sum(seconds):.2f} ({1000 * sum(seconds) / max(1, n):.1f} ms a line)"
    )


def end_to_end(args: argparse.Namespace) -> None:
    """CPU seconds and moves of ``solve`` per deal, and the totals."""
    from termsolitaire.solver import solve

    variant = {"suits": args.suits} if args.suits else {}
    seconds, moves, won = [], 0, 0
    for deal in deals(args):
        game = new_game(args.game, deal, **variant)
        t = time.process_time()
        r = solve(game, Budget(seconds=args.budget, cpu=True))
        seconds.append(time.process_time() - t)
        if r.verdict == "won":
            won, moves = won + 1, moves + len(r.moves)
        print(deal, r.verdict, len(r.moves), f"{seconds[-1]:.3f}", flush=True)
    print(
        f"{args.game} {args.deals}: {won} won, {moves} moves; solve CPU s"
        f" median {statistics.median(seconds):.3f}, mean {statistics.mean(seconds):.3f},"
        f" max {max(seconds):.2f}, total {sum(seconds):.2f}"
    )


if __name__ == "__main__":
    main()
