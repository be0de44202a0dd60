"""Searches in another process, so that the screens never wait for the solver.

A pure-Python search holds the GIL: in a thread it would freeze the screen, so
every search runs in a child process (:func:`main`)
that talks JSON lines over its stdin and stdout (:mod:`termsolitaire.children`
starts it, talks to it and ends it). The game travels as its
position text, which holds every card (Spider's face-down ones too: the solver
plays with full knowledge).

Usage from asyncio code (a Textual app)::

    worker = SolverWorker()              # no process yet
    await worker.start()                 # optional: warm one up now
    result = await worker.solve(game, Budget(seconds=5))   # a Result
    found = await worker.find_winnable_deal("penguin", {}, Budget(2), tries=20)
    await worker.close()                 # or: async with SolverWorker() as worker

- Cancelling an awaiting ``solve`` (``task.cancel()``, a Textual worker's
  cancel, ``asyncio.wait_for``) kills the process doing the search; a warm
  replacement starts in the background, so a new request never waits for an
  abandoned one.
- Requests at the same time each get their own process. A process that
  finished its request stays warm for the next one (at most one waits idle).
- Every process dies with ``close()``, at interpreter exit, and on its own when
  its parent process is gone.

``solve_elsewhere(game, budget)`` is the same with one shared worker per event
loop (``await shutdown()`` closes it).

Under ``termsolitaire serve`` the environment names the server's solver pool
(:data:`POOL_ENV`, a Unix socket: :mod:`termsolitaire.serve.solverpool`): then
each "process" here is a connection to the pool, which runs the search on one
of its workers and answers the same way; closing the connection (a cancel)
ends the search there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import weakref
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from termsolitaire import children
from termsolitaire.children import AsyncLines, Child, ChildGone
from termsolitaire.rules import Game, Move

from .base import Budget, Result
from .winnable import WinnableDeal

if TYPE_CHECKING:
    from .fair import FairResult

# ---------------------------------------------------------------- messages


def _result_to_json(r: Result) -> dict[str, Any]:
    return {
        "verdict": r.verdict,
        "moves": [str(m) for m in r.moves],
        "seconds": r.seconds,
        "positions": r.positions,
        "best": r.best,
        "notes": list(r.notes),
    }


def _result_from_json(d: Mapping[str, Any]) -> Result:
    return Result(
        verdict=d["verdict"],
        moves=tuple(Move.parse(m) for m in d["moves"]),
        seconds=float(d["seconds"]),
        positions=int(d["positions"]),
        best=int(d["best"]),
        notes=tuple(d["notes"]),
    )


def _budget(d: Mapping[str, Any]) -> Budget:
    return Budget(
        float(d["seconds"]), int(d["memory_mb"]), bool(d.get("cpu", False)), int(d.get("jobs", 1))
    )


def handle(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one request (in the worker process)."""
    from termsolitaire.rules import from_text

    from . import find_winnable_deal, solve

    try:
        if request["op"] == "solve":
            game = from_text(request["position"])
            result = solve(game, _budget(request), shorten=request.get("shorten", True))
            return {"ok": True, "result": _result_to_json(result)}
        if request["op"] == "fair":  # help from what the player sees (solver/fair.py)
            from .fair import fair_search

            fair = fair_search(from_text(request["position"]), _budget(request))
            moves = [str(m) for m in fair.moves]
            return {"ok": True, "verdict": fair.verdict, "moves": moves, "note": fair.note}
        if request["op"] == "winnable":
            found = find_winnable_deal(
                request["game"],
                request["variant"],
                _budget(request),
                tries=int(request["tries"]),
                seed=request["seed"],
                avoid=request.get("avoid", ()),
            )
            if found is None:
                return {"ok": True, "deal": None}
            return {"ok": True, "deal": found.deal, "result": _result_to_json(found.result)}
        return {"ok": False, "error": f"unknown request {request['op']!r}"}
    except Exception as e:  # the parent shows it; the worker keeps serving
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}


def _own_memory_limit() -> None:
    """A served app runs with its address space limited (serve's ``memory_mb``); a
    search keeps to its own budget (``Budget.memory_mb``) instead."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))


def main() -> None:
    """The worker process (a child, :mod:`termsolitaire.children`): one JSON request
    a line in, one JSON answer a line out, until its input ends."""
    _own_memory_limit()
    import termsolitaire.solver  # noqa: F401  (warm: load the search before the first request)

    channel = children.stdio()
    with contextlib.suppress(children.ChildGone):
        while True:
            channel.send(handle(channel.receive()))


# ---------------------------------------------------------------- client


class SolverError(RuntimeError):
    """The worker process failed (crashed, or the search raised)."""


POOL_ENV = "TERMSOLITAIRE_SOLVER_POOL"
"""The server's solver pool (a Unix socket's path), where the searches run under serve."""


class _PoolLink:
    """A connection to the server's solver pool, standing in for a worker process."""

    pid = 0

    def __init__(self, channel: AsyncLines) -> None:
        self.channel = channel
        self.alive = True

    @classmethod
    async def open(cls, path: str) -> _PoolLink:
        reader, writer = await asyncio.open_unix_connection(path, limit=children.LIMIT)
        return cls(AsyncLines(reader, writer, writer.transport))

    def kill(self) -> None:
        """Close the connection: the pool ends a search still running for it."""
        self.alive = False
        self.channel.close()

    async def ended(self) -> int:
        return 0


class _Process:
    """One worker process (a :class:`~termsolitaire.children.Child`), or a connection
    to the server's pool (:class:`_PoolLink`)."""

    def __init__(self, child: Child | _PoolLink, channel: AsyncLines, stderr: Any) -> None:
        self.child = child
        self.channel = channel
        self.stderr = stderr

    @classmethod
    async def start(cls) -> _Process:
        pool = os.environ.get(POOL_ENV)
        if pool:
            link = await _PoolLink.open(pool)
            return cls(link, link.channel, None)
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop())
        try:
            child = Child.spawn("termsolitaire.solver.worker:main", stderr=stderr)
        except BaseException:
            stderr.close()
            raise
        try:
            return cls(child, await child.async_lines(), stderr)
        except BaseException:
            child.kill()
            stderr.close()
            raise

    @property
    def alive(self) -> bool:
        return self.child.alive

    @property
    def pid(self) -> int:
        return self.child.pid

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            await self.channel.send(request)
            reply: dict[str, Any] = await self.channel.receive()
        except ChildGone:
            raise SolverError(f"the solver process ended: {self._errors()}") from None
        if not reply.get("ok"):
            raise SolverError(reply.get("error", "the solver failed"))
        return reply

    def _errors(self) -> str:
        if self.stderr is None:
            return "the server's solver pool closed the connection"
        self.stderr.seek(0)
        lines = self.stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "no message"

    def kill(self) -> None:
        """Stop the process now (also from a closed event loop, at exit)."""
        self.child.kill()

    async def stop(self) -> None:
        """Kill the process and wait for it, so no zombie stays behind."""
        self.kill()
        await self.child.ended()
        if self.stderr is not None:
            self.stderr.close()


class SolverWorker:
    """Solver requests answered in other processes (see the module's notes)."""

    def __init__(self, *, keep_warm: bool = True) -> None:
        self.keep_warm = keep_warm
        """Start a replacement process at once when one is killed by a cancel."""
        self._idle: list[_Process] = []
        self._busy: set[_Process] = set()
        self._spare: asyncio.Task[_Process] | None = None
        self._reaping: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def pids(self) -> list[int]:
        """The live worker processes (idle and busy), for tests and diagnostics."""
        return [p.pid for p in (*self._idle, *self._busy) if p.alive]

    async def start(self) -> None:
        """Start a process now, so that the first request finds it warm."""
        if not self._idle:
            self._idle.append(await self._take())

    async def solve(
        self, game: Game | str, budget: Budget | float = 10.0, *, shorten: bool = True
    ) -> Result:
        """:func:`termsolitaire.solver.solve` on ``game`` (or position text), elsewhere
        (``shorten=False``: the line not shortened, as there)."""
        if not isinstance(budget, Budget):
            budget = Budget(seconds=float(budget))
        text = game if isinstance(game, str) else game.to_text()
        request = {"op": "solve", "position": text, **_budget_json(budget)}
        if not shorten:
            request["shorten"] = False
        reply = await self._request(request)
        return _result_from_json(reply["result"])

    async def fair(self, game: Game | str, budget: Budget | float = 4.0) -> FairResult:
        """:func:`termsolitaire.solver.fair.fair_search` on ``game``, elsewhere."""
        from .fair import FairResult

        if not isinstance(budget, Budget):
            budget = Budget(seconds=float(budget))
        text = game if isinstance(game, str) else game.to_text()
        reply = await self._request({"op": "fair", "position": text, **_budget_json(budget)})
        moves = tuple(Move.parse(m) for m in reply["moves"])
        return FairResult(reply["verdict"], moves, reply["note"])

    async def find_winnable_deal(
        self,
        name: str,
        variant: Mapping[str, int] | None = None,
        budget: Budget | float = 2.0,
        *,
        tries: int = 25,
        seed: int | None = None,
        avoid: Collection[int] = (),
    ) -> WinnableDeal | None:
        """:func:`termsolitaire.solver.find_winnable_deal`, elsewhere."""
        if not isinstance(budget, Budget):
            budget = Budget(seconds=float(budget))
        request = {
            "op": "winnable",
            "game": name,
            "variant": dict(variant or {}),
            "tries": tries,
            "seed": seed,
            "avoid": sorted(avoid),
            **_budget_json(budget),
        }
        reply = await self._request(request)
        if reply["deal"] is None:
            return None
        return WinnableDeal(int(reply["deal"]), _result_from_json(reply["result"]))

    async def close(self) -> None:
        """Stop every process (a running search too)."""
        self._closed = True
        if self._spare is not None:
            spare, self._spare = self._spare, None
            with contextlib.suppress(Exception):
                self._idle.append(await spare)
        procs = [*self._idle, *self._busy]
        self._idle.clear()
        self._busy.clear()
        for p in procs:
            await p.stop()
        for task in list(self._reaping):
            with contextlib.suppress(BaseException):
                await task

    async def __aenter__(self) -> SolverWorker:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------ inside

    async def _take(self) -> _Process:
        while self._idle:
            p = self._idle.pop()
            if p.alive:
                return p
            await p.stop()
        spare, self._spare = self._spare, None
        if spare is None:
            spare = asyncio.ensure_future(_Process.start())
        try:
            return await asyncio.shield(spare)
        except asyncio.CancelledError:
            self._keep_spare(spare)  # still starting: keep it for the next request
            raise

    def _keep_spare(self, spare: asyncio.Task[_Process]) -> None:
        if self._spare is None and not self._closed:
            self._spare = spare
        else:
            spare.add_done_callback(self._reap_started)

    def _reap_started(self, task: asyncio.Task[_Process]) -> None:
        if not task.cancelled() and task.exception() is None:
            self._reap(task.result())

    async def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._closed:
            raise SolverError("the solver worker is closed")
        p = await self._take()
        self._busy.add(p)
        try:
            reply = await p.ask(request)
        except BaseException:  # cancelled, or the process failed: it goes
            self._busy.discard(p)
            self._reap(p)
            if self.keep_warm and not self._closed and self._spare is None:
                self._spare = asyncio.ensure_future(_Process.start())
                self._spare.add_done_callback(_quiet)
            raise
        self._busy.discard(p)
        if self._closed or self._idle:
            self._reap(p)
        else:
            self._idle.append(p)
        return reply

    def _reap(self, p: _Process) -> None:
        p.kill()
        task = asyncio.ensure_future(p.stop())
        self._reaping.add(task)
        task.add_done_callback(self._reaping.discard)


def _quiet(task: asyncio.Task[Any]) -> None:
    """Mark a background start's failure as seen (the next request will report it)."""
    if not task.cancelled():
        task.exception()


def _budget_json(budget: Budget) -> dict[str, Any]:
    return {
        "seconds": budget.seconds,
        "memory_mb": budget.memory_mb,
        "cpu": budget.cpu,
        "jobs": budget.jobs,
    }


_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SolverWorker] = (
    weakref.WeakKeyDictionary()
)


async def solve_elsewhere(game: Game | str, budget: Budget | float = 10.0) -> Result:
    """:meth:`SolverWorker.solve` on this event loop's shared worker."""
    loop = asyncio.get_running_loop()
    worker = _SHARED.get(loop)
    if worker is None:
        worker = _SHARED[loop] = SolverWorker()
    return await worker.solve(game, budget)


async def shutdown() -> None:
    """Close this event loop's shared worker, if any."""
    worker = _SHARED.pop(asyncio.get_running_loop(), None)
    if worker is not None:
        await worker.close()


if __name__ == "__main__":
    children.main(["termsolitaire.solver.worker:main"])
