"""The Spider solver's finders: their pruning never turns a win into a loss.

The finders (:class:`BestFirst` with each weight set of ``PORTFOLIO``) leave
moves out, the 4-suit ones more than the others (``lateral``: a run moved from
one card of the right rank to another of another suit). They never say
``lost``: when one runs out of positions, the exhaustive prover decides. These
tests check that on small positions the exhaustive prover decides, and that
taking turns (:meth:`BestFirst.advance`) changes no answer.
"""

from __future__ import annotations

import random

import pytest

from termsolitaire.rules import Game, from_text, new_game
from termsolitaire.solver import Budget, solve, verify
from termsolitaire.solver.spider import PORTFOLIO
from termsolitaire.solver.spider.search import BestFirst, Weights, prove, search_moves
from termsolitaire.solver.spider.state import SpiderState, to_move

from .test_spider_solver import LOST

RANKS = "A23456789TJQK"


def small(seed: int) -> Game:
    """A 4-suit position with seven runs completed and the last 13 cards
    dealt at random over the ten piles, most of them face down."""
    rng = random.Random(seed)
    suit = rng.choice("SHDC")
    cards = [r + suit for r in RANKS]
    rng.shuffle(cards)
    piles: list[list[str]] = [[] for _ in range(10)]
    for i, c in enumerate(cards):
        piles[i if i < 10 else rng.randrange(10)].append(c)
    lines = []
    for i, p in enumerate(piles):
        down = len(p) - 1 if rng.random() < 0.7 else rng.randrange(len(p) + 1)
        lines.append(f"t{i + 1}: " + " ".join([c.lower() for c in p[:down]] + p[down:]))
    done = [s for s in "SHDC" for _ in range(2)]
    done.remove(suit)
    head = "game: spider\nvariant: suits=4\nscore: 0\nmoves: 0\n"
    return from_text(head + "\n".join(lines) + "\nstock: -\ndone: " + " ".join(done) + "\n")


def _reference(game: Game) -> str | None:
    """Won or lost by the exhaustive prover (every legal move), or None if it
    does not finish within 50,000 positions."""
    outcome, _, _ = prove(SpiderState.from_game(game), float("inf"), 50_000)
    return outcome if outcome in ("won", "lost") else None


def _finder(game: Game, weights: Weights) -> tuple[str, list[tuple[int, int, int]]]:
    return BestFirst(SpiderState.from_game(game), float("inf"), 10**6, weights=weights).run()


@pytest.mark.parametrize("seed", range(8))
def test_the_finders_win_what_the_prover_wins(seed: int) -> None:
    game = small(seed)
    reference = _reference(game)
    assert reference == "won", game.to_text()
    for weights in PORTFOLIO:
        outcome, line = _finder(game, weights)
        assert outcome in ("won", "exhausted"), (weights, game.to_text())
        if outcome == "won":
            assert verify(game, [to_move(m) for m in line])
    assert solve(game, Budget(seconds=60)).verdict == "won"


def test_a_lost_position_stays_lost_with_every_finder() -> None:
    game = from_text(LOST)
    for weights in PORTFOLIO:
        assert _finder(game, weights)[0] == "exhausted"
    assert solve(game, Budget(seconds=60)).verdict == "lost"


def test_without_lateral_moves_only_moves_are_left_out() -> None:
    """``lateral=False`` only removes moves from :func:`search_moves`, and only
    transfers of a whole run onto a card of another suit or a bare pile."""
    for deal in (1, 2, 3):
        game = new_game("spider", deal=deal, suits=4)
        state = SpiderState.from_game(game)
        for m in state.legal()[:6]:
            state.make(m)
            every, fewer = search_moves(state), search_moves(state, lateral=False)
            assert set(fewer) <= set(every)
            for src, dst, count in set(every) - set(fewer):
                assert dst >= 0 and count == state.info[src].run
                assert state.info[dst].top >> 4 != state.info[src].top >> 4


def test_taking_turns_changes_no_line() -> None:
    """A finder stopped and resumed every 500 positions finds the line it finds
    in one go: the answer does not depend on how the turns fall."""
    game = new_game("spider", deal=5, suits=4)
    weights = PORTFOLIO[-1]
    whole = BestFirst(SpiderState.from_game(game), float("inf"), 10**6, weights=weights)
    outcome, line = whole.run()
    assert outcome == "won"
    turns = BestFirst(SpiderState.from_game(game), float("inf"), 10**6, weights=weights)
    step = None
    while step is None:
        step = turns.advance(turns.positions + 500)
    assert step == "won" and turns.line == line
