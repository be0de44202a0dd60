"""The solver in another process: the caller's event loop keeps running, a
cancel stops the search, and nothing is left behind."""

from __future__ import annotations

import asyncio
import time

from termsolitaire.rules import new_game
from termsolitaire.solver import Budget, solve, verify
from termsolitaire.solver.worker import SolverWorker, shutdown, solve_elsewhere
from termsolitaire.testing.terminal import alive

HARD = new_game("napoleon", 25)
"""A deal no search answers within seconds: something long to interrupt."""


async def until(predicate, timeout: float = 10.0) -> None:
    """Wait (polling) until ``predicate()`` holds."""
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.02)


def test_the_answer_is_the_same_as_in_process():
    async def main():
        async with SolverWorker() as worker:
            game = new_game("penguin", 5)
            elsewhere = await worker.solve(game, Budget(seconds=20))
            here = solve(game, 20)
            # The same verdict, and a line that wins when replayed here (the lines may
            # differ: a search that races its clock may take another path under load).
            assert elsewhere.verdict == here.verdict == "won"
            assert verify(game, elsewhere.moves)

    asyncio.run(main())


def test_a_verdict_s_search_elsewhere_leaves_its_line_as_it_came():
    """``shorten=False`` reaches the worker: Penguin deal 11's line comes back
    winning and longer than the shortened one (the back-and-forth kept).

    Both searches count the worker's CPU time: the prover and the finders take
    turns of a few hundredths of a second, and on the wall clock of a loaded
    machine another searcher can win first and bring a different line."""

    async def main():
        async with SolverWorker() as worker:
            game = new_game("penguin", 11)
            rough = await worker.solve(game, Budget(seconds=20, cpu=True), shorten=False)
            short = await worker.solve(game, Budget(seconds=20, cpu=True))
            assert rough.verdict == short.verdict == "won"
            assert verify(game, rough.moves) and verify(game, short.moves)
            assert len(rough.moves) > len(short.moves)

    asyncio.run(main())


def test_the_event_loop_keeps_running_while_a_long_search_runs_and_a_cancel_kills_it():
    async def main():
        async with SolverWorker() as worker:
            ticks = 0

            async def count():
                nonlocal ticks
                while True:
                    ticks += 1
                    await asyncio.sleep(0.01)

            counter = asyncio.ensure_future(count())
            search = asyncio.ensure_future(worker.solve(HARD, Budget(seconds=60)))
            await until(lambda: worker.pids)
            (pid,) = worker.pids
            start = ticks
            await until(lambda: ticks >= start + 30)  # ~0.3 s of ticks: the loop is free
            assert not search.done() and alive(pid)
            search.cancel()
            await asyncio.gather(search, return_exceptions=True)
            assert search.cancelled()
            await until(lambda: not alive(pid), timeout=5)
            # The next request does not wait for the abandoned one.
            quick = await worker.solve(new_game("napoleon", 6), Budget(seconds=20))
            assert quick.verdict == "won"
            counter.cancel()

    asyncio.run(main())


def test_close_ends_every_process_even_mid_search():
    async def main():
        worker = SolverWorker()
        searches = [asyncio.ensure_future(worker.solve(HARD, Budget(seconds=60))) for _ in "ab"]
        await until(lambda: len(worker.pids) == 2)
        pids = worker.pids
        await worker.close()
        await asyncio.gather(*searches, return_exceptions=True)
        assert not any(map(alive, pids))
        assert all(s.done() for s in searches)

    asyncio.run(main())


def test_a_finished_process_stays_warm_for_the_next_request():
    async def main():
        async with SolverWorker() as worker:
            await worker.start()
            (pid,) = worker.pids
            await worker.solve(new_game("penguin", 1), Budget(seconds=20))
            await worker.solve(new_game("napoleon", 6), Budget(seconds=20))
            assert worker.pids == [pid]

    asyncio.run(main())


def test_winnable_deals_only():
    async def main():
        async with SolverWorker() as worker:
            found = await worker.find_winnable_deal("penguin", {}, Budget(seconds=10), seed=3)
            assert found is not None and found.result.verdict == "won"
            g = new_game("penguin", found.deal)
            for m in found.result.moves:
                g.play(m)
            assert g.is_won
            assert await solve_elsewhere(new_game("napoleon", 6), Budget(seconds=20))
            await shutdown()

    asyncio.run(main())


def test_find_winnable_deal_skips_deals_it_cannot_win():
    from termsolitaire.solver import find_winnable_deal

    found = find_winnable_deal("penguin", budget=10, deals=[194, 280, 5])
    assert found is not None and found.deal == 5
    # The deals run out: nothing (one lost deal shows it; two searched both again).
    assert find_winnable_deal("penguin", budget=10, deals=[194]) is None
    assert find_winnable_deal("penguin", budget=10, tries=1, deals=[194, 5]) is None
