"""Load test of ``termsolitaire serve``: many players at once on loopback.

Starts the server (a child process, its own temporary data directory, limits
off), logs N players in with their own keys over asyncssh with an 80x24 pty,
goes from the home screen (the match lobby) to the menu and opens a Penguin
board in each, measures CPU while the boards sit idle (their
clocks ticking), then has every player press a cursor key every INTERVAL
seconds for DURATION seconds. A key is answered when the board redraws below
the header (the clock only repaints row 1). Then it reports:

- sessions held to the end (none may drop), keys sent and answered;
- key to screen change: p50, p95 and max;
- memory: the server's RSS, each app's RSS and PSS (shared pages split);
- CPU: per session while idle and while playing, the server's, this client's.

Bounded: loopback only, N sessions, a fixed duration, an overall deadline.

    nice -n 10 .venv/bin/python bench/serve_load.py [--sessions 50] [--interval 0.2]
        [--duration 60] [--idle 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

from termsolitaire.serve.players import Players

RIGHT = b"\x1b[C"
MENU = b"seven columns"
BOARD = "Penguin · deal".encode()
LOBBY = b"Spider match lobby"
BELOW_HEADER = re.compile(rb"\x1b\[([3-9]|\d\d+);\d+H")
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def family(pid: int) -> list[int]:
    """``pid`` and every process under it (an app's solver worker is its child)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def family_cpu(pid: int) -> float:
    return sum(cpu_seconds(p) for p in family(pid))


def family_memory(pid: int) -> tuple[int, int]:
    rss = pss = 0
    for p in family(pid):
        r, q = memory_kib(p)
        rss, pss = rss + r, pss + q
    return rss, pss


def memory_kib(pid: int) -> tuple[int, int]:
    """RSS and PSS of a process in KiB (from smaps_rollup)."""
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1])
            elif line.startswith("Pss:"):
                pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


class Player:
    """One logged-in player: what their screen received, and their keys' fate."""

    def __init__(self, n: int, key: asyncssh.SSHKey) -> None:
        self.n = n
        self.key = key
        self.raw = bytearray()
        self.sent: list[float] = []  # send times of keys not answered yet
        self.latencies: list[float] = []
        self.keys = 0
        self.closed = False
        self.changed = asyncio.Event()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.process: asyncssh.SSHClientProcess[bytes] | None = None
        self.ready_after = 0.0

    async def login(self, port: int, deadline: float) -> None:
        t0 = time.monotonic()
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, known_hosts=None, client_keys=[self.key], username="bench",
            agent_path=None, config=None, kbdint_auth=False, password_auth=False,
        )  # fmt: skip
        self.process = await self.conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        self.reader = asyncio.create_task(self.read())
        await self.wait(LOBBY, deadline)  # the server's home: the match lobby
        self.process.stdin.write(b"g")  # its solo games
        await self.wait(MENU, deadline)
        self.process.stdin.write(b"\x1b[B\r")  # down to Penguin, Enter
        await self.wait(BOARD, deadline)
        self.ready_after = time.monotonic() - t0

    async def read(self) -> None:
        assert self.process is not None
        try:
            while data := await self.process.stdout.read(65536):
                now = time.monotonic()
                self.raw += data
                if self.sent and BELOW_HEADER.search(data):
                    self.latencies += [now - t for t in self.sent]
                    self.sent.clear()
                self.changed.set()
        except (OSError, asyncssh.Error):
            pass
        self.closed = True
        self.changed.set()

    async def wait(self, marker: bytes, deadline: float) -> None:
        while marker not in self.raw:
            if self.closed or time.monotonic() > deadline:
                raise RuntimeError(f"player {self.n}: no {marker!r} on screen")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())

    async def press(self, interval: float, until: float) -> None:
        """A key every ``interval`` seconds until ``until``, on a fixed schedule."""
        assert self.process is not None
        start = time.monotonic() + interval * (self.n % 10) / 10  # spread the players out
        k = 0
        while not self.closed:
            when = start + k * interval
            if when >= until:
                return
            await asyncio.sleep(max(0.0, when - time.monotonic()))
            self.sent.append(time.monotonic())
            self.process.stdin.write(RIGHT)
            self.keys += 1
            k += 1


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def main(args: argparse.Namespace) -> int:
    data = Path(tempfile.mkdtemp(prefix="termsolitaire-serve-load-"))
    players = [
        Player(n, asyncssh.generate_private_key("ssh-ed25519")) for n in range(args.sessions)
    ]
    accounts = Players(data)
    for p in players:
        key_text = p.key.export_public_key().decode().strip()
        accounts.register(p.key.get_fingerprint("sha256"), f"bench{p.n}", key_text)
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "termsolitaire", "serve", "--port", "0", "--data-dir", str(data),
        "--max-sessions", "0", "--max-per-key", "0", "--ip-burst", "0", "--idle-timeout", "0",
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert server.stderr is not None
    log: list[str] = []
    deadline = time.monotonic() + args.start_limit
    try:
        while not any("serving on" in line for line in log):
            line = await asyncio.wait_for(server.stderr.readline(), args.start_limit)
            if not line:
                raise RuntimeError("the server did not start:\n" + "\n".join(log))
            log.append(line.decode().rstrip())
        port = int(re.search(r"serving on 127\.0\.0\.1:(\d+)", log[-1]).group(1))  # type: ignore[union-attr]

        async def read_log() -> None:
            assert server.stderr is not None
            while line := await server.stderr.readline():
                log.append(line.decode().rstrip())

        log_task = asyncio.create_task(read_log())
        t0 = time.monotonic()
        gate = asyncio.Semaphore(args.connect_at_once)

        async def login(p: Player) -> None:
            async with gate:
                await p.login(port, deadline)

        await asyncio.gather(*(login(p) for p in players))
        all_ready = time.monotonic() - t0
        pids = [
            int(m.group(1)) for line in log if (m := re.search(r"^.* connect .* pid=(\d+)", line))
        ]
        assert len(pids) == args.sessions, (len(pids), log[-5:])

        # Idle: boards on screen, clocks ticking, nobody pressing anything.
        idle_cpu0 = sum(family_cpu(pid) for pid in pids)
        await asyncio.sleep(args.idle)
        idle_cpu = (sum(family_cpu(pid) for pid in pids) - idle_cpu0) / args.idle

        # Playing: every player presses a key every interval.
        apps0 = sum(family_cpu(pid) for pid in pids)
        server0 = cpu_seconds(server.pid)
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        start = time.monotonic()
        until = start + args.duration
        await asyncio.gather(*(p.press(args.interval, until) for p in players))
        played = time.monotonic() - start
        apps_cpu = (sum(family_cpu(pid) for pid in pids) - apps0) / played
        server_cpu = (cpu_seconds(server.pid) - server0) / played
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        me_cpu = (me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime) / played
        settle = time.monotonic() + 5.0
        while any(p.sent for p in players) and time.monotonic() < settle:
            await asyncio.sleep(0.05)

        memory = [family_memory(pid) for pid in pids]
        workers = sum(len(family(pid)) - 1 for pid in pids)
        server_rss = memory_kib(server.pid)[0]
        held = sum(not p.closed for p in players)
        dropped = [line for line in log if " disconnect " in line]
        sent = sum(p.keys for p in players)
        lat = [x for p in players for x in p.latencies]
        answered = len(lat)

        for p in players:
            if p.conn is not None:
                p.conn.close()
        server.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(server.wait(), 60)
        await log_task

        ms, n = 1000.0, args.sessions
        rss = [m[0] / 1024 for m in memory]
        pss = [m[1] / 1024 for m in memory]
        ready = [p.ready_after for p in players]
        rows = {
            "sessions": f"{n} started, {held} held to the end, {len(dropped)} dropped",
            "login to board": f"all {n} in {all_ready:.1f} s; one: median "
            f"{statistics.median(ready):.1f} s, max {max(ready):.1f} s",
            "keys": f"{sent} sent ({args.interval * ms:.0f} ms apart, {args.duration:.0f} s), "
            f"{answered} answered, {sent - answered} unanswered",
            "key to screen": f"p50 {percentile(lat, 50) * ms:.0f} ms, "
            f"p95 {percentile(lat, 95) * ms:.0f} ms, max {max(lat, default=0) * ms:.0f} ms",
            "app processes": f"{n} apps and {workers} solver workers under them",
            "app memory": "(an app with its solver worker) "
            f"RSS mean {statistics.mean(rss):.1f} MiB (max {max(rss):.1f}), "
            f"PSS mean {statistics.mean(pss):.1f} MiB; all apps PSS {sum(pss):.0f} MiB",
            "server memory": f"RSS {server_rss / 1024:.1f} MiB",
            "CPU per session": f"idle {idle_cpu / n * 100:.2f}% of a core, "
            f"playing {apps_cpu / n * 100:.2f}% of a core",
            "CPU in all": f"apps {apps_cpu * 100:.0f}%, server {server_cpu * 100:.0f}%, "
            f"this client {me_cpu * 100:.0f}% (100% = one core)",
            "server exit": f"{status} after SIGTERM",
            "load average": Path("/proc/loadavg").read_text().strip(),
        }
        for label, text in rows.items():
            print(f"{label:<18}  {text}")
        ok = held == args.sessions and not dropped and status == 0
        return 0 if ok else 1
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between keys")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of key presses")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    parser.add_argument("--connect-at-once", type=int, default=10, help="logins in flight")
    parser.add_argument("--start-limit", type=float, default=300.0, help="seconds to log all in")
    args = parser.parse_args()
    if not 1 <= args.sessions <= 200 or not 0 < args.duration <= 600:
        parser.error("keep it bounded: 1-200 sessions, at most 600 s")
    sys.exit(asyncio.run(main(args)))
