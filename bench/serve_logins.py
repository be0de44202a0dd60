"""CPU of one login at a time, split between the server's processes: a proxy for
``serve_load.py``'s CPU per login that a busy machine moves less.

Starts ``termsolitaire serve`` (a child process, its own temporary data
directory, limits off), waits for its warm process, then logs N registered
players in one after the other over asyncssh with an 80x24 pty, each from the
match lobby to the menu to a Penguin board, as ``serve_load.py`` does. For
each login it takes the CPU (the run time of each process's live threads,
``/proc/PID/task/*/schedstat``) of the server, the warm process (its fork),
the solver pool and the app from the connection until the board shows (plus
``--settle`` seconds); then the session is closed, its end not counted. It prints the means
per login (the first ``--skip`` logins left out: their one-off imports), and
how many pieces of output the player's client received a login (each an SSH
packet the server built, and a pty read). On a shared machine alternate the
trees (``PYTHONPATH=...``): the app's figure still moves by some 5% from run
to run; the server's by about 1 ms.

``--idle S``: after the first counted login, S seconds of the board on screen,
nobody typing: each of the app's threads' CPU a second, and the server's.

    PYTHONPATH=src nice -n 10 python bench/serve_logins.py [-n 32] [--idle 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from serve_load import UNLIMITED, Player, family, follow_log, port_of, stop_servers

from termsolitaire.serve.players import Players


def cpu(pid: int) -> float:
    """The run time of ``pid``'s live threads so far, in seconds (precise, from
    ``schedstat``: ``/proc/PID/stat`` counts in hundredths; 0 when it is gone)."""
    return sum(threads(pid).values())


def threads(pid: int) -> dict[str, float]:
    """Each live thread's run time so far (seconds), by id and name."""
    out = {}
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            name = (task / "comm").read_text().strip()
            out[f"{task.name} {name}"] = int((task / "schedstat").read_text().split()[0]) / 1e9
    return out


async def main(args: argparse.Namespace) -> None:
    data = Path(tempfile.mkdtemp(prefix="termsolitaire-serve-logins-"))
    players = [Player(n, asyncssh.generate_private_key("ssh-ed25519")) for n in range(args.n)]
    accounts = Players(data)
    for p in players:
        text = p.key.export_public_key().decode().strip()
        accounts.register(p.key.get_fingerprint("sha256"), f"bench{p.n}", text)
    pieces: dict[int, int] = {}
    read = Player.read

    async def counted(self: Player) -> None:  # the client's reads, counted
        assert self.process is not None
        stdout = self.process.stdout
        real = stdout.read

        async def one(n: int = -1) -> bytes:
            data = await real(n)
            pieces[self.n] = pieces.get(self.n, 0) + bool(data)
            return data

        stdout.read = one  # type: ignore[method-assign]
        await read(self)

    Player.read = counted  # type: ignore[method-assign]
    command = [
        sys.executable, "-m", "termsolitaire", "serve", "--port", "0", "--data-dir", str(data),
        *UNLIMITED,
    ]  # fmt: skip
    server = await asyncio.create_subprocess_exec(*command, stderr=asyncio.subprocess.PIPE)
    log: list[str] = []
    try:
        port = await port_of(server, log, 120)
        reader = asyncio.create_task(follow_log(server, log))
        while not any("prestart: warm process" in line for line in log):
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        under = family(server.pid)[1:]
        warm = [p for p in under if b"serve.warm" in Path(f"/proc/{p}/cmdline").read_bytes()]
        pool = [p for p in under if p not in warm]
        own = {"server": 0.0, "warm": 0.0, "pool": 0.0}
        apps: list[float] = []
        for i, p in enumerate(players):
            before = (cpu(server.pid), sum(map(cpu, warm)), sum(map(cpu, pool)))
            await p.login(port, time.monotonic() + 120)
            await asyncio.sleep(args.settle)
            after = (cpu(server.pid), sum(map(cpu, warm)), sum(map(cpu, pool)))
            pid = int(re.findall(r" connect .* pid=(\d+)", "\n".join(log))[-1])
            if i >= args.skip:
                for part, a, b in zip(own, before, after, strict=True):
                    own[part] += b - a
                apps.append(cpu(pid))
            if args.idle and i == args.skip:
                t0, s0 = threads(pid), cpu(server.pid)
                await asyncio.sleep(args.idle)
                t1, s1 = threads(pid), cpu(server.pid)
                for name, ran in t1.items():
                    each = (ran - t0.get(name, 0)) / args.idle * 1e3
                    print(f"idle: app thread {name} {each:.2f} ms/s")
                print(f"idle: the server {(s1 - s0) / args.idle * 1e3:.2f} ms/s")
            assert p.conn is not None
            p.conn.close()
            await p.conn.wait_closed()
            await asyncio.sleep(args.gap)
        server.send_signal(signal.SIGTERM)
        await server.wait()
        await reader
        n = len(apps)
        ms = {part: total / n * 1e3 for part, total in own.items()}
        counted_pieces = [pieces.get(p.n, 0) for p in players[args.skip :]]
        print(
            f"{n} logins: server {ms['server']:.1f} ms, warm process {ms['warm']:.1f}, "
            f"pool {ms['pool']:.1f}, app mean {statistics.mean(apps) * 1e3:.1f} "
            f"(median {statistics.median(apps) * 1e3:.1f}); all "
            f"{sum(ms.values()) + statistics.mean(apps) * 1e3:.1f} ms a login; "
            f"{statistics.mean(counted_pieces):.2f} pieces of output a login; "
            f"load {Path('/proc/loadavg').read_text().split()[0]}"
        )
    finally:
        await stop_servers([server], data)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=32, help="logins")
    parser.add_argument("--skip", type=int, default=2, help="first logins not counted")
    parser.add_argument("--settle", type=float, default=0.25, help="seconds after the board")
    parser.add_argument("--gap", type=float, default=0.3, help="seconds between logins")
    parser.add_argument("--idle", type=float, default=0.0, help="seconds of an idle board")
    asyncio.run(main(parser.parse_args()))
