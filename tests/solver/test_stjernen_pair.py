"""The Stjernen beam shared with a second process: the line still replays, and
the search goes on alone when the helper fails."""

from __future__ import annotations

import dataclasses
import os
import signal

from termsolitaire.children import Frames
from termsolitaire.rules import new_game
from termsolitaire.solver import Budget
from termsolitaire.solver.stjernen import PORTFOLIO, BeamConfig, beam, solve
from termsolitaire.solver.stjernen.evaluation import Weights
from termsolitaire.solver.stjernen.pair import Helper
from termsolitaire.solver.stjernen.state import State, to_move

CFG = dataclasses.replace(PORTFOLIO[0], width=6, look=10)


def _replays(deal: int, line: list[int]) -> int:
    game = new_game("stjernen", deal)
    for m in line:
        game.play(to_move(m))
    return game.score


class Counting(Helper):
    def __init__(self) -> None:
        super().__init__()
        self.answers = 0

    def receive(self, seconds):  # type: ignore[no-untyped-def]
        got = super().receive(seconds)
        self.answers += got is not None
        return got


def test_a_beam_shared_with_a_helper_finds_a_line_that_replays():
    root = State.from_game(new_game("stjernen", 5))
    alone = beam(root, CFG, float("inf"))
    with Counting() as helper:
        score, line, positions = beam(root, CFG, float("inf"), helper=helper)
        assert helper.alive and helper.answers > 10  # it took half of every layer
    assert _replays(5, line) == score
    assert score >= alone[0] - 10 and positions > 0  # about as far as the beam alone


def test_the_beam_goes_on_alone_when_the_helper_dies():
    root = State.from_game(new_game("stjernen", 5))
    helper = Counting()
    assert helper.child is not None
    os.kill(helper.child.pid, signal.SIGKILL)
    helper.child.proc.wait()
    score, line, _ = beam(root, CFG, float("inf"), helper=helper)
    assert not helper.alive and helper.answers == 0
    assert _replays(5, line) == score == beam(root, CFG, float("inf"))[0]


def test_the_helper_ends_with_the_search():
    helper = Helper()
    child = helper.child
    assert child is not None and helper.alive
    helper.close()
    assert not helper.alive
    assert child.wait(timeout=10) is not None  # ended and reaped, in the background
    # A whole solve leaves no process behind either.
    result = solve(new_game("stjernen", 1005), Budget(seconds=20, jobs=2))
    assert result.verdict == "won"


def test_a_beams_settings_cross_to_the_helper_equal():
    """The beam sends its settings with each layer through the helper's channel;
    they arrive equal, compiled or not (compiled by mypyc, a frozen class refuses
    pickle's field-by-field restore, so the channel rebuilds it by its
    constructor: children.Frames, tests/solver/test_compiled.py)."""
    cfg = BeamConfig(width=7, jitter=300, seed=2, weights=Weights(horizon=250, hold=(1, 3)))
    r, w = os.pipe()
    try:
        channel = Frames(r, w)
        channel.send((cfg, cfg.weights))
        assert channel.receive(timeout=5) == (cfg, cfg.weights)
    finally:
        os.close(r)
        os.close(w)
