"""Where the computer expert loses a Spider deal: its decisive mistake, by the solver.

    PYTHONPATH=src nice -n 10 python bench/expert_losses.py --deals 14,18,33 --suits 1
    PYTHONPATH=src nice -n 10 python bench/expert_losses.py --deals 61-80 --seconds 3

For each deal, the expert's own game is replayed (the bench's game of
bench/opponent.py: ``play(new_game("spider", deal=d, suits=s),
Opponent(level, s, seed=d), 600)``, deterministic per deal). A deal it wins is
reported as won and left there. For a lost one, the full-knowledge solver
(:mod:`termsolitaire.solver.spider`, which sees the real face-down and stock
cards) is asked, within ``--seconds`` of CPU, whether a win still exists after
action ``i``: from the start, at the end, then by bisection between (once a win
is gone it does not come back: the expert never undoes). Its answer is
``won``, ``lost`` (proved by exhaustive search) or ``unknown`` (the budget ran
out: neither proved), reported as such; bisection treats ``unknown`` as no win
found.

Printed per lost deal: the last action after which a win was found and the
first after which none was, i.e. the decisive action, with the position before
it (API.md's position text), the action the expert chose, the actions around
it, some facts about it (a deal, a turn, a move into an empty pile, empty piles
and bare piles, the stock, actions left on the clock), and which of the other
legal actions the solver wins from (``--alternatives`` seconds each; 0: none).
A solver's win whose line is longer than the actions left on the clock would
not win the match: the line's length is printed beside each ``won``.

This is a diagnostic that reads the hidden cards (the solver's); it never
feeds the opponent, which still sees only ``view_of(game)``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from dataclasses import dataclass, field

from opponent import deal_list, set_field

from termsolitaire.rules import Move, new_game
from termsolitaire.rules.spider import TABLEAU, Spider
from termsolitaire.solver import Budget
from termsolitaire.solver.opponent import LEVELS, Opponent, play
from termsolitaire.solver.opponent.view import sample, view_of
from termsolitaire.solver.spider import solve
from termsolitaire.solver.spider.search import BestFirst
from termsolitaire.solver.spider.state import from_move


@dataclass
class Answer:
    verdict: str
    """``won``, ``lost`` or ``unknown``."""
    length: int
    """The winning line's length (0 without a win)."""
    cpu: float


@dataclass
class Report:
    deal: int
    suits: int
    won: bool
    score: int
    actions: list[str]
    clock: int
    """Actions the match clock allows (minutes * 60 / pace)."""
    cpu: float = 0.0
    answers: dict[int, Answer] = field(default_factory=dict)
    last_win: int = -1
    first_none: int = -1
    position: str = ""
    facts: list[str] = field(default_factory=list)
    alternatives: list[tuple[str, Answer]] = field(default_factory=list)
    curve: list[tuple[int, int, int]] = field(default_factory=list)
    """(actions played, guesses won, guesses): the fair odds along the game
    (``--curve``)."""
    odds: list[tuple[str, int, int]] = field(default_factory=list)
    """Per action at the decisive position: (action, guesses won, guesses) by
    the fair odds (:func:`_odds`), the expert's action first."""


def _ask(game: Spider, seconds: float) -> Answer:
    start = time.process_time()
    result = solve(game, Budget(seconds, cpu=True))
    length = len(result.moves) if result.verdict == "won" else 0
    return Answer(result.verdict, length, time.process_time() - start)


def _position(deal: int, suits: int, actions: list[str], i: int) -> Spider:
    """The game after the first ``i`` actions."""
    game = new_game("spider", deal=deal, suits=suits)
    assert isinstance(game, Spider)
    for a in actions[:i]:
        game.play(a)
    return game


def _facts(game: Spider, action: str, i: int, clock: int) -> list[str]:
    """What a reader wants to know of the decisive action ``action`` from ``game``."""
    m = Move.parse(action)
    piles = {name: game.pile(name) for name in TABLEAU}
    empty = [n for n, p in piles.items() if not p]
    bare = [n for n, p in piles.items() if p and not any(up for _, up in p)]
    down = sum(1 for p in piles.values() for _, up in p if not up)
    facts = [
        f"kind {m.kind}",
        f"empty piles {len(empty)} {' '.join(empty)}".rstrip(),
        f"bare piles (face-down only) {len(bare)} {' '.join(bare)}".rstrip(),
        f"face-down cards {down}",
        f"stock {len(game.pile('stock'))}",
        f"runs done {game.runs}",
        f"action {i + 1} of the {clock} the clock allows",
    ]
    if m.kind == "deal":
        others = [x for x in game.legal_moves() if x.kind != "deal"]
        facts.append(f"other legal actions {len(others)}")
    elif m.kind == "transfer":
        if not piles[m.dst]:
            facts.append("into an empty pile" + (" (the last)" if len(empty) == 1 else ""))
        elif not any(up for _, up in piles[m.dst]):
            facts.append("onto a bare pile" + (" (the last)" if len(bare) == 1 else ""))
        src = piles[m.src]
        rest = len(src) - m.count
        if rest > 0 and src[rest - 1][1]:
            facts.append("leaves a face-up card under the moved cards (splits or unstacks)")
        elif rest > 0:
            facts.append("uncovers a face-down card")
        else:
            facts.append("empties its pile")
    return facts


def _odds(game: Spider, actions: list[Move], guesses: int, positions: int) -> list[int]:
    """On how many of ``guesses`` fair guesses (the unseen cards of ``view_of(game)``
    dealt at random into their places, :func:`~termsolitaire.solver.opponent.view.sample`;
    the same guesses for every action) the solver wins within ``positions`` after
    each of ``actions``. Fair: what a player who sees only the view could work
    out, given time (the solver on a guess still sees that guess's cards)."""
    view = view_of(game)
    rng = random.Random(game.deal)
    samples = [sample(view, rng) for _ in range(guesses)]
    wins = []
    for a in actions:
        m = from_move(a)
        won = 0
        for s in samples:
            state = s.copy()
            state.make(m)
            outcome, _ = BestFirst(state, math.inf, positions).run()
            won += outcome == "won"
        wins.append(won)
    return wins


def _fair(game: Spider, guesses: int, positions: int) -> int:
    """On how many of ``guesses`` fair guesses of ``game``'s unseen cards the solver
    wins from its position within ``positions`` (:func:`_odds` with no action)."""
    view = view_of(game)
    rng = random.Random(game.deal * 1000 + game.moves)
    won = 0
    for _ in range(guesses):
        outcome, _ = BestFirst(sample(view, rng), math.inf, positions).run()
        won += outcome == "won"
    return won


def diagnose(job: tuple[str, int, int, float, float, float, list[str], int, int, int]) -> Report:
    level, suits, deal, minutes, seconds, alt_seconds, sets, guesses, positions, step = job
    for item in sets:
        set_field(item)
    game = new_game("spider", deal=deal, suits=suits)
    assert isinstance(game, Spider)
    start = time.process_time()
    opponent = Opponent(level, suits, seed=deal)
    actions = [str(m) for m in play(game, opponent, minutes * 60)]
    clock = int(minutes * 60 / opponent.pace)
    report = Report(deal, suits, game.is_won, game.score, actions, clock)
    report.cpu = time.process_time() - start
    if step > 0 and guesses > 0:
        # After every step-th action and after each deal, up to the end.
        points = sorted(
            {*range(0, len(actions), step), len(actions)}
            | {i + 1 for i, a in enumerate(actions) if a == "deal"}
        )
        for i in points:
            won = _fair(_position(deal, suits, actions, i), guesses, positions)
            report.curve.append((i, won, guesses))
    if game.is_won:
        return report

    def ask(i: int) -> Answer:
        if i not in report.answers:
            report.answers[i] = _ask(_position(deal, suits, actions, i), seconds)
        return report.answers[i]

    n = len(actions)
    if ask(n).verdict == "won":
        report.last_win = n  # a win was there at the end: the clock, or End too soon
    elif ask(0).verdict != "won":
        report.first_none = 0
    else:
        lo, hi = 0, n  # a win after lo actions, none found after hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if ask(mid).verdict == "won":
                lo = mid
            else:
                hi = mid
        report.last_win, report.first_none = lo, hi
        before = _position(deal, suits, actions, lo)
        report.position = before.to_text()
        report.facts = _facts(before, actions[lo], lo, clock)
        if alt_seconds > 0:
            for m in before.legal_moves():
                if str(m) == actions[lo]:
                    continue
                after = before.copy()
                after.play(m)
                report.alternatives.append((str(m), _ask(after, alt_seconds)))
        if guesses > 0:
            chosen = Move.parse(actions[lo])
            moves = [chosen] + [m for m in before.legal_moves() if str(m) != actions[lo]]
            wins = _odds(before, moves, guesses, positions)
            report.odds = [(str(m), w, guesses) for m, w in zip(moves, wins, strict=True)]
    return report


def _show(r: Report) -> None:
    head = f"deal {r.deal} ({r.suits} suit{'s' if r.suits > 1 else ''}):"
    if r.curve:
        dealt = {i + 1 for i, a in enumerate(r.actions) if a == "deal"}
        points = " ".join(f"{i}{'d' if i in dealt else ''}:{w}" for i, w, _ in r.curve)
        drops = [(b[1] - a[1], a[0], b[0]) for a, b in zip(r.curve, r.curve[1:], strict=False)]
        fall, a, b = min(drops, default=(0, 0, 0))
        print(
            f"{head} fair odds (guesses won of {r.curve[0][2]}) after action i "
            f"(d: a deal): {points}; the biggest fall {fall} between {a} and {b}"
        )
    if r.won:
        print(f"{head} won, {r.score} points in {len(r.actions)} actions", flush=True)
        return
    print(
        f"{head} lost, {r.score} points in {len(r.actions)} actions "
        f"(the clock allows {r.clock}); the expert's CPU {r.cpu:.1f} s"
    )
    asked = ", ".join(
        f"{i}: {a.verdict}" + (f" ({a.length} long)" if a.length else "") + f" {a.cpu:.1f}s"
        for i, a in sorted(r.answers.items())
    )
    print(f"  the solver after action i: {asked}")
    dealt = [str(i + 1) for i, a in enumerate(r.actions) if a == "deal"]
    print(f"  it dealt at actions {', '.join(dealt) or 'none'}")
    if r.first_none < 0:
        why = "the clock ran out" if len(r.actions) >= r.clock else "it pressed End"
        print(f"  a win was still there at the end: {why}")
    elif r.first_none == 0:
        print("  no win found from the start")
    else:
        k = r.last_win
        print(
            f"  decisive: action {k + 1}, {r.actions[k]} (a win after {k} actions, "
            f"{r.answers[r.first_none].verdict} after {k + 1})"
        )
        print(f"  before it: {' '.join(r.actions[max(0, k - 8) : k])}")
        print(f"  after it:  {' '.join(r.actions[k + 1 : k + 9])}")
        print(f"  facts: {'; '.join(r.facts)}")
        if r.alternatives:
            wins = [m for m, a in r.alternatives if a.verdict == "won"]
            others = [f"{m} {a.verdict}" for m, a in r.alternatives if a.verdict != "won"]
            print(f"  other actions that win: {' '.join(wins) or 'none found'}")
            print(f"  the rest: {', '.join(others)}")
        if r.odds:
            ranked = sorted(r.odds[1:], key=lambda o: -o[1])
            print(
                f"  fair odds (solver wins on guesses): the expert's {r.odds[0][0]} "
                f"{r.odds[0][1]}/{r.odds[0][2]}; the others "
                + ", ".join(f"{m} {w}" for m, w, _ in ranked)
            )
        print("  position before it:")
        for line in r.position.splitlines():
            print(f"    {line}")
    print(flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", default="14,18,33,50,53", help="e.g. 14,18 or 61-80")
    ap.add_argument("--suits", type=int, default=1)
    ap.add_argument("--level", default="expert", choices=list(LEVELS))
    ap.add_argument("--minutes", type=float, default=10.0, help="the match's time limit")
    ap.add_argument("--seconds", type=float, default=4.0, help="CPU s per solver question")
    ap.add_argument(
        "--alternatives", type=float, default=2.0, help="CPU s per other action (0: none)"
    )
    ap.add_argument(
        "--guesses", type=int, default=0,
        help="fair odds of each action at the decisive position on this many guesses (0: none)",
    )  # fmt: skip
    ap.add_argument("--positions", type=int, default=20000, help="solver positions per guess")
    ap.add_argument(
        "--curve", type=int, default=0,
        help="fair odds after every this many actions and each deal, won deals too (0: none)",
    )  # fmt: skip
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--set", action="append", default=[], metavar="LEVEL.FIELD=VALUE",
        help="change a field of a level, as bench/opponent.py's --set",
    )  # fmt: skip
    args = ap.parse_args()
    jobs = [
        (
            args.level,
            args.suits,
            d,
            args.minutes,
            args.seconds,
            args.alternatives,
            args.set,
            args.guesses,
            args.positions,
            args.curve,
        )
        for d in deal_list(args.deals)
    ]
    lost = 0
    with multiprocessing.Pool(args.workers) as pool:
        for report in pool.imap(diagnose, jobs, chunksize=1):
            lost += not report.won
            _show(report)
    print(f"{lost} of {len(jobs)} deals lost")


if __name__ == "__main__":
    main()
