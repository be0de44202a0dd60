"""Two ``serve`` hosts on one PostgreSQL database (issue 32): a key that chose its
name on one host is known on the other, and a game left on one resumes on the
other, through every layer (serve passes ``--database`` to each session's app,
whose lobby and saves are in the database)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from termsolitaire.storage.backend import open_storage
from termsolitaire.storage.saves import Saved

from .conftest import START, deal_on, first_move_keys, running

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty"),
]


async def shared_save(url: str, who: str, tmp: Path, played: bool = False) -> Saved:
    """The player's Penguin save as any host reads it from the database (with
    ``played``, once it holds a move)."""
    deadline = time.monotonic() + START
    while True:
        os.environ["TERMSOLITAIRE_PLAYER_ID"] = who
        try:
            store = open_storage(tmp / "reader", url)
            saved, _ = store.saves.load("penguin")
            store.close()
        finally:
            del os.environ["TERMSOLITAIRE_PLAYER_ID"]
        if saved is not None and (saved.game.log or not played):
            return saved
        assert time.monotonic() < deadline, "no shared save"
        await asyncio.sleep(0.1)


async def test_a_game_left_on_one_host_resumes_on_the_other(
    postgres: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, key, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    fingerprint = key.get_fingerprint("sha256")
    # Apps spawned, not forked (tests/serve/conftest.py, serve): this is about the database.
    one_host, two_host = (running(tmp_path / n, caplog, prestart=False) for n in ("one", "two"))
    async with one_host as one, two_host as two:
        s = await one.session(key)
        await s.wait_for("Name:")
        s.send("alice\r")
        await s.menu()
        s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        await s.wait_for("Penguin · deal")
        deal = deal_on(s)
        first = await shared_save(postgres, fingerprint, tmp_path)
        assert first.game.deal == deal
        s.send(first_move_keys(deal))  # (a deal left without a move is no game to resume)
        first = await shared_save(postgres, fingerprint, tmp_path, played=True)
        assert not list((tmp_path / "one" / "data" / "players").glob("*/saves/*.json"))
        one.conns[-1].abort()  # the host goes away for this player
        await one.no_sessions()

        s = await two.session(key)  # known here: no name asked
        await s.wait_for(f"Saved: Penguin — deal {deal}")
        assert "Name:" not in s.plain()
        await s.menu()
        await s.wait_for(f"Resume Penguin — deal {deal}")
        s.send("\r")
        await s.wait_for(f"Penguin · deal {deal}")
        again = await shared_save(postgres, fingerprint, tmp_path)
        assert again.id == first.id
        assert two.server.players.find(fingerprint) is not None
