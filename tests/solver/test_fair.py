"""Fair hints (issue 35): the help that sees only what the player sees.

The fairness test: permuting Spider's face-down cards and stock, or Stjernen's
stock, leaves the fair answer (verdict and plan) unchanged; a search that reads
the hidden cards is caught by the same check. Following the fair hints wins a
1-suit Spider deal and a Stjernen deal.
"""

from __future__ import annotations

import random

import pytest

from termsolitaire.rules import Move, from_text, new_game
from termsolitaire.solver import Budget
from termsolitaire.solver.fair import (
    _stjernen_line,
    fair_search,
    follow,
    guess,
    hidden_cards,
    masked,
)

from ..conftest import FULL
from .test_opponent import _midgame, _permuted

BUDGET = Budget(4.0, cpu=True)


def _stjernen_midgame(deal: int, moves: int) -> str:
    """Stjernen ``deal`` after the first ``moves`` moves of the solver's line (its
    first beam, which sees the stock: a way to reach a position, no hint), or
    all but ``-moves`` of them; the deal line gone."""
    game = new_game("stjernen", deal=deal)
    _, _, line = _stjernen_line(game, BUDGET)
    for m in line[:moves]:
        game.play(m)
    return "".join(ln for ln in game.to_text().splitlines(True) if not ln.startswith("deal:"))


SPIDER = [(1, 3, 0), (2, 11, 25), (4, 5, 0), (4, 8, 40), (1, 17, 60), (2, 23, 60)]


@pytest.mark.parametrize(("suits", "deal", "played"), SPIDER if FULL else SPIDER[:4])
def test_permuting_spiders_hidden_cards_leaves_the_fair_hint_unchanged(
    suits: int, deal: int, played: int
) -> None:
    text = _midgame(deal, suits, played)
    game = from_text(text)
    assert hidden_cards(game)
    mine = fair_search(game, BUDGET)
    assert mine.moves  # something to compare
    for seed in range(2):
        other = from_text(_permuted(text, seed))
        assert other.to_text() != game.to_text()
        assert fair_search(other, BUDGET) == mine, f"permutation {seed}"


def test_permuting_stjernens_stock_leaves_the_fair_hint_unchanged() -> None:
    text = _stjernen_midgame(4, 100)
    game = from_text(text)
    assert game.pile("stock")
    mine = fair_search(game, BUDGET)
    assert mine.moves
    other = from_text(_permuted(text, 1))
    assert other.pile("stock") != game.pile("stock")
    assert fair_search(other, BUDGET) == mine


STUCK = (
    "deal u4-o2 u2-o2 deal deal u1-f1 u1-f1 deal u4-f2 u3-o2 deal u4-c o1-c deal deal u5-f2"
    " deal u1-o3 u5-c o4-o1 i4-o4 o4-f3 i4-o4 o4-f2 u6-f3 deal u2-f4 deal collect deal o1-o4"
    " i1-o1 u3-c deal deal deal u5-c deal u5-f2 u3-c deal deal deal deal u1-f4 o1-f4"
)
"""A player's first 46 moves of Stjernen deal 151030496 (round 2, 11 cards home,
3 in the stock): on none of the fair search's guesses of the stock does a line
get another card home."""


def test_where_no_line_gains_on_any_guess_the_fair_hint_deals_on() -> None:
    """A position where no line gets another card home on any guess said "Cannot
    tell from the cards you can see" at every H, with no move, round after round.
    Nothing gains by the cards the player sees: the fair hint deals on, as
    Spider's does, and the same whatever the stock's order."""
    game = new_game("stjernen", deal=151030496)
    for m in STUCK.split():
        game.play(m)
    assert all(not _stjernen_line(guess(game, random.Random(s)), BUDGET)[2] for s in range(3))
    found = fair_search(game, BUDGET)
    assert (found.verdict, found.moves) == ("none", (Move.parse("deal"),))
    text = "".join(ln for ln in game.to_text().splitlines(True) if not ln.startswith("deal:"))
    assert fair_search(from_text(_permuted(text, 1)), BUDGET) == found


def test_the_check_catches_a_search_that_reads_the_stock() -> None:
    """The same check fails for the solver's own search, which reads the stock's
    order: its lines on the real and on a permuted stock differ."""
    text = _stjernen_midgame(4, 100)
    real = _stjernen_line(from_text(text), BUDGET)
    other = _stjernen_line(from_text(_permuted(text, 1)), BUDGET)
    assert real != other


def test_the_view_a_guess_starts_from_holds_no_hidden_card() -> None:
    """``masked`` writes every face-down card as ``??`` and drops the deal number;
    a guess keeps every card in view and deals the hidden ones anew."""
    game = new_game("spider", deal=3, suits=2)
    seen = masked(game)
    assert "deal:" not in seen
    assert seen.count("??") == hidden_cards(game) == 44 + 50  # face down, stock
    g = guess(game, random.Random(1))
    assert masked(g) == seen
    assert g.to_text() != game.to_text()


def test_with_nothing_hidden_the_verdict_is_the_solvers() -> None:
    """Penguin shows every card: the fair search is the solver's, "won"."""
    game = new_game("penguin", deal=5)
    found = fair_search(game, Budget(10.0))
    assert found.verdict == "won"
    g = game.copy()
    for m in found.moves:
        g.play(m)
    assert g.is_won


@pytest.mark.parametrize(("deal", "start"), [(2, 0)] if FULL else [(2, 100)])
def test_following_fair_hints_wins_a_one_suit_spider_deal(deal: int, start: int) -> None:
    """1-suit deal 2: a player who plays every fair hint wins it (by default from
    the good level's position after 100 actions, the whole deal with
    TERMSOLITAIRE_FULL=1)."""
    game = from_text(_midgame(deal, 1, start))
    follow(game, BUDGET)
    assert game.is_won


@pytest.mark.parametrize("back", [None] if FULL else [160])
def test_following_fair_hints_wins_a_stjernen_deal(back: int | None) -> None:
    """Stjernen deal 2: a player who plays every fair hint wins it from its start
    (237 moves, about 25 s of CPU: TERMSOLITAIRE_FULL=1); by default from round
    2, 160 moves before the end of the solver's line, with cards still in the
    stock whose order has not been seen."""
    if back is None:
        game = new_game("stjernen", deal=2)
    else:
        game = from_text(_stjernen_midgame(2, -back))
        assert game.pile("stock") and game.round == 2
    follow(game, BUDGET)
    assert game.is_won


def test_a_fair_plan_stops_at_the_first_card_it_turns() -> None:
    game = new_game("spider", deal=3, suits=4)
    plan = fair_search(game, BUDGET).moves
    reveals = [i for i, m in enumerate(plan) if m.kind in ("turn", "deal")]
    assert reveals in ([], [len(plan) - 1])
    for m in plan:
        game.play(Move.parse(str(m)))


async def test_the_worker_answers_a_fair_request_in_its_own_process() -> None:
    """The board asks the worker process (the screen never waits): the answer
    is the one fair_search gives here."""
    from termsolitaire.solver.worker import SolverWorker

    game = new_game("spider", deal=3, suits=2)
    async with SolverWorker() as worker:
        found = await worker.fair(game, BUDGET)
    assert found == fair_search(game, BUDGET)
    assert found.verdict == "good" and found.moves
