"""A player of the daily in a process of its own, for tests/match/test_daily_processes.py.

Run as ``python daily_player.py T MOVES [kill|end]``: the player is who the
environment says (``TERMSOLITAIRE_PLAYER_ID``), the store is in
``TERMSOLITAIRE_MATCH_DIR``, the clock reads ``T``. It starts (or resumes) today's
Penguin daily and prints ``{"deal", "start", "log"}``, then plays ``MOVES`` moves
(foundation moves first), printing each once it is in the store; ``kill`` then
ends the process with SIGKILL (nothing closed), ``end`` presses End. A refusal
prints ``{"refused": reason}``.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from termsolitaire.match import MatchError, MatchStore, current_player
from termsolitaire.match.daily import Daily
from termsolitaire.rules import new_game


def say(**kw: object) -> None:
    print(json.dumps(kw), flush=True)


def main() -> None:
    t = float(sys.argv[1])
    moves = int(sys.argv[2])
    then = sys.argv[3] if len(sys.argv) > 3 else ""
    store = MatchStore(current_player(), None, now=lambda: t, keep_dir=False)
    try:
        attempt = Daily(store).attempt("penguin", {})
    except MatchError as e:
        say(refused=e.reason)
        return
    start = new_game("penguin", attempt.deal).to_text()
    say(deal=attempt.deal, start=start, log=attempt.log, text=attempt.game.to_text())
    for _ in range(moves):
        legal = attempt.game.legal_moves()
        if not legal:
            break
        home = [m for m in legal if m.dst in attempt.game.foundations]
        move = str((home or legal)[0])
        t += 7.0
        attempt.act(move)
        say(played=move)
    if then == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if then == "end":
        t += 1.0
        attempt.act("end")
        say(ended=True, score=attempt.game.score)


if __name__ == "__main__":
    main()
