"""The solver on ranges of deals, per game: run by hand, figures go in the issue note.

    nice -n 10 python bench/solver.py                       # the acceptance runs
    python bench/solver.py --games spider4 --spider4 1-30   # a sample
    python bench/solver.py --games penguin --penguin 1-100  # a quick look
    python bench/solver.py --games penguin --fcs            # beside Freecell Solver

Per game: deals tried, % won, % proved lost, % unknown, median and 95th
percentile seconds per deal, median and largest peak memory per deal (the
resident set of a fresh worker process, so the interpreter's own ~30 MB is
included). Every won line is replayed through the rules core by
``termsolitaire.solver.solve`` itself; a line that does not win counts as an
error. Two processes by default (the machine has two cores): two deals at a
time, each in one process, except Stjernen, whose solver shares each deal's
search with a helper process (``Budget.jobs``), so one deal at a time with
both cores (``--per-deal 1``: two deals at a time, one process each). Each deal
gets a fresh process, so one deal's memory never counts against another's;
a Stjernen deal's peak memory is its process's plus its helper's.

The games, their deals and budgets are those each solver declares
(``SOLVER.bench`` in ``termsolitaire.solver.<game>``). Budgets per deal
(issue 11): 2 s for Penguin, 10 s for the others, of the worker's CPU time
(``time.process_time``, which other work on the machine does not eat into;
times are then CPU seconds too; issue 34), or of the wall clock with
``--wall``. Targets:
Penguin 1-1000 100% decided; Napoleon 1-1000 at least 95% decided within 1 GB;
Spider 1-suit 99% and 2-suit 95% won (1-200); Stjernen answered on every deal
with a median of at least 80 cards home in the best line (1-200).

``--fcs`` also runs Freecell Solver (Debian package ``freecell-solver-bin``) on
each Penguin deal, relabelled so that the beak is the ace (7 cells, built by
suit, unlimited sequence moves, empty columns take kings only; ``-sel`` so that
an iteration limit is not read as unsolvable), and reports where the two agree.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

from termsolitaire.rules import games, new_game
from termsolitaire.solver import Budget, solve
from termsolitaire.solver.games import declaration


def configs() -> dict[str, tuple[str, dict[str, int], str, float, int]]:
    """label -> (game, variant, default deals, budget seconds, processes per deal):
    the benchmark rows each game's solver declares (``SolverInfo.bench``)."""
    out = {}
    for g in games():
        found = declaration(g.name)
        for run in found.bench if found else ():
            out[run.label] = (g.name, dict(run.variant), run.deals, run.seconds, run.per_deal)
    return out


CONFIGS = configs()


@dataclass
class Row:
    deal: int
    verdict: str
    seconds: float
    best: int
    moves: int
    peak_mb: float
    fcs: str = ""
    fcs_seconds: float = 0.0


def deal_range(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def deal_list(text: str) -> list[int]:
    """The deals of ``1-60`` or ``14,18,61-80``."""
    return [d for part in text.split(",") for d in deal_range(part)]


def _one(job: tuple[str, dict[str, int], int, float, int, bool, bool, int]) -> Row:
    """One deal, in a fresh worker process (and its helper, for ``per_deal`` 2)."""
    name, variant, deal, seconds, memory_mb, cpu, fcs, per_deal = job
    game = new_game(name, deal, **variant)
    try:
        result = solve(game, Budget(seconds, memory_mb, cpu, per_deal))
        verdict, secs, best, moves = result.verdict, result.seconds, result.best, len(result.moves)
    except AssertionError:
        verdict, secs, best, moves = "error", 0.0, 0, 0
    # The worker's peak, plus its helper's (the largest child's) when it had one.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak += resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    row = Row(deal, verdict, secs, best, moves, peak)
    if fcs:
        row.fcs, row.fcs_seconds = freecell_solver(game, seconds)
    return row


def fcs_board(game) -> str:
    """Penguin as a Freecell Solver board: ranks relabelled so the beak is the ace."""
    ranks = "A23456789TJQK"
    beak: int = game.beak

    def card(c) -> str:
        return ranks[(c.rank - beak) % 13] + c.suit

    found = []
    for name, suit in zip(("f1", "f2", "f3", "f4"), "SHDC", strict=True):
        n = len(game.pile(name))
        found.append(f"{suit}-{ranks[n - 1] if n else '0'}")
    cells = [game.pile(f"c{i}") for i in range(1, 8)]
    lines = [
        "Foundations: " + " ".join(found),
        "Freecells: " + " ".join(card(p[0][0]) if p else "-" for p in cells),
    ]
    for i in range(1, 8):
        lines.append(": " + " ".join(card(c) for c, _ in game.pile(f"t{i}")))
    return "\n".join(lines) + "\n"


FCS_ARGS = [
    "fc-solve",
    "-sel",
    "--freecells-num", "7",
    "--stacks-num", "7",
    "--sequences-are-built-by", "suit",
    "--sequence-move", "unlimited",
    "--empty-stacks-filled-by", "kings",
]  # fmt: skip


def freecell_solver(game, seconds: float) -> tuple[str, float]:
    """Freecell Solver's verdict (won / lost / unknown) and its time."""
    start = time.monotonic()
    try:
        out = subprocess.run(
            FCS_ARGS, input=fcs_board(game), capture_output=True, text=True, timeout=seconds
        ).stdout
    except subprocess.TimeoutExpired:
        return "unknown", time.monotonic() - start
    took = time.monotonic() - start
    if "This game is solveable" in out:
        return "won", took
    if "I could not solve this game" in out:
        return "lost", took
    return "unknown", took


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(label: str, rows: list[Row], budget: float, wall: float, per_deal: int) -> None:
    n = len(rows)

    def pct(verdict: str) -> str:
        return f"{100 * sum(r.verdict == verdict for r in rows) / n:6.1f}"

    times = [r.seconds for r in rows]
    peaks = [r.peak_mb for r in rows]
    print(
        f"{label:<10} {n:>6} {pct('won')} {pct('lost')} {pct('unknown')} "
        f"{statistics.median(times):8.2f} {percentile(times, 0.95):8.2f} "
        f"{statistics.median(peaks):8.0f} {max(peaks):8.0f} "
        f"{statistics.median(r.best for r in rows):6.0f} {pct('error')} {budget:5.0f} {wall:7.0f} "
        f"{per_deal:>4}"
    )


def fcs_report(rows: list[Row]) -> None:
    agree = sum(r.fcs == r.verdict for r in rows)
    print(f"\nPenguin beside Freecell Solver ({len(rows)} deals):")
    print(f"  same verdict on {agree} deals")
    for r in rows:
        if r.fcs != r.verdict:
            print(f"  deal {r.deal}: ours {r.verdict} ({r.seconds:.2f} s), fcs {r.fcs}")
    ours = [r.seconds for r in rows]
    theirs = [r.fcs_seconds for r in rows]
    print(
        f"  seconds per deal, median / 95% / max: ours {statistics.median(ours):.3f} / "
        f"{percentile(ours, 0.95):.3f} / {max(ours):.3f}; fcs {statistics.median(theirs):.3f} / "
        f"{percentile(theirs, 0.95):.3f} / {max(theirs):.3f} (fcs includes process start)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(CONFIGS), help="labels, comma-separated")
    for label, (_, _, deals, _, _) in CONFIGS.items():
        ap.add_argument(f"--{label}", metavar="A-B", default=deals, help=f"deals (default {deals})")
    ap.add_argument("--budget", type=float, help="seconds per deal for every game")
    ap.add_argument("--memory", type=int, default=1024, metavar="MB", help="memory per deal")
    ap.add_argument("--jobs", type=int, default=2, help="processes in all (default 2)")
    ap.add_argument(
        "--per-deal",
        type=int,
        metavar="N",
        help="processes one deal's search may use (default: 2 for Stjernen, 1 for the others); "
        "deals run --jobs / N at a time",
    )
    clock = ap.add_mutually_exclusive_group()
    clock.add_argument(
        "--cpu",
        action="store_true",
        default=True,
        help="budgets count each worker's CPU time (the default: a shared machine's load "
        "does not change the figures)",
    )
    clock.add_argument(
        "--wall",
        dest="cpu",
        action="store_false",
        help="budgets count the wall clock instead (what a player waits)",
    )
    ap.add_argument("--fcs", action="store_true", help="Penguin: also run Freecell Solver")
    ap.add_argument("--verbose", action="store_true", help="one line per deal")
    args = ap.parse_args()
    if args.fcs and not shutil.which("fc-solve"):
        sys.exit("fc-solve not found: apt-get install freecell-solver-bin")
    print(
        f"{'game':<10} {'deals':>6} {'%won':>6} {'%lost':>6} {'%unkn':>6} {'median s':>8} "
        f"{'95% s':>8} {'med MB':>8} {'max MB':>8} {'best':>6} {'%err':>6} {'budget':>5} "
        f"{'wall s':>7} {'proc':>4}"
    )
    fcs_rows: list[Row] = []
    ctx = multiprocessing.get_context("fork")
    for label in args.games.split(","):
        name, variant, _, seconds, per_deal = CONFIGS[label]
        per_deal = args.per_deal or per_deal
        budget = args.budget or seconds
        fcs = args.fcs and name == "penguin"
        jobs = [
            (name, variant, d, budget, args.memory, args.cpu, fcs, per_deal)
            for d in deal_range(getattr(args, label))
        ]
        start = time.monotonic()
        with ctx.Pool(max(1, args.jobs // per_deal), maxtasksperchild=1) as pool:
            rows = []
            for row in pool.imap(_one, jobs):
                rows.append(row)
                if args.verbose:
                    print(f"  {label} {row}", flush=True)
        report(label, rows, budget, time.monotonic() - start, per_deal)
        if fcs:
            fcs_rows = rows
    if fcs_rows:
        fcs_report(fcs_rows)


if __name__ == "__main__":
    main()
