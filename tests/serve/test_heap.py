"""Issue 33: the warm process takes its C heap's free chunks before it forks
(serve/heap.py), so that a session's large objects take pages of their own at
the top of the heap instead of being spread over pages it shares with the warm
process (each then copied whole into the session)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from termsolitaire.serve import heap

SCRIPT = """
import json
from termsolitaire.serve import heap
from termsolitaire.serve.warm import prepare

# Holes: large objects (C heap, not Python's small-object arenas), every other one freed.
made = [bytes(600 + 16 * (i % 40)) for i in range(4000)]
del made[::2]
holes = heap.holes()
libc = heap._libc()

def from_holes():
    # Of 50 large objects made now (as a session would), how many fall below the top.
    info = libc.mallinfo2()
    top = libc.sbrk(0) - info.keepcost
    later = [bytes(700) for _ in range(50)]
    return sum(id(b) < top for b in later)

unfilled = from_holes()
prepare(False, rehearse=False)  # the warm process's last step before forking
print(json.dumps({"before": holes, "after": heap.holes(), "unfilled": unfilled,
                  "filled": from_holes()}))
"""


@pytest.mark.skipif(heap.holes() is None, reason="glibc's mallinfo2 only")
def test_the_warm_process_leaves_no_free_chunk_below_the_top_of_its_heap(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "TERMSOLITAIRE_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["before"] > 1_000_000  # 2,000 holes of 600-1,240 bytes
    assert result["after"] < 16_384
    assert result["unfilled"] == 50  # with free chunks there, a new object takes one
    assert result["filled"] <= 5  # taken: new objects come from the top


MERGE = """
import json, os
from termsolitaire.serve import heap

def merge_any(pid):
    with open(f"/proc/{pid}/ksm_stat") as f:
        return "ksm_merge_any: yes" in f.read()

before = merge_any(os.getpid())
offered = heap.merge_pages()
child = os.fork()
if child == 0:  # a session forked by the warm process
    os._exit(0 if merge_any(os.getpid()) else 1)
_, status = os.waitpid(child, 0)
print(json.dumps({"before": before, "offered": offered, "self": merge_any(os.getpid()),
                  "child": os.waitstatus_to_exitcode(status) == 0}))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/ksm_stat"), reason="Linux with KSM")
def test_merging_pages_covers_the_warm_process_and_the_sessions_it_forks(
    tmp_path: Path,
) -> None:
    """TERMSOLITAIRE_MERGE_PAGES=1 (serve/heap.py's merge_pages in the warm process):
    the kernel may merge the identical pages of the warm process and of every
    session forked from it; without it, none."""
    out = subprocess.run([sys.executable, "-c", MERGE], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.splitlines()[-1])
    if not result["offered"]:
        pytest.skip("this kernel has no PR_SET_MEMORY_MERGE (Linux 6.4)")
    assert result == {"before": False, "offered": True, "self": True, "child": True}


def test_only_the_warm_process_inherits_the_merging_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from termsolitaire.serve.config import PASSED_ON, ServeConfig

    monkeypatch.setenv(heap.MERGE_ENV, "1")
    assert ServeConfig(tmp_path).warm_environment()[heap.MERGE_ENV] == "1"
    assert heap.MERGE_ENV not in PASSED_ON  # a session's own environment does not carry it


BLOCKS = """
import json
from termsolitaire.serve import heap

PAGE = 4096
old = [bytes(40) for i in range(20000)]  # 80-byte blocks: about 90 pools
del old[::2]  # a free block between every two kept
pages = {id(b) // PAGE for b in old}

def among_old():
    # Of 200 small objects made now (as a session would), how many on those pages.
    new = [bytes(40) for _ in range(200)]
    return sum(id(b) // PAGE in pages for b in new)

unfilled = among_old()
before = heap.free_blocks().get(80, 0)
heap.fill_blocks()
print(json.dumps({"unfilled": unfilled, "before": before,
                  "after": heap.free_blocks().get(80, 0), "filled": among_old()}))
"""


@pytest.mark.skipif(not hasattr(sys, "_debugmallocstats"), reason="CPython's allocator")
def test_the_free_small_blocks_are_taken_and_new_objects_go_to_pools_of_their_own() -> None:
    """serve/heap.py, fill_blocks (done by a warm process whose objects are immortal):
    a session's small objects no longer land between the warm process's, each
    copying the page it lands on."""
    out = subprocess.run([sys.executable, "-c", BLOCKS], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["unfilled"] == 200, result  # the holes are taken first
    assert result["before"] >= 9000, result
    assert result["after"] < 1000, result  # what is left: a part of one new pool
    assert result["filled"] <= 2, result  # the edge of the pool the filling ended in
