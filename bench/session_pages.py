"""What a forked session's memory is: its private pages, copied from the warm process or new.

    python bench/session_pages.py [--sessions 3] [--keys 0]

Starts the server's warm process (``python -m termsolitaire.serve.warm``, its
imports and rehearsal, docs/serve.md), has it fork ``--sessions`` apps on 80x24
ptys exactly as the server does (the same request over the same socket), takes
each through a login (the match lobby, ``g`` to the menu, down and Enter to a
Penguin board: bench/serve_load.py's keys) one after the other, then reports,
from ``/proc``:

- the warm process's and the apps' RSS and PSS, and the apps' private dirty
  pages (what each further session costs; PSS also holds a share of the warm
  process's pages, so it depends on how many sessions there are);
- those private pages by mapping (Python's small-object arenas and other
  anonymous maps, the C heap, libpython's data), each split into pages copied
  from the warm process (``/proc/PID/pagemap``: the page is present at the same
  address in the warm process) and pages new to the session;
- with ``--settle S``: S seconds later, the same again (with
  ``TERMSOLITAIRE_MERGE_PAGES=1`` and the host's ``ksmd`` on, what the kernel's
  same-page merging made of it, and the CPU ``ksmd`` took);
- with ``--keys N``: every app then gets N cursor keys (right ten times, left
  ten times...), each waited for, and the CPU a key costs (user + system of the
  apps over the keys; 10 ms ticks, so use a few hundred).

No SSH, no solver (``TERMSOLITAIRE_SOLVER_HELP=0``), no load: the memory of a
session at its board, in a few seconds. Compare checkouts with ``PYTHONPATH``.
Linux only. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import fcntl
import json
import os
import select
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time

PAGE = os.sysconf("SC_PAGE_SIZE")
STEPS = [
    (b"", (b"Spider match lobby", b"Quit")),
    (b"g", (b"seven columns", b"Quit")),
    (b"\x1b[B\r", ("Penguin · deal".encode(), b"Quit")),
]


def read_until(fd: int, markers: tuple[bytes, ...], timeout: float = 60.0) -> bytes:
    data = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.05)[0]:
            data += os.read(fd, 65536)
            if all(m in data for m in markers):
                return data
    raise SystemExit(f"no {markers} on screen: {data[-300:]!r}")


def quiet(fd: int, rest: float) -> None:
    """Read until the app has been silent for ``rest`` seconds."""
    last = time.monotonic()
    while time.monotonic() - last < rest:
        if select.select([fd], [], [], 0.02)[0]:
            os.read(fd, 65536)
            last = time.monotonic()


def lines(path: str) -> list[str]:
    with open(path) as f:
        return f.read().splitlines()


def rollup(pid: int) -> dict[str, int]:
    """smaps_rollup, in KiB."""
    out = {}
    for line in lines(f"/proc/{pid}/smaps_rollup"):
        parts = line.split()
        if parts[0].endswith(":") and len(parts) > 1 and parts[1].isdigit():
            out[parts[0][:-1]] = int(parts[1])
    return out


def mappings(pid: int) -> list[tuple[int, int, str, str]]:
    found = []
    for line in lines(f"/proc/{pid}/maps"):
        parts = line.split()
        start, end = (int(x, 16) for x in parts[0].split("-"))
        name = parts[5] if len(parts) > 5 else "anonymous"
        if name.startswith("/"):
            name = "libraries' data" if ".so" in name else os.path.basename(name)
        found.append((start, end, name, parts[1]))
    return found


def page_flags(pid: int, start: int, end: int) -> tuple[int, ...]:
    with open(f"/proc/{pid}/pagemap", "rb") as f:
        f.seek(start // PAGE * 8)
        data = f.read((end - start) // PAGE * 8)
    return struct.unpack(f"{len(data) // 8}Q", data)


def present(pid: int) -> set[int]:
    pages = set()
    for start, end, name, _ in mappings(pid):
        if name == "[vsyscall]":
            continue
        try:
            flags = page_flags(pid, start, end)
        except OSError:
            continue
        pages.update(start // PAGE + i for i, v in enumerate(flags) if v >> 63 & 1)
    return pages


def private_pages(pid: int, warm: set[int]) -> collections.Counter[tuple[str, str]]:
    """(mapping, copied or new) -> pages present and mapped by this process only."""
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for start, end, name, perms in mappings(pid):
        if "w" not in perms or name == "[vsyscall]":
            continue
        try:
            flags = page_flags(pid, start, end)
        except OSError:
            continue
        for i, v in enumerate(flags):
            if v >> 63 & 1 and v >> 56 & 1:  # present, exclusively mapped
                counts[(name, "copied" if start // PAGE + i in warm else "new")] += 1
    return counts


def cpu_seconds(pid: int) -> float:
    fields = lines(f"/proc/{pid}/stat")[0].rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=3)
    ap.add_argument("--keys", type=int, default=0)
    ap.add_argument(
        "--settle",
        type=float,
        default=0,
        help="then wait this many seconds and report again (the kernel's same-page "
        "merging at work, with TERMSOLITAIRE_MERGE_PAGES=1 and ksmd on)",
    )
    args = ap.parse_args()
    home = tempfile.mkdtemp(prefix="ts-pages-")
    env = {**os.environ, "TERMSOLITAIRE_HOME": home}
    warm, ours = start_warm([sys.executable, "-m", "termsolitaire.serve.warm"], env)
    apps: list[tuple[int, int]] = []
    try:
        ready = json.loads(ours.recv(1 << 18))
        print(
            f"warm process ready: {ready.get('cpu')} s of CPU, rehearsal {ready.get('rehearsal')}"
            + (", its pages offered to same-page merging" if ready.get("merging") else "")
            + (f", {ready['immortal']} objects made immortal" if ready.get("immortal") else "")
        )
        for n in range(args.sessions):
            pid, master = login(ours, home, n)
            apps.append((pid, master))
            take_to_board(master)
        time.sleep(1.0)
        for _, master in apps:
            quiet(master, 0.2)
        report(warm.pid, apps)
        if args.settle:
            settle(warm.pid, apps, args.settle)
        if args.keys:
            keys(apps, args.keys)
    finally:
        for pid, master in apps:
            os.close(master)
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        warm.kill()
        warm.wait()
        shutil.rmtree(home, ignore_errors=True)


def start_warm(
    command: list[str], env: dict[str, str]
) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """Start the warm process ``command`` (its last argument the socket's fd, added
    here) in a session of its own: the process and our end of its socket."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    warm = subprocess.Popen(
        [*command, str(theirs.fileno())],
        stdin=subprocess.DEVNULL,
        pass_fds=(theirs.fileno(),),
        env=env,
        start_new_session=True,
    )
    theirs.close()
    return warm, ours


def login(ours: socket.socket, home: str, n: int) -> tuple[int, int]:
    """Ask the warm process (on ``ours``) to fork app ``n`` onto a new 80x24 pty, as
    the server does: its pid and the pty's master."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    own = os.path.join(home, f"p{n}")
    os.makedirs(own)
    env = {
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": own,
        "USER": f"p{n}",
        "TERMSOLITAIRE_HOME": own,
        "TERMSOLITAIRE_MATCH_DIR": os.path.join(home, "match"),
        "TERMSOLITAIRE_SOLVER_HELP": "0",
        "TERMSOLITAIRE_PLAYER": f"p{n}",
        "TERMSOLITAIRE_PLAYER_ID": f"p{n}",
    }
    request = {"id": n, "argv": ["match"], "env": env, "cwd": home, "memory_mb": 0}
    socket.send_fds(ours, [json.dumps(request).encode()], [slave])
    os.close(slave)
    while (answer := json.loads(ours.recv(1 << 18))).get("id") != n:
        pass
    return int(answer["pid"]), master


def take_to_board(master: int) -> None:
    """Key the app on ``master`` through ``STEPS`` to its Penguin board (the cursor
    keys in application mode once it has asked for that mode)."""
    application_keys = False
    for key, markers in STEPS:
        if application_keys:
            key = key.replace(b"\x1b[B", b"\x1bOB")
        if key:
            os.write(master, key)
        data = read_until(master, markers)
        quiet(master, 0.3)
        application_keys = data.rfind(b"\x1b[?1h") > data.rfind(b"\x1b[?1l")


def report(warm: int, apps: list[tuple[int, int]]) -> None:
    n = len(apps)
    w = rollup(warm)
    each = [rollup(pid) for pid, _ in apps]

    def mean(key: str) -> float:
        return sum(e[key] for e in each) / n / 1024

    print(f"warm process        RSS {w['Rss'] / 1024:.1f} MiB, PSS {w['Pss'] / 1024:.1f} MiB")
    print(
        f"each app (mean of {n}) RSS {mean('Rss'):.1f} MiB, PSS {mean('Pss'):.1f} MiB, "
        f"private {mean('Private_Dirty') + mean('Private_Clean'):.1f} MiB"
    )
    print(f"per session         PSS {(sum(e['Pss'] for e in each) + w['Pss']) / n / 1024:.1f} MiB")
    warm_pages = present(warm)
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for pid, _ in apps:
        counts.update(private_pages(pid, warm_pages))
    print("private pages of an app, by mapping (MiB, mean):")
    for name in sorted({k[0] for k in counts}, key=lambda m: -counts[(m, "copied")]):
        copied, new = (counts[(name, kind)] * PAGE / n / 2**20 for kind in ("copied", "new"))
        if copied + new >= 0.01:
            print(f"  {name:<20} copied from the warm process {copied:6.2f}   new {new:6.2f}")


def settle(warm: int, apps: list[tuple[int, int]], seconds: float) -> None:
    """Wait, the apps idle at their boards, and report again; with the kernel's
    figures of what it merged (``/proc/PID/ksm_stat``) and the CPU ``ksmd`` took."""
    ksmd = [int(pid) for pid in os.listdir("/proc") if pid.isdigit() and _comm(int(pid)) == "ksmd"]
    before = sum(cpu_seconds(pid) for pid in ksmd)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for _, master in apps:
            quiet(master, 0.2)
        time.sleep(1.0)
    print(f"after {seconds:.0f} s more:")
    report(warm, apps)
    merged = []
    for pid, _ in apps:
        with contextlib.suppress(OSError):
            stat = dict(line.split() for line in lines(f"/proc/{pid}/ksm_stat"))
            merged.append(int(stat.get("ksm_merging_pages", 0)) * PAGE / 2**20)
    if merged:
        used = sum(cpu_seconds(pid) for pid in ksmd) - before
        print(
            f"merged by the kernel {sum(merged) / len(merged):.1f} MiB an app (mean); "
            f"ksmd {used:.2f} s of CPU in {seconds:.0f} s"
        )


def _comm(pid: int) -> str:
    try:
        return lines(f"/proc/{pid}/comm")[0]
    except (OSError, IndexError):
        return ""


def keys(apps: list[tuple[int, int]], count: int) -> None:
    before = {pid: cpu_seconds(pid) for pid, _ in apps}
    for k in range(count):
        for _, master in apps:
            os.write(master, b"\x1b[C" if k % 20 < 10 else b"\x1b[D")
        for _, master in apps:
            quiet(master, 0.03)
    used = [cpu_seconds(pid) - before[pid] for pid, _ in apps]
    per_key = sum(used) / len(used) / count * 1000
    print(f"CPU per cursor key  {per_key:.2f} ms ({count} keys in each app)")


if __name__ == "__main__":
    main()
