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

Then every player takes a new deal (``N``) and asks a hint on it (``H``), all at
once: the hint must be answered (a hint, or "no winning line found") within
its budget (the board's 10 s), while the solver is busy with every new deal's
verdict. The login phase also gives the CPU per login (everything the server,
its warm process, its solver pool and the apps used from the first connection
until the last board showed, over the number of players).

Bounded: loopback only, N sessions, a fixed duration, an overall deadline.

``--no-prestart`` and ``--solver-workers 0`` are passed to the server (every app
spawned, each with its own solver worker: how main ran before issue 33);
``--before`` runs a server that has neither option (an older checkout, with
``PYTHONPATH=/path/to/it/src``).

    nice -n 10 .venv/bin/python bench/serve_load.py [--sessions 50] [--interval 0.2]
        [--duration 60] [--idle 10] [--database postgresql://… --hosts 2]

With ``--database`` (a PostgreSQL server: the bench makes a fresh database on
it and drops it after) every host stores in it, the players are spread over
``--hosts`` servers, and it also reports the database's writes per second per
player, its CPU (the ``postgres`` processes of this machine) and the
connections it held at the peak (an app holds one: ``storage/pgconn.py``).
With two hosts or more, two more players play a Spider match across the
first two hosts during the key phase (a move a second, each in turn, 100x30
ptys), and it reports the time from a key that plays a move on one host to
that move in the other player's side panel.
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

from termsolitaire.serve.players import Players, SharedPlayers
from termsolitaire.storage.pgconn import APPLICATION_NAME
from termsolitaire.testing.postgres import match_game

RIGHT = b"\x1b[C"
MENU = b"seven columns"
BOARD = "Penguin · deal".encode()
LOBBY = b"Spider match lobby"
BELOW_HEADER = re.compile(rb"\x1b\[([3-9]|\d\d+);\d+H")
HINT_ANSWERS = (
    b"Hint:",
    b"Best line",
    b"No winning line",
    b"has no winning line",  # a deal the search proved lost
    b"cannot tell yet",
)
SEARCHING = b"Looking for a winning line"
HINT_BUDGET = 10.0
"""The board's hint search (screens/boards/solving.py's HINT_SECONDS)."""
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


def children(pid: int) -> list[int]:
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def family_cpu(pid: int) -> float:
    return sum(cpu_seconds(p) for p in family(pid))


def tree_cpu(pid: int) -> float:
    """CPU of ``pid``, everything under it, and its children already reaped."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return family_cpu(pid) + (int(fields[13]) + int(fields[14])) / TICK


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


UNLIMITED = (
    "--max-sessions", "0", "--max-per-key", "0", "--ip-burst", "0", "--idle-timeout", "0",
    "--max-per-address", "0",
)  # fmt: skip
"""``serve``'s options that turn its limits off: a bench's players are not hostile."""


async def port_of(server: asyncio.subprocess.Process, log: list[str], limit: float) -> int:
    """The port ``server`` (a ``serve --port 0`` with its stderr piped) says it
    serves on, its log lines up to it added to ``log``."""
    assert server.stderr is not None
    while True:
        line = await asyncio.wait_for(server.stderr.readline(), limit)
        if not line:
            raise RuntimeError("a server did not start:\n" + "\n".join(log))
        log.append(line.decode().rstrip())
        if found := re.search(r"serving on 127\.0\.0\.1:(\d+)", log[-1]):
            return int(found.group(1))


async def follow_log(server: asyncio.subprocess.Process, log: list[str]) -> None:
    """Add the rest of ``server``'s log lines to ``log`` until it exits."""
    assert server.stderr is not None
    while line := await server.stderr.readline():
        log.append(line.decode().rstrip())


async def stop_servers(servers: list[asyncio.subprocess.Process], data: Path) -> None:
    """The end of a bench, whatever happened: every server still running killed
    and waited for, and the bench's data directory gone."""
    for one in servers:
        if one.returncode is None:
            one.kill()
            await one.wait()
    shutil.rmtree(data, ignore_errors=True)


class Player:
    """One logged-in player: what their screen received, and their keys' fate."""

    def __init__(self, n: int, key: asyncssh.SSHKey) -> None:
        self.n = n
        self.key = key
        self.raw = bytearray()
        self.sent: list[float] = []  # send times of keys not answered yet
        self.latencies: list[float] = []
        self.timed: list[tuple[float, float]] = []  # (sent, latency) of answered keys
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
                    self.timed += [(t, now - t) for t in self.sent]
                    self.sent.clear()
                self.changed.set()
        except (OSError, asyncssh.Error):
            pass
        self.closed = True
        self.changed.set()

    async def wait(self, marker: bytes, deadline: float) -> None:
        while marker not in self.raw:
            if self.closed or time.monotonic() > deadline:
                seen = re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]", b" ", bytes(self.raw[-400:]))
                why = "the session closed" if self.closed else "out of time"
                raise RuntimeError(f"player {self.n}: no {marker!r} on screen ({why}): {seen!r}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())

    async def hint(self, limit: float) -> tuple[float | None, bool]:
        """``N`` then ``H``: a new deal, and a hint on it at once. The seconds until the
        answer shows (None: not within ``limit``), and whether it took a search
        (False: the line was known already)."""
        assert self.process is not None
        start = len(self.raw)
        t0 = time.monotonic()
        self.process.stdin.write(b"NH")
        deadline = t0 + limit
        while not any(m in self.raw[start:] for m in HINT_ANSWERS):
            if self.closed or time.monotonic() > deadline:
                return None, SEARCHING in self.raw[start:]
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())
        return time.monotonic() - t0, SEARCHING in self.raw[start:]

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


def hint_summary(hints: list[tuple[float | None, bool]]) -> str:
    took = [t for t, _ in hints if t is not None]
    late = sum(1 for t in took if t > HINT_BUDGET)
    searched = sum(1 for _, s in hints if s)
    return (
        f"{len(took)} of {len(hints)} answered ({searched} by a search), "
        f"{late} after the {HINT_BUDGET:.0f} s budget; p50 {percentile(took, 50):.1f} s, "
        f"max {max(took, default=float('nan')):.1f} s"
    )


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class MatchSeat:
    """A player of the cross-host match, with a VT screen (pyte) to read the panel."""

    def __init__(self, name: str, key: asyncssh.SSHKey) -> None:
        import pyte

        self.name = name
        self.key = key
        self.screen = pyte.Screen(100, 30)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.process: asyncssh.SSHClientProcess[bytes] | None = None

    async def login(self, port: int) -> None:
        conn = await asyncssh.connect(
            "127.0.0.1", port, known_hosts=None, client_keys=[self.key], username="bench",
            agent_path=None, config=None, kbdint_auth=False, password_auth=False,
        )  # fmt: skip
        self.process = await conn.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding=None
        )
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        assert self.process is not None
        with contextlib.suppress(OSError, asyncssh.Error):
            while data := await self.process.stdout.read(65536):
                self.stream.feed(data)
                self.changed.set()

    def send(self, keys: str) -> None:
        assert self.process is not None
        self.process.stdin.write(keys.encode())

    async def wait(self, pattern: str, timeout: float) -> float:
        """Wait until ``pattern`` is on the screen; when it was seen."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, "\n".join(self.screen.display)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name}: no {pattern!r} on screen")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())
        return time.monotonic()


async def open_cross_host_match(seats: tuple[MatchSeat, MatchSeat]) -> None:
    """The first player opens a public table on their host, the second joins it on
    theirs."""
    one, two = seats
    await one.wait("Spider match lobby", 120)
    await two.wait("Spider match lobby", 120)
    one.send("n")
    await one.wait("New game", 30)
    one.send("\r")  # a public table, 1 suit, 10 minutes
    await one.wait("yours: not started", 30)
    one.send("\r")
    await two.wait("1 open table", 30)
    two.send("\r")  # join it
    await two.wait(rf"{one.name} *\n.*score", 30)


async def cross_host_match(
    seats: tuple[MatchSeat, MatchSeat], url: str, until: float
) -> tuple[list[float], int]:
    """A move a second, each player in turn, until ``until``: the seconds from each
    key to the move in the other's side panel, and how many never showed (10 s)."""
    keys = {f"t{i}": k for i, k in enumerate("1234567890", 1)}
    took: list[float] = []
    missed = 0
    turn = 0
    while time.monotonic() < until:
        mover, other = seats[turn % 2], seats[(turn + 1) % 2]
        turn += 1
        game = match_game(url, mover.name)
        moves = game.legal_moves()
        move = next((m for m in moves if m.kind == "move"), moves[0] if moves else None)
        if move is None:
            break
        keys_of = (
            "d"
            if move.kind == "deal"
            else "t" + keys[move.src]
            if move.kind == "turn"
            else keys[move.src] + ("f" if move.dst.startswith("f") else keys[move.dst])
        )
        game.play(move)
        sent = time.monotonic()
        mover.send(keys_of)
        try:
            panel = rf"{mover.name} *\n.*score.*\n.*runs.*\n.*moves +{game.moves} "
            shown = await other.wait(panel, 10)
            took.append(shown - sent)
        except RuntimeError:
            missed += 1
        await asyncio.sleep(max(0.0, sent + 1.0 - time.monotonic()))
    return took, missed


def connections(url: str) -> tuple[int, int]:
    """Connections to the bench's database now: all of them, and the apps' (named)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE application_name LIKE %s)"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()",
            (APPLICATION_NAME + "@%",),
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def postgres_pids() -> list[int]:
    """The PostgreSQL server's processes on this machine."""
    out = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError):
                if (proc / "comm").read_text().strip() == "postgres":
                    out.append(int(proc.name))
    return out


def database_writes(url: str) -> tuple[int, int]:
    """Commits and rows written so far in the bench's database."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_force_next_flush()")
        row = conn.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
            "FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


@contextlib.contextmanager
def fresh_database(server_url: str | None):  # type: ignore[no-untyped-def]
    """A new database on ``server_url`` with the schema, dropped after (None: files)."""
    if server_url is None:
        yield None
        return
    from termsolitaire.testing.postgres import scratch_database

    with scratch_database(server_url, f"tsol_bench_{os.getpid()}") as url:
        yield url


async def main(args: argparse.Namespace) -> int:
    if args.hosts > 1 and args.database is None:
        raise SystemExit("more than one host needs --database (files are one host's)")
    with fresh_database(args.database) as url:
        return await run(args, url)


async def run(args: argparse.Namespace, url: str | None) -> int:
    data = Path(tempfile.mkdtemp(prefix="termsolitaire-serve-load-"))
    homes = [data / f"host{h}" for h in range(args.hosts)]
    players = [
        Player(n, asyncssh.generate_private_key("ssh-ed25519")) for n in range(args.sessions)
    ]
    accounts = SharedPlayers(homes[0], url) if url is not None else Players(homes[0])
    for p in players:
        key_text = p.key.export_public_key().decode().strip()
        accounts.register(p.key.get_fingerprint("sha256"), f"bench{p.n}", key_text)
    pair: tuple[MatchSeat, MatchSeat] | None = None
    if url is not None and args.hosts > 1:
        pair = (
            MatchSeat("ann", asyncssh.generate_private_key("ssh-ed25519")),
            MatchSeat("bob", asyncssh.generate_private_key("ssh-ed25519")),
        )
        for seat in pair:
            key_text = seat.key.export_public_key().decode().strip()
            accounts.register(seat.key.get_fingerprint("sha256"), seat.name, key_text)
    database = ["--database", url] if url is not None else []
    servers = []
    for home in homes:
        command = [
            sys.executable, "-m", "termsolitaire", "serve", "--port", "0", "--data-dir",
            str(home), *UNLIMITED, *database, *args.server_options,
        ]  # fmt: skip
        servers.append(
            await asyncio.create_subprocess_exec(*command, stderr=asyncio.subprocess.PIPE)
        )
    server = servers[0]
    log: list[str] = []
    deadline = time.monotonic() + args.start_limit
    try:
        ports = [await port_of(one, log, args.start_limit) for one in servers]
        log_tasks = [asyncio.create_task(follow_log(one, log)) for one in servers]
        if not args.before and "--no-prestart" not in args.server_options:
            warm_by = time.monotonic() + 60
            while sum("prestart: warm process" in line for line in log) < len(servers):
                if time.monotonic() > warm_by:
                    raise RuntimeError("no warm process:\n" + "\n".join(log))
                await asyncio.sleep(0.1)
        setup_cpu = sum(tree_cpu(one.pid) for one in servers)
        server_setup = sum(cpu_seconds(one.pid) for one in servers)
        t0 = time.monotonic()
        gate = asyncio.Semaphore(args.connect_at_once)

        async def login(p: Player) -> None:
            async with gate:
                await p.login(ports[p.n % len(ports)], deadline)

        await asyncio.gather(*(login(p) for p in players))
        all_ready = time.monotonic() - t0
        login_cpu = (sum(tree_cpu(one.pid) for one in servers) - setup_cpu) / args.sessions
        pids = [
            int(m.group(1)) for line in log if (m := re.search(r"^.* connect .* pid=(\d+)", line))
        ]
        login_apps = sum(cpu_seconds(pid) for pid in pids) / args.sessions
        login_server = (sum(cpu_seconds(one.pid) for one in servers) - server_setup) / args.sessions
        pids = [
            int(m.group(1)) for line in log if (m := re.search(r"^.* connect .* pid=(\d+)", line))
        ]
        assert len(pids) == args.sessions, (len(pids), log[-5:])
        if pair is not None:
            for seat, port in zip(pair, ports, strict=False):
                await seat.login(port)
            await open_cross_host_match(pair)
        peak = connections(url) if url is not None else (0, 0)

        # Idle: boards on screen, clocks ticking, nobody pressing anything.
        idle_cpu0 = sum(family_cpu(pid) for pid in pids)
        await asyncio.sleep(args.idle)
        idle_cpu = (sum(family_cpu(pid) for pid in pids) - idle_cpu0) / args.idle

        # Playing: every player presses a key every interval.
        apps0 = sum(family_cpu(pid) for pid in pids)
        server0 = sum(cpu_seconds(one.pid) for one in servers)
        db_pids = postgres_pids() if url is not None else []
        db_cpu0 = sum(cpu_seconds(pid) for pid in db_pids)
        writes0 = database_writes(url) if url is not None else (0, 0)
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        start = time.monotonic()
        until = start + args.duration
        crossing: asyncio.Task[tuple[list[float], int]] | None = None
        if pair is not None and url is not None:
            crossing = asyncio.create_task(cross_host_match(pair, url, until))
        await asyncio.gather(*(p.press(args.interval, until) for p in players))
        played = time.monotonic() - start
        crossed: tuple[list[float], int] | None = None
        if crossing is not None:
            try:
                crossed = await crossing
            except RuntimeError as e:
                log.append(f"the cross-host match failed: {e}")
        apps_cpu = (sum(family_cpu(pid) for pid in pids) - apps0) / played
        server_cpu = (sum(cpu_seconds(one.pid) for one in servers) - server0) / played
        db_cpu = (sum(cpu_seconds(pid) for pid in db_pids) - db_cpu0) / played
        writes1 = database_writes(url) if url is not None else (0, 0)
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        me_cpu = (me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime) / played
        settle = time.monotonic() + 5.0
        while any(p.sent for p in players) and time.monotonic() < settle:
            await asyncio.sleep(0.05)

        memory = [family_memory(pid) for pid in pids]
        workers = sum(len(family(pid)) - 1 for pid in pids)
        server_rss = memory_kib(server.pid)[0]
        # The rest of the server's tree: its warm process and its solver pool.
        app_tree = {p for pid in pids for p in family(pid)}
        shared = [p for one in servers for p in family(one.pid)[1:] if p not in app_tree]
        shared_pss = sum(memory_kib(p)[1] for p in shared)
        warm = [p for p in shared if p in {c for one in servers for c in children(one.pid)}]
        warm = [p for p in warm if "termsolitaire.serve.warm" in command_line(p)]
        warm_pss = sum(memory_kib(p)[1] for p in warm)
        pool = [p for p in shared if p not in warm]
        forked = {c for w in warm for c in children(w)}

        # Hints: every player takes a new deal and asks a hint on it, all at once.
        hints = await asyncio.gather(*(p.hint(HINT_BUDGET + 5) for p in players))
        held = sum(not p.closed for p in players)
        dropped = [line for line in log if " disconnect " in line]
        sent = sum(p.keys for p in players)
        lat = [x for p in players for x in p.latencies]
        answered = len(lat)

        for p in players:
            if p.conn is not None:
                p.conn.close()
        for one in servers:
            one.send_signal(signal.SIGTERM)
        status = max([await asyncio.wait_for(one.wait(), 60) for one in servers], key=abs)
        for task in log_tasks:
            await task

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
            "app processes": f"{n} apps and {workers} solver workers under them; "
            f"{len(shared)} more under the server (warm process, solver pool)",
            "app memory": "(an app with its solver worker) "
            f"RSS mean {statistics.mean(rss):.1f} MiB (max {max(rss):.1f}), "
            f"PSS mean {statistics.mean(pss):.1f} MiB; all apps PSS {sum(pss):.0f} MiB",
            "per session": f"PSS {(sum(pss) + shared_pss / 1024) / n:.1f} MiB with its share "
            f"of the warm process and solver pool ({shared_pss / 1024:.0f} MiB in all: the "
            f"warm process {warm_pss / 1024:.1f}, the pool's {len(pool)} workers "
            f"{(shared_pss - warm_pss) / 1024:.1f}"
            f"{', forked' if pool and all(p in forked for p in pool) else ''})",
            "CPU per login": f"{login_cpu:.3f} s of a core from the first connection to the "
            f"last board: the app {login_apps:.3f}, the server {login_server:.3f}, the rest "
            f"{login_cpu - login_apps - login_server:.3f} (solver verdicts, worker starts)",
            "hints at once": hint_summary(hints),
            **{
                f"no hint for {p.n}": re.sub(
                    r"\s+",
                    " ",
                    re.sub(
                        r"\x1b\[[0-9;?]*[ -/]*[@-~]", " ", p.raw[-600:].decode(errors="replace")
                    ),
                )[-240:]
                for p, (took, _) in zip(players, hints, strict=True)
                if took is None
            },
            "server memory": f"RSS {server_rss / 1024:.1f} MiB",
            "CPU per session": f"idle {idle_cpu / n * 100:.2f}% of a core, "
            f"playing {apps_cpu / n * 100:.2f}% of a core",
            "CPU in all": f"apps {apps_cpu * 100:.0f}%, server {server_cpu * 100:.0f}%, "
            f"this client {me_cpu * 100:.0f}% (100% = one core)",
            "server exit": f"{status} after SIGTERM",
            "pool's log": " | ".join(
                line[-160:] for line in log if "solver pool:" in line and " at /" not in line
            )
            or "-",
            "storage": f"PostgreSQL, {args.hosts} hosts"
            if url is not None
            else "files and SQLite, 1 host",
        }
        if url is not None:
            commits, rows_written = (b - a for a, b in zip(writes0, writes1, strict=True))
            rows |= {
                "connections": f"{peak[0]} to the database at the peak: {peak[1]} of the apps "
                f"(for {n + (2 if pair else 0)} sessions), {peak[0] - peak[1]} of the servers",
                "database writes": f"{rows_written / played / n:.2f} rows and "
                f"{commits / played / n:.2f} commits a second per player",
                "database CPU": f"{db_cpu * 100:.0f}% of a core "
                f"({db_cpu / max(apps_cpu + server_cpu + db_cpu, 1e-9) * 100:.0f}% of the "
                "CPU the service used)",
            }
        if crossed is not None:
            took, missed = crossed
            rows["move to other host"] = (
                f"p50 {percentile(took, 50) * ms:.0f} ms, p95 {percentile(took, 95) * ms:.0f} ms,"
                f" max {max(took, default=0) * ms:.0f} ms ({len(took)} moves, {missed} not shown)"
            )
        elif pair is not None:
            rows["move to other host"] = "not measured: " + log[-1]
        rows |= {
            "load average": Path("/proc/loadavg").read_text().strip(),
        }
        for label, text in rows.items():
            print(f"{label:<18}  {text}")
        ok = held == args.sessions and not dropped and status == 0
        return 0 if ok else 1
    finally:
        await stop_servers(servers, data)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--hosts", type=int, default=1, help="serve processes (with --database)")
    parser.add_argument("--database", metavar="URL", help="a PostgreSQL server to store in")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between keys")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of key presses")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measurement")
    parser.add_argument("--connect-at-once", type=int, default=10, help="logins in flight")
    parser.add_argument("--start-limit", type=float, default=300.0, help="seconds to log all in")
    parser.add_argument(
        "--no-prestart", action="store_true", help="the server spawns every app (no warm process)"
    )
    parser.add_argument(
        "--solver-workers", type=int, help="the server's solver pool (0: a worker per app)"
    )
    parser.add_argument(
        "--before", action="store_true", help="a server without these two options (main)"
    )
    args = parser.parse_args()
    args.server_options = ["--no-prestart"] if args.no_prestart else []
    if args.solver_workers is not None:
        args.server_options += ["--solver-workers", str(args.solver_workers)]
    if args.before and args.server_options:
        parser.error("--before runs a server that has no such options")
    if not 1 <= args.sessions <= 200 or not 0 < args.duration <= 600:
        parser.error("keep it bounded: 1-200 sessions, at most 600 s")
    sys.exit(asyncio.run(main(args)))
