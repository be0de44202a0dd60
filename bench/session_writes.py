"""Where a forked session's copied pages go: the warm object written on each.

    python bench/session_writes.py [--sessions 1] [--keys 0] [--perf] [--trace 30]

bench/session_pages.py says how many of an app's pages are private; this says
why. It starts the server's warm process as bench/session_pages.py does, but
through this script (``--warm``), which lets the warm process run as ever and
adds two looks at its heap, each written by a child forked for it (so the warm
process itself is left as it was): after its imports (which objects the imports
made) and just before ``gc.freeze()`` (every object reachable from the
collector's, with the constants and names of every code object: its address,
size and kind; a dict's key table, a list's items and a set's table apart). It
then takes ``--sessions`` apps through a login (the match lobby, ``g``, down and
Enter to a Penguin board), optionally ``--keys`` cursor keys, and compares every
private page of the first app that the warm process also has, word by word
(``/proc/PID/mem``), naming each changed word by the warm object that holds it:

- the copied pages by the kind of object written most on each (``none``: no warm
  object there, such as the session's own objects in the warm process's free
  blocks and pools, or an allocator's header; ``unchanged``: written and
  written back, a reference count up and then down);
- how many warm objects lie on the copied pages and how many of them were
  written (still changed at the end);
- with ``--perf`` (Linux ``perf``, allowed to trace the app): the write that
  copied each page (``perf record -e page-faults -d``: its address), named the
  same way and by whether the object was there after the imports or made later
  (the rehearsal, ``gather_code``), and the first writes' names for strings,
  tuples, functions, types and code;
- with ``--trace N``: the session's own allocations at its board, from its fork
  (``tracemalloc``), the N largest lines.

Python 3.11 writes the reference count of every object it touches, so there the
first write of most copied pages is a count (docs/journal/2026-12-06-mem33.md);
on 3.12/3.13 the warm objects are immortal (``serve/immortal.py``) and what is
left is code, caches and the session's own. Linux only; about 20 s. Not part of
the test suite.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import contextlib
import ctypes
import gc
import json
import os
import pickle
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import session_pages as pages

PAGE = pages.PAGE
PERF = ("perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d")
"""Every page fault of the app, with the address it faulted at."""
Row = tuple[int, int, str]


# ---------------------------------------------------------------- in the warm process


def _preheader(kind: type) -> int:
    """Bytes before an object's address: the collector's header, and on 3.11+ the
    managed dict's (and on 3.12+ the managed weak references') pointers."""
    size = 16 if kind.__flags__ & (1 << 14) else 0  # Py_TPFLAGS_HAVE_GC
    managed = (1 << 4) | ((1 << 3) if sys.version_info >= (3, 12) else 0)
    return size + (16 if kind.__flags__ & managed else 0)


def _word(address: int) -> int:
    return int(ctypes.c_ssize_t.from_address(address).value)


def _label(obj: Any, kind: str) -> str | None:
    try:
        if type(obj) is str:
            return repr(obj[:40])
        if type(obj) is tuple:
            return f"tuple of {len(obj)}: {repr(obj)[:60]}"
        if kind in ("function", "type"):
            return f"{obj.__module__}:{obj.__qualname__}"
        if kind == "code":
            return f"{obj.co_filename.rsplit('/', 1)[-1]}:{obj.co_qualname}"
    except Exception:
        return None
    return None


def _walk() -> Iterator[Any]:
    """Every object reachable from the collector's, once, code objects' parts too
    (not the walk's own list and set, which its generator's frame reaches)."""
    from types import CodeType

    stack = gc.get_objects()
    seen: set[int] = set()
    mine = {id(stack), id(seen)}
    while stack:
        obj = stack.pop()
        if id(obj) in seen or id(obj) in mine:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, CodeType):  # not co_varnames: Python 3.11 makes it when asked
            stack.extend((obj.co_consts, obj.co_names, obj.co_linetable, obj.co_filename))
        with contextlib.suppress(Exception):
            stack.extend(gc.get_referents(obj))


def _write_map(path: str) -> None:
    objects = list(_walk())  # first: the rows made below are not the warm process's
    rows: list[Row] = []
    labels: dict[int, str] = {}
    for obj in objects:
        kind_type = type(obj)
        address = id(obj)
        pre = _preheader(kind_type)
        try:
            size = sys.getsizeof(obj)
        except Exception:
            size = kind_type.__basicsize__ + pre
        kind = "type" if isinstance(obj, type) else kind_type.__name__
        if kind_type is dict:  # ma_keys, ma_values lie apart
            keys, values = _word(address + 32), _word(address + 40)
            if keys:
                rows.append((keys, keys + max(size - pre - 48, 8), "dict keys"))
            if values:
                rows.append((values, values + 8, "dict values"))
            size = pre + 48
        elif kind_type is list:  # ob_item, allocated
            items = _word(address + 24)
            if items:
                rows.append((items, items + 8 * _word(address + 32), "list items"))
            size = pre + 40
        elif kind_type in (set, frozenset):  # its table, unless the small one inside
            table = _word(address + 40)
            if table != address + 64:
                rows.append((table, table + 16 * (_word(address + 32) + 1), "set table"))
            size = pre + 200
        rows.append((address - pre, address - pre + size, kind))
        label = _label(obj, kind)
        if label:
            labels[address - pre] = label
    rows.sort()
    with open(path, "wb") as f:
        pickle.dump((rows, labels), f)


def _write_early(path: str) -> None:
    with open(path, "wb") as f:
        pickle.dump(sorted(id(obj) for obj in _walk()), f)


def _in_a_child(work: Any, path: str) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            work(path)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def warm_main(fd: str) -> int:
    """The warm process, with the two looks at its heap and, in its children, the
    pause for ``perf`` and ``tracemalloc``."""
    from termsolitaire.serve import warm

    out = os.environ["SESSION_WRITES"]
    pause = float(os.environ.get("SESSION_WRITES_PAUSE", "0"))
    trace = os.environ.get("SESSION_WRITES_TRACE") == "1"
    preload, freeze, become_app = warm.preload, gc.freeze, warm.become_app

    def looked_after_imports(database: bool) -> list[str]:
        failed = preload(database)
        _in_a_child(_write_early, out + ".early")
        return failed

    def looked_before_freeze() -> None:
        _in_a_child(_write_map, out + ".map")
        freeze()

    def app(request: Any, tty: int) -> None:
        become_app(request, tty)
        if pause:
            time.sleep(pause)  # perf attaches meanwhile
        if trace:
            import tracemalloc

            tracemalloc.start(1)

            def dump(*_: object) -> None:
                path = f"{out}.trace.{os.getpid()}"
                tracemalloc.take_snapshot().dump(path + ".part")
                os.rename(path + ".part", path)

            signal.signal(signal.SIGUSR1, dump)

    warm.preload = looked_after_imports  # type: ignore[assignment]
    gc.freeze = looked_before_freeze
    warm.become_app = app  # type: ignore[assignment]
    return warm.main([fd])


# ---------------------------------------------------------------- the bench


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--warm", metavar="FD", help=argparse.SUPPRESS)
    ap.add_argument("--sessions", type=int, default=1, help="apps logged in (the first is read)")
    ap.add_argument("--keys", type=int, default=0, help="cursor keys to every app after")
    ap.add_argument("--perf", action="store_true", help="the write that copied each page")
    ap.add_argument("--trace", type=int, default=0, metavar="N", help="a session's own N lines")
    args = ap.parse_args()
    if args.warm is not None:
        raise SystemExit(warm_main(args.warm))
    home = tempfile.mkdtemp(prefix="ts-writes-")
    out = os.path.join(home, "look")
    env = {**os.environ, "TERMSOLITAIRE_HOME": home, "SESSION_WRITES": out}
    if args.perf:
        env["SESSION_WRITES_PAUSE"] = "1"
    if args.trace:
        env["SESSION_WRITES_TRACE"] = "1"
    warm, ours = pages.start_warm([sys.executable, os.path.abspath(__file__), "--warm"], env)
    apps: list[tuple[int, int]] = []
    perf = None
    try:
        ready = json.loads(ours.recv(1 << 18))
        print(
            f"warm process ready: {ready.get('cpu')} s of CPU, rehearsal {ready.get('rehearsal')}"
        )
        for n in range(args.sessions):
            pid, master = pages.login(ours, home, n)
            if n == 0 and args.perf:
                perf = subprocess.Popen(
                    [*PERF, "-p", str(pid), "-o", out + ".perf"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            apps.append((pid, master))
            pages.take_to_board(master)
        time.sleep(1.0)
        for _, master in apps:
            pages.quiet(master, 0.2)
        if args.keys:
            pages.keys(apps, args.keys)
        if perf is not None:
            perf.send_signal(signal.SIGINT)
            perf.wait()
        pages.report(warm.pid, apps)
        with open(out + ".map", "rb") as f:
            rows, labels = pickle.load(f)
        with open(out + ".early", "rb") as f:
            early = set(pickle.load(f))
        look = Look(rows, labels, early)
        compare(look, warm.pid, apps[0][0])
        if perf is not None:
            first_writes(look, warm.pid, apps[0][0], out + ".perf")
        if args.trace:
            own_allocations(apps[0][0], out, args.trace)
    finally:
        for pid, master in apps:
            os.close(master)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        warm.kill()
        warm.wait()
        shutil.rmtree(home, ignore_errors=True)


class Look:
    """The warm process's objects by address."""

    def __init__(self, rows: list[Row], labels: dict[int, str], early: set[int]) -> None:
        self.rows, self.labels = rows, labels
        self.starts = [r[0] for r in rows]
        self.early = {s for s, _, _ in rows if any(s + pre in early for pre in (0, 16, 32))}

    def at(self, address: int) -> int | None:
        """The row of the object holding ``address`` (objects do not nest but for
        a few tables: the nearest rows before it are enough)."""
        j = bisect.bisect_right(self.starts, address) - 1
        for k in range(j, max(j - 4, -1), -1):
            start, end, _ = self.rows[k]
            if start <= address < end:
                return k
        return None

    def on_page(self, address: int) -> int:
        return bisect.bisect_left(self.starts, address + PAGE) - bisect.bisect_left(
            self.starts, address
        )


def mib(n: int) -> str:
    return f"{n * PAGE / 2**20:6.2f}"


def private_copied(warm: int, app: int) -> list[tuple[int, str]]:
    """The app's private pages that the warm process has too: (address, mapping)."""
    warm_pages = pages.present(warm)
    found = []
    for start, end, name, perms in pages.mappings(app):
        if "w" not in perms or name == "[vsyscall]":
            continue
        try:
            flags = pages.page_flags(app, start, end)
        except OSError:
            continue
        for i, v in enumerate(flags):
            address = start + i * PAGE
            if v >> 63 & 1 and v >> 56 & 1 and address // PAGE in warm_pages:
                found.append((address, name))
    return found


def compare(look: Look, warm: int, app: int) -> None:
    by_kind: collections.Counter[tuple[str, str]] = collections.Counter()
    written: collections.Counter[str] = collections.Counter()
    objects = changed = 0
    per_page: collections.Counter[int] = collections.Counter()
    words = PAGE // 8
    with open(f"/proc/{warm}/mem", "rb") as wm, open(f"/proc/{app}/mem", "rb") as am:
        for address, name in private_copied(warm, app):
            try:
                wm.seek(address)
                before = struct.unpack(f"{words}Q", wm.read(PAGE))
                am.seek(address)
                after = struct.unpack(f"{words}Q", am.read(PAGE))
            except (OSError, struct.error):
                continue
            kinds: collections.Counter[str] = collections.Counter()
            hit: set[int] = set()
            for k in range(words):
                if before[k] != after[k]:
                    row = look.at(address + 8 * k)
                    kinds["none" if row is None else look.rows[row][2]] += 1
                    if row is not None:
                        hit.add(row)
            objects += look.on_page(address)
            changed += len(hit)
            per_page[min(len(hit), 10)] += 1
            by_kind[(kinds.most_common(1)[0][0] if kinds else "unchanged", name)] += 1
            written.update(look.rows[r][2] for r in hit)
    print("\ncopied pages of the first app, by the kind of warm object written most (MiB):")
    for (kind, name), n in by_kind.most_common(20):
        print(f"  {kind:<28} {name:<16} {mib(n)}  ({n} pages)")
    print(f"\non those pages {objects} warm objects begin; {changed} of them changed")
    print("pages by warm objects changed on each (10: 10 or more):", sorted(per_page.items()))
    kinds_changed = ", ".join(f"{k} {n}" for k, n in written.most_common(12))
    print(f"warm objects changed, by kind: {kinds_changed}")


def first_writes(look: Look, warm: int, app: int, data: str) -> None:
    script = subprocess.run(
        ["perf", "script", "-i", data, "-F", "addr"], capture_output=True, text=True
    ).stdout
    warm_pages = pages.present(warm)
    maps = pages.mappings(app)
    seen: set[int] = set()
    by: collections.Counter[tuple[str, str, str]] = collections.Counter()
    named: dict[str, list[str]] = collections.defaultdict(list)
    for line in script.split():
        try:
            address = int(line, 16)
        except ValueError:
            continue
        if address // PAGE in seen:
            continue
        seen.add(address // PAGE)
        region = next((m[2] for m in maps if m[0] <= address < m[1]), "?")
        if address // PAGE not in warm_pages:
            by[("new page", "", region)] += 1
            continue
        row = look.at(address)
        if row is None:
            by[("none", "", region)] += 1
            continue
        start, _, kind = look.rows[row]
        era = "imports" if start in look.early else "later"
        by[(kind, era, region)] += 1
        if len(named[kind]) < 12:
            named[kind].append(f"{era}, +{address - start}: {look.labels.get(start, '?')[:70]}")
    print("\nthe write that copied (or made) each page of the first app, by the object written")
    print("(imports: there after the imports; later: made by the rehearsal or gather_code):")
    for (kind, era, region), n in by.most_common(24):
        print(f"  {kind:<24} {era:<8} {region:<16} {mib(n)}  ({n})")
    for kind in ("str", "tuple", "function", "type", "code"):
        if named[kind]:
            print(f"  first {kind}s written:")
            for text in named[kind]:
                print(f"    {text}")


def own_allocations(app: int, out: str, top: int) -> None:
    import tracemalloc

    os.kill(app, signal.SIGUSR1)
    path = f"{out}.trace.{app}"
    end = time.monotonic() + 30
    while time.monotonic() < end and not os.path.exists(path):
        time.sleep(0.2)
    stats = tracemalloc.Snapshot.load(path).statistics("lineno")
    total = sum(s.size for s in stats)
    print(
        f"\nthe first app's own allocations since its fork: {total / 2**20:.2f} MiB "
        f"in {sum(s.count for s in stats)} blocks; the largest lines:"
    )
    for s in stats[:top]:
        frame = s.traceback[0]
        where = frame.filename.split("site-packages/")[-1].split("/src/")[-1]
        print(f"  {s.size / 1024:8.1f} KiB {s.count:6}  {where}:{frame.lineno}")


if __name__ == "__main__":
    main()
