"""termsolitaire's speed as a player feels it, beside a bare Textual app and soliterm.

    python bench/run.py [--runs 5] [--keys 8] [--idle 10] [--sizes 80x24,120x40]
                        [--only penguin,bare] [--solver-help] [--markdown]
                        [--no-bytecode]

Every program runs in a pseudo-terminal (TERM=xterm-256color) of each size, as
over SSH, and every byte it writes is counted. Each figure is the median of
several runs in this one go (``--runs`` launches, ``--keys`` key presses), but
the bytes a key writes, which are the fewest of its presses (a clock tick that
slips in only adds to them):

- launch to the first full frame (the title and the footer, drawn last, have
  come), in wall-clock time and in the CPU time the program used to get there
  (less moved by other jobs on the machine), and the bytes of that first frame
  (terminal set-up included); then, for the launch ratio, ``--rounds`` rounds
  that each launch the bare app and every board once in turn (the median of
  the rounds' ratios: a drift of the machine's speed between the programs'
  own launches, minutes apart, moved that ratio by a tenth);
- key press to repaint (until the program falls silent) for a cursor key and
  for the key that finishes a card move;
- bytes written per cursor key, per pick-up, per card move, per undo; a card
  move is measured in a game under way (one other move played first, so the
  footer's Undo is lit already) and, apart, as the first move of a game (which
  lights the footer's Undo as well);
- resident memory once the board is drawn;
- bytes per second and CPU time (% of a core) over ``--idle`` seconds of
  idling with the clock on screen (every launched copy idles at once);
- the rules core's throughput (bench/rules.py's positions) and the solver's,
  for the games that have a solver module.

termsolitaire starts a board directly (``termsolitaire GAME --deal N``) with a
scratch TERMSOLITAIRE_HOME per copy, so no save question comes first. The
solver's verdict is off (TERMSOLITAIRE_SOLVER_HELP=0), so the figures are the
board's own: with it (``--solver-help``, the default for a player) each change
also starts a search in a second process and redraws the verdict word. The
bare Textual app (bench/bare.py: one Static) is the floor; soliterm (curses,
``pip install soliterm``) plays Spider with two suits, the same deal number
(its own deal). Not part of the test suite; it takes a few minutes.

termsolitaire's modules are compiled to bytecode first (``__pycache__``, as
``pip install`` does, and as Python does at a first launch): run from a source
tree with ``PYTHONDONTWRITEBYTECODE`` set (as on the machine the sessions work
on), every launch would compile some 50 modules from source again, while
Textual's, installed, are compiled already. ``--no-bytecode`` leaves them as
they are (the figures before issue 33's seventh session).
"""

from __future__ import annotations

import argparse
import atexit
import functools
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from term import Term, drain_all  # noqa: E402

GAMES = ["penguin", "spider", "napoleon", "stjernen"]
DEALS = {"penguin": 5, "spider": 123, "napoleon": 1, "stjernen": 1}
VARIANTS: dict[str, dict[str, int]] = {"spider": {"suits": 2}}
UNDO = b"z"
SOLI = ["--suits", "2", "--no-sync", "--no-animation"]


@dataclass
class Target:
    """One program to measure and how to drive it."""

    name: str
    title: str
    argv: list[str]
    markers: tuple[bytes, ...]
    """Texts of the first full frame: its top and its bottom (the frame is whole
    once all have come, whichever order they are drawn in)."""
    env: Callable[[], dict[str, str]]
    move: list[tuple[str, bytes]] = field(default_factory=list)
    """One cycle: (what, key) pairs; the keys named pick, move, undo are measured."""
    warm: list[bytes] = field(default_factory=list)
    """Keys of another move played after the first cycle: the game is under way."""
    cursor_first: bool = True  # the first arrow only shows the cursor
    note: str = ""


def compile_bytecode() -> str:
    """Compile termsolitaire's modules where they lie (``__pycache__``), as an
    install does; where."""
    import compileall

    import termsolitaire

    where = Path(termsolitaire.__file__).parent
    compileall.compile_dir(where, quiet=1)
    return f"compiled first ({where})"


def scratch_dir(prefix: str) -> str:
    """A directory of its own for one program's files, removed when the bench ends."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def scratch_home(solver_help: bool = False) -> dict[str, str]:
    env = {"TERMSOLITAIRE_HOME": scratch_dir("ts-bench-")}
    if not solver_help:
        env["TERMSOLITAIRE_SOLVER_HELP"] = "0"
    return env


def soliterm_home() -> dict[str, str]:
    home = scratch_dir("soliterm-bench-")
    return {
        "HOME": home,
        "XDG_CONFIG_HOME": f"{home}/config",
        "XDG_DATA_HOME": f"{home}/data",
        "SOLITERM_NO_AISLERIOT": "1",
    }


# ------------------------------------------------------------ the moves


def board_move(name: str) -> tuple[int, str, str, str, list[str]]:
    """A deal and a card move between two keyed piles on it (not to a foundation,
    onto a card when there is one): (deal, source key, destination key, move, the
    keys of another move that leaves this one as it is: the game under way)."""
    from termsolitaire.rules import new_game
    from termsolitaire.screens.boards import board_class

    board = board_class(name)
    keys = {p: place.key for p, place in board.PLACES.items() if len(place.key) == 1}
    for deal in range(DEALS[name], DEALS[name] + 200):
        g = new_game(name, deal, **VARIANTS.get(name, {}))
        moves = [
            m
            for m in g.legal_moves()
            if m.kind == "move"
            and m.src in keys
            and m.dst in keys
            and m.src not in g.foundations
            and m.dst not in g.foundations
            and g.click_action(m.src) is None
        ]
        moves.sort(key=lambda m: (not g.pile(m.dst), m.count))
        for m in moves:
            for w in g.legal_moves():
                if w.kind != "move" or w.src not in keys or w.dst not in keys:
                    continue
                if {w.src, w.dst} & {m.src, m.dst} or g.click_action(w.src) is not None:
                    continue
                after = g.copy()
                after.play(w)
                if after.is_legal(m) and not after.is_won and not after.is_stuck:
                    return deal, keys[m.src], keys[m.dst], str(m), [keys[w.src], keys[w.dst]]
    raise RuntimeError(f"no keyed card move found for {name}")


def soliterm_cycle(deal: int) -> tuple[list[tuple[str, bytes]], str]:
    """soliterm's Spider: a legal move between two columns, as cursor keys, Space
    (pick up), cursor keys and Space (the move), then u (undo)."""
    from soliterm.engine.games import new_solitaire

    g = new_solitaire("spider", seed=deal, options={"suits": 2})
    columns = g.ids_of("tableau")
    moves = [(s, d, n) for s, d, n in g.legal_moves() if s in columns and d in columns]
    src, dst, n = moves[0]
    a, b = columns.index(src), columns.index(dst)

    def steps(frm: int, to: int) -> list[tuple[str, bytes]]:
        key = "right" if to > frm else "left"
        return [(f"arrow:{key}", b"")] * abs(to - frm)

    cycle = [*steps(0, a), ("pick", b" "), *steps(a, b), ("move", b" "), ("undo", b"u")]
    cycle += steps(b, 0)  # back where the cycle starts
    return cycle, f"column {a + 1} to {b + 1} ({n} card{'s' if n > 1 else ''})"


def targets(sizes: list[tuple[int, int]], solver_help: bool = False) -> list[Target]:
    py = sys.executable
    out = []
    for name in GAMES:
        deal, src, dst, move, warm = board_move(name)
        variant = [a for k, v in VARIANTS.get(name, {}).items() for a in (f"--{k}", str(v))]
        out.append(
            Target(
                name,
                name.capitalize(),
                [py, "-m", "termsolitaire", name, "--deal", str(deal), *variant],
                (b"deal", b"Quit"),  # the title, then the footer (drawn last)
                functools.partial(scratch_home, solver_help),
                [("pick", src.encode()), ("move", dst.encode()), ("undo", UNDO)],
                [k.encode() for k in warm],
                note=f"deal {deal}{' ' + ' '.join(variant) if variant else ''}: {move}"
                f" (under way: {' then '.join(warm)} first)",
            )
        )
    out.append(
        Target("bare", "bare Textual", [py, str(HERE / "bare.py")], (b"bare Textual",), dict)
    )
    if importlib.util.find_spec("soliterm") is not None:
        cycle, move = soliterm_cycle(DEALS["spider"])
        out.append(
            Target(
                "soliterm",
                "soliterm Spider",
                [py, "-m", "soliterm", "--game", "spider", "--deal", str(DEALS["spider"]), *SOLI],
                (b"Score", b"help"),
                soliterm_home,
                cycle,
                cursor_first=False,
                note=f"deal {DEALS['spider']} --suits 2: {move}",
            )
        )
    return out


# ------------------------------------------------------------ measuring


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def launch(t: Target, size: tuple[int, int]) -> tuple[Term, dict[str, float]]:
    """Start ``t``; the time to its first full frame, its bytes, and its memory."""
    term = Term(t.argv, size, t.env())
    data, at = term.until(*t.markers)
    if at is None:
        raise RuntimeError(f"{t.name} at {size}: no full frame ({data[-300:]!r})")
    cpu = term.cpu_seconds()
    more, _ = term.rest(0.3, 0.3)
    return term, {
        "launch_ms": 1000 * (at - term.started),
        "launch_cpu_ms": 1000 * cpu,
        "frame_bytes": len(data) + len(more),
        "rss_mib": term.rss_kib() / 1024,
    }


def launch_rounds(ts: list[Target], size: tuple[int, int], rounds: int) -> dict[str, list[float]]:
    """Each board's CPU to its first frame over the bare app's, launched in turns:
    every round starts each program once (closed at once), so a drift of the
    machine's speed during the run (the measurements above take the programs one
    after the other, minutes apart) moves a board and the bare app alike. The
    ratios of each round, by board."""
    bare = next(t for t in ts if t.name == "bare")
    boards = [t for t in ts if t.name in GAMES]
    out: dict[str, list[float]] = {t.name: [] for t in boards}
    for _ in range(rounds):
        cpu: dict[str, float] = {}
        for t in [bare, *boards]:
            term, figures = launch(t, size)
            term.close()
            cpu[t.name] = figures["launch_cpu_ms"]
        for t in boards:
            out[t.name].append(cpu[t.name] / cpu["bare"])
    return out


def play(term: Term, t: Target, keys: int) -> dict[str, list[float]]:
    """Cursor keys, then pick-up / move / undo cycles: bytes and repaint times."""
    got: dict[str, list[float]] = {}

    def add(name: str, value: float | None) -> None:
        if value is not None:
            got.setdefault(name, []).append(value)

    term.learn_clock()
    if t.cursor_first:
        term.press(term.arrow("right"))
    for i in range(keys + keys % 2):  # even: the cursor ends where it began
        b = term.press(term.arrow("left" if i % 2 else "right"))
        add("cursor_bytes", len(b.data))
        add("cursor_ms", None if b.latency is None else 1000 * b.latency)
    if t.cursor_first:
        term.press(b"\x1b")  # the cursor away again
    for cycle in range(max(3, keys // 2) + 1):
        if cycle == 1:  # the first cycle was the game's first move: now under way
            for key in t.warm:
                term.press(key)
        for what, key in t.move:
            if what.startswith("arrow:"):
                term.press(term.arrow(what.partition(":")[2]))
                continue
            b = term.press(key)
            if cycle == 0:
                if what == "move":
                    add("first_move_bytes", len(b.data))
                continue
            add(f"{what}_bytes", len(b.data))
            if what == "move":
                add("move_ms", None if b.latency is None else 1000 * b.latency)
    return got


def idle(terms: list[Term], seconds: float) -> tuple[list[float], list[float]]:
    """Bytes per second and % of a core, each copy over the same ``seconds``."""
    drain_all(terms, 1.0)
    before = {t.pid: t.cpu_seconds() for t in terms}
    counts = drain_all(terms, seconds)
    rates = [counts[t.pid] / seconds for t in terms]
    cpu = [100 * (t.cpu_seconds() - before[t.pid]) / seconds for t in terms]
    return rates, cpu


def measure(t: Target, sizes: list[tuple[int, int]], runs: int, keys: int, idle_s: float):
    """Every figure of ``t`` at every size: {(figure, size): median}."""
    results: dict[tuple[str, str], float | None] = {}
    alive: dict[str, list[Term]] = {}
    try:
        for size in sizes:
            tag = f"{size[0]}x{size[1]}"
            samples: dict[str, list[float]] = {}
            for _ in range(runs):
                term, figures = launch(t, size)
                alive.setdefault(tag, []).append(term)
                for k, v in figures.items():
                    samples.setdefault(k, []).append(v)
            keyed: set[str] = set()
            if t.move or t.name == "bare":
                for k, v in play(alive[tag][0], t, keys).items():
                    samples.setdefault(k, []).extend(v)
                    keyed.add(k)
            for k, v in samples.items():
                # A key's bytes are the same at each press of it in the same position,
                # but a clock tick that slips into its burst (a tick comes late on a
                # loaded machine, past the bench's guess of it) adds ~20: the fewest
                # is the key's own.
                own = k in keyed and k.endswith("_bytes")
                results[(k, tag)] = min(v) if own else median(v)
        everyone = [term for terms in alive.values() for term in terms]
        if t.name == "soliterm":  # its clock starts with the first move
            for term in everyone:
                for what, key in t.move:
                    k = term.arrow(what.partition(":")[2]) if what.startswith("arrow:") else key
                    term.send(k)
                    term.rest(0.1, 0.5)
        rates_cpu = {tag: ([], []) for tag in alive}
        by_pid = {term.pid: tag for tag, terms in alive.items() for term in terms}
        rates, cpu = idle(everyone, idle_s)
        for term, r, c in zip(everyone, rates, cpu, strict=True):
            rates_cpu[by_pid[term.pid]][0].append(r)
            rates_cpu[by_pid[term.pid]][1].append(c)
        for tag, (r, c) in rates_cpu.items():
            results[("idle_bps", tag)] = median(r)
            results[("idle_cpu", tag)] = median(c)
    finally:
        for terms in alive.values():
            for term in terms:
                term.close()
    return results


# ------------------------------------------------------------ the cores


def rules_figures(seconds: float) -> dict[str, tuple[float, float]]:
    """legal_moves() calls per second on a mid-game position and play+undo pairs
    per second in random playouts, per game (bench/rules.py's method)."""
    import random

    import rules as bench_rules

    from termsolitaire.rules import new_game

    out = {}
    for name in GAMES:
        variant = VARIANTS.get(name, {})
        g = bench_rules.mid_game(name, variant)

        def calls(g=g) -> int:
            for _ in range(100):
                g.legal_moves()
            return 100

        lm, _ = bench_rules.rate(calls, seconds)
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

        po, count = bench_rules.rate(playout, seconds)
        out[name] = (lm, po * pairs[0] / max(count, 1))
    return out


SOLVER_DEALS = (1, 2, 3)


def solver_figures(seconds: float) -> dict[str, str]:
    """Positions per second and deals won, per game with a solver module (each
    deal searched in a child process for at most ``seconds``)."""
    out = {}
    for name in GAMES:
        if importlib.util.find_spec(f"termsolitaire.solver.{name}") is None:
            out[name] = "no module"
            continue
        code = (
            "import sys, json\n"
            "from termsolitaire.rules import new_game\n"
            "from termsolitaire.solver import Budget, solve\n"
            f"g = new_game({name!r}, int(sys.argv[1]), **{VARIANTS.get(name, {})!r})\n"
            f"r = solve(g, Budget(seconds={seconds}, memory_mb=512))\n"
            "print(json.dumps([r.verdict, r.positions, r.seconds]))\n"
        )
        rates, won, failed = [], 0, ""
        for deal in SOLVER_DEALS:
            try:
                done = subprocess.run(
                    [sys.executable, "-c", code, str(deal)],
                    capture_output=True,
                    text=True,
                    timeout=seconds * 3 + 30,
                )
            except subprocess.TimeoutExpired:
                failed = "timed out"
                continue
            try:
                verdict, positions, secs = json.loads(done.stdout.strip().splitlines()[-1])
            except (ValueError, IndexError):
                failed = (done.stderr.strip().splitlines() or ["failed"])[-1][:40]
                continue
            won += verdict == "won"
            if secs > 0:
                rates.append(positions / secs)
        if not rates:
            out[name] = f"error: {failed}"
        else:
            out[name] = f"{median(rates):,.0f} pos/s, won {won}/{len(SOLVER_DEALS)}"
    return out


# ------------------------------------------------------------ the table

ROWS = [
    ("launch_ms", "launch to first full frame, ms", "{:.0f}"),
    ("launch_cpu_ms", "CPU to first full frame, ms", "{:.0f}"),
    ("launch_ratio", "CPU to first frame / bare, in turns", "{:.2f}x"),
    ("cursor_ms", "cursor key to repaint, ms", "{:.1f}"),
    ("move_ms", "card move key to repaint, ms", "{:.1f}"),
    ("frame_bytes", "bytes, first frame", "{:,.0f}"),
    ("cursor_bytes", "bytes per cursor key", "{:.0f}"),
    ("pick_bytes", "bytes per pick-up", "{:.0f}"),
    ("move_bytes", "bytes per card move", "{:.0f}"),
    ("first_move_bytes", "bytes, first move of a game", "{:.0f}"),
    ("undo_bytes", "bytes per undo", "{:.0f}"),
    ("rss_mib", "resident memory, MiB", "{:.1f}"),
    ("idle_bps", "idle with clock, bytes/s", "{:.1f}"),
    ("idle_cpu", "idle with clock, % of a core", "{:.2f}"),
]


def table(
    ts: list[Target],
    sizes: list[str],
    results: dict[str, dict[tuple[str, str], float | None]],
    extra: list[tuple[str, dict[str, str]]],
    markdown: bool,
) -> str:
    head = ["figure", "size", *(t.title for t in ts)]
    lines: list[list[str]] = []
    for key, label, fmt in ROWS:
        for size in sizes:
            row = [label, size]
            for t in ts:
                v = results[t.name].get((key, size))
                row.append("-" if v is None else fmt.format(v))
            lines.append(row)
    for label, per_game in extra:
        lines.append([label, "", *(per_game.get(t.name, "-") for t in ts)])
    widths = [max(len(r[i]) for r in [head, *lines]) for i in range(len(head))]

    def cells(r: list[str]) -> list[str]:
        pairs = enumerate(zip(r, widths, strict=True))
        return [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in pairs]

    if markdown:
        sep = ["-" * w for w in widths]
        rows = [head, sep, *lines]
        return "\n".join("| " + " | ".join(cells(r)) + " |" for r in rows)
    return "\n".join("  ".join(cells(r)) for r in [head, *lines])


TARGETS = [
    ("bytes per card move <= 200", "move_bytes", None, 200),
    ("bytes, first move of a game <= 200", "first_move_bytes", None, 200),
    ("bytes per pick-up <= 150", "pick_bytes", None, 150),
    ("bytes per cursor key <= 70", "cursor_bytes", None, 70),
    ("idle clock <= 20 B/s", "idle_bps", None, 20),
    ("launch <= 1.3x bare Textual", "launch_ms", "launch_ms", 1.3),
    ("launch CPU <= 1.3x bare Textual", "launch_cpu_ms", "launch_cpu_ms", 1.3),
    ("launch CPU <= 1.3x bare, in turns", "launch_ratio", None, 1.3),
    ("cursor key to repaint <= 1.5x bare", "cursor_ms", "cursor_ms", 1.5),
    ("card move to repaint <= 1.5x bare key", "move_ms", "cursor_ms", 1.5),
    ("idle CPU <= 1% of a core", "idle_cpu", None, 1.0),
    ("resident memory <= 1.5x bare Textual", "rss_mib", "rss_mib", 1.5),
]


def verdicts(results: dict[str, dict[tuple[str, str], float | None]], sizes: list[str]) -> str:
    """Each target against the worst board at any size."""
    lines = []
    boards = [g for g in GAMES if g in results]
    for label, key, floor, limit in TARGETS:
        worst, where = None, ""
        for g in boards:
            for size in sizes:
                v = results[g].get((key, size))
                if v is None:
                    continue
                if floor is not None:
                    base = results.get("bare", {}).get((floor, size))
                    if not base:
                        continue
                    v = v / base
                if worst is None or v > worst:
                    worst, where = v, f"{g} {size}"
        if worst is None:
            lines.append(f"  {label:40} not measured")
            continue
        shown = f"{worst:.2f}x" if floor or key.endswith("_ratio") else f"{worst:.1f}"
        ok = "met" if worst <= limit else "NOT MET"
        lines.append(f"  {label:40} worst {shown:>8} ({where}): {ok}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="launches per program and size")
    ap.add_argument("--keys", type=int, default=8, help="cursor keys (and half as many moves)")
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idling")
    ap.add_argument("--sizes", default="80x24,120x40")
    ap.add_argument("--only", default="", help="programs to measure (default: all)")
    ap.add_argument(
        "--rounds", type=int, default=9, help="launches in turns, for the launch ratio (0: none)"
    )
    ap.add_argument("--cores", type=float, default=0.5, help="seconds per rules figure")
    ap.add_argument("--solver", type=float, default=3.0, help="seconds per solver deal")
    ap.add_argument("--solver-help", action="store_true", help="the solver's verdict on")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument(
        "--no-bytecode", action="store_true", help="do not compile termsolitaire's modules first"
    )
    args = ap.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    tags = [f"{w}x{h}" for w, h in sizes]
    started = time.perf_counter()
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
    print(f"termsolitaire's solver verdict: {'on' if args.solver_help else 'off'}")
    print(f"termsolitaire's bytecode: {'as found' if args.no_bytecode else compile_bytecode()}")
    ts = targets(sizes, args.solver_help)
    if args.only:
        ts = [t for t in ts if t.name in args.only.split(",")]
    results = {}
    for t in ts:
        print(f"measuring {t.title} ...", file=sys.stderr, flush=True)
        results[t.name] = measure(t, sizes, args.runs, args.keys, args.idle)
    if args.rounds and "bare" in results and any(t.name in GAMES for t in ts):
        print("launching in turns ...", file=sys.stderr, flush=True)
        for size, tag in zip(sizes, tags, strict=True):
            for g, ratios in launch_rounds(ts, size, args.rounds).items():
                results[g][("launch_ratio", tag)] = median(ratios)
    extra: list[tuple[str, dict[str, str]]] = []
    if any(t.name in GAMES for t in ts):
        cores = rules_figures(args.cores)
        extra.append(("rules: legal_moves()/s", {g: f"{v[0]:,.0f}" for g, v in cores.items()}))
        extra.append(("rules: play+undo/s", {g: f"{v[1]:,.0f}" for g, v in cores.items()}))
        extra.append(("solver (deals 1-3)", solver_figures(args.solver)))
    print(table(ts, tags, results, extra, args.markdown))
    print()
    for t in ts:
        if t.note:
            print(f"  {t.title}: {t.note}")
    if "soliterm" not in [t.name for t in ts] and not args.only:
        print("  soliterm: not installed (pip install soliterm), its column is left out")
    print()
    print("targets (the worst board at any size):")
    print(verdicts(results, tags))
    print()
    spent = time.perf_counter() - started
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; took {spent:.0f} s")


if __name__ == "__main__":
    main()
