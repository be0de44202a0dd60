"""Where the test suite's CPU goes: a pytest plugin, and a summary of what it wrote.

    PYTHONPATH=bench TESTCPU=/tmp/testcpu .venv/bin/pytest -p testcpu -n auto -q
    python bench/testcpu.py /tmp/testcpu [--top 40] [--group file|dir]

CI's time on 2 cores is the suite's CPU (its workers keep both cores busy:
tests/conftest.py starts two a core), not any one test's wall time, which
moves with the load. Each worker appends one line a test to a file of its
own in ``$TESTCPU``: the test's id, the worker's CPU seconds over the test
(``time.process_time``), the CPU of the children it reaped meanwhile (apps on
ptys, servers' warm processes, solver helpers: ``RUSAGE_CHILDREN``), and its
wall seconds. The summary adds them up. Not counted: each worker's start and
collection (about 12 CPU-s each on 2026-12-07's machine) and children never
reaped by a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import pytest

_out: TextIO | None = None


def _cpu() -> tuple[float, float]:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    global _out
    if _out is None:
        folder = Path(os.environ.get("TESTCPU", "testcpu"))
        folder.mkdir(parents=True, exist_ok=True)
        _out = open(folder / f"cpu-{os.getpid()}.tsv", "a")  # noqa: SIM115 (one a worker)
    own, reaped = _cpu()
    wall = time.monotonic()
    yield
    own2, reaped2 = _cpu()
    _out.write(
        f"{item.nodeid}\t{own2 - own:.3f}\t{reaped2 - reaped:.3f}\t{time.monotonic() - wall:.3f}\n"
    )
    _out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=30, help="the dearest tests shown")
    parser.add_argument("--group", choices=("file", "dir"), default="file")
    args = parser.parse_args(argv)
    rows = []
    for path in sorted(args.folder.glob("cpu-*.tsv")):
        for line in path.read_text().splitlines():
            test, own, reaped, wall = line.split("\t")
            rows.append((test, float(own), float(reaped), float(wall)))
    if not rows:
        print(f"testcpu: no cpu-*.tsv in {args.folder}", file=sys.stderr)
        return 2
    own = sum(r[1] for r in rows)
    reaped = sum(r[2] for r in rows)
    print(f"{len(rows)} tests: {own + reaped:.1f} CPU-s", end=" ")
    print(f"({own:.1f} in the workers, {reaped:.1f} in children)")
    groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for test, o, r, _ in rows:
        path = test.split("::")[0]
        key = path if args.group == "file" else "/".join(path.split("/")[:2])
        groups[key][0] += o + r
        groups[key][1] += 1
    print(f"\nby {args.group}:")
    for key, (cpu, n) in sorted(groups.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"{cpu:8.1f} {int(n):5d}  {key}")
    print("\nthe dearest tests (CPU-s, of it in children, wall s):")
    for test, o, r, w in sorted(rows, key=lambda row: -(row[1] + row[2]))[: args.top]:
        print(f"{o + r:7.1f} {r:6.1f} {w:7.1f}  {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
