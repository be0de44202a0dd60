"""Stjernen on two processes as a portfolio (solver/stjernen/second.py,
schedule.py; the package's PAIR_PORTFOLIO switch, off by default): the second
process searches the same deal by other paths, its line is the answer when it
gets further and replays through the rules core, and the search goes on
alone when there is no second process."""

from __future__ import annotations

import pytest

from termsolitaire import children
from termsolitaire.rules import new_game
from termsolitaire.solver import Budget
from termsolitaire.solver import stjernen as stjernen_module
from termsolitaire.solver.stjernen import MIN_BEAM, PORTFOLIO, WON, schedule, solve
from termsolitaire.solver.stjernen import restart as restart_module
from termsolitaire.solver.stjernen.second import Second
from termsolitaire.solver.stjernen.state import State, to_move

from .test_stjernen_restart import scheduled_beams

EASY = 2
"""A deal the first beam wins at once."""


def _nothing(root: State, best: int, *args: object, **kwargs: object) -> tuple[int, list[int], int]:
    """A schedule that finds nothing: the search's own beams crippled."""
    return best, [], 0


def _replays(deal: int, moves: tuple[object, ...]) -> tuple[int, bool]:
    game = new_game("stjernen", deal=deal)
    for m in moves:
        game.play(m)  # type: ignore[arg-type]
    return game.score, game.is_won


def test_two_processes_answer_with_the_second_search_when_it_gets_further(monkeypatch):
    """This process's beams find nothing (patched here, not in the second
    process, which imports the solver afresh): the win is the second
    process's, and its line wins through the rules core."""
    monkeypatch.setattr(stjernen_module, "PAIR_PORTFOLIO", True)
    monkeypatch.setattr(schedule, "run", _nothing)
    result = solve(new_game("stjernen", deal=EASY), Budget(seconds=3, cpu=True, jobs=2))
    assert result.verdict == "won" and result.best == WON
    assert _replays(EASY, result.moves) == (WON, True)
    # Sharing layers instead (the pair, PAIR_PORTFOLIO off), the crippled
    # schedule is the only search, and it finds nothing: so the win above
    # came from the second search.
    monkeypatch.setattr(stjernen_module, "PAIR_PORTFOLIO", False)
    alone = solve(new_game("stjernen", deal=EASY), Budget(seconds=0.5, cpu=True, jobs=2))
    assert alone.verdict == "unknown" and alone.best < WON


def test_the_search_goes_on_alone_without_a_second_process(monkeypatch):
    def refuse(*args: object, **kwargs: object) -> children.Child:
        raise OSError("no process for you")

    monkeypatch.setattr(stjernen_module, "PAIR_PORTFOLIO", True)
    monkeypatch.setattr(children.Child, "spawn", refuse)
    second = Second(
        State.from_game(new_game("stjernen", deal=EASY)).snapshot(), 1.0, True, MIN_BEAM
    )
    assert not second.alive and second.receive(1.0) is None
    result = solve(new_game("stjernen", deal=EASY), Budget(seconds=5, cpu=True, jobs=2))
    assert result.verdict == "won"
    assert _replays(EASY, result.moves) == (WON, True)


def test_the_second_schedule_takes_other_paths_than_the_first(monkeypatch):
    """Past the first beam and the probe (the same fixed width in both
    processes, so the same lines), the second process's root beam and
    restarts take the ``horizon=250`` weights and another order among equals
    (jitter, seeds of their own); the first process's are the plain ones."""
    # Every beam here stops at 20, a stall; the course it changes to is
    # tests/solver/test_stjernen_restart.py's.
    monkeypatch.setattr(restart_module, "STALL", 0)
    for order in (schedule.PLAIN, schedule.SECOND):
        first, adaptive, *restarts = scheduled_beams(monkeypatch, 1, order)
        assert first.width == 10 and not first.adaptive
        assert adaptive.adaptive and restarts and all(c.adaptive for c in restarts)
        if order is schedule.PLAIN:
            assert adaptive.weights == PORTFOLIO[0].weights and adaptive.jitter == 0
            assert {c.weights for c in restarts} == {PORTFOLIO[0].weights}
            assert [c.seed for c in restarts] == list(range(1, len(restarts) + 1))
        else:
            assert adaptive.weights == PORTFOLIO[1].weights != PORTFOLIO[0].weights
            assert adaptive.jitter and adaptive.seed == schedule.SECOND.seed
            assert {c.weights for c in restarts} == {PORTFOLIO[1].weights}
            assert [c.seed for c in restarts] == [
                schedule.SECOND.seed + k for k in range(1, len(restarts) + 1)
            ]


@pytest.mark.parametrize("deal", [1, 3])
def test_the_second_process_answers_a_line_that_replays(deal: int):
    """A deal the first beam does not win: the second process's own search,
    asked directly, sends back a line the rules core plays to its count."""
    root = State.from_game(new_game("stjernen", deal=deal))
    second = Second(root.snapshot(), 1.0, True, MIN_BEAM)
    got = second.receive(30.0)  # at most (it answers after its 1 s of CPU)
    assert got is not None and not second.alive
    best, line, positions = got
    assert positions > 0 and best > root.score
    game = new_game("stjernen", deal=deal)
    for m in line:
        game.play(to_move(m))
    assert game.score == best
