"""What the terminal's shadow (``terminal/shadow.py``) costs for whole new frames,
in instructions, a figure the load does not move.

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python bench/shadow_frames.py --passes 0
    valgrind ... python bench/shadow_frames.py --passes 5

The second count less the first, over 5, is one pass's instructions (the first
is Python, Rich and the frames' loading). ``--valgrind`` runs both and prints
that subtraction. ``--profile FILE``: one pass under cProfile. ``--size 80x24``:
only that size's frames.

The frames (``shadow_frames.jsonl.gz``) are what Textual handed the shadow in
real sessions on a pty (``xterm-256color``), recorded on 2026-12-04 at 80x24
and 120x40: the match lobby (``termsolitaire match``: one frame), the menu
(``termsolitaire``: the screen, then the daily's line) and a Penguin board
(``termsolitaire penguin --deal 5``: the screen, the key line four times over,
the clock). A pass, at each size: each screen onto a fresh shadow (as after a
resize or a login's first frame), then lobby, menu and board onto one shadow
(a login: each a new screen over the last). The shadow's caches are
cleared before each pass (a forked session starts with them empty), and the
collector is a session's (the heap frozen, ``warm.session_collector``).

It prints the bytes written and their SHA-256: a change to the shadow that
keeps what the terminal is sent keeps that line.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

FRAMES = Path(__file__).with_name("shadow_frames.jsonl.gz")


def load() -> list[tuple[str, tuple[int, int], list[str]]]:
    with gzip.open(FRAMES, "rt", encoding="utf-8") as f:
        return [
            (r["screen"], (r["size"][0], r["size"][1]), r["frames"]) for r in map(json.loads, f)
        ]


def one_pass(recorded: list[tuple[str, tuple[int, int], list[str]]]) -> list[str]:
    from termsolitaire.terminal import shadow

    for cached in (shadow.parse_sgr, shadow.sgr):
        cached.cache_clear()
    if hasattr(shadow, "ONE_CELL"):  # (before shadow11: _narrow's lru_cache)
        shadow.ONE_CELL.clear()
    else:
        shadow._narrow.cache_clear()  # type: ignore[attr-defined]
    out: list[str] = []
    for size in sorted({s for _, s, _ in recorded}):
        screens = [frames for _, s, frames in recorded if s == size]
        for frames in screens:  # each onto a fresh shadow
            fresh = shadow.Shadow(*size)
            out += [fresh.frame(f) for f in frames]
        login = shadow.Shadow(*size)
        for frames in screens:  # one after another: a login
            out += [login.frame(f) for f in frames]
    return out


def count(argv: list[str]) -> int:
    run = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            __file__,
            *argv,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    assert found, run.stderr
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE")
    parser.add_argument("--valgrind", action="store_true")
    parser.add_argument("--size", help="only this size's frames (80x24, 120x40)")
    args = parser.parse_args()
    if args.valgrind:
        only = ["--size", args.size] if args.size else []
        base = count(["--passes", "0", *only])
        full = count(["--passes", str(args.passes), *only])
        print(f"{(full - base) / max(args.passes, 1) / 1e6:.2f}M instructions a pass")
        return
    recorded = load()
    if args.size:
        recorded = [r for r in recorded if "x".join(map(str, r[1])) == args.size]
    from termsolitaire.serve.warm import session_collector
    from termsolitaire.terminal import shadow  # noqa: F401  (imported before counting)

    gc.freeze()  # as a session forked from the warm process collects
    session_collector()

    out: list[str] = []
    if args.profile:
        import cProfile

        with cProfile.Profile() as profile:
            out = one_pass(recorded)
        profile.dump_stats(args.profile)
    for _ in range(args.passes):
        out = one_pass(recorded)
    data = "".join(out).encode()
    print(f"{len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]}")


if __name__ == "__main__":
    main()
