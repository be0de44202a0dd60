"""Issue 33: on Python 3.12 and 3.13 the warm process makes its objects immortal
before it forks (serve/immortal.py), so that a session that only reads a warm
object leaves its page shared instead of copying it to change a reference count."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from termsolitaire.serve import immortal

pytestmark = [
    pytest.mark.skipif(not immortal.supported(), reason="CPython 3.12/3.13, 64-bit, GIL"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/pagemap"),
]

SCRIPT = """
import gc, json, os, struct, sys
from termsolitaire.serve.immortal import immortalize

PAGE = os.sysconf("SC_PAGE_SIZE")
words = [f"word {i:06d} " * 3 for i in range(20000)]  # not interned: mortal
gc.collect()
made = immortalize() if sys.argv[1] == "on" else 0
gc.freeze()
read, write = os.pipe()
if os.fork() == 0:
    total = 0
    for word in words:  # as a session reads a warm object: a reference taken, dropped
        total += len(word)
    pages = {id(word) // PAGE for word in words}
    own = 0
    with open("/proc/self/pagemap", "rb") as f:
        for page in pages:
            f.seek(page * 8)
            own += struct.unpack("Q", f.read(8))[0] >> 56 & 1  # exclusively mapped
    os.write(write, json.dumps({"pages": len(pages), "own": own, "made": made}).encode())
    os._exit(0)
os.close(write)
print(os.read(read, 1000).decode())
os.wait()
"""


def run(mode: str) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    result: dict[str, int] = json.loads(out.stdout.splitlines()[-1])
    return result


def test_a_child_that_only_reads_warm_objects_copies_none_of_their_pages() -> None:
    """Made immortal, 20,000 strings read by a forked child stay on pages it shares
    with its parent (a few may be copied by the child's own new objects on the last
    page); left mortal, the child copies nearly every page they lie on."""
    mortal = run("off")
    made = run("on")
    assert mortal["own"] > 0.9 * mortal["pages"], mortal
    assert made["made"] >= 20000, made
    assert made["own"] <= 0.05 * made["pages"], made


def test_the_objects_stay_usable() -> None:
    """An immortal object is used and changed as before; its count no longer moves.
    (In a process of its own: the test's interpreter keeps its objects mortal.)"""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from termsolitaire.serve.immortal import immortalize\n"
            "box = {'a': [1, 2, 3]}\n"
            "immortalize()\n"
            "before = sys.getrefcount(box['a'])\n"
            "held = [box['a'] for _ in range(100)]\n"
            "box['a'].append(4)\n"
            "print(before == sys.getrefcount(box['a']), box['a'][-1], len(held))\n",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["True", "4", "100"]
