"""Honest players beside hostile clients on one ``termsolitaire serve`` (issue 27).

Starts the server as ``serve_load.py`` does (a child process, its own data
directory, default limits), logs 20 honest players in (each from its own
loopback address, 127.0.1.N, as players behind different addresses are) and
has each press a cursor key on a Penguin board every 200 ms. First alone, then
while, in turn:

1. 10 connections ask for 4000x2000 windows and type a burst of keys;
2. 200 idle sockets are opened (40 addresses, 5 each) and held;
3. 10 connections each open 5 sessions on one connection;
4. one client floods 1 MB of keys and bytes that are not UTF-8.

The honest players type half a phase first, not measured, while their apps
settle after their start-up; the undisturbed run is measured again at the end,
a check on how much the machine's own noise moved. For each phase it reports
the honest sessions' key-to-screen p50/p95 and the ratio of that p95 to the
first undisturbed run's, the CPU-seconds the phase cost the server, the honest
apps, the other (hostile) apps and this bench, the load average, the memory of
the server with every app (RSS; PSS of the apps), and what each hostile client
read last (the sentence that ended or answered it). The server must stay up and every honest
session must last to the end.

    nice -n 10 .venv/bin/python bench/serve_hostile.py [--phase 20]
        [--server-arg=--cpu-share=50] [--profile server.prof] [--log server.log]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from serve_load import (
    Player,
    cpu_seconds,
    family_cpu,
    family_memory,
    follow_log,
    memory_kib,
    percentile,
    port_of,
    stop_servers,
)

from termsolitaire.serve.players import Players

HONEST = 20


class Honest(Player):
    def __init__(self, n: int, key: asyncssh.SSHKey) -> None:
        super().__init__(n, key)
        self.address = f"127.0.1.{n + 1}"

    async def login(self, port: int, deadline: float) -> None:
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, known_hosts=None, client_keys=[self.key], username="bench",
            agent_path=None, config=None, kbdint_auth=False, password_auth=False,
            local_addr=(self.address, 0),
        )  # fmt: skip
        self.process = await self.conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        self.reader = asyncio.create_task(self.read())
        await self.wait(b"Spider match lobby", deadline)
        self.process.stdin.write(b"g")
        await self.wait(b"seven columns", deadline)
        self.process.stdin.write(b"\x1b[B\r")
        await self.wait("Penguin · deal".encode(), deadline)


def waited(pids: list[int]) -> float:
    """Seconds the processes ``pids`` have spent ready to run but waiting for a CPU
    (``/proc/PID/schedstat``, second field), summed."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
    return total / 1e9


def reaped_cpu(pid: int) -> float:
    """CPU-seconds of ``pid``'s children that are gone (the kernel adds a reaped
    child's time, and its reaped children's, to ``cutime`` and ``cstime``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def plain(data: bytes) -> str:
    text = data.decode(errors="replace")
    return re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])", "", text)


async def client(port: int, key: asyncssh.SSHKey, address: str) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, known_hosts=None, client_keys=[key], username="hostile",
        agent_path=None, config=None, kbdint_auth=False, password_auth=False,
        local_addr=(address, 0),
    )  # fmt: skip


async def collect(process: asyncssh.SSHClientProcess[bytes], out: bytearray) -> None:
    with contextlib.suppress(OSError, asyncssh.Error):
        while data := await process.stdout.read(65536):
            out += data


async def huge_windows(port: int, keys: list[asyncssh.SSHKey], seconds: float) -> list[str]:
    """10 sessions at 4000x2000 that type a burst; what each read last."""
    outs, tasks, conns = [], [], []
    for i, key in enumerate(keys):
        conn = await client(port, key, f"127.0.2.{i + 1}")
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(4000, 2000), encoding=None
        )
        out = bytearray()
        outs.append(out)
        conns.append(conn)
        tasks.append(asyncio.create_task(collect(process, out)))
        process.stdin.write(b"\x1b[A" * 20_000)
    await asyncio.sleep(seconds)
    for conn in conns:
        conn.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    texts = [plain(bytes(out)) for out in outs]
    told = sum("Input came faster than anyone types" in t for t in texts)
    return [f"{len(outs)} sessions played; {told} told their burst was dropped"]


async def idle_sockets(port: int, seconds: float) -> list[str]:
    """200 raw sockets from 40 addresses that never speak SSH."""
    held, refused = [], 0
    for a in range(40):
        for _ in range(5):
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(f"127.0.3.{a + 1}", 0)
                )
            except OSError:
                refused += 1
                continue
            held.append((reader, writer))
    await asyncio.sleep(seconds)
    closed = 0
    for reader, writer in held:
        if reader.at_eof():
            closed += 1
        writer.close()
    return [f"{len(held)} opened, {refused} refused at connect, {closed} closed by the server"]


async def many_channels(port: int, keys: list[asyncssh.SSHKey], seconds: float) -> list[str]:
    """10 connections, 5 sessions each: what the extra sessions read."""
    said, conns, tasks, outs = [], [], [], []
    for i, key in enumerate(keys):
        conn = await client(port, key, f"127.0.4.{i + 1}")
        conns.append(conn)
        for _ in range(5):
            with contextlib.suppress(asyncssh.Error, OSError):
                process = await conn.create_process(
                    term_type="xterm-256color", term_size=(80, 24), encoding=None
                )
                out = bytearray()
                outs.append(out)
                tasks.append(asyncio.create_task(collect(process, out)))
    await asyncio.sleep(seconds)
    for conn in conns:
        conn.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    refused = sum("One game per connection" in plain(bytes(o)) for o in outs)
    said.append(f"{len(outs)} sessions asked, {refused} refused with 'One game per connection'")
    return said


async def flood(port: int, key: asyncssh.SSHKey, seconds: float) -> list[str]:
    conn = await client(port, key, "127.0.5.1")
    process = await conn.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    out = bytearray()
    task = asyncio.create_task(collect(process, out))
    await asyncio.sleep(2.0)
    for _ in range(10):
        process.stdin.write(b"\x1b[A" * 30_000 + b"\xff\xfe\xe9" * 1000)
        await asyncio.sleep(seconds / 12)
    conn.close()
    await asyncio.gather(task, return_exceptions=True)
    text = plain(bytes(out))
    notice = "Input came faster than anyone types" in text
    return [
        f"told 'Input came faster than anyone types': {notice}; traceback: {'Traceback' in text}"
    ]


def timeline(players: list[Honest], start: float, seconds: float, slices: int = 4) -> str:
    """The p95 of each slice of a phase: whether the slow keys bunch at its start."""
    width = seconds / slices
    parts = []
    for i in range(slices):
        lat = [
            x
            for p in players
            for t, x in p.timed
            if start + i * width <= t < start + (i + 1) * width
        ]
        parts.append(f"{percentile(lat, 95) * 1000:.0f}")
    return " / ".join(parts)


async def measure(players: list[Honest], seconds: float) -> list[float]:
    for p in players:
        p.latencies.clear()
        p.timed.clear()
    until = time.monotonic() + seconds
    await asyncio.gather(*(p.press(0.2, until) for p in players))
    settle = time.monotonic() + 3.0
    while any(p.sent for p in players) and time.monotonic() < settle:
        await asyncio.sleep(0.05)
    return [x for p in players for x in p.latencies]


async def main(args: argparse.Namespace) -> int:
    data = Path(tempfile.mkdtemp(prefix="termsolitaire-serve-hostile-"))
    honest = [Honest(n, asyncssh.generate_private_key("ssh-ed25519")) for n in range(HONEST)]
    hostile = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(21)]
    accounts = Players(data)
    for p in honest:
        text = p.key.export_public_key().decode().strip()
        accounts.register(p.key.get_fingerprint("sha256"), f"honest{p.n}", text)
    for i, key in enumerate(hostile):
        text = key.export_public_key().decode().strip()
        accounts.register(key.get_fingerprint("sha256"), f"hostile{i}", text)
    profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    server = await asyncio.create_subprocess_exec(
        sys.executable, *profile, "-m", "termsolitaire", "serve", "--port", "0",
        "--data-dir", str(data), "--idle-timeout", "0", *args.server_arg,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    log: list[str] = []
    try:
        port = await port_of(server, log, 60)
        log_task = asyncio.create_task(follow_log(server, log))
        deadline = time.monotonic() + 300
        await asyncio.gather(*(p.login(port, deadline) for p in honest))
        pids = [int(m.group(1)) for line in log if (m := re.search(r" connect .* pid=(\d+)", line))]

        def memory() -> str:
            apps = [family_memory(pid) for pid in pids]
            server_rss = memory_kib(server.pid)[0] / 1024
            return (
                f"server RSS {server_rss:.0f} MiB, honest apps RSS "
                f"{sum(a[0] for a in apps) / 1024:.0f} MiB "
                f"(PSS {sum(a[1] for a in apps) / 1024:.0f})"
            )

        phases = {
            "undisturbed": None,
            "10 windows of 4000x2000": lambda s: huge_windows(port, hostile[:10], s),
            "200 idle sockets": lambda s: idle_sockets(port, s),
            "10 connections x 5 sessions": lambda s: many_channels(port, hostile[10:20], s),
            "1 MB key flood, bad UTF-8": lambda s: flood(port, hostile[20], s),
            "undisturbed again": None,
        }
        # Keys, not measured, until the apps have settled after their start-up.
        await measure(honest, args.phase / 2)

        def cpu() -> dict[str, float]:
            """CPU-seconds so far: the server's own, the honest apps', the other apps'
            (hostile ones, gone ones are counted by their exit), this bench's."""
            honest_cpu = sum(family_cpu(pid) for pid in pids)
            everything = family_cpu(server.pid) + reaped_cpu(server.pid)
            own = cpu_seconds(server.pid)
            return {
                "server": own,
                "honest apps": honest_cpu,
                "other apps": everything - own - honest_cpu,
                "bench": time.process_time(),
                "honest apps waited for a CPU": waited(pids),
            }

        base_p95 = None
        peak_host = 0.0
        for name, attack in phases.items():
            before = cpu()
            attack_task = (
                asyncio.create_task(attack(args.phase + 2)) if attack is not None else None
            )
            began = time.monotonic()
            lat = await measure(honest, args.phase)
            said = await attack_task if attack_task is not None else []
            p50, p95 = percentile(lat, 50) * 1000, percentile(lat, 95) * 1000
            base_p95 = base_p95 or p95
            used = Path("/proc/meminfo").read_text()
            total = int(re.search(r"MemTotal:\s+(\d+)", used).group(1))  # type: ignore[union-attr]
            avail = int(re.search(r"MemAvailable:\s+(\d+)", used).group(1))  # type: ignore[union-attr]
            peak_host = max(peak_host, (total - avail) / 1024)
            print(f"{name}: honest key to screen p50 {p50:.0f} ms, p95 {p95:.0f} ms "
                  f"({p95 / base_p95:.2f}x undisturbed); {memory()}")  # fmt: skip
            for line in said:
                print(f"    hostile: {line}")
            after = cpu()
            spent = ", ".join(f"{k} {after[k] - before[k]:.1f}" for k in after)
            print(f"    CPU-seconds: {spent}; load average {os.getloadavg()[0]:.2f}")
            print(f"    p95 by quarter of the phase: {timeline(honest, began, args.phase)} ms")
            sys.stdout.flush()
        held = sum(not p.closed for p in honest)
        print(f"honest sessions held to the end: {held} of {HONEST}")
        print(f"host memory in use at the end of a phase, at most: {peak_host:.0f} MiB")
        refusals = sum(" refuse " in x for x in log)
        print(f"server log: {refusals} refusals, {sum('killed' in x for x in log)} kills")
        for p in honest:
            if p.conn is not None:
                p.conn.close()
        server.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(server.wait(), 120)
        await log_task
        print(f"server exit after SIGTERM: {status}")
        if args.log:
            Path(args.log).write_text("\n".join(log) + "\n")
        return 0 if held == HONEST and status == 0 else 1
    finally:
        await stop_servers([server], data)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phase", type=float, default=20.0, help="seconds of each phase")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile into FILE")
    parser.add_argument("--log", metavar="FILE", help="write the server's log to FILE")
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="one more argument for the server (--server-arg=--cpu-share=50)",
    )
    args = parser.parse_args()
    if not 5 <= args.phase <= 120:
        parser.error("keep it bounded: 5-120 s a phase")
    sys.exit(asyncio.run(main(args)))
