"""The Spider solver's restarts and its prover's exact keys (issue 34).

Restarts (``solve`` with 2 and 4 suits) run finders one after another, each
cut off after ``BASE * luby(n)`` positions, the later ones ordering positions
the evaluation rates alike at random (``Weights.noise``, seeded from the
position). They never say ``lost``: only the exhaustive prover does, and it
now skips positions by the positions themselves (``SpiderState.exact``), not
by a 64-bit hash that a collision could make lie. These tests check, on
small positions the exhaustive searches finish, that the fast answer agrees
with them, and that the same position always gets the same answer. (No
new pruning came with them: the finders try the moves they tried before,
in another order.)

``TERMSOLITAIRE_FULL=1`` tries many more small positions.
"""

from __future__ import annotations

import os

import pytest

from termsolitaire.rules import from_text
from termsolitaire.solver import Budget, solve, verify
from termsolitaire.solver.spider import BASE, NOISE, PORTFOLIO
from termsolitaire.solver.spider.search import BestFirst, prove
from termsolitaire.solver.spider.state import PILES, SpiderState, to_move

from .test_spider_finders import small

FULL = os.environ.get("TERMSOLITAIRE_FULL") == "1"
SEEDS = range(60) if FULL else range(8)


def test_a_lost_position_is_proved_lost_by_exact_keys() -> None:
    from .test_spider_solver import LOST, _exhaustive

    game = from_text(LOST)
    assert _exhaustive(game) == "lost"
    assert prove(SpiderState.from_game(game), float("inf"), 10**6)[0] == "lost"
    assert solve(game, Budget(seconds=60)).verdict == "lost"


def test_exact_keys_forget_pile_order_only_once_the_stock_is_empty() -> None:
    game = small(3)
    state = SpiderState.from_game(game)
    swapped = state.copy()
    swapped.piles[0], swapped.piles[1] = swapped.piles[1], swapped.piles[0]
    swapped.down[0], swapped.down[1] = swapped.down[1], swapped.down[0]
    same_piles = state.piles[0] == state.piles[1] and state.down[0] == state.down[1]
    assert same_piles or swapped.exact() == state.exact()
    swapped.stock = [1] * 10
    state.stock = [1] * 10
    assert same_piles or swapped.exact() != state.exact()
    turned = state.copy()
    i = next(i for i in range(PILES) if turned.down[i])
    turned.down[i] -= 1
    assert turned.exact() != state.exact()


@pytest.mark.parametrize("seed", SEEDS)
def test_noisy_finders_win_what_the_prover_wins(seed: int) -> None:
    """Noise changes the order in which a finder tries positions, not which
    ones it may reach: on a small position a noisy finder wins exactly when
    the plain one does (both run out of positions otherwise, and then the
    prover decides), and ``solve`` answers what the exhaustive prover says."""
    game = small(seed)
    reference = prove(SpiderState.from_game(game), float("inf"), 50_000)[0]
    for n, weights in enumerate(PORTFOLIO):
        plain = BestFirst(SpiderState.from_game(game), float("inf"), 10**6, weights=weights).run()
        for other in (weights._replace(noise=NOISE), weights._replace(noise=2 * NOISE)):
            noisy = BestFirst(
                SpiderState.from_game(game), float("inf"), 10**6, weights=other, seed=seed * 10 + n
            ).run()
            assert plain[0] in ("won", "exhausted")
            assert noisy[0] == plain[0], (other, game.to_text())
            if noisy[0] == "won":
                assert verify(game, [to_move(m) for m in noisy[1]])
    if reference in ("won", "lost"):
        assert solve(game, Budget(seconds=60)).verdict == reference, game.to_text()


def test_the_same_position_gets_the_same_answer() -> None:
    """Restarts are seeded from the position and cut off by positions, not
    time: two solves of one deal give the same line."""
    from termsolitaire.rules import new_game

    game = new_game("spider", deal=8, suits=4)
    first = solve(game, Budget(seconds=120, cpu=True))
    second = solve(game, Budget(seconds=120, cpu=True))
    assert first.verdict == "won"
    assert first.positions > 2 * BASE  # won by a noisy restart
    assert first.moves == second.moves
