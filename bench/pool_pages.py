"""What a worker of the server's solver pool costs: forked from the warm process, or spawned.

    python bench/pool_pages.py [--workers 2] [--deals 25] [--game penguin]

Starts the server's warm process (``python -m termsolitaire.serve.warm``, as
bench/session_pages.py does), has it fork ``--workers`` solver workers exactly
as the pool asks it to (the same request over the same socket,
``serve/prestart.py``'s ``fork_solver``), and spawns as many as the pool does
without a warm process (``children.Child.spawn``, ``termsolitaire.solver.worker:main``).
Every worker then answers the same requests, one after the other: a board's
verdict (4 s, not shortened) and a hint (4 s, shortened) on each of ``--deals``
deals of ``--game``, as ``--deals`` players opening a board and asking a hint
would have them. Then it reports, from ``/proc``, for each kind: RSS, PSS,
private pages (a forked worker's split into pages copied from the warm process
and new ones), and the CPU of the requests.

PSS here splits a forked worker's shared pages with the warm process and the
other workers only; under ``serve`` fifty sessions share them too, so what a
forked worker adds to a session's share is nearer its private pages. No SSH,
no sessions, no load. Compare checkouts with ``PYTHONPATH``. Linux only. Not
part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import sys
import tempfile
import time

from session_pages import PAGE, cpu_seconds, present, private_pages, rollup, start_warm

from termsolitaire.children import Child, Lines
from termsolitaire.rules import new_game


def fork_worker(ours: socket.socket, n: int) -> tuple[int, Lines, socket.socket]:
    """Ask the warm process for a solver worker, as the pool does: its pid and channel."""
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    socket.send_fds(ours, [json.dumps({"id": n, "solver": True}).encode()], [theirs.fileno()])
    theirs.close()
    while (answer := json.loads(ours.recv(1 << 18))).get("id") != n:
        pass
    if "pid" not in answer or answer["pid"] is None:
        raise SystemExit(f"the warm process did not fork a worker: {answer}")
    return int(answer["pid"]), Lines(mine.fileno(), mine.fileno()), mine


def report(warm: int, kinds: dict[str, list[tuple[int, Lines]]], when: str) -> None:
    warm_pages = present(warm)
    w = rollup(warm)
    print(f"{when}: warm process RSS {w['Rss'] / 1024:.1f} MiB, PSS {w['Pss'] / 1024:.1f} MiB")
    for kind, workers in kinds.items():
        each = [rollup(pid) for pid, _ in workers]
        n = len(each)
        rss = sum(e["Rss"] for e in each) / n / 1024
        pss = sum(e["Pss"] for e in each) / n / 1024
        private = sum(e["Private_Dirty"] + e["Private_Clean"] for e in each) / n / 1024
        copied = new = 0
        for pid, _ in workers:
            counts = private_pages(pid, warm_pages)
            copied += sum(v for (_, how), v in counts.items() if how == "copied")
            new += sum(v for (_, how), v in counts.items() if how == "new")
        split = (
            f" (copied from the warm process {copied * PAGE / n / 2**20:.1f}, "
            f"new {new * PAGE / n / 2**20:.1f})"
        )
        print(
            f"  {kind:<8} worker (mean of {n}): RSS {rss:.1f} MiB, PSS {pss:.1f} MiB, "
            f"private {private:.1f} MiB" + (split if kind == "forked" else "")
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--deals", type=int, default=25)
    ap.add_argument("--game", default="penguin")
    args = ap.parse_args()
    home = tempfile.mkdtemp(prefix="ts-pool-")
    env = {**os.environ, "TERMSOLITAIRE_HOME": home}
    warm, ours = start_warm([sys.executable, "-m", "termsolitaire.serve.warm"], env)
    spawned: list[Child] = []
    forked: list[tuple[int, Lines, socket.socket]] = []
    try:
        ready = json.loads(ours.recv(1 << 18))
        print(f"warm process ready: {ready.get('cpu')} s of CPU")
        forked = [fork_worker(ours, n) for n in range(args.workers)]
        spawned = [Child.spawn("termsolitaire.solver.worker:main", session=True)]
        spawned += [
            Child.spawn("termsolitaire.solver.worker:main", session=True)
            for _ in range(args.workers - 1)
        ]
        kinds = {
            "forked": [(pid, channel) for pid, channel, _ in forked],
            "spawned": [(child.pid, child.lines()) for child in spawned],
        }
        positions = [new_game(args.game, deal).to_text() for deal in range(1, args.deals + 1)]
        time.sleep(1.0)  # the spawned ones' imports
        report(warm.pid, kinds, "started")
        for kind, workers in kinds.items():
            before = sum(cpu_seconds(pid) for pid, _ in workers)
            started = time.monotonic()
            for position in positions:
                for shorten in (False, True):
                    for _, channel in workers:
                        request = {"op": "solve", "position": position, "seconds": 4.0}
                        channel.send({**request, "memory_mb": 0, "shorten": shorten})
                    for _, channel in workers:
                        reply = channel.receive()
                        if not reply.get("ok"):
                            raise SystemExit(f"{kind} worker failed: {reply}")
            used = sum(cpu_seconds(pid) for pid, _ in workers) - before
            print(
                f"{kind}: {len(positions) * 2} requests each in "
                f"{time.monotonic() - started:.1f} s, {used / len(workers):.2f} s of CPU each"
            )
        report(warm.pid, kinds, "after the requests")
    finally:
        for child in spawned:
            child.kill()
        for _, _, sock in forked:
            sock.close()
        warm.kill()
        warm.wait()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
