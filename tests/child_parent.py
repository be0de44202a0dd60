"""A parent for tests/test_children.py: ``python -m tests.child_parent KIND DIR``
starts one kind of child process the way the program does, prints ``ready`` once
that child is busy (or waiting on its input, for the computer), then waits to
be killed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from pathlib import Path

from termsolitaire.children import Child, child_env
from termsolitaire.rules import new_game
from termsolitaire.solver import Budget


def ready() -> None:
    print("ready", flush=True)


async def solver_worker() -> None:
    """A worker mid-search (not reading its input), its Stjernen helper beside it."""
    from termsolitaire.solver.worker import SolverWorker

    worker = SolverWorker()
    search = asyncio.ensure_future(
        worker.solve(new_game("stjernen", 5), Budget(seconds=600, jobs=2))
    )
    while not worker.pids:
        await asyncio.sleep(0.01)
    ready()
    await search


def stjernen_helper() -> None:
    """A Stjernen search in this process's main thread, its helper busy beside it."""
    from termsolitaire.solver.stjernen import solve

    threading.Timer(1.0, ready).start()  # the helper starts with the search
    solve(new_game("stjernen", 5), Budget(seconds=600, jobs=2))


async def computer(directory: Path) -> None:
    """The computer opponent at a table, waiting for its next action's time."""
    from termsolitaire.match import MatchStore, Player
    from termsolitaire.match.services import MatchServices, NewGame

    store = MatchStore(Player.make("ann"), directory, now=lambda: 1_000_000.0)
    match = MatchServices(store, engine="tests.screens.engine:make")
    seat = match.open(NewGame(kind="computer", level="beginner", minutes=5))
    seat.start()
    driver = match.drivers[seat.table_id]
    match.start_driver(driver)
    while driver.pid is None:
        await asyncio.sleep(0.01)
    ready()
    await asyncio.Event().wait()


async def served_app() -> None:
    """A program on a pty of its own, as ``termsolitaire serve`` runs a player's app
    (:class:`~termsolitaire.serve.apprun.AppProcess`): the kernel hangs it up when
    the pty's master side closes with its server."""
    from termsolitaire.serve.apprun import AppProcess

    program = "import time; print('up', flush=True); time.sleep(600)"
    app = AppProcess.start([sys.executable, "-c", program], child_env(), (80, 24))
    seen = b""
    while b"up" not in seen:
        seen += await app.read()
    ready()
    await app.wait()


def echo() -> None:
    """A child that answers each message with itself (``"env"``: its environment),
    in JSON lines, or pickle frames when its argument says ``frames``."""
    from termsolitaire import children

    channel = children.stdio_frames() if sys.argv[1:] == ["frames"] else children.stdio()
    with contextlib.suppress(children.ChildGone):
        while True:
            message = channel.receive()
            channel.send(dict(os.environ) if message == "env" else message)


def spin() -> None:
    """A child that never reads its input (only the kernel's signal or the parent
    watch can end it)."""
    while True:
        pass


def busy_child() -> None:
    Child.spawn("tests.child_parent:spin")
    ready()
    threading.Event().wait()


def main() -> None:
    kind, directory = sys.argv[1], Path(sys.argv[2])
    if kind == "solver worker":
        asyncio.run(solver_worker())
    elif kind == "stjernen helper":
        stjernen_helper()
    elif kind == "computer":
        asyncio.run(computer(directory))
    elif kind == "served app":
        asyncio.run(served_app())
    elif kind == "served app, server under nohup":
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup leaves it, across exec
        asyncio.run(served_app())
    else:
        busy_child()


if __name__ == "__main__":
    main()
