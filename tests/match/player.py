"""A player in a process of its own, for tests/match/test_processes.py.

Run as ``python player.py T``: the player is who the environment says
(``TERMSOLITAIRE_PLAYER_ID``, ``TERMSOLITAIRE_PLAYER``), the store is in
``TERMSOLITAIRE_MATCH_DIR``, and the clock reads ``T`` until told otherwise.
Each line on stdin is a JSON command; each answer is one JSON line on stdout.
``play`` also prints one line per action, once it is in the store.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from termsolitaire.match import MatchError, MatchStore, Seat


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def say(**kw: Any) -> None:
    print(json.dumps(kw), flush=True)


def choose(seat: Seat, seed: int) -> str:
    """An action chosen from the seat's position alone (so a restarted player
    continues the same way): mostly transfers, sometimes undo, deal or turn."""
    game = seat.game
    rng = random.Random(f"{seed}-{len(seat.log)}")
    moves = game.legal_moves()
    if game.can_undo and rng.random() < 0.1:
        return "undo"
    if game.can_redo and rng.random() < 0.05:
        return "redo"
    transfers = [m for m in moves if m.kind == "move"]
    if transfers and rng.random() < 0.85:
        return str(rng.choice(transfers))
    return str(rng.choice(moves)) if moves else "end"


def state(seat: Seat) -> dict[str, Any]:
    other = seat.opponent()
    return {
        "log": seat.log,
        "text": seat.game.to_text(),
        "figures": list(seat.figures),
        "started_at": seat.started_at,
        "remaining": seat.remaining(),
        "time_used": seat.time_used(),
        "reason": seat.reason,
        "pending": len(seat.pending),
        "problem": seat.problem,
        "opponent": None
        if other is None
        else {
            "id": other.player.id,
            "actions": other.actions,
            "score": other.score,
            "remaining": other.remaining,
            "reason": other.reason,
        },
    }


def run(store: MatchStore, clock: Clock, cmd: dict[str, Any], seats: dict[int, Seat]) -> dict:  # type: ignore[type-arg]
    op = cmd["op"]
    t = cmd.get("table")

    def seat() -> Seat:
        assert isinstance(t, int)
        if t not in seats:
            seats[t] = store.seat(t)
        return seats[t]

    if op == "now":
        clock.t = cmd["t"]
        return {}
    if op == "open":
        s = store.open_table(cmd["suits"], cmd["minutes"], cmd["public"], deal=cmd.get("deal"))
        seats[s.table_id] = s
        return {"table": s.table_id, "code": s.info().code}
    if op == "tables":
        return {
            "tables": [
                {
                    "id": i.id,
                    "state": i.state,
                    "seated": [s.player.id for s in i.seats],
                    "started": [s.started for s in i.seats],
                    "can_join": i.can_join,
                    "invited": i.invited,
                    "public": i.public,
                }
                for i in store.tables()
            ]
        }
    if op == "invitations":
        return {"tables": [i.table_id for i in store.invitations()]}
    if op == "invite":
        return {"guest": store.invite(t, cmd["who"]).id}
    if op in ("join", "code"):
        s = store.join(t) if op == "join" else store.join_code(cmd["code"])
        seats[s.table_id] = s
        return {"table": s.table_id, "seat": s.number, **state(s)}
    if op == "start":
        seat().start()
        return state(seat())
    if op == "play":
        s = seat()
        for _ in range(cmd["n"]):
            if s.finished:
                break
            clock.t += cmd.get("step", 1.0)
            action = choose(s, cmd.get("seed", 0))
            s.act(action)
            say(played=action, table=t, n=len(s.log))
        return {"t": clock.t, **state(s)}
    if op == "state":
        return state(seat())
    if op == "end":
        seat().end()
        return state(seat())
    if op == "results":
        r = store.results(t)
        return {
            "final": r.final,
            "winner": r.winner.id if r.winner else None,
            "seats": [
                [f.player.id, f.score, f.runs, f.moves, f.time_used, f.reason] for f in r.seats
            ],
        }
    if op == "watch":
        w = store.watch(t, cmd["seat"])
        return {"text": w.game.to_text(), "log": [a.text for a in w.actions]}
    if op == "record":
        rec = store.record(cmd.get("who"))
        o = rec.overall
        return {
            "overall": [o.wins, o.losses, o.draws],
            "opponents": {p.id: [x.wins, x.losses, x.draws] for p, x in rec.opponents},
        }
    raise ValueError(f"unknown op {op!r}")


def main() -> None:
    clock = Clock(float(sys.argv[1]))
    store = MatchStore(now=clock)
    seats: dict[int, Seat] = {}
    say(ready=store.me.id, name=store.me.name, path=str(store.path))
    for line in sys.stdin:
        cmd = json.loads(line)
        try:
            reply = run(store, clock, cmd, seats)
        except MatchError as e:
            reply = {"error": type(e).__name__, "reason": e.reason}
        say(reply=cmd["op"], **reply)


if __name__ == "__main__":
    main()
