"""Does watching slow a player? A player's action latency with and without spectators.

    nice -n 10 python bench/spectators.py                 # 0 and 8 spectators, twice each
    nice -n 10 python bench/spectators.py --spectators 0,16 --actions 200

One SQLite match store in a temporary directory; a player (this process) plays
``--actions`` actions at a table (``Seat.act``: one write transaction each,
what a player's key costs) while N spectator processes watch it the way the
spectator screen does, only harder: each looks at the table's revision every
0.1 s (the screen: 0.5 s), replays the new actions when it moved, and renews
its presence every second (the screen: every 10 s); ``--poll 0.5 --beat 10``
are the screen's own rates. Printed per run: median
and 95th percentile wall milliseconds per action, and the player's CPU
milliseconds per action (which other processes cannot change).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import tempfile
import time

from termsolitaire.match import MatchStore, Player


def spectator(
    directory: str, table: int, name: str, stop: mp.synchronize.Event, poll: float, beat: float
) -> None:
    store = MatchStore(Player.make(name), directory, keep_dir=None)
    watchers = [store.watch(table, s.number) for s in store.watch_seats(table)]
    seen, renewed = -1, 0.0
    while not stop.is_set():
        now = time.monotonic()
        if now - renewed >= beat:
            store.spectate(table)
            renewed = now
        revision = store.revision(table)
        if revision != seen:
            seen = revision
            for w in watchers:
                w.refresh()
        time.sleep(poll)
    store.close()


def run(spectators: int, actions: int, poll: float, beat: float) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as d:
        ann = MatchStore(Player.make("ann"), d, keep_dir=None)
        seat = ann.open_table(suits=1, minutes=20, deal=4242)
        seat.start()
        stop = mp.Event()
        procs = [
            mp.Process(target=spectator, args=(d, seat.table_id, f"s{i}", stop, poll, beat))
            for i in range(spectators)
        ]
        for p in procs:
            p.start()
        while ann.spectators(seat.table_id) < spectators:
            time.sleep(0.05)
        walls = []
        cpu0 = time.process_time()
        for _ in range(actions):
            g = seat.game
            moves = [m for m in g.legal_moves() if m.kind != "deal"] or g.legal_moves()
            action = str(moves[0]) if moves else "undo"
            if g.can_undo and len(g.history) > 30:
                action = "undo"
            t = time.perf_counter()
            seat.act(action)
            walls.append((time.perf_counter() - t) * 1000)
        cpu = (time.process_time() - cpu0) * 1000 / actions
        stop.set()
        for p in procs:
            p.join()
        ann.close()
    walls.sort()
    return statistics.median(walls), walls[int(len(walls) * 0.95)], cpu


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--spectators", default="0,8")
    p.add_argument("--actions", type=int, default=150)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--poll", type=float, default=0.1, help="seconds between looks (screen: 0.5)")
    p.add_argument("--beat", type=float, default=1.0, help="seconds between renewals (screen: 10)")
    args = p.parse_args()
    counts = [int(x) for x in args.spectators.split(",")]
    for r in range(args.rounds):
        for n in counts:
            median, p95, cpu = run(n, args.actions, args.poll, args.beat)
            print(
                f"round {r + 1}: {n:>2} spectators: action median {median:6.2f} ms, "
                f"p95 {p95:6.2f} ms, player CPU {cpu:5.2f} ms/action"
            )


if __name__ == "__main__":
    main()
