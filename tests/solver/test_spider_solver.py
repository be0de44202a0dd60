"""The Spider solver: wins replayed through the rules, losses only when proved.

Budgets are generous (the machine is shared) but the deals here are solved in
about a second; bench/spider_solver.py measures the real rates and times.
"""

from __future__ import annotations

from collections import deque

import pytest

from termsolitaire.rules import Game, from_text, new_game
from termsolitaire.solver import Budget, solve, verify
from termsolitaire.solver.spider.search import prove
from termsolitaire.solver.spider.state import SpiderState, from_move

BUDGET = Budget(seconds=60)

LOST = """\
game: spider
variant: suits=2
score: 0
moves: 0
t1: as KS
t2: ah KH
t3: 2h JS
t4: 3h JH
t5: 6s 9S
t6: th 6h 9H
t7: 8s 7S
t8: qs 8h 5H
t9: ts 5S
t10: qh 7h 4s 3s 2S 4H
stock: -
done: S S S H H H
"""
"""Made lost on purpose: no pile can be emptied and no king can move; the 4♥
goes back and forth between the two fives, and that is all."""


def _exhaustive(game: Game) -> str:
    """Won or lost by breadth-first search through the rules core alone, a check
    independent of the solver (for positions with few reachable positions)."""
    seen = {game._key()}
    queue = deque([game])
    while queue:
        g = queue.popleft()
        for m in g.legal_moves():
            h = g.copy()
            h.play(m)
            if h.is_won:
                return "won"
            if h._key() not in seen:
                seen.add(h._key())
                assert len(seen) < 10_000, "too many positions for this check"
                queue.append(h)
    return "lost"


@pytest.mark.parametrize(("suits", "deal"), [(1, 1), (1, 2), (2, 5), (2, 10)])
def test_deals_are_solved_and_the_line_replays_to_a_win(suits: int, deal: int) -> None:
    game = new_game("spider", deal=deal, suits=suits)
    result = solve(game, BUDGET)
    assert result.verdict == "won", result
    assert verify(game, result.moves)
    assert "with the cards known" in result.notes[0]
    g = game.copy()
    for m in result.moves:
        g.play(m)
    assert g.is_won and g.runs == 8
    assert result.best == 104


def test_a_position_made_lost_is_proved_lost() -> None:
    game = from_text(LOST)
    assert _exhaustive(game) == "lost"
    result = solve(game, BUDGET)
    assert result.verdict == "lost"
    assert "even with the cards known" in result.notes[0]


def test_a_position_with_no_move_at_all_is_lost() -> None:
    game = from_text(LOST.replace("t10: qh 7h 4s 3s 2S 4H", "t10: qh 7h 4s 3s 4h 2S"))
    assert game.legal_moves() == []
    assert solve(game, BUDGET).verdict == "lost"


def test_never_lost_along_a_winning_line() -> None:
    """From positions on a line known to win, the solver never says lost, and
    the exhaustive search finds the win once few cards are left."""
    game = new_game("spider", deal=3, suits=2)
    line = solve(game, BUDGET).moves
    assert line
    g = game.copy()
    proved = 0
    for i, m in enumerate(line):
        g.play(m)
        if i % 40 == 0:
            assert solve(g, Budget(seconds=1)).verdict != "lost"
        left = 104 - len(g.pile("done"))
        if not g.pile("stock") and left <= 26 and not g.is_won and proved < 6:
            outcome, proof_line, _ = prove(SpiderState.from_game(g), float("inf"), 10**6)
            assert outcome == "won", g.to_text()
            assert verify(g, [_move(x) for x in proof_line])
            proved += 1
    assert proved


SIX_EMPTY = """\
game: spider
variant: suits=2
deal: 3
score: 648
moves: 152
t1: -
t2: 8h KS
t3: -
t4: KH QH JH TH 9H
t5: 7H 6H 5H 4H 3H 2H AH
t6: -
t7: QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
t8: -
t9: -
t10: -
stock: -
done: H S S H H S
"""


def test_the_prover_meets_a_short_win_among_many_empty_piles() -> None:
    """Six empty piles make splitting runs among them a large search: trying
    turns and same-suit joins first, the exhaustive prover meets the win in a
    few positions (it ran out of 10^6 positions when it tried the others first)."""
    game = from_text(SIX_EMPTY)
    outcome, line, seen = prove(SpiderState.from_game(game), float("inf"), 1000)
    assert outcome == "won"
    assert verify(game, [_move(x) for x in line])
    assert seen < 1000


def _move(m: tuple[int, int, int]):
    from termsolitaire.solver.spider.state import to_move

    move = to_move(m)
    assert from_move(move) == m
    return move


def test_solve_refuses_another_game() -> None:
    from termsolitaire.solver.spider import solve as spider_solve

    with pytest.raises(TypeError):
        spider_solve(new_game("napoleon", deal=1), BUDGET)
