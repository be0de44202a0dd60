"""A Spider match across two ``serve`` processes on one PostgreSQL database
(issue 32, acceptance 2): ann plays on host one, bob on host two, each an
asyncssh client with a key of their own. Each sees the other's moves in the side
panel (pushed through the database's notifications); bob's connection drops
and he comes back; host one is stopped with SIGTERM (drained) and ann resumes
on host two with the same game and the same clock; nothing typed is lost and
both results agree."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncssh
import psycopg
import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.screens.match.match_results import verdict
from termsolitaire.testing.postgres import match_game

from ..screens.conftest import SPIDER_KEYS, chord
from .conftest import START, Harness, Screen
from .test_command import Lines

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty"),
]

SIZE = (100, 30)
"""Wide enough for the board and the side panel."""


@asynccontextmanager
async def host(data: Path, url: str) -> AsyncIterator[tuple[Harness, asyncio.subprocess.Process]]:
    """``termsolitaire serve`` as a process of its own on a free port, on the database."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "termsolitaire", "serve", "--port", "0",
        "--data-dir", str(data), "--database", url,
        "--no-prestart",  # apps spawned: this is about the database (tests/serve/conftest.py)
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    log = Lines(proc.stderr)
    harness: Harness | None = None
    try:
        port = int((await log.wait(r"serving on 127\.0\.0\.1:(\d+)")).group(1))
        harness = Harness(None, None, port)
        yield harness, proc
    finally:
        if harness is not None:
            await harness.close()
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), START)
            except TimeoutError:
                proc.kill()
                await proc.wait()


def started_at(url: str, player: str) -> float:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT started_at FROM match.seats s JOIN match.players p ON p.id = s.player"
            " WHERE table_id = 1 AND p.name = %s",
            (player,),
        ).fetchone()
    assert row is not None and row[0] is not None
    return float(row[0])


async def play_one(s: Screen, url: str, player: str) -> tuple[str, float]:
    """Type a legal action on ``player``'s board; wait until the database has it."""
    game = match_game(url, player)
    before = len(game.log)
    moves = game.legal_moves()
    move = next((m for m in moves if m.kind == "move"), moves[0])
    s.send("".join(chord(move, SPIDER_KEYS)))
    deadline = time.monotonic() + START
    while len(log := match_game(url, player).log) == before:
        assert time.monotonic() < deadline, f"{player}'s {move} never got there:\n{s.text()}"
        await asyncio.sleep(0.02)
    return log[-1], time.monotonic()


def panel(player: str, moves: int) -> str:
    """The side panel's lines for ``player`` with ``moves`` moves."""
    return rf"{player} *\n.*score +-?\d+ *\n.*runs +\d+ *\n.*moves +{moves} "


def shows(s: Screen, pattern: str) -> object:
    return lambda: re.search(pattern, s.text())


async def seen(s: Screen, pattern: str, since: float, took: list[float]) -> None:
    """Wait until ``pattern`` is on the screen; note how long after ``since``."""
    await s.wait_for(shows(s, pattern))
    took.append(time.monotonic() - since)


async def test_a_match_across_two_hosts_survives_a_drop_and_a_drained_host(
    postgres: str,
    tmp_path: Path,
    key: asyncssh.SSHKey,
    other_key: asyncssh.SSHKey,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)  # the observer's store below
    took: list[float] = []
    async with (
        host(tmp_path / "one", postgres) as (one, one_proc),
        host(tmp_path / "two", postgres) as (two, _),
    ):
        ann = await one.session(key, SIZE)
        await ann.wait_for("Name:")
        ann.send("ann\r")
        bob = await two.session(other_key, SIZE)
        await bob.wait_for("Name:")
        bob.send("bob\r")
        await ann.wait_for("Spider match lobby")
        await bob.wait_for("Spider match lobby")

        ann.send("n")
        await ann.wait_for("New game")
        ann.send("\r")  # a public table, 1 suit, 10 minutes
        await ann.wait_for("yours: not started")
        ann.send("\r")  # start playing
        await ann.wait_for(shows(ann, r"score 0\s+moves 0"))
        ann_moves = [(await play_one(ann, postgres, "ann"))[0]]

        await bob.wait_for("1 open table")  # pushed to host two's lobby
        bob.send("\r")  # join ann's table
        await bob.wait_for(shows(bob, panel("ann", 1)))
        move, at = await play_one(bob, postgres, "bob")
        bob_moves = [move]
        await seen(ann, panel("bob", 1), at, took)  # host two's move on host one
        move, at = await play_one(ann, postgres, "ann")
        ann_moves.append(move)
        await seen(bob, panel("ann", 2), at, took)

        two.conns[-1].abort()  # bob's connection drops
        bob = await two.session(other_key, SIZE)
        await bob.wait_for("yours: playing")
        bob.send("\r")  # back to his game
        await bob.wait_for(shows(bob, panel("ann", 2)))
        move, at = await play_one(bob, postgres, "bob")
        bob_moves.append(move)
        await seen(ann, panel("bob", 2), at, took)

        clock_started = started_at(postgres, "ann")
        one_proc.send_signal(signal.SIGTERM)  # host one is drained
        await ann.wait_said("The server is stopping; your game is saved.")
        assert await asyncio.wait_for(one_proc.wait(), START) == 0
        ann = await two.session(key, SIZE)  # the balancer sends her to host two
        await ann.wait_for("yours: playing")
        ann.send("\r")
        found = await ann.wait_for(shows(ann, r"moves (\d+)\s+(\d+):(\d\d)"))
        assert int(found.group(1)) == match_game(postgres, "ann").moves
        left = int(found.group(2)) * 60 + int(found.group(3))
        assert abs(left - (600 - (time.time() - clock_started))) < 15  # the same clock
        assert started_at(postgres, "ann") == clock_started
        move, at = await play_one(ann, postgres, "ann")
        ann_moves.append(move)
        await seen(bob, panel("ann", 3), at, took)

        assert match_game(postgres, "ann").log == tuple(ann_moves)  # nothing lost
        assert match_game(postgres, "bob").log == tuple(bob_moves)
        ann.send("ey")
        await ann.wait_for("Waiting for bob to finish")
        bob.send("ey")
        observer = MatchStore(Player.make("observer"), tmp_path / "unused")
        deadline = time.monotonic() + START
        while not (results := observer.results(1)).final:
            assert time.monotonic() < deadline, "bob's End never reached the database"
            await asyncio.sleep(0.05)
        observer.close()
        ids = {f.player.name: f.player.id for f in results.seats}
        await ann.wait_for(verdict(results, ids["ann"]))  # the same results on both hosts
        await bob.wait_for(verdict(results, ids["bob"]))
        assert [f.reason for f in results.seats] == ["end", "end"]
    print(f"moves seen on the other host after {', '.join(f'{t:.2f}' for t in took)} s")
