"""Restarts along the best line (solver/stjernen/restart.py): the positions a
restart starts from are the rules core's along the line, and the line a
restart returns, spliced onto the old line's start, replays through the rules
core to the count it claims."""

from __future__ import annotations

import time

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import FIRST_BEAM, Pace, beam
from termsolitaire.solver.stjernen import restart as restart_module
from termsolitaire.solver.stjernen.beams import LATE_ROUND
from termsolitaire.solver.stjernen.evaluation import Weights
from termsolitaire.solver.stjernen.restart import _config, restarts, round_starts
from termsolitaire.solver.stjernen.state import COLLECT, State, to_move


def test_each_restart_point_is_the_rules_cores_position_after_a_collect():
    game = new_game("stjernen", deal=1)
    root = State.from_game(game)
    _, line, _ = beam(root, FIRST_BEAM, float("inf"))
    starts = round_starts(root, line)
    assert [r for r, _, _ in starts] == list(range(1, len(starts) + 1))
    assert len(starts) >= 3
    for r, k, st in starts:
        g = game.copy()
        for m in line[:k]:
            g.play(to_move(m))
        assert g.round == r
        assert st.key() == State.from_game(g).key()
        assert k == 0 or line[k - 1] == COLLECT


def test_a_restarted_line_replays_to_the_count_it_claims():
    """Deal 1 (the first beam does not win it): two seconds of restarts from the
    first beam's line give a line from the root that the rules core plays
    through to the count reported, no lower than the first beam's."""
    first, best, seen, score = _restarted_deal_1()
    assert first < 104
    assert seen > 0 and best >= first
    assert score == best


def _restarted_deal_1() -> tuple[int, int, int, int]:
    """Deal 1's first beam, then two seconds of restarts from its line: the
    first beam's count, the restarts' best count, the positions they saw, and
    the score the rules core reaches playing their line from the root."""
    game = new_game("stjernen", deal=1)
    root = State.from_game(game)
    first, line, _ = beam(root, FIRST_BEAM, float("inf"))
    best, new, seen = restarts(
        root, first, line, time.monotonic() + 2.0, time.monotonic, Pace(), None, 0.2, LATE_ROUND
    )
    g = game.copy()
    for m in new:
        g.play(to_move(m))
    return first, best, seen, g.score


def test_the_restarts_take_the_weights_of_restart_weights_in_turn(monkeypatch):
    """RESTART_WEIGHTS names the portfolio's weights the restarts use, one after
    the other (the plan carried by each); a restart under ``horizon=250``
    still returns a line the rules core plays to the count claimed."""
    monkeypatch.setattr(restart_module, "RESTART_WEIGHTS", (1, 0))
    assert _config(5, 1, (2,), 300).weights == Weights(horizon=250, hold=(2,))
    assert _config(5, 2, (2,), 300).weights == Weights(hold=(2,))
    assert _config(5, 3, (), 300).weights == Weights(horizon=250)
    assert _config(5, 1, (), 300).jitter == 300
    monkeypatch.setattr(restart_module, "RESTART_WEIGHTS", (1,))
    first, best, seen, score = _restarted_deal_1()
    assert seen > 0 and best >= first
    assert score == best
