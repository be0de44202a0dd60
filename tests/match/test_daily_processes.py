"""Acceptance 1 of issue 31, in real processes: two players, each in a process of
their own on one store, play today's Penguin daily. Both get the same deal; the
second cannot start a second attempt (nor by a fresh data directory, where a
deleted save would be); the leaderboard orders them by the rule; a process
killed with SIGKILL mid-attempt resumes the same attempt. On both backends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.match.daily import Daily

PLAYER = Path(__file__).with_name("daily_player.py")
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC


def run(pid: str, shared: Path, home: Path, *args: object) -> list[dict[str, Any]]:
    """One player process to its end (or its SIGKILL); its JSON lines."""
    env = {
        **os.environ,
        "TERMSOLITAIRE_MATCH_DIR": str(shared),
        "TERMSOLITAIRE_PLAYER_ID": pid,
        "TERMSOLITAIRE_PLAYER": pid,
        "TERMSOLITAIRE_HOME": str(home),
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    p = subprocess.run(
        [sys.executable, str(PLAYER), *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert not p.stderr.strip() or p.returncode == -9, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


PINNED = "pinned-1"
"""The host secret these tests set (tests/match/test_daily.py): a deal whose first
moves send cards home, so the scores differ."""


def test_two_players_one_daily_each(shared: Path, tmp_path: Path, backend: str) -> None:
    setup = MatchStore(Player.make("host"), shared, now=lambda: T0, keep_dir=False)
    with setup.db.write("pin the secret") as db:
        db.execute("INSERT INTO host_secret VALUES (1, ?, 0)", (PINNED,))
    setup.close()
    ann = run("ann", shared, tmp_path / "ann", T0, 6, "end")
    bob = run("bob", shared, tmp_path / "bob", T0 + 60, 0, "end")
    assert ann[0]["deal"] == bob[0]["deal"]
    assert ann[0]["start"] == bob[0]["start"] == bob[0]["text"]  # the same deal, untouched
    assert ann[-1]["ended"] and bob[-1]["ended"]
    assert ann[-1]["score"] > bob[-1]["score"]  # ann sent cards home, bob ended at once

    again = run("bob", shared, tmp_path / "bob", T0 + 120, 3)
    assert again == [{"refused": again[0]["refused"]}]
    assert "one attempt a day" in again[0]["refused"]
    fresh_home = run("bob", shared, tmp_path / "bob-new-home", T0 + 130, 3)
    assert "refused" in fresh_home[0]  # no save to delete: the attempt is in the store

    viewer = MatchStore(Player.make("bob"), shared, now=lambda: T0 + 200, keep_dir=False)
    board = Daily(viewer).board("penguin", {})
    assert [(line.rank, line.player.id, line.mine) for line in board] == [
        (1, "ann", False),
        (2, "bob", True),
    ]
    assert board[0].score == ann[-1]["score"] and board[1].score == bob[-1]["score"]
    viewer.close()


def test_a_killed_process_resumes_the_same_attempt(
    shared: Path, tmp_path: Path, backend: str
) -> None:
    first = run("ann", shared, tmp_path / "ann", T0, 4, "kill")
    played = [line["played"] for line in first if "played" in line]
    assert len(played) == 4
    second = run("ann", shared, tmp_path / "ann", T0 + 300, 2)
    assert second[0]["log"] == played  # every move shown before the kill is there
    assert second[0]["deal"] == first[0]["deal"]
    third = run("ann", shared, tmp_path / "ann", T0 + 400, 0)
    assert third[0]["log"] == played + [line["played"] for line in second if "played" in line]


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TERMSOLITAIRE_DAILY_ZONE", raising=False)
