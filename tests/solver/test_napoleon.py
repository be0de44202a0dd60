"""Napoleon's solver: its compact state agrees with the rules core, and its answers hold."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import from_text, new_game
from termsolitaire.solver import Budget, solve
from termsolitaire.solver import napoleon as N
from termsolitaire.solver.napoleon import NapoleonState, relaxed_lost

from .helpers import autoplay_matches, check_same, side_by_side

PROPS = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))


@PROPS
@given(st.data())
def test_state_agrees_with_the_rules_core_over_random_play(data):
    side_by_side(data, "napoleon", N, NapoleonState, steps=60)


@PROPS
@given(st.data())
def test_where_each_card_lies_is_kept_exactly(data):
    """``loc``, ``idx`` and the count of unsettled cards follow every move and undo."""
    g = new_game("napoleon", data.draw(st.integers(0, 2**32)))
    state = NapoleonState.from_game(g)
    for _ in range(40):
        moves = state.legal_moves()
        if not moves:
            break
        m = data.draw(st.sampled_from(moves))
        state.apply(m)
        fresh = NapoleonState(list(state.piles), list(state.found))
        assert state.loc == fresh.loc and state.unsettled == fresh.unsettled
        assert all(state.idx[c] == fresh.idx[c] for c in range(52) if fresh.loc[c] >= 0)


@PROPS
@given(st.data())
def test_play_adds_only_legal_safe_moves_and_unplay_undoes_them(data):
    g = new_game("napoleon", data.draw(st.integers(0, 2**32)))
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(rng.randrange(30)):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    state = NapoleonState.from_game(g)
    check_same(g, state, N)
    autoplay_matches(g, state, N)


@pytest.mark.parametrize("deal", [1, 6, 13, 20])
def test_sample_deals_are_solved_and_the_line_wins_in_the_rules_core(deal):
    game = new_game("napoleon", deal)
    result = solve(game, Budget(seconds=20))
    assert result.verdict == "won"
    g = game.copy()
    for m in result.moves:
        g.play(m)
    assert g.is_won and result.best == 52


LOST = """\
game: napoleon
p1: 3S 5S
p2: 4S
p3: 6S
p4: 7S
p5: 8S
p6: 9S
p7: TS
p8: JS
p9: QS
p10: KS
p11: -
p12: -
p13: -
p14: -
p15: -
p16: -
f1: AS 2S
f2: AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH
f3: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
f4: AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC
"""


def test_a_position_lost_on_purpose_is_proved_lost():
    """5♠ lies on 3♠ and has nowhere to go but home, after 4♠ and so after 3♠."""
    game = from_text(LOST)
    assert not game.is_stuck  # there are moves (kings to empty piles ...)
    assert solve(game, Budget(seconds=10)).verdict == "lost"


@pytest.mark.parametrize("deal", [3, 8])
def test_never_lost_from_partway_along_a_winning_line(deal):
    game = new_game("napoleon", deal)
    line = solve(game, Budget(seconds=20)).moves
    for k in (len(line) // 4, len(line) // 2, 3 * len(line) // 4):
        g = game.copy()
        for m in line[:k]:
            g.play(m)
        state = NapoleonState.from_game(g)
        assert not relaxed_lost(state.piles, state.found, state.loc, state.idx)
        assert solve(g, Budget(seconds=20)).verdict == "won"
