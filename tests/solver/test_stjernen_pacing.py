"""The adaptive beam's plan (issue 34, stjernen22): the layers still to come are
counted on a well-defined position of the layer, and a round's pool leaves
out the cards the rounds before it took home."""

from __future__ import annotations

import itertools
import math

import pytest

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import FIRST_BEAM, BeamConfig, Pace, beam, beams, deals_left
from termsolitaire.solver.stjernen.state import DEAL, UP, State


def _position(round_: int, stock: int, upturned: int) -> State:
    st = State()
    st.round = round_
    st.stock = [0] * stock
    st.piles[UP[0]] = [1] * upturned
    return st


def test_the_layers_to_come_leave_out_what_the_rounds_take_home():
    """Round 2 with 20 cards in the stock and 5 upturned, its pool 40 at its
    start: 4 deals in this round; each later round a collect and its deals,
    of a pool that keeps what ``kept`` says of the one before (not more than
    the 25 cards left now), and every card left where nothing is known."""
    st = _position(2, 20, 5)
    # r2: 4; r3: 1 + 25/4 -> 8; r4: 1 + 25/3 -> 10 | r5: 1 + 13; r6: 1 + 25.
    assert deals_left(st, 5) == (22, 40)
    # r3: 20 of 40 -> 1 + 5; r4: 10 -> 1 + 4 | r5, r6 not known: 10 -> 1 + 5, 1 + 10.
    assert deals_left(st, 5, {2: 0.5, 3: 0.5}, 40) == (15, 17)
    # A round cannot leave more than the cards left now: 0.9 x 40 is 36 > 25.
    assert deals_left(st, 5, {2: 0.9}, 40) == deals_left(st, 5)
    # Without the round's pool at its start, this round's share is not used.
    assert deals_left(st, 5, {2: 0.5}) == deals_left(st, 5)


def test_a_beam_measures_what_each_round_leaves_to_the_next():
    """A beam from a fresh deal measures every round it met; from the middle of
    a round (cards upturned), that round is not measured (its pool at its
    start is not known) and the later ones are."""
    root = State.from_game(new_game("stjernen", deal=1))
    pace = Pace()
    beam(root, FIRST_BEAM, math.inf, pace=pace)
    assert set(pace.kept) == {1, 2, 3, 4, 5}
    assert all(0 < share <= 1 for share in pace.kept.values())
    mid = root.copy()
    mid.make(DEAL)
    assert any(mid.piles[u] for u in UP)
    pace = Pace()
    beam(mid, FIRST_BEAM, math.inf, pace=pace)
    assert 1 not in pace.kept and 2 in pace.kept


@pytest.mark.parametrize("deal", [1, 22])
def test_the_adaptive_plan_is_read_on_the_layers_largest_stock(deal, monkeypatch):
    """Each layer of a round deals one row to the positions it keeps, so the
    largest stock of a round's layers falls by a row (or more) from one
    layer to the next: the position the plan is read on does, whatever the
    look-arounds left in the beam's state (whose stock went up and down from
    layer to layer). The clock ticks once a call, so the widths, and the
    test, are the same on any machine."""
    seen: list[tuple[int, int]] = []
    adapt = beams._adapt

    def traced(st: State, *args: object) -> int:
        seen.append((st.round, len(st.stock)))
        return adapt(st, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(beams, "_adapt", traced)
    ticks = iter(range(10**9))

    def clock() -> float:
        return next(ticks) * 1e-3

    cfg = BeamConfig(adaptive=True, late_round=5, late_width=3)
    root = State.from_game(new_game("stjernen", deal=deal))
    beam(root, cfg, 1.5, clock)
    assert len({r for r, _ in seen}) >= 3
    for (r0, s0), (r1, s1) in itertools.pairwise(seen):
        if r0 == r1:
            assert s1 <= s0 - (7 - r0) or s0 < 7 - r0
