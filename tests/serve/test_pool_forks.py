"""Issue 33: the solver pool's workers are forked from the warm process (its imports
shared, not loaded again in a process of their own), a worker that dies is
replaced at once, and without a warm process the pool spawns its workers (and
says so), forking again once a warm process is back."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from termsolitaire.rules import new_game
from termsolitaire.serve import prestart
from termsolitaire.serve.solverpool import SolverPool
from termsolitaire.solver import Budget
from termsolitaire.solver.worker import POOL_ENV, SolverWorker

from .conftest import START

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork"),
]
PRESTART = True  # apps forked from the warm process, as the server runs them


@pytest.fixture(autouse=True)
def solver_help(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server has its pool (the tests' environment turns the solver's help off)."""
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "1")


EASY = new_game("penguin", 11).to_text()
"""A position solved in a fraction of a second."""


def parent_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:  # gone
        return 0


async def until(check, what: str, timeout: float = START) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        await asyncio.sleep(0.02)


def full_of_forks(pool: SolverPool, warm: int | None = None) -> bool:
    """The pool has its size, every worker forked (by the warm process ``warm``)."""
    if len(pool.workers) != pool.size:
        return False
    if warm is not None:
        return all(parent_of(pid) == warm for pid in pool.pids)
    return all(w.forked for w in pool.workers)


async def answered(pool: SolverPool, monkeypatch: pytest.MonkeyPatch, players: int = 1) -> None:
    """``players`` ask the pool at once, as served apps do; each gets the real answer."""
    monkeypatch.setenv(POOL_ENV, str(pool.path))
    workers = [SolverWorker() for _ in range(players)]
    try:
        results = await asyncio.gather(*(w.solve(EASY, Budget(seconds=20)) for w in workers))
    finally:
        for w in workers:
            await w.close()
    assert all(r.verdict == "won" and r.moves for r in results)


async def test_the_pools_workers_are_forked_from_the_warm_process(serve, monkeypatch) -> None:
    """Once the warm process is ready, every worker of the pool is its child, and the
    searches run there."""
    async with serve() as h:
        pool, warm = h.server.pool, h.server.prestart
        assert pool is not None and warm is not None
        await until(lambda: full_of_forks(pool, warm.pid), "a pool of forked workers")
        assert h.logged("^solver pool: workers forked from the warm process$")
        assert not h.logged("spawning workers")
        await answered(pool, monkeypatch, players=2)
        assert pool.answered == 2 and full_of_forks(pool, warm.pid)


async def test_a_killed_worker_is_replaced_at_once(serve, monkeypatch) -> None:
    """A worker killed while idle is replaced by a new forked one without waiting for a
    request to find it dead; the players' searches are answered as before."""
    async with serve() as h:
        pool, warm = h.server.pool, h.server.prestart
        assert pool is not None and warm is not None
        await until(lambda: full_of_forks(pool, warm.pid), "a pool of forked workers")
        victim = next(iter(pool.pids))
        os.kill(victim, signal.SIGKILL)
        await until(
            lambda: victim not in pool.pids and full_of_forks(pool, warm.pid),
            "the killed worker replaced",
        )
        assert await h.wait_logged(rf"^solver pool: worker pid={victim} ended \(exit=-9\)")
        await answered(pool, monkeypatch, players=2)
        assert pool.answered == 2


async def test_without_the_warm_process_the_pool_spawns_then_forks_again(
    serve, monkeypatch
) -> None:
    """The warm process is killed: its forked workers go on answering; a worker needed
    meanwhile is spawned (and the log says so); once a new warm process is ready the
    spawned worker makes way for a forked one."""
    monkeypatch.setattr(prestart, "RESTART", 10.0)  # the time to spawn one
    async with serve() as h:
        pool, warm = h.server.pool, h.server.prestart
        assert pool is not None and warm is not None
        await until(lambda: full_of_forks(pool, warm.pid), "a pool of forked workers")
        old = warm.pid
        assert old is not None
        os.kill(old, signal.SIGKILL)
        await until(lambda: not warm.ready, "the warm process missed")
        await answered(pool, monkeypatch)  # the dead warm process's workers still answer

        victim = next(iter(pool.pids))
        os.kill(victim, signal.SIGKILL)
        await until(
            lambda: victim not in pool.pids and len(pool.workers) == pool.size,
            "the killed worker replaced",
        )
        spawned = [w.pid for w in pool.workers if not w.forked]
        assert len(spawned) == 1 and parent_of(spawned[0]) == os.getpid()
        assert h.logged("^solver pool: no warm process to fork from: spawning workers$")
        await answered(pool, monkeypatch, players=2)

        await asyncio.wait_for(warm.ready_event.wait(), START)
        assert warm.pid not in (None, old)
        await until(
            lambda: full_of_forks(pool) and spawned[0] not in pool.pids,
            "the spawned worker replaced by a forked one",
        )
        assert warm.pid in {parent_of(pid) for pid in pool.pids}
        await answered(pool, monkeypatch, players=2)
