"""A match between two real ``termsolitaire match`` processes on one PostgreSQL
database, as on two hosts (issue 32, acceptance 2 without the SSH layer, which
tests/serve/test_two_hosts.py covers): each sees the other's moves in the side
panel within a second of the move reaching the database; one is stopped with
SIGTERM (a host drained) and started again (another host), and finds its game
and clock as they were; both results agree."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import psycopg
import pytest

from termsolitaire.match.replay import replay
from termsolitaire.rules import Game

from ..screens.conftest import SPIDER_KEYS, chord
from ..screens.test_match_ptys import WAIT, Term, both_end

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")


def seats(url: str) -> dict[str, tuple[object, ...]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT player, started_at, actions, finished_at FROM match.seats WHERE table_id = 1"
        ).fetchall()
    return {r[0]: r for r in rows}


def game_of(url: str, player: str) -> Game:
    with psycopg.connect(url) as conn:
        deal, suits = conn.execute("SELECT deal, suits FROM match.tables WHERE id = 1").fetchone()
        actions = [
            r[0]
            for r in conn.execute(
                "SELECT a.action FROM match.actions a JOIN match.seats s ON s.table_id ="
                " a.table_id AND s.seat = a.seat WHERE a.table_id = 1 AND s.player = %s"
                " ORDER BY a.n",
                (player,),
            )
        ]
    return replay(deal, suits, actions)


def play_one(term: Term, url: str, player: str) -> tuple[str, float]:
    """Type a legal action on ``player``'s board; wait until the database has it. The
    action and when it got there."""
    game = game_of(url, player)
    before = len(game.log)
    moves = game.legal_moves()
    move = next((m for m in moves if m.kind == "move"), moves[0])
    term.keys(*chord(move, SPIDER_KEYS))
    end = time.monotonic() + WAIT
    while len(log := game_of(url, player).log) == before:
        assert time.monotonic() < end, f"{player}'s move {move} never reached the database"
        time.sleep(0.02)
    return log[-1], time.monotonic()


def panel(player: str, moves: int) -> str:
    """The side panel's lines for ``player`` with ``moves`` moves."""
    return rf"{player} *\n.*score +-?\d+ *\n.*runs +\d+ *\n.*moves +{moves} "


def seen_within(term: Term, pattern: str, since: float, limit: float = 1.0) -> float:
    """Seconds from ``since`` until ``pattern`` is on ``term``'s screen (at most ``limit``
    more than that is a failure of the live panel)."""
    term.wait_for(pattern, timeout=WAIT)
    took = time.monotonic() - since
    assert took < limit, f"{pattern!r} took {took:.2f} s to show"
    return took


def test_two_processes_on_one_database_play_a_match(
    postgres: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    shared = tmp_path / "not-used"  # the match store is the database's
    ann = Term("ann", shared, tmp_path / "home-ann")
    bob: Term | None = None
    try:
        ann.wait_for("Spider match lobby")
        bob = Term("bob", shared, tmp_path / "home-bob")
        bob.wait_for("Spider match lobby")

        ann.open_table_for("bob")
        ann_moves = [play_one(ann, postgres, "ann")[0]]

        bob.wait_for("invited by ann")
        m = bob.mark()
        bob.keys("enter")
        bob.wait_for(r"score 0\s+moves 0", m)
        # her move in his side panel (by the moves the database counts: on the rare
        # deal with no card to move at the start, her action is a deal, not a move)
        bob.wait_for(panel("ann", game_of(postgres, "ann").moves), m)
        move, at = play_one(bob, postgres, "bob")
        bob_moves = [move]
        seen_within(ann, panel("bob", game_of(postgres, "bob").moves), at)  # within a second
        move, at = play_one(ann, postgres, "ann")
        ann_moves.append(move)
        seen_within(bob, panel("ann", game_of(postgres, "ann").moves), at)

        before = seats(postgres)
        bob.quit()  # SIGTERM: his host is drained
        bob = Term("bob", shared, tmp_path / "home-bob-elsewhere")  # another host
        bob.wait_for("yours: playing")
        m = bob.mark()
        bob.keys("enter")  # back to his game, as the database kept it
        shown = bob.wait_for(r"moves (\d+)\s+(\d+):(\d\d)", m)
        assert int(shown.group(1)) == game_of(postgres, "bob").moves
        left = int(shown.group(2)) * 60 + int(shown.group(3))
        started = float(seats(postgres)["bob"][1])  # type: ignore[arg-type]
        assert abs(left - (600 - (time.time() - started))) < 15  # the same clock
        assert seats(postgres)["bob"][1] == before["bob"][1]
        bob_moves.append(play_one(bob, postgres, "bob")[0])
        assert game_of(postgres, "ann").log == tuple(ann_moves)
        assert game_of(postgres, "bob").log == tuple(bob_moves)

        results = both_end(ann, bob, shared)
        assert [f.reason for f in results.seats] == ["end", "end"]
    finally:
        ann.quit()
        if bob is not None:
            bob.quit()
