"""Stjernen's stock-keeping relaxed game (solver/stjernen/storage.py): it says
``lost`` only where the exhaustive prover, searching every move, finds no win
either (issue 34, acceptance 2 and 4), and it proves lost a late position of
a real line that the stock-free relaxation (relax.py) cannot.
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import from_text, new_game
from termsolitaire.solver import Budget, solve
from termsolitaire.solver.stjernen.relax import _suit_options, relaxed_lost
from termsolitaire.solver.stjernen.state import State
from termsolitaire.solver.stjernen.storage import StockRelaxation, fits, stock_lost

from .test_stjernen_relax import _exhaustive, _foundations, _text

FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))

# Deal 16 after the first 195 moves of the first beam's line (fixed width 10):
# diamonds and spades wait for their second kings (under 2 and 5 cards of
# inner piles), hearts for a nine (under 2 and 3), with the centre and two
# outer runs taken.
DEAL_16_AFTER_195 = """
game: stjernen
round: 6
c: AH 2H 3H 4H 5H 6H 7H 8H
i1: KH QS 7S 3S 9D
i2: AC
i3: 6D 8S 9H KD 2D JS
i4: TC KS TD 9C 9H 8C 5H
o1: TH JH
o2: -
o3: 2H 3H 4H
o4: -
f1: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
f2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC KC QC
f3: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
f4: KH QH JH TH
u1: 5D 5S 3D 7D 7C AD 7H 4C 8H AH TS 9S AS 6H 6S 5C 4D QD
u2: -
u3: -
u4: -
u5: -
u6: -
stock: 3c 4s jc jd qh 6c 8d 2s 2c
"""

# A position of the property test below (seed 23) that the stock-keeping
# relaxation proves lost in 2,134 relaxed states, the stock-free one not at
# all, and the exhaustive prover in 32,329 positions.
LOST_32329 = """
game: stjernen
round: 6
c: -
i1: AD 7S 7H
i2: 3H 2D 4S
i3: 2H
i4: 5C 2S 8H
o1: -
o2: -
o3: -
o4: -
f1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KS QS JS
f2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH KH QH
f3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D
f4: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC KC QC JC TC 9C 8C
u1: AS JH 3C 6H AC 9S 5S 2C 4H 6C 4C 8S AH 3S TS 7C TH 5H 9H
u2: -
u3: -
u4: -
u5: -
u6: -
stock: 6s
"""


def _late(rng: random.Random, lowest: int) -> str:
    """A late position: each foundation between ``lowest`` and 26 cards, the
    cards not home spread over the inner ring (40-85% of them), a few outer
    positions, the upturned piles and the stock (so that their order
    matters); round 4 to 6."""
    fnd, rest = _foundations(rng, lowest)
    rnd = rng.choice([4, 5, 6])
    in_inner = rng.uniform(0.4, 0.85)
    inner: list[list[str]] = [[] for _ in range(4)]
    outer: list[list[str]] = [[] for _ in range(4)]
    ups: list[list[str]] = [[] for _ in range(7 - rnd)]
    stock: list[str] = []
    for c in rest:
        x = rng.random()
        open_piles = [p for p in inner if len(p) < 10]
        if x < in_inner and open_piles:
            rng.choice(open_piles).append(c)
        elif x < in_inner + 0.03 and not outer[k := rng.randrange(4)]:
            outer[k].append(c)
        elif x < 0.97:
            rng.choice(ups).append(c)
        else:
            stock.append(c)
    ups += [[] for _ in range(6 - len(ups))]
    return _text(rnd, inner, outer, fnd, ups, stock)


def test_a_late_position_of_a_real_line_is_proved_lost():
    """Deal 16 after 195 moves: the stock-free relaxation finds a relaxed win
    (it takes the stock's cards whenever it wants them); keeping the stock's
    order proves the position lost, and the solver answers ``lost``."""
    state = State.from_game(from_text(DEAL_16_AFTER_195))
    assert not relaxed_lost(state)
    assert StockRelaxation(state).lost(200_000) is True
    result = solve(from_text(DEAL_16_AFTER_195), Budget(seconds=60, cpu=True))
    assert result.verdict == "lost"


def test_a_proof_the_stock_free_relaxation_cannot_give_agrees_with_the_search():
    """The cards the hearts and spades need lie deep in the one upturned pile:
    keeping its order proves the position lost, as the exhaustive prover
    (every move searched) does, while freeing it does not."""
    state = State.from_game(from_text(LOST_32329))
    assert not relaxed_lost(state)
    assert stock_lost(state)
    plain = _exhaustive(state, relax=False, seconds=30)
    assert plain.status == "lost" and plain.positions > 10_000


@settings(
    deadline=None,
    max_examples=300 if FULL else 12,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(rng=st.randoms(use_true_random=False), lowest=st.integers(14, 20))
def test_the_stock_relaxation_never_says_lost_where_the_search_finds_a_win(rng, lowest):
    """On late positions where the exhaustive search finishes, the relaxation
    says lost only if the search finds no win."""
    text = _late(rng, lowest)
    state = State.from_game(from_text(text))
    plain = _exhaustive(state, relax=False, seconds=1)
    assume(plain.status is not None)
    verdict = StockRelaxation(state).lost(50_000)
    if verdict:
        assert plain.status == "lost", text
    if plain.status == "won":
        assert verdict is not True, text


def test_a_fresh_deal_is_not_proved_lost():
    """A fresh deal that the solver wins is never called lost (its search
    either finds a relaxed win or gives up)."""
    state = State.from_game(new_game("stjernen", deal=2))
    assert stock_lost(state, 5_000) is False


def test_storage_fits_the_real_layouts_only():
    """Five runs, at most four not from the ace; the cards are exactly those
    in storage (no fillers)."""
    count = [0] * 52
    for c in (0, 1, 2, 13, 14, 26, 39, 40, 12):  # A-3S, A-2H, AD, A-2C, KS
        count[c] += 1
    assert fits(count)
    count[5] += 1  # 6S: a run of its own, the sixth
    assert not fits(count)
    count = [0] * 52
    for c in (3, 5, 7, 9, 11):  # 4S 6S 8S TS QS: five runs not from the ace
        count[c] += 1
    assert not fits(count)
    count[4] += 1  # 5S joins 4S and 6S: four runs
    assert fits(count)


@settings(deadline=None, max_examples=200)
@given(st.lists(st.integers(0, 2), min_size=52, max_size=52))
def test_storage_fits_as_the_relaxed_game_lays_out_runs(count):
    """``fits`` agrees with relax.py's layout of each suit with nothing to fill
    the ranks between."""
    combos = {(0, 0)}
    for s in range(4):
        must = count[s * 13 : s * 13 + 13]
        options = _suit_options(must, must) if any(must) else [(0, 0)]
        combos = {(a + b, n + m) for a, n in combos for b, m in options}
    assert fits(count) == any(a + n <= 5 and n <= 4 for a, n in combos)
