"""Restarts along the best line (solver/stjernen/restart.py): the positions a
restart starts from are the rules core's along the line, and the line a
restart returns, spliced onto the old line's start, replays through the rules
core to the count it claims."""

from __future__ import annotations

import functools
import itertools
import time

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import FIRST_BEAM, PORTFOLIO, Pace, beam, schedule
from termsolitaire.solver.stjernen import restart as restart_module
from termsolitaire.solver.stjernen.beams import LATE_ROUND
from termsolitaire.solver.stjernen.evaluation import Weights
from termsolitaire.solver.stjernen.layer import BeamConfig
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


def _recorded_restarts(
    monkeypatch, counts: list[int], deal: int = 3, stalled: int = 0
) -> tuple[State, list[tuple[int, BeamConfig]]]:
    """Restarts from deal ``deal``'s first beam with a stand-in beam that returns
    the counts of ``counts`` in turn (from where it starts, no moves), on a clock
    counting the restarts, out after ``len(counts)``; what each restart was
    asked: (the round it starts in, its settings)."""
    calls: list[tuple[int, BeamConfig]] = []
    todo = iter(counts)

    def record(st: State, cfg: BeamConfig, *args: object) -> tuple[int, list[int], int]:
        calls.append((st.round, cfg))
        return next(todo), [], 1

    root = State.from_game(new_game("stjernen", deal=deal))
    first, line, _ = beam(root, FIRST_BEAM, float("inf"))
    monkeypatch.setattr(restart_module, "beam", record)
    restarts(
        root,
        first,
        line,
        len(counts) - 0.5,
        lambda: float(len(calls)),
        Pace(),
        None,
        0.0,
        LATE_ROUND,
        stalled=stalled,
    )
    assert len(calls) == len(counts)
    return root, calls


def test_a_stall_sends_the_next_restart_from_the_root_on_another_course(monkeypatch):
    """Two restarts in a row that get no further (restart.STALL) along deal 3's
    line (the first beam's, which stops in round 5), each a round earlier: the
    third starts from the root with
    ``bottom=False`` (on deal 28 the plain weights stop at 34 at every width,
    ``bottom=False`` gets 52, stjernen23); when that course stalls too, the next
    starts from the root on the course after it, the first king plan."""
    monkeypatch.setattr(restart_module, "STALL", 2)
    root, calls = _recorded_restarts(monkeypatch, [0] * 6)
    rounds = [r for r, _ in calls]
    stop = rounds[0] + restart_module.RESTART_BACK
    assert rounds[:2] == [stop - 1, stop - 2] and stop - 2 > 1
    assert [c.weights for _, c in calls[:2]] == [Weights()] * 2
    assert rounds[2] == 1 and calls[2][1].weights == Weights(bottom=False)
    # The switched course goes on along the line once more before it too stalls.
    assert rounds[3] == stop - 1 and calls[3][1].weights == Weights(bottom=False)
    plan = restart_module.plans(root)[0]
    assert rounds[4] == 1 and calls[4][1].weights == Weights(hold=plan)
    assert all(c.adaptive and c.jitter for _, c in calls)
    assert [c.seed for _, c in calls] == [1, 2, 3, 4, 5, 6]


def test_a_restart_that_gets_further_keeps_its_course(monkeypatch):
    """The root's beam counted as stalled (it got no further than the first beam):
    one restart more that stalls switches the course; a switched restart that
    gets further keeps its course, and the count starts again."""
    monkeypatch.setattr(restart_module, "STALL", 2)
    _, calls = _recorded_restarts(monkeypatch, [0, 99, 0, 0, 0], stalled=1)
    weights = [c.weights for _, c in calls]
    assert weights[0] == Weights()
    assert weights[1:4] == [Weights(bottom=False)] * 3
    assert calls[1][0] == 1 and calls[4][0] == 1
    assert weights[4] != Weights(bottom=False) and calls[4][0] == 1


def test_without_stall_the_restarts_keep_the_plain_weights(monkeypatch):
    """STALL 0: the restarts of stjernen10-23, a round earlier each time, the
    plain weights throughout."""
    monkeypatch.setattr(restart_module, "STALL", 0)
    _, calls = _recorded_restarts(monkeypatch, [0] * 4)
    assert {c.weights for _, c in calls} == {Weights()}
    assert [r for r, _ in calls][:2] == [calls[0][0], calls[0][0] - 1]


def test_the_courses_are_the_positions_own():
    """The courses a stalled search takes depend on the position alone: the same
    position, the same list; the first is the course it followed."""
    for deal in (1, 28):
        root = State.from_game(new_game("stjernen", deal=deal))
        got = restart_module.courses(root, ())
        assert got == restart_module.courses(root.copy(), ())
        assert got[0] == (0, ()) and got[1] == (6, ())
        assert len(set(got)) == len(got)
        assert all(PORTFOLIO[w] for w, _ in got)


def test_a_search_that_changes_course_answers_the_same_line_each_time(monkeypatch):
    """Deal 28 from the start of round 3 of its first beam's line (the plain
    weights stop there at 34 at every width, stjernen23), restarts on a clock
    counted in calls (so the same on any machine): they stall and change
    course, and two runs from the same position give the same count and line,
    which the rules core plays from there to that count."""
    game = new_game("stjernen", deal=28)
    first, line, _ = beam(State.from_game(game), FIRST_BEAM, float("inf"))
    _, k, root = round_starts(State.from_game(game), line)[2]
    assert root.round == 3
    for m in line[:k]:
        game.play(to_move(m))
    seen: list[BeamConfig] = []
    plain = restart_module.beam

    def traced(st: State, cfg: BeamConfig, *args: object) -> tuple[int, list[int], int]:
        seen.append(cfg)
        return plain(st, cfg, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(restart_module, "beam", traced)
    answers = []
    for _ in range(2):
        clock = functools.partial(next, itertools.count(0.0, 0.001))
        # 1000 calls: three beams, the third under other weights (2000 ran four
        # beams, twice the CPU, for the same check).
        best, new, _ = restarts(root, first, line[k:], 1.0, clock, Pace(), None, 0.2, LATE_ROUND)
        answers.append((best, new))
    assert answers[0] == answers[1]
    assert any(c.weights != Weights() for c in seen)
    for m in answers[0][1]:
        game.play(to_move(m))
    assert game.score == answers[0][0] >= first


def scheduled_beams(
    monkeypatch, deal: int, order: schedule.Order = schedule.PLAIN
) -> list[BeamConfig]:
    """The settings of every beam a 1-s schedule on deal ``deal`` asks for (no plan
    probe, a clock of 0.05 s a call), each beam a stand-in that stops at 20
    cards: no beam gets further than the first, so each stalls."""
    calls: list[BeamConfig] = []

    def record(st: State, cfg: BeamConfig, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append(cfg)
        return 20, [], 1

    monkeypatch.setattr(schedule, "beam", record)
    monkeypatch.setattr(restart_module, "beam", record)
    monkeypatch.setattr(restart_module, "PLAN_PROBE", False)
    root = State.from_game(new_game("stjernen", deal=deal))
    clock = functools.partial(next, itertools.count(0.0, 0.05))
    schedule.run(root, root.score, 1.0, clock, None, 0.1, order)
    return calls


def test_a_root_beam_no_better_than_the_first_counts_as_a_stalled_beam(monkeypatch):
    """The schedule: the root's adaptive beam got no further than the first beam
    (every beam here stops at 20), so one plain restart that gets no further
    makes a stall, and the second restart changes course."""
    monkeypatch.setattr(restart_module, "STALL", 2)
    first, adaptive, plain, switched, *_ = scheduled_beams(monkeypatch, 3)
    assert not first.adaptive and adaptive.adaptive
    assert plain.weights == adaptive.weights == Weights()
    assert switched.weights == Weights(bottom=False)
