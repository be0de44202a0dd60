"""Saves on PostgreSQL are locked per player across hosts (issue 32): while the
player has Penguin open in a session on another host, this one says where in a
sentence and offers the shared save read only (read through the storage
interface, not a file); the other session ending frees the game."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.play.modes import Mode
from termsolitaire.rules import from_json
from termsolitaire.storage.backend import open_storage

from .conftest import board
from .test_saving import question, seed

HOLD = """
import sys
from termsolitaire.storage.backend import open_storage
storage = open_storage(sys.argv[1])
lock = storage.saves.lock("penguin")
print("held" if lock.acquire() else "refused", flush=True)
sys.stdin.read()  # until the test closes it: then the session ends
"""


@pytest.fixture
def shared_player(postgres: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "SHA256:ann")
    return postgres


async def test_a_game_open_on_another_host_is_offered_read_only(
    shared_player: str, tmp_path: Path
) -> None:
    expected, _ = await seed("penguin", 5, 2)
    other_host = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path / "other-host")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        assert other_host.stdout is not None
        assert other_host.stdout.readline().strip() == "held"
        app = SolitaireApp("penguin", None, {}, clock=False, resume=True, variant_given=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert question(app).startswith("Penguin is open in another window (a session on ")
            await pilot.press("v")
            await pilot.pause()
            screen = board(app)
            assert screen.controller.mode is Mode.READ_ONLY
            assert screen.game.to_text() == from_json(expected).to_text()
        storage = open_storage(tmp_path / "here")
        saved, _ = storage.saves.load("penguin")
        assert saved is not None and saved.game.to_json() == expected  # not written over
        lock = storage.saves.lock("penguin")
        assert not lock.acquire() and not lock.held_here()
    finally:
        assert other_host.stdin is not None
        other_host.stdin.close()
        other_host.wait(30)
    deadline = time.monotonic() + 30
    while not lock.acquire():  # the server drops the lock with the other session
        assert time.monotonic() < deadline, "the other session's lock stayed"
    lock.release()
    storage.close()


def test_a_game_open_in_this_process_is_told_from_one_open_on_another_host(
    shared_player: str, tmp_path: Path
) -> None:
    """The database grants a session its own advisory lock again: a second lock of a
    slot this process holds is refused, and knows the game is open here."""
    storage = open_storage(tmp_path / "here")
    try:
        first, second = storage.saves.lock("penguin"), storage.saves.lock("penguin")
        assert first.acquire() and not second.acquire()
        assert second.held_here()
        first.release()
        assert not second.held_here() and second.acquire()
        second.release()
    finally:
        storage.close()
