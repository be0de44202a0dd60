"""Spider's late restarts that turn at once (issue 34).

A finder with ``Weights.turn`` follows a move that leaves a pile with only
face-down cards by that pile's turn, in the same step. ``solve`` runs such
finders only after ``LATE`` positions of plain restarts, and then one of
each in turn, the plain ones in the same order as without them. These tests
check that the turns are played (and replay through the rules), that the
answers still agree with the exhaustive prover, and that the plain
restarts' order is untouched.
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

import pytest

import termsolitaire.solver.spider as spider
from termsolitaire.rules import from_text, new_game
from termsolitaire.solver import Budget, solve, verify
from termsolitaire.solver.spider import PORTFOLIO
from termsolitaire.solver.spider.search import BestFirst, Weights, prove
from termsolitaire.solver.spider.state import PILES, TURN, SpiderState, to_move

from .test_spider_finders import small
from .test_spider_solver import LOST


def _bare_piles(state: SpiderState) -> list[int]:
    return [i for i in range(PILES) if state.down[i] and not state.info[i].run]


def _check_turned_at_once(game: Any, line: list[tuple[int, int, int]]) -> None:
    """Along ``line``, a pile a move leaves with only face-down cards is turned next."""
    state = SpiderState.from_game(game)
    pending: set[int] = set()
    for m in line:
        if pending:
            assert m[1] == TURN and m[0] in pending, (m, pending)
            pending.remove(m[0])
            state.make(m)
            continue
        before = set(_bare_piles(state))
        state.make(m)
        if m[1] != TURN:
            pending = set(_bare_piles(state)) - before
    assert not pending


@pytest.mark.parametrize("seed", range(8))
def test_turning_finders_turn_at_once_and_never_win_a_lost_position(seed: int) -> None:
    game = small(seed)
    reference = prove(SpiderState.from_game(game), float("inf"), 50_000)[0]
    for weights in PORTFOLIO:
        turning: Weights = weights._replace(turn=True)
        outcome, line = BestFirst(
            SpiderState.from_game(game), float("inf"), 10**6, weights=turning
        ).run()
        assert outcome in ("won", "exhausted")
        if outcome == "won":
            assert reference != "lost"
            assert verify(game, [to_move(m) for m in line])
            _check_turned_at_once(game, line)


def test_a_turning_finder_wins_a_deal_turning_at_once() -> None:
    """Deal 150 with 4 suits, 10 000 positions: along the turning finder's
    line (its best line if it does not win), deals included, each bared pile
    is turned right after the move that bared it; a win replays."""
    game = new_game("spider", deal=150, suits=4)
    weights = PORTFOLIO[0]._replace(turn=True)
    finder = BestFirst(SpiderState.from_game(game), float("inf"), 10_000, weights=weights)
    outcome, line = finder.run()
    if outcome == "won":
        assert verify(game, [to_move(m) for m in line])
    else:
        line = finder.best_line
    _check_turned_at_once(game, line)
    turned_at_once = 0
    for m, after in itertools.pairwise(line):
        turned_at_once += m[1] != TURN and after[1] == TURN and after[0] in m[:2]
    assert turned_at_once > 0


@pytest.mark.parametrize("seed", range(8))
def test_solve_with_turning_restarts_agrees_with_the_prover(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(spider, "LATE", 0)  # a turning restart first
    game = small(seed)
    reference = prove(SpiderState.from_game(game), float("inf"), 50_000)[0]
    if reference in ("won", "lost"):
        result = solve(game, Budget(seconds=60))
        assert result.verdict == reference, game.to_text()
        if reference == "won":
            assert verify(game, list(result.moves))


class _Recorder:
    """A stand-in finder that pauses at its allowance, so ``solve`` restarts."""

    calls: ClassVar[list[tuple[Weights, int | None, int]]] = []

    def __init__(
        self, state: Any, deadline: float, allowance: int, clock: Any, weights: Weights, rng: Any
    ) -> None:
        self.calls.append((weights, rng, allowance))
        self.positions = allowance
        self.best_line: list[tuple[int, int, int]] = []
        self.line: list[tuple[int, int, int]] = []

    def advance(self, until: int) -> str | None:
        return "won" if len(self.calls) >= 40 else None

    def release(self) -> None:
        pass


def _restarts(monkeypatch: pytest.MonkeyPatch, late: int) -> list[tuple[Weights, int | None, int]]:
    monkeypatch.setattr(spider, "BestFirst", _Recorder)
    monkeypatch.setattr(spider, "LATE", late)
    _Recorder.calls = []
    spider.solve(new_game("spider", deal=1, suits=4), Budget(seconds=60))
    return _Recorder.calls


def test_the_plain_restarts_keep_their_order(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _restarts(monkeypatch, 10**12)
    mixed = _restarts(monkeypatch, 100_000)
    assert not any(w.turn for w, _, _ in plain)
    kept = [c for c in mixed if not c[0].turn]
    assert kept == plain[: len(kept)]
    late = [c for c in mixed if c[0].turn]
    assert [(w._replace(turn=False), r, a) for w, r, a in late] == plain[: len(late)]
    first = mixed.index(late[0])
    assert first == 7  # 10 000 + 10 000 + 20 000 + 10 000 + 10 000 + 20 000 + 40 000 >= 100 000
    assert all(c[0].turn == (i % 2 == 0) for i, c in enumerate(mixed[first:]))


def test_a_lost_position_stays_lost_with_turning_finders() -> None:
    game = from_text(LOST)
    for weights in PORTFOLIO:
        finder = BestFirst(
            SpiderState.from_game(game), float("inf"), 10**6, weights=weights._replace(turn=True)
        )
        assert finder.run()[0] == "exhausted"
