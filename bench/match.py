"""The shared match store under load: run by hand, figures go in the issue note.

    python bench/match.py [--players 2,8,32] [--actions 300] [--pace 0.2] [--tables 200]

- append: P player processes, each at its own table, each appending actions
  through ``Seat.act`` (one write transaction each, WAL, busy timeout) in one
  shared database; reported as actions per second in all and the p50/p95/max
  latency of one action (what a player's key press waits for the store).
  Players start together (a barrier). Twice: flat out (saturation: how many
  actions per second the host takes), and paced, each player acting every
  ``--pace`` seconds (a fast human plays about one action a second).
- lobby: ``tables()`` and ``revision()`` with N open tables, and a seat
  resumed (replayed) after 300 actions.

Paced, a player's action must be in the store within a frame (p95 < 20 ms
with 32 players on a 2-core machine).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import tempfile
import time

from termsolitaire.match import MatchStore, Player


def pick(seat) -> str:  # type: ignore[no-untyped-def]
    moves = seat.game.legal_moves()
    transfers = [m for m in moves if m.kind == "move"]
    if seat.game.can_undo and len(seat.log) % 7 == 3:
        return "undo"
    return str((transfers or moves)[len(seat.log) % len(transfers or moves)])


def player(directory: str, n: int, actions: int, pace: float, go, out) -> None:  # type: ignore[no-untyped-def]
    store = MatchStore(Player.make(f"p{n}"), directory)
    seat = store.open_table(suits=2, minutes=20, deal=n)
    seat.start()
    go.wait()
    lat = []
    start = time.perf_counter() + random.Random(n).uniform(0, pace)
    for i in range(actions):
        if pace:
            time.sleep(max(0.0, start + i * pace - time.perf_counter()))
        action = pick(seat)
        t = time.perf_counter()
        seat.act(action)
        lat.append(time.perf_counter() - t)
        if seat.finished:
            break
    out.put(lat)


def append(players: int, actions: int, pace: float) -> None:
    with tempfile.TemporaryDirectory() as d:
        MatchStore(Player.make("setup"), d).close()
        go = mp.Event()
        out: mp.Queue[list[float]] = mp.Queue()
        procs = [
            mp.Process(target=player, args=(d, n, actions, pace, go, out)) for n in range(players)
        ]
        for p in procs:
            p.start()
        time.sleep(1.0)  # let every player open its table before the start
        t0 = time.perf_counter()
        go.set()
        lat = [x for _ in procs for x in out.get()]
        wall = time.perf_counter() - t0
        for p in procs:
            p.join()
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    how = f"every {pace:.2f}s" if pace else "flat out"
    print(
        f"append  {players:3d} players {how:>11s} "
        f"{len(lat) / wall:7.0f} actions/s  "
        f"p50 {q[49] * 1000:6.2f} ms  p95 {q[94] * 1000:6.2f} ms  max {lat[-1] * 1000:7.2f} ms"
    )


def lobby(tables: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        hosts = [MatchStore(Player.make(f"h{i}"), d) for i in range(tables // 5 + 1)]
        for i in range(tables):
            hosts[i // 5].open_table(public=i % 4 != 0)
        viewer = MatchStore(Player.make("viewer"), d)

        def table_revision() -> int:
            return viewer.revision(1)

        for name, fn in (
            ("tables()", viewer.tables),
            ("revision()", viewer.revision),
            ("revision(1)", table_revision),
        ):
            n, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < 1.0:
                fn()
                n += 1
            ms = 1000 * (time.perf_counter() - t0) / n
            print(f"lobby   {tables} tables  {name:11s} {ms:7.3f} ms")
        seat = viewer.open_table(deal=3)
        seat.start()
        for _ in range(300):
            seat.act(pick(seat))
        t0 = time.perf_counter()
        viewer.seat(seat.table_id)
        print(f"resume  300 actions   {1000 * (time.perf_counter() - t0):7.2f} ms")
        for s in [*hosts, viewer]:
            s.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="2,8,32")
    ap.add_argument("--actions", type=int, default=300)
    ap.add_argument("--pace", type=float, default=0.2)
    ap.add_argument("--tables", type=int, default=200)
    args = ap.parse_args()
    for pace in (0.0, args.pace):
        for p in (int(x) for x in args.players.split(",")):
            append(p, args.actions if pace == 0 else min(args.actions, 100), pace)
    lobby(args.tables)


if __name__ == "__main__":
    main()
