"""Two real ``termsolitaire match`` processes, each in its own pseudo-terminal, at
one table through the shared database (issue 12, acceptance 4).

ann opens a private table and invites bob, then starts; bob sees the
invitation in his lobby and joins after she started. Both play moves (typed
as keys); bob's process is killed with SIGKILL and started again: his game and
both clocks are as the store kept them, and he plays on. Both press End; both
screens show the same results (each from their own side). The store is read
here only to check, and to choose legal moves to type.

Real processes and the real clock: the waits are for text on the screens (what
pyte, a small VT emulator, makes of the bytes: a frame sends only the cells
that changed, so the byte stream alone need not hold a whole line), polled
with a timeout; nothing here sleeps for a fixed time.
"""

from __future__ import annotations

import re
import signal
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, Player, Results
from termsolitaire.match.replay import replay
from termsolitaire.rules import Game
from termsolitaire.screens.match.match_results import verdict
from termsolitaire.testing.terminal import PtyTerminal, app_command

from .conftest import SPIDER_KEYS, chord

WAIT = 60.0

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")


class Term(PtyTerminal):
    """``termsolitaire match`` in a pseudo-terminal of 80x24, as one player sees it."""

    def __init__(self, player: str, shared: Path, home: Path) -> None:
        super().__init__(
            app_command("match"),
            env={
                "TERMSOLITAIRE_HOME": str(home),
                "TERMSOLITAIRE_MATCH_DIR": str(shared),
                "TERMSOLITAIRE_PLAYER_ID": player,
                "TERMSOLITAIRE_PLAYER": player,
            },
        )

    def mark(self) -> int:
        """How much has been drawn so far (for :meth:`wait_for`'s ``since``)."""
        return self.received

    def wait_for(self, pattern: str, since: int = 0, timeout: float = WAIT) -> re.Match[str]:
        return super().wait_for(pattern, since, timeout)

    def keys(self, *keys: str) -> None:
        self.send(*keys, pace=0.15)  # a typist's pace: lets the app take one key at a time

    def open_table_for(self, guest: str) -> None:
        """From the lobby: a private table (table 1), ``guest`` invited, and the game
        started (the board shown)."""
        self.keys("n")
        self.wait_for("New game")
        self.keys("down", "down", "down", "down", "right", "enter")  # table: private
        self.wait_for(r"Table 1 is open")
        m = self.mark()
        self.keys("i")
        self.wait_for("Invite a player to table 1", m)
        self.keys(*guest, "enter")
        self.wait_for(f"Invited {guest} to table 1", m)
        m = self.mark()
        self.keys("enter")
        self.wait_for(r"score 0\s+moves 0", m)

    def kill(self) -> None:
        """SIGKILL: no goodbye, no save."""
        self.signal(signal.SIGKILL, group=True)
        self.wait(10)
        self.hang_up()

    def quit(self) -> None:
        """SIGTERM (a host drained), SIGKILL if it is still there 10 s later."""
        if self.proc.poll() is None:
            self.signal(signal.SIGTERM, group=True)
            if self.wait(10) is None:
                self.signal(signal.SIGKILL, group=True)
        self.close()


def both_end(ann: Term, bob: Term, shared: Path) -> Results:
    """ann, then bob, press End; both screens show the final results, each from their
    own side. Those results (as the store has them)."""
    m_ann, m_bob = ann.mark(), bob.mark()
    ann.keys("e", "y")
    ann.wait_for("Waiting for bob to finish", m_ann)
    bob.keys("e", "y")
    observer = MatchStore(Player.make("observer"), shared)
    end = time.monotonic() + WAIT
    while not (results := observer.results(1)).final:  # until bob's End is in
        assert time.monotonic() < end, "bob's End never reached the store"
        time.sleep(0.05)
    observer.close()
    ann.wait_for(re.escape(verdict(results, "ann")), m_ann)
    bob.wait_for(re.escape(verdict(results, "bob")), m_bob)
    return results


def seat_rows(shared: Path) -> dict[str, sqlite3.Row]:
    db = sqlite3.connect(f"file:{shared / 'match.sqlite3'}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        return {r["player"]: r for r in db.execute("SELECT * FROM seats WHERE table_id = 1")}
    finally:
        db.close()


def game_of(shared: Path, player: str) -> Game:
    db = sqlite3.connect(f"file:{shared / 'match.sqlite3'}?mode=ro", uri=True)
    try:
        deal, suits = db.execute("SELECT deal, suits FROM tables WHERE id = 1").fetchone()
        actions = [
            r[0]
            for r in db.execute(
                "SELECT a.action FROM actions a JOIN seats s ON s.table_id = a.table_id "
                "AND s.seat = a.seat WHERE a.table_id = 1 AND s.player = ? ORDER BY a.n",
                (player,),
            )
        ]
    finally:
        db.close()
    return replay(deal, suits, actions)


def play_one(term: Term, shared: Path, player: str) -> str:
    """Type a legal action (a transfer if any) on ``player``'s board; wait until the store
    has it."""
    game = game_of(shared, player)
    before = len(game.log)
    moves = game.legal_moves()  # a transfer if there is one, else a turn or a deal
    move = next((m for m in moves if m.kind == "move"), moves[0])
    term.keys(*chord(move, SPIDER_KEYS))
    end = time.monotonic() + WAIT
    while len(log := game_of(shared, player).log) == before:
        assert time.monotonic() < end, f"{player}'s move {move} never reached the store"
        time.sleep(0.05)
    played = log[-1]  # a chord moves the longest run that fits: t3-t1:2 for t3-t1
    assert played.split(":")[0] == str(move).split(":")[0]
    return played


def test_two_processes_one_table_kill_and_come_back(tmp_path: Path) -> None:
    shared = tmp_path / "match"
    ann = Term("ann", shared, tmp_path / "home-ann")
    bob: Term | None = None
    try:
        ann.wait_for("Spider match lobby")
        bob = Term("bob", shared, tmp_path / "home-bob")
        bob.wait_for("Spider match lobby")

        # ann: a private table, bob invited, then she starts
        ann.open_table_for("bob")
        ann_moves = [play_one(ann, shared, "ann")]

        # bob: the invitation in his lobby; he joins after ann started
        bob.wait_for("invited by ann")
        m = bob.mark()
        bob.keys("enter")
        bob.wait_for(r"score 0\s+moves 0", m)
        bob.wait_for(r"ann *\n.* score +-?\d+", m)  # her live figures in his side panel
        bob_moves = [play_one(bob, shared, "bob")]
        ann_moves.append(play_one(ann, shared, "ann"))
        bob_moves.append(play_one(bob, shared, "bob"))

        before = seat_rows(shared)
        bob.kill()  # SIGKILL: no goodbye, no save
        bob = None
        after = seat_rows(shared)
        assert [tuple(after[p]) for p in ("ann", "bob")] == [
            tuple(before[p]) for p in ("ann", "bob")
        ]
        assert game_of(shared, "bob").log == tuple(bob_moves)

        bob = Term("bob", shared, tmp_path / "home-bob")
        bob.wait_for("yours: playing")
        m = bob.mark()
        bob.keys("enter")  # back to his game, as the store kept it
        shown = bob.wait_for(r"moves (\d+)\s+(\d+):(\d\d)", m)
        assert int(shown.group(1)) == game_of(shared, "bob").moves
        left = int(shown.group(2)) * 60 + int(shown.group(3))
        started = float(seat_rows(shared)["bob"]["started_at"])
        expected = 600 - (time.time() - started)
        assert abs(left - expected) < 15  # his clock ran on while he was away
        bob_moves.append(play_one(bob, shared, "bob"))
        ann_moves.append(play_one(ann, shared, "ann"))

        rows = seat_rows(shared)
        assert rows["ann"]["started_at"] == before["ann"]["started_at"]
        assert rows["bob"]["started_at"] == before["bob"]["started_at"]
        assert game_of(shared, "ann").log == tuple(ann_moves)
        assert game_of(shared, "bob").log == tuple(bob_moves)

        # both press End; both see the same results
        results = both_end(ann, bob, shared)
        for f in results.seats:
            assert f.reason == "end"
            assert f.moves == game_of(shared, f.player.id).moves
        assert len(game_of(shared, "ann").log) == len(game_of(shared, "bob").log) == 3
    finally:
        ann.quit()
        if bob is not None:
            bob.quit()
