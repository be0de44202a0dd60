"""Measure the Stjernen solver on a range of deals (issue 11, acceptance 3).

    python bench/stjernen.py --deals 1-200 --budget 10 --jobs 2 --cpu

Each deal is solved from its start position within the budget, in ``jobs``
worker processes; every line is replayed through the rules core (a won line
must win, any line must reach the count the solver reports). Prints one line
per deal and then: won / lost / unknown (%), median and 95th-percentile time,
median and 10th-percentile cards on the foundations, and the load average.

``--set [MODULE:]NAME=VALUE`` (repeatable) sets a constant of the solver in
each worker before it starts, a variant to compare as in docs/solver.md:
``NAME`` a module-level name of ``termsolitaire.solver.stjernen`` or, with
``MODULE``, of its module ``termsolitaire.solver.stjernen.MODULE``; ``VALUE``
a Python literal (numbers, strings, tuples; nothing is run)::

    --set LATE_ROUND=4 --set beams:SLACK=0.97

``--stops`` describes, for each deal not won, the position at the end of the
line it returns, where its best count was first reached (issue 34: what the
deals that look lost have in common): the round,
the cards home per suit, the empty outer positions, and for each suit's next
card where its copies lie (``i2+5``: the second inner pile with five cards to
take off first, the outer run in front included; ``u3+4`` an upturned pile;
``o1+0`` storage; ``s7``: seven deals to come), and whether the relaxed game
proves that position lost::

    python bench/stjernen.py --deals 1-40 --per-deal 2 --cpu --stops

``--relax`` measures the relaxed game alone (issue 34): for each deal whether
it proves the fresh deal lost, the states it walked and its CPU time; no
search of the real game. ``--set`` applies there too (docs/journal/solver-stjernen.md: the
relaxed game with fewer storage runs, an unsound upper bound)::

    python bench/stjernen.py --relax --deals 1-200
    python bench/stjernen.py --relax --set relax:STORAGE_RUNS=3 --set relax:ANY_START=3

``--stock STATES`` measures the stock-keeping relaxed game alone (issue 34,
solver/stjernen/storage.py) on each fresh deal, with at most ``STATES``
relaxed states: proved lost, open (a relaxed win found) or unfinished::

    python bench/stjernen.py --stock 100000 --deals 1-200

``--wall STATES`` searches the real game from each fresh deal for a line past
the relaxed game's wall (issue 34, stjernen26, bench/stjernen_wall.py): the
prover's search, cut at the first move that takes out of the inner ring a card
the relaxed foundations stop at. ``wall`` (no line gets past: a proof of
loss), ``escape`` or ``unfinished`` after ``STATES`` positions or ``--budget``
CPU seconds; with the distinct tables (inner ring, storage, foundations) the
positions seen hold, and how many were seen in each round::

    python bench/stjernen.py --wall 1000000 --budget 30 --deals 1040

``--speed WIDTH`` measures the search's speed, not its results: one beam of
fixed width (no clock, so the same lines on any machine) on each deal, in this
process, one deal after another; per deal the cards home, the positions seen,
the CPU seconds and positions per CPU second, and a fingerprint of the line
(issue 34: a faster search must find the same lines at the same width)::

    python bench/stjernen.py --speed 10 --deals 1-6

``--beam NAME=VALUE`` (with ``--speed``) sets a field of the beam's
:class:`~termsolitaire.solver.stjernen.BeamConfig`, for screens of a variant at
a fixed width, e.g. ``--beam peek=1``.

``--pace`` traces where one process's budget goes (issue 34: the adaptive
beam's pacing, docs/journal/2026-12-05-stjernen15.md and stjernen16): each
deal solved in this process, one after another, as the board's hint
(``Budget(jobs=1)``; with ``--per-deal 2`` as the benchmark, the beams sharing
their layers with a helper; on the CPU clock with ``--cpu``), and for each beam
of its search: fixed or adaptive, the round it starts in, its start and end on
the budget's clock, its deadline, ``CUT`` if the deadline stopped it, the count
it reached, the widths it kept in each round (least-most x layers) and its
course (the weights and plan that differ from the plain ones, ``[plain]`` if
none; issue 34, stjernen24: the restarts change course on a stall); then the
deal's answer, its line replayed through the rules core (``ok``)::

    python bench/stjernen.py --pace --deals 1,22 --cpu --set beams:SLACK=0.95
    python bench/stjernen.py --pace --deals 28 --budget 60 --per-deal 2 --cpu

``--courses`` says which deals the course probes change (issue 34,
``restart.COURSE_PROBES``, lead36): on two processes, as ``solve`` runs them,
the first beam and the king-plan probe shared with a helper, then the other
weights' fixed-width beams (no clock, so the same answer on any machine); per
deal ``first`` or ``plan`` where those win, else the counts of the first beam,
the plan probe and the course probe and the weights followed (``same``: none
is :data:`COURSE_LEAD` cards ahead, so the search is main's but for the
probes' cost), in brackets each probe's count and positions, and at the end
what the probes cost a deal in each process (stj31)::

    python bench/stjernen.py --courses --deals 1-200 --set "restart:COURSE_PROBES=(1,2,4,6,3,7)"

(``COURSE_PROBES`` is empty on main: the probes are off, lead36.)

With ``--per-deal 2`` each deal's beam shares its layers with a helper process
(:mod:`termsolitaire.solver.stjernen.pair`); the helper gets the beam's
settings with each layer but not the other constants set (it imports the
solver afresh).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import hashlib
import importlib
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from solver import deal_list
from stjernen_wall import wall_search

import termsolitaire.solver.stjernen.beams as beams
import termsolitaire.solver.stjernen.restart as restart
import termsolitaire.solver.stjernen.schedule as schedule
from termsolitaire.rules import new_game
from termsolitaire.rules.cards import SUITS
from termsolitaire.solver import Budget, solve
from termsolitaire.solver.stjernen import FIRST_BEAM, PORTFOLIO, BeamConfig, Pace, beam
from termsolitaire.solver.stjernen.beams import LATE_ROUND
from termsolitaire.solver.stjernen.evaluation import Weights
from termsolitaire.solver.stjernen.pair import Helper
from termsolitaire.solver.stjernen.relax import Relaxation, relaxed_lost
from termsolitaire.solver.stjernen.state import (
    CENTRE,
    FULL,
    INNER,
    NAMES,
    NEEDED,
    OUTER,
    UP,
    WON,
    State,
)
from termsolitaire.solver.stjernen.storage import StockRelaxation

_RANKS = "A23456789TJQK"


def _card(c: int) -> str:
    return _RANKS[c % 13] + SUITS[c // 13]


def _stop(st: State) -> str:
    """Where a line ended (``--stops``): round, stock, cards home per suit,
    empty outer positions, where each suit's next card lies, the relaxed game's
    verdict there."""
    p = st.piles
    parts = [
        f"round {st.round} stock {len(st.stock):2}",
        "home " + "/".join(str(n) for n in st.fcount),
        f"empty {sum(not p[o] for o in OUTER)}",
    ]
    width = 7 - st.round
    for s in range(4):
        if st.fcount[s] >= FULL:
            continue
        need = NEEDED[s][st.fcount[s]]
        where = []
        for q in (*INNER, *OUTER, CENTRE, *UP):
            for k, c in enumerate(p[q]):
                if c == need:
                    above = len(p[q]) - 1 - k + (len(p[q + 4]) if q in INNER else 0)
                    where.append(f"{NAMES[q]}+{above}")
        for k, c in enumerate(st.stock):
            if c == need:
                where.append(f"s{(len(st.stock) - 1 - k) // width + 1}")
        parts.append(f"{_card(need)}:{','.join(where)}")
    parts.append("relaxed: lost" if relaxed_lost(st) else "relaxed: open")
    return "  ".join(parts)


def _one(
    job: tuple[int, float, bool, int, bool],
) -> tuple[int, str, int, float, int, bool, str]:
    deal, seconds, cpu, per_deal, stops = job
    game = new_game("stjernen", deal=deal)
    result = solve(game, Budget(seconds=seconds, cpu=cpu, jobs=per_deal))
    g = game.copy()
    for m in result.moves:
        g.play(m)
    ok = g.score == result.best and (g.is_won or result.verdict != "won")
    stop = _stop(State.from_game(g)) if stops and result.best < WON else ""
    return deal, result.verdict, result.best, result.seconds, result.positions, ok, stop


def _course(cfg: BeamConfig) -> str:
    """What sets a beam apart from the plain one: its weights and settings that
    differ from the defaults (``bottom=False``, ``hold=(2,)``, ``jitter=300``)."""
    plain, weights = BeamConfig(), Weights()
    out = [
        f"{f.name}={getattr(cfg.weights, f.name)!r}"
        for f in dataclasses.fields(Weights)
        if getattr(cfg.weights, f.name) != getattr(weights, f.name)
    ]
    out += [
        f"{name}={getattr(cfg, name)!r}"
        for name in ("ahead", "jitter")
        if getattr(cfg, name) != getattr(plain, name)
    ]
    return " ".join(out) or "plain"


def _pace(deals: list[int], seconds: float, cpu: bool, jobs: int = 1) -> int:
    """``--pace``: each beam of each deal's search, its times and widths, its
    course (:func:`_course`); ``jobs`` 2: the beams share their layers with a
    helper process, as ``--per-deal 2`` does."""
    widths: dict[int, list[int]] = {}
    adapt, plain_beam = beams._adapt, beams.beam

    def traced_adapt(st, *args, **kw):
        width = adapt(st, *args, **kw)
        widths.setdefault(st.round, []).append(width)
        return width

    def traced_beam(root, cfg, deadline, clock, *args):
        widths.clear()
        began = clock()
        out = plain_beam(root, cfg, deadline, clock, *args)
        end = clock()
        kept = " ".join(f"r{r}:{min(w)}-{max(w)}x{len(w)}" for r, w in widths.items())
        cut = " CUT" if end >= deadline else ""
        kind = "adaptive" if cfg.adaptive else "fixed"
        print(
            f"      {kind:8} from round {root.round} {began:5.2f}-{end:5.2f} s, "
            f"deadline {deadline:5.2f}{cut} -> {out[0]:3}  {kept}  [{_course(cfg)}]"
        )
        return out

    beams._adapt = traced_adapt
    schedule.beam = restart.beam = traced_beam
    try:
        for deal in deals:
            game = new_game("stjernen", deal=deal)
            result = solve(game, Budget(seconds=seconds, cpu=cpu, jobs=jobs))
            g = game.copy()
            for m in result.moves:
                g.play(m)
            ok = g.score == result.best and (g.is_won or result.verdict != "won")
            print(
                f"{deal:5} {result.verdict:8} {result.best:3} {result.seconds:5.1f}s "
                f"{'ok' if ok else 'BAD'}"
            )
            sys.stdout.flush()
    finally:
        beams._adapt = adapt
        schedule.beam = restart.beam = plain_beam
    return 0


def _relax(deal: int) -> tuple[int, bool | None, int, int, float]:
    """The relaxed game on a fresh deal: (deal, lost?, states, relaxed
    foundation cards at the start, CPU seconds)."""
    started = time.process_time()
    relax = Relaxation(State.from_game(new_game("stjernen", deal=deal)))
    lost = relax.lost()
    home = sum(relax.heights(relax.remaining(tuple(len(p) for p in relax.piles))))
    return deal, lost, relax.states, home, time.process_time() - started


def _courses(deals: list[int]) -> int:
    """``--courses``: which deals the course probes change, and what the probes
    cost: each probe's count and positions (``k:count/positions``, the weights
    by index) and, on the last line, the positions a deal of the probes run in
    this process and in the helper, and this process's CPU seconds in them (a
    wait for the helper costs none)."""
    followed: list[int] = []
    clock = time.process_time
    probed: list[tuple[int, int]] = []  # (count, positions) of each probe, in order
    cost = {"mine": 0, "theirs": 0, "cpu": 0.0, "runs": 0}
    alone = restart._alone

    def counted(root: State, cfgs: list[BeamConfig], *rest: object) -> object:
        began = clock()
        got = alone(root, cfgs, *rest)
        if got is not None:
            probed[:] = [(s, n) for s, _, n in got]
        cost["cpu"] += clock() - began
        return got

    with Helper(cpu=True) as helper:
        for deal in deals:
            root = State.from_game(new_game("stjernen", deal=deal))
            first, line, _ = beam(root, FIRST_BEAM, math.inf, clock, Pace(), helper)
            if first == WON:
                print(f"{deal:5d} first", flush=True)
                continue
            plan, line, _, hold = restart.probe(root, first, line, math.inf, clock, Pace(), helper)
            if plan == WON:
                print(f"{deal:5d} plan", flush=True)
                continue
            probed.clear()
            restart._alone = counted
            try:
                best, _, _, k = restart.probe_courses(
                    root, plan, line, hold, math.inf, clock, helper
                )
            finally:
                restart._alone = alone
            if k:
                followed.append(deal)
            what = _course(PORTFOLIO[k]) if k else "same"
            each = " ".join(
                f"{w}:{s}/{n}" for w, (s, n) in zip(restart.COURSE_PROBES, probed, strict=False)
            )
            cost["mine"] += sum(n for s, n in probed[0::2])
            cost["theirs"] += sum(n for s, n in probed[1::2])
            cost["runs"] += bool(probed)
            print(f"{deal:5d} {first:3d} {plan:3d} {best:3d} {what} [{each}]", flush=True)
    print(f"followed on {len(followed)}: {' '.join(map(str, followed))}")
    runs = max(cost["runs"], 1)
    print(
        f"probes run on {cost['runs']}: positions a deal {cost['mine'] / runs:.0f} here, "
        f"{cost['theirs'] / runs:.0f} in the helper; CPU here {cost['cpu']:.1f} s, "
        f"{cost['cpu'] / runs:.2f} s a deal"
    )
    return 0


def _relax_only(deals: list[int]) -> int:
    rows = [_relax(d) for d in deals]
    for deal, lost, states, home, cpu in rows:
        verdict = {True: "lost", False: "open", None: "gave up"}[lost]
        print(f"{deal:5} {verdict:8} {states:6} states {home:3} home at once {cpu * 1000:7.1f} ms")
    n = len(rows)
    cpu = sorted(r[4] for r in rows)
    proved = sum(r[1] is True for r in rows)
    print(
        f"stjernen relaxed game, deals {deals[0]}-{deals[-1]} ({n}): proved lost {proved} "
        f"({100 * proved / n:.1f}%); CPU median {1000 * statistics.median(cpu):.1f} ms, "
        f"max {1000 * cpu[-1]:.1f} ms"
    )
    return 0


def _stock_only(deals: list[int], states: int) -> int:
    """``--stock``: the stock-keeping relaxed game on each fresh deal."""
    counts = {True: 0, False: 0, None: 0}
    cpus = []
    for deal in deals:
        started = time.process_time()
        relax = StockRelaxation(State.from_game(new_game("stjernen", deal=deal)))
        lost = relax.lost(states)
        cpu = time.process_time() - started
        cpus.append(cpu)
        counts[lost] += 1
        verdict = {True: "lost", False: "open", None: "unfinished"}[lost]
        print(f"{deal:5} {verdict:10} {relax.states:7} states {cpu:7.2f} s")
        sys.stdout.flush()
    print(
        f"stjernen stock-keeping relaxed game, deals {deals[0]}-{deals[-1]} ({len(deals)}), "
        f"at most {states} states: proved lost {counts[True]}, open {counts[False]}, "
        f"unfinished {counts[None]}; CPU median {statistics.median(cpus):.2f} s, "
        f"max {max(cpus):.2f} s"
    )
    return 0


def _wall_only(deals: list[int], states: int, cpu: float) -> int:
    """``--wall``: the real game searched for a line past the relaxed wall, each fresh deal."""
    counts = {"wall": 0, "escape": 0, "unfinished": 0}
    for deal in deals:
        got = wall_search(State.from_game(new_game("stjernen", deal=deal)), states, cpu)
        counts[got.verdict] += 1
        print(
            f"{deal:5} {got.verdict:10} {got.states:8} positions {got.tables:6} tables "
            f"bound {got.bound:3} rounds {'/'.join(map(str, got.rounds))} {got.cpu:7.2f} s"
        )
        sys.stdout.flush()
    print(
        f"stjernen wall search, deals {deals[0]}-{deals[-1]} ({len(deals)}), at most {states} "
        f"positions and {cpu:g} CPU s: wall (lost) {counts['wall']}, escape {counts['escape']}, "
        f"unfinished {counts['unfinished']}"
    )
    return 0


def _speed(deals: list[int], width: int, fields: dict[str, object] | None = None) -> int:
    """``--speed``: fixed-width beams, timed on the CPU clock, and their lines
    (``fields``: the beam's settings other than the plain ones, ``--beam``)."""
    cfg = dataclasses.replace(BeamConfig(width=width, late_round=LATE_ROUND), **(fields or {}))
    won = 0
    total_cpu = 0.0
    total_positions = 0
    every = hashlib.sha256()
    for deal in deals:
        root = State.from_game(new_game("stjernen", deal=deal))
        started = time.process_time()
        best, line, positions = beam(root, cfg, math.inf, time.process_time)
        cpu = time.process_time() - started
        total_cpu += cpu
        total_positions += positions
        won += best == WON
        mark = hashlib.sha256(repr((best, positions, line)).encode()).hexdigest()[:12]
        every.update(mark.encode())
        print(
            f"{deal:5} {best:3} home {positions:7} positions {len(line):4} moves "
            f"{cpu:6.2f} s {positions / cpu:7.0f}/s  line {mark}"
        )
        sys.stdout.flush()
    print(
        f"stjernen speed, width {width}, deals {deals[0]}-{deals[-1]} ({len(deals)}): "
        f"{total_positions} positions in {total_cpu:.2f} s of CPU, "
        f"{total_positions / total_cpu:.0f} a second; won {won}; lines {every.hexdigest()[:12]}"
    )
    return 0


Setting = tuple[str, str, object]
"""A constant to set: (module, name, value)."""


def _literal(value: str) -> object:
    """A command-line value read as a Python literal (``3``, ``0.5``, ``True``)."""
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError) as e:
        raise argparse.ArgumentTypeError(f"{value!r} is not a Python literal") from e


def _setting(text: str) -> Setting:
    """``[MODULE:]NAME=VALUE`` read: the module, the name and the literal value."""
    target, eq, value = text.partition("=")
    module, _, name = target.rpartition(":")
    module = "termsolitaire.solver.stjernen" + (f".{module}" if module else "")
    if not eq or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected [MODULE:]NAME=VALUE, not {text!r}")
    literal = _literal(value)
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise argparse.ArgumentTypeError(f"no module {module}") from e
    if not hasattr(mod, name):
        raise argparse.ArgumentTypeError(f"{module} has no {name} to set")
    return module, name, literal


def _apply(settings: list[Setting]) -> None:
    """Set the constants of a variant (each worker, before it starts)."""
    for module, name, value in settings:
        setattr(importlib.import_module(module), name, value)


def _field(text: str) -> tuple[str, object]:
    """``--beam NAME=VALUE`` read: a field of :class:`BeamConfig` and its literal value."""
    name, eq, value = text.partition("=")
    if not eq or name not in {f.name for f in dataclasses.fields(BeamConfig)}:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE of a BeamConfig field, not {text!r}")
    return name, _literal(value)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1-200", help="a range, e.g. 1-200, or a list: 5,16,24-28")
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per deal")
    ap.add_argument("--jobs", type=int, default=2, help="processes in all")
    ap.add_argument(
        "--per-deal", type=int, default=1, help="processes per deal (2: the beam shares its work)"
    )
    ap.add_argument("--cpu", action="store_true", help="budgets count CPU time, not the wall clock")
    ap.add_argument(
        "--set",
        dest="settings",
        type=_setting,
        action="append",
        default=[],
        metavar="[MODULE:]NAME=VALUE",
        help="set a constant of the solver in each worker first (a variant)",
    )
    ap.add_argument(
        "--relax", action="store_true", help="the relaxed game alone on each fresh deal"
    )
    ap.add_argument(
        "--stock",
        type=int,
        metavar="STATES",
        help="the stock-keeping relaxed game alone on each fresh deal, at most STATES states",
    )
    ap.add_argument(
        "--wall",
        type=int,
        metavar="STATES",
        help="the real game searched past the relaxed wall on each fresh deal, at most STATES "
        "positions and --budget CPU seconds",
    )
    ap.add_argument("--stops", action="store_true", help="describe where each deal not won stopped")
    ap.add_argument(
        "--speed",
        type=int,
        metavar="WIDTH",
        help="time one beam of this fixed width per deal, and fingerprint its line",
    )
    ap.add_argument(
        "--pace",
        action="store_true",
        help="trace each beam of each deal's search (one process): times, widths, cut or not",
    )
    ap.add_argument(
        "--courses",
        action="store_true",
        help="which deals the course probes change (two processes, fixed widths, no clock)",
    )
    ap.add_argument(
        "--beam",
        dest="fields",
        type=_field,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="with --speed: a setting of the beam (a BeamConfig field), e.g. peek=1",
    )
    args = ap.parse_args(argv)
    deals = deal_list(args.deals)
    if args.speed:
        _apply(args.settings)
        load = os.getloadavg()
        code = _speed(deals, args.speed, dict(args.fields))
        print(f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}")
        return code
    if args.pace:
        _apply(args.settings)
        return _pace(deals, args.budget, args.cpu, args.per_deal)
    if args.courses:
        _apply(args.settings)
        return _courses(deals)
    if args.relax:
        _apply(args.settings)
        return _relax_only(deals)
    if args.stock:
        _apply(args.settings)
        return _stock_only(deals, args.stock)
    if args.wall:
        _apply(args.settings)
        return _wall_only(deals, args.wall, args.budget)
    load = os.getloadavg()
    rows = []
    workers = max(1, args.jobs // args.per_deal)
    jobs = [(d, args.budget, args.cpu, args.per_deal, args.stops) for d in deals]
    with ProcessPoolExecutor(workers, initializer=_apply, initargs=(args.settings,)) as pool:
        for row in pool.map(_one, jobs):
            rows.append(row)
            deal, verdict, best, seconds, positions, ok, stop = row
            mark = "ok" if ok else "BAD"
            print(f"{deal:5} {verdict:8} {best:3} {seconds:5.1f}s {positions:8} {mark}  {stop}")
            sys.stdout.flush()
    n = len(rows)
    times = sorted(r[3] for r in rows)
    cards = sorted(r[2] for r in rows)

    def share(v: str) -> str:
        return f"{100 * sum(r[1] == v for r in rows) / n:.1f}%"

    replays = "all ok" if all(r[5] for r in rows) else "FAILED"
    print(
        f"stjernen deals {args.deals} ({n}), budget {args.budget:g} s"
        f"{' CPU' if args.cpu else ''}, {args.jobs} jobs, {args.per_deal} per deal: "
        f"won {share('won')}, lost {share('lost')}, unknown {share('unknown')}; "
        f"time median {statistics.median(times):.1f} s, p95 {times[int(0.95 * (n - 1))]:.1f} s; "
        f"cards median {statistics.median(cards):g}, p10 {cards[int(0.10 * (n - 1))]}, "
        f"mean {statistics.fmean(cards):.1f}; replays {replays}"
    )
    print(
        f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    return 0 if all(r[5] for r in rows) else 1


if __name__ == "__main__":
    started = time.monotonic()
    code = main()
    print(f"wall {time.monotonic() - started:.0f} s")
    sys.exit(code)
