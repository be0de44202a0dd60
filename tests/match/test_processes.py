"""Two players in two real processes at tables shared through one database: one
joins after the other started, one enters a private table by invitation and one
by code; both play at once; one is killed with SIGKILL mid-play and restarted.
Both games (replayed from the store) and both clocks come through intact, and
both sides compute the same results."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from termsolitaire.match import MatchStore, Player
from termsolitaire.rules import Game, new_game

PLAYER = Path(__file__).with_name("player.py")
T0 = 2_000_000.0
WAIT = 120.0  # seconds a line may take before the test gives up (never reached normally)


def replayed(deal: int, suits: int, log: list[str]) -> Game:
    """The game after ``log``, replayed here by the rules core alone."""
    game = new_game("spider", deal, suits=suits)
    for action in log:
        if action in ("undo", "redo"):
            getattr(game, action)()
        elif action != "end":
            game.play(action)
    return game


class Proc:
    """A player process and its JSON lines."""

    def __init__(self, pid: str, name: str, shared: Path, t: float) -> None:
        env = {
            **os.environ,
            "TERMSOLITAIRE_MATCH_DIR": str(shared),
            "TERMSOLITAIRE_PLAYER_ID": pid,
            "TERMSOLITAIRE_PLAYER": name,
            "PYTHONPATH": os.pathsep.join(sys.path),
        }
        self.p = subprocess.Popen(
            [sys.executable, str(PLAYER), str(t)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.p.stdin and self.p.stdout
        self.stdin = self.p.stdin
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(self.p.stdout,), daemon=True).start()
        hello = self.line()
        assert hello["ready"] == pid and hello["name"] == name

    def _read(self, out: Any) -> None:
        for text in out:
            self.lines.put(text)
        self.lines.put("")  # end of output

    def line(self) -> dict[str, Any]:
        """The next line; fails the test when the process has died or gone quiet."""
        try:
            text = self.lines.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError("no answer from the player process") from None
        assert text, "the player process died"
        return json.loads(text)  # type: ignore[no-any-return]

    def rest(self) -> list[dict[str, Any]]:
        """Every line still to come, up to the end of the output (after a kill)."""
        out = []
        while text := self.lines.get(timeout=WAIT):
            out.append(json.loads(text))
        return out

    def send(self, op: str, **kw: Any) -> None:
        self.stdin.write(json.dumps({"op": op, **kw}) + "\n")
        self.stdin.flush()

    def reply(self, op: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The lines printed before the reply to ``op``, and the reply."""
        lines = []
        while True:
            msg = self.line()
            if msg.get("reply") == op:
                return lines, msg
            lines.append(msg)

    def do(self, op: str, **kw: Any) -> dict[str, Any]:
        self.send(op, **kw)
        _, msg = self.reply(op)
        assert "error" not in msg, msg
        return msg

    def close(self) -> None:
        if self.p.poll() is None:
            self.stdin.close()
            self.p.wait(timeout=WAIT)


def test_two_processes_one_killed_and_restarted(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    alice = Proc("SHA256:alice-key", "Alice", shared, T0)
    bob = Proc("bob", "Bob", shared, T0)
    procs = [alice, bob]
    try:
        # Alice opens a public table and starts playing alone.
        t1 = alice.do("open", suits=2, minutes=10, public=True, deal=77)["table"]
        alice.do("start", table=t1)
        alice.do("play", table=t1, n=5, step=2.0, seed=1)

        # Bob arrives a minute later, sees it started, joins: same deal, full clock.
        for p in procs:
            p.do("now", t=T0 + 60)
        [row] = bob.do("tables")["tables"]
        assert (row["id"], row["state"], row["started"], row["can_join"]) == (
            t1,
            "started",
            [True],
            True,
        )
        joined = bob.do("join", table=t1)
        assert joined["seat"] == 2 and joined["log"] == [] and joined["remaining"] == 600
        assert joined["opponent"]["actions"] == 5
        bob.do("start", table=t1)

        # A private table by invitation (by display name) and one by code.
        t2 = alice.do("open", suits=1, minutes=5, public=False, deal=5)["table"]
        alice.do("invite", table=t2, who="Bob")
        assert bob.do("invitations")["tables"] == [t2]
        assert bob.do("join", table=t2)["seat"] == 2
        opened = bob.do("open", suits=1, minutes=5, public=False, deal=6)
        t3, code = opened["table"], opened["code"]
        assert [t["id"] for t in alice.do("tables")["tables"]] == [t2, t1]  # not t3
        alice.send("code", code="2222-2222")
        assert alice.reply("code")[1]["error"] == "BadCode"
        assert alice.do("code", code=code)["seat"] == 2
        for p in procs:
            for t in (t2, t3):
                p.do("start", table=t)

        # Both play at the same time, on all three tables.
        for seed, t in ((2, t1), (3, t2), (4, t3)):
            alice.send("play", table=t, n=30, step=1.0, seed=seed)
            bob.send("play", table=t, n=30, step=1.0, seed=seed + 10)
            alice.reply("play")
            bob.reply("play")
        for p in procs:
            p.do("now", t=T0 + 150)

        # Alice is killed with SIGKILL in the middle of a burst of moves on t1,
        # while Bob goes on playing.
        bob_before = bob.do("state", table=t1)
        alice_before = alice.do("state", table=t1)["log"]
        alice.send("play", table=t1, n=400, step=0.25, seed=5)
        bob.send("play", table=t1, n=40, step=1.0, seed=6)
        printed: list[str] = []
        while len(printed) < 25:
            msg = alice.line()
            printed.append(msg["played"])
        alice.p.send_signal(signal.SIGKILL)
        assert alice.p.wait(timeout=WAIT) == -signal.SIGKILL
        printed += [msg["played"] for msg in alice.rest()]
        assert len(printed) < 400, "Alice finished before she was killed"
        _, bob_after = bob.reply("play")
        assert bob_after["log"][: len(bob_before["log"])] == bob_before["log"]
        assert len(bob_after["log"]) == len(bob_before["log"]) + 40

        # Alice comes back later: her game is what the store holds, which is
        # everything she was told was played (and perhaps the action in flight).
        procs[0] = alice = Proc("SHA256:alice-key", "Alice", shared, T0 + 200)
        bob.do("now", t=T0 + 200)
        back = alice.do("state", table=t1)
        kept = back["log"]
        assert kept[: len(alice_before)] == alice_before
        burst = kept[len(alice_before) :]
        assert burst[: len(printed)] == printed and len(burst) - len(printed) in (0, 1)
        assert back["text"] == replayed(77, 2, kept).to_text()
        # Her clock: started at T0, and ran on while she was away.
        assert back["started_at"] == T0 and back["remaining"] == 600 - 200
        assert back["reason"] is None and back["pending"] == 0
        # Bob's clock and game are untouched; he sees her as she is.
        b = bob.do("state", table=t1)
        assert b["started_at"] == T0 + 60 and b["remaining"] == 600 - 140
        assert b["text"] == replayed(77, 2, b["log"]).to_text()
        assert b["log"] == bob_after["log"] and b["opponent"]["actions"] == len(kept)

        # Play on a little, then finish every table in a different way.
        alice.do("play", table=t1, n=5, step=1.0, seed=7)
        bob.do("play", table=t1, n=5, step=1.0, seed=8)
        for p in procs:
            p.do("now", t=T0 + 260)
        alice.do("end", table=t1)
        bob.do("end", table=t1)
        alice.do("end", table=t3)  # Bob never comes back to t3: his clock runs out
        for p in procs:
            p.do("now", t=T0 + 60 + 600)  # t2: both clocks (5 minutes) have run out

        # Both sides compute the same results, and so does a third process.
        observer = MatchStore(Player.make("carol"), shared, now=lambda: T0 + 1000)
        for t, reasons in ((t1, ["end", "end"]), (t2, ["time", "time"]), (t3, ["time", "end"])):
            ra, rb = alice.do("results", table=t), bob.do("results", table=t)
            del ra["reply"], rb["reply"]
            assert ra == rb and ra["final"], (t, ra, rb)
            assert [s[5] for s in ra["seats"]] == reasons
            third = observer.results(t)
            assert [
                [f.player.id, f.score, f.runs, f.moves, f.time_used, f.reason] for f in third.seats
            ] == ra["seats"]
            scores = [s[1] for s in ra["seats"]]
            best = None if scores[0] == scores[1] else ra["seats"][scores.index(max(scores))][0]
            assert ra["winner"] == best

        # Each game, replayed from the store, is the one its player had.
        a_game = alice.do("state", table=t1)
        b_game = bob.do("state", table=t1)
        assert bob.do("watch", table=t1, seat=1)["text"] == a_game["text"]
        assert alice.do("watch", table=t1, seat=2)["text"] == b_game["text"]
        assert alice.do("watch", table=t1, seat=2)["log"] == b_game["log"]

        # And the records agree.
        ra, rb = alice.do("record"), bob.do("record")
        assert ra["overall"] == [rb["overall"][1], rb["overall"][0], rb["overall"][2]]
        assert sum(ra["overall"]) == 3 and list(ra["opponents"]) == ["bob"]
        observer.close()
    finally:
        for p in procs:
            if p.p.poll() is None:
                p.p.kill()
                p.p.wait()
