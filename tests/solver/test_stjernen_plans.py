"""King plans (solver/stjernen/restart.py, moves.auto's ``hold``, issue 34,
stjernen11): a plan holds back the king of a suit that lies outside the inner
ring until the suit's other king, in the inner ring, has left it, so that the
buried king takes the first turn. The plan changes what the beam's automatic
foundation moves do and how the evaluation counts the kings, never a rule:
every line under a plan replays through the rules core."""

from __future__ import annotations

import math
import random
import time

import pytest

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import FIRST_BEAM, PORTFOLIO, WON, BeamConfig, Pace, beam
from termsolitaire.solver.stjernen import restart as restart_module
from termsolitaire.solver.stjernen.beams import LATE_ROUND
from termsolitaire.solver.stjernen.evaluation import Weights, evaluate
from termsolitaire.solver.stjernen.moves import auto, held_kings, plan_suits
from termsolitaire.solver.stjernen.pair import Helper
from termsolitaire.solver.stjernen.restart import plans, probe, probe_courses, restarts
from termsolitaire.solver.stjernen.state import DEAL, INNER, UP, State, to_move

from ..conftest import FULL, OFF_SWITCH


def _king(s: int) -> int:
    return s * 13 + 12


def _inner_kings(st: State, s: int) -> int:
    return sum(st.piles[i].count(_king(s)) for i in INNER)


def test_plan_suits_have_one_king_in_the_inner_ring_and_one_outside():
    for deal in range(1, 31):
        st = State.from_game(new_game("stjernen", deal=deal))
        for s in range(4):
            assert (s in plan_suits(st)) == (_inner_kings(st, s) == 1)
    st = State.from_game(new_game("stjernen", deal=30))
    assert plan_suits(st) == [2, 3]  # diamonds and clubs
    assert plans(st) == [(2, 3), (2,), (3,)]
    assert plans(State.from_game(new_game("stjernen", deal=10))) == []


def _outer_king_on_top(deal: int) -> tuple[State, int] | None:
    """Deal 1's stock out, no card moved, until the outer king of a plan suit is
    on top of an upturned pile: that position and the suit."""
    st = State.from_game(new_game("stjernen", deal=deal))
    suits = plan_suits(st)
    while st.stock:
        st.make(DEAL)
        for u in UP:
            q = st.piles[u]
            if q and q[-1] // 13 in suits and q[-1] % 13 == 12:
                return st, q[-1] // 13
    return None


def test_auto_starts_a_held_suit_only_with_the_inner_rings_king():
    """Without the plan the king on the upturned pile goes home at once; with it,
    it stays while its twin lies in the inner ring."""
    checked = 0
    for deal in range(1, 40):
        got = _outer_king_on_top(deal)
        if got is None:
            continue
        st, s = got
        if _inner_kings(st, s) != 1 or st.fcount[s]:
            continue
        plain = st.copy()
        auto(plain, [])
        assert plain.fcount[s] > 0
        held = st.copy()
        assert held_kings(held, (s,)) == {_king(s)}
        auto(held, [], (s,))
        assert held.fcount[s] == 0 or _inner_kings(held, s) == 0
        checked += 1
    assert checked >= 5


def test_under_a_plan_a_held_suit_never_starts_while_its_inner_king_is_there():
    """Random play (legal moves of the compact state, then the automatic
    foundation moves under the plan of every plan suit): whenever a held suit
    has started, no king of it is left in the inner ring from before."""
    rng = random.Random(11)
    for deal in range(1, 16):
        st = State.from_game(new_game("stjernen", deal=deal))
        hold = tuple(plan_suits(st))
        for _ in range(250):
            before = [st.fcount[s] for s in hold]
            auto(st, [], hold)
            for s, n in zip(hold, before, strict=True):
                if n == 0 and st.fcount[s]:
                    assert _inner_kings(st, s) == 0
            legal = st.legal()
            if not legal:
                break
            st.make(rng.choice(legal))


def test_the_evaluation_counts_the_inner_king_first_under_a_plan():
    """Deal 30 before any card moves: the diamonds' inner king is buried, the
    other in the stock; holding diamonds counts the buried one for the first
    turn, so the position looks worse."""
    st = State.from_game(new_game("stjernen", deal=30))
    w = Weights()
    assert evaluate(st, Weights(hold=(2,))) < evaluate(st, w)
    assert evaluate(st, Weights(hold=(0,))) == evaluate(st, w)  # spades: no plan


def test_a_plan_wins_a_deal_the_plain_beam_does_not():
    """Deal 30 at width 10 (fixed, no clock): the plain beam stops at 16 cards,
    diamonds and clubs started with their inner kings win, and the line
    replays through the rules core."""
    game = new_game("stjernen", deal=30)
    root = State.from_game(game)
    cfg = BeamConfig(width=10, late_round=LATE_ROUND)
    plain, _, _ = beam(root, cfg, math.inf)
    assert plain < WON
    cfg = BeamConfig(width=10, late_round=LATE_ROUND, weights=Weights(hold=(2, 3)))
    best, line, _ = beam(root, cfg, math.inf)
    assert best == WON
    g = game.copy()
    for m in line:
        g.play(to_move(m))
    assert g.is_won


def test_the_probe_follows_a_plan_only_where_it_gets_further(monkeypatch):
    """Deal 30: the first beam stops at 16 cards, the probe under the plan wins
    and is followed; deal 10 has no plan to probe; with PLAN_PROBE off
    nothing is searched."""
    for deal, plan in ((30, (2, 3)), (10, ())):
        root = State.from_game(new_game("stjernen", deal=deal))
        first, line, _ = beam(root, FIRST_BEAM, math.inf)
        best, new, seen, hold = probe(root, first, line, math.inf, time.monotonic, Pace(), None)
        assert hold == plan
        if plan:
            assert first < WON and best == WON and seen > 0
        else:
            assert (best, new, seen) == (first, line, 0)
    monkeypatch.setattr(restart_module, "PLAN_PROBE", False)
    root = State.from_game(new_game("stjernen", deal=30))
    assert probe(root, 16, [], math.inf, time.monotonic, Pace(), None) == (16, [], 0, ())


def test_restarts_under_a_plan_return_a_line_that_replays():
    """Deal 19: the probe's plan (hearts and diamonds) gets further than the first
    beam; two seconds of restarts under it give a line the rules core plays
    to the count claimed, no lower than the probe's."""
    game = new_game("stjernen", deal=19)
    root = State.from_game(game)
    first, line, _ = beam(root, FIRST_BEAM, math.inf)
    best, line, _, hold = probe(root, first, line, math.inf, time.monotonic, Pace(), None)
    assert hold == (1, 2) and best > first
    got, new, seen = restarts(
        root,
        best,
        line,
        time.monotonic() + 2.0,
        time.monotonic,
        Pace(),
        None,
        0.2,
        LATE_ROUND,
        hold,
    )
    assert seen > 0 and got >= best
    g = game.copy()
    for m in new:
        g.play(to_move(m))
    assert g.score == got


def test_the_probe_follows_a_plan_that_gets_as_far_as_the_first_beam(monkeypatch):
    """Deal 3: the first beam and the probe under the plan of hearts and
    diamonds both stop at 46 cards; the plan is followed (restart.PROBE_TIES,
    stjernen27: deal 1040's win comes from a plan that tied at width 10), with
    the probe's line, which the rules core plays to the same count. With
    PROBE_TIES off a tie keeps the plain weights, as before."""
    game = new_game("stjernen", deal=3)
    root = State.from_game(game)
    first, line, _ = beam(root, FIRST_BEAM, math.inf)
    assert first == 46
    best, new, seen, hold = probe(root, first, line, math.inf, time.monotonic, Pace(), None)
    assert (best, hold) == (first, (1, 2)) and seen > 0
    g = game.copy()
    for m in new:
        g.play(to_move(m))
    assert g.score == best
    monkeypatch.setattr(restart_module, "PROBE_TIES", False)
    assert probe(root, first, line, math.inf, time.monotonic, Pace(), None)[3] == ()


def test_a_search_under_a_plan_still_has_the_plain_course():
    """A search that follows a plan (deal 3: the probe's tie) can still change
    course to the plain weights with no plan, once, after the plan's own
    courses; one that follows none has no such course twice."""
    root = State.from_game(new_game("stjernen", deal=3))
    got = restart_module.courses(root, (1, 2))
    assert got[:2] == [(0, (1, 2)), (6, (1, 2))]
    assert got.count((0, ())) == 1
    assert restart_module.courses(root, ()).count((0, ())) == 1


SHORT = [(51, 30, 1, (0, 1, 2))] + ([(194, 26, 3, (1, 3))] if FULL else [])
"""(deal, the first beam's count, how many cards short of it the plan's probe
stops, the plan). Deal 194, at the margin's edge, takes about 30 CPU-s in pure
Python: it runs under ``TERMSOLITAIRE_FULL``; deal 51 has the edge at a margin
of 1."""


def test_the_probe_follows_a_plan_a_few_cards_short_of_the_first_beam(monkeypatch):
    """Deals 51 and 194: the probe's beam under the plan stops one and three
    cards short of the first beam (29 against 30, 23 against 26); the plan is
    followed (restart.PROBE_MARGIN, stjernen28: 51 and 194 are won at 10 s
    under it, not without), while the best count and line stay the first
    beam's, which the rules core plays to that count. With PROBE_MARGIN one
    card less than that (0 for deal 51) the plan is not followed, as before."""
    for deal, first_count, short, plan in SHORT:
        game = new_game("stjernen", deal=deal)
        root = State.from_game(game)
        first, line, _ = beam(root, FIRST_BEAM, math.inf)
        assert first == first_count
        best, new, seen, hold = probe(root, first, line, math.inf, time.monotonic, Pace(), None)
        assert (best, new, hold) == (first, line, plan) and seen > 0
        g = game.copy()
        for m in new:
            g.play(to_move(m))
        assert g.score == best
        monkeypatch.setattr(restart_module, "PROBE_MARGIN", short - 1)
        assert probe(root, first, line, math.inf, time.monotonic, Pace(), None)[3] == ()
        monkeypatch.undo()


def test_with_a_helper_the_probe_follows_a_single_suit_plan_that_gets_further(monkeypatch):
    """Deal 163 on two processes: the first beam and the probe under the plan of
    spades and diamonds both stop at 9 cards; the spades plan alone, one of the
    single-suit plans the helper and this process then probe side by side
    (restart.SINGLE_PROBES, stjernen29), gets much further at the same fixed
    width and is followed with its line, which the rules core plays to the
    count claimed. The helper still shares a beam's layers after. One process
    (no helper) and SINGLE_PROBES off judge ``plans(root)[0]`` alone, as
    before."""
    game = new_game("stjernen", deal=163)
    root = State.from_game(game)
    assert plans(root) == [(0, 2), (0,), (2,)]
    with Helper(cpu=True) as helper:
        first, line, _ = beam(root, FIRST_BEAM, math.inf, time.process_time, Pace(), helper)
        best, new, seen, hold = probe(
            root, first, line, math.inf, time.process_time, Pace(), helper
        )
        assert hold == (0,) and best > first and seen > 0
        g = game.copy()
        for m in new:
            g.play(to_move(m))
        assert g.score == best
        assert helper.alive
        again = beam(root, FIRST_BEAM, math.inf, time.process_time, Pace(), helper)
        assert helper.alive and again[0] == first  # the channel is in step
        alone = probe(root, first, line, math.inf, time.process_time, Pace(), None)
        assert alone[3] == (0, 2) and alone[0] == first
        monkeypatch.setattr(restart_module, "SINGLE_PROBES", False)
        assert probe(root, first, line, math.inf, time.process_time, Pace(), helper)[3] == (0, 2)


def test_a_single_suit_plan_four_cards_ahead_is_not_followed(monkeypatch):
    """Deal 113 on two processes: the spades plan alone gets 4 cards further than
    the first beam at width 10 (54 against 50; the plan of three suits far
    short), not the 5 of restart.SINGLE_LEAD (stjernen29: 113, won by main in
    every run, was lost in every run under it at 4); no plan is followed, as
    on one process. With SINGLE_LEAD 4 it would be."""
    root = State.from_game(new_game("stjernen", deal=113))
    assert plans(root)[:2] == [(0, 2, 3), (0,)]
    with Helper(cpu=True) as helper:
        first, line, _ = beam(root, FIRST_BEAM, math.inf, time.process_time, Pace(), helper)
        got = probe(root, first, line, math.inf, time.process_time, Pace(), helper)
        assert got[:2] == (first, line) and got[3] == ()
        monkeypatch.setattr(restart_module, "SINGLE_LEAD", 4)
        best, _, _, hold = probe(root, first, line, math.inf, time.process_time, Pace(), helper)
        assert hold == (0,) and best > first


@OFF_SWITCH
def test_with_a_helper_the_search_follows_other_weights_that_get_much_further(monkeypatch):
    """Deal 28 on two processes: the first beam, the probe under the plan of
    spades, diamonds and clubs, and every single-suit plan stop at 34 cards
    (the plain weights stop there at every width up to 8000, stjernen23); of
    the other weights probed at the same fixed width under that plan
    (restart.COURSE_PROBES, half of them in the helper), ``horizon=250`` wins,
    and its line, which the rules core plays to a win, is the answer. The
    helper still shares a beam's layers after. One process (no helper) and
    COURSE_PROBES empty (as now, lead36) follow the plain weights, as before."""
    monkeypatch.setattr(restart_module, "COURSE_PROBES", (1, 2, 4, 6, 3, 7))
    game = new_game("stjernen", deal=28)
    root = State.from_game(game)
    with Helper(cpu=True) as helper:
        first, line, _ = beam(root, FIRST_BEAM, math.inf, time.process_time, Pace(), helper)
        best, line, _, hold = probe(root, first, line, math.inf, time.process_time, Pace(), helper)
        assert (first, best, hold) == (34, 34, (0, 2, 3))
        got = probe_courses(root, best, line, hold, math.inf, time.process_time, helper)
        assert got[0] == WON and PORTFOLIO[got[3]].weights.horizon == 250
        g = game.copy()
        for m in got[1]:
            g.play(to_move(m))
        assert g.is_won
        again = beam(root, FIRST_BEAM, math.inf, time.process_time, Pace(), helper)
        assert helper.alive and again[0] == first  # the channel is in step
        assert probe_courses(root, best, line, hold, math.inf, time.process_time, None) == (
            best,
            line,
            0,
            0,
        )
        monkeypatch.setattr(restart_module, "COURSE_PROBES", ())
        assert probe_courses(root, best, line, hold, math.inf, time.process_time, helper)[3] == 0


def test_a_search_that_follows_other_weights_keeps_the_plain_course():
    """Weights a course probe chose (``horizon=250``, under the plan (1, 2) on
    deal 3) are the courses' first, the plain weights under the same plan the
    next (after a stall), and no course comes twice."""
    root = State.from_game(new_game("stjernen", deal=3))
    got = restart_module.courses(root, (1, 2), 1)
    assert got[:3] == [(1, (1, 2)), (0, (1, 2)), (6, (1, 2))]
    assert len(set(got)) == len(got)
    assert restart_module.courses(root, (1, 2))[0] == (0, (1, 2))


@OFF_SWITCH
def test_other_weights_four_cards_ahead_are_not_followed(monkeypatch):
    """Deal 104 on two processes: no king plan is followed, and of the other
    weights probed at width 10 ``horizon=250`` gets furthest, 4 cards further
    than the first beam (23 against 19), not the 20 of restart.COURSE_LEAD: the
    plain weights stay, with the first beam's line. With COURSE_LEAD 4 they
    would not."""
    monkeypatch.setattr(restart_module, "COURSE_PROBES", (1, 2, 4, 6, 3, 7))
    root = State.from_game(new_game("stjernen", deal=104))
    with Helper(cpu=True) as helper:
        first, line, _ = beam(root, FIRST_BEAM, math.inf, time.process_time, Pace(), helper)
        best, line, _, hold = probe(root, first, line, math.inf, time.process_time, Pace(), helper)
        assert (first, best, hold) == (19, 19, ())
        got = probe_courses(root, best, line, hold, math.inf, time.process_time, helper)
        assert got[:2] == (best, line) and got[3] == 0 and got[2] > 0
        monkeypatch.setattr(restart_module, "COURSE_LEAD", 4)
        best, _, _, weights = probe_courses(
            root, best, line, hold, math.inf, time.process_time, helper
        )
        assert best == 23 and PORTFOLIO[weights].weights.horizon == 250


class _NoProbes:
    """A helper that must not be asked for a probe."""

    def probe(self, *args: object) -> bool:
        raise AssertionError("a course probed")


def test_no_course_is_probed_from_restart_course_below_cards(monkeypatch):
    """restart.COURSE_BELOW (stj31, a switch, off): with 52, the course probes
    run only where the first beam and the king-plan probe got fewer than 52
    cards home (deal 55, where they reach 81 and ``horizon=250`` would win at
    width 10, is left to the plain weights); off (``WON``), wherever those
    did not win. No beam runs: the helper fails the test if asked."""
    monkeypatch.setattr(restart_module, "COURSE_PROBES", (1, 2))
    root = State.from_game(new_game("stjernen", deal=55))
    helper = _NoProbes()
    line = [1, 2, 3]
    clock = time.process_time
    monkeypatch.setattr(restart_module, "COURSE_BELOW", 52)
    assert probe_courses(root, 52, line, (), math.inf, clock, helper) == (52, line, 0, 0)
    with pytest.raises(AssertionError, match="a course probed"):
        probe_courses(root, 51, line, (), math.inf, clock, helper)
    monkeypatch.setattr(restart_module, "COURSE_BELOW", WON)
    with pytest.raises(AssertionError, match="a course probed"):
        probe_courses(root, 81, line, (), math.inf, clock, helper)
