"""The Stjernen solver's shortcuts change nothing but the time: the evaluation
scores every position as the plain one does, and a dig is tried exactly when
playing it would succeed."""

from __future__ import annotations

import dataclasses
import gc
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import termsolitaire.solver.stjernen as stjernen
import termsolitaire.solver.stjernen.layer as layer
from termsolitaire.rules import new_game
from termsolitaire.solver import Budget
from termsolitaire.solver.compiled import compiled_modules
from termsolitaire.solver.stjernen import PORTFOLIO, BeamConfig, beam, beam_steps, solve
from termsolitaire.solver.stjernen.evaluation import Weights, evaluate
from termsolitaire.solver.stjernen.moves import (
    dig,
    dig_reach,
    dig_size,
    dig_targets,
    diggable,
    sound_steps,
)
from termsolitaire.solver.stjernen.state import State

from . import stjernen_eval_plain as plain

DEALS = st.integers(min_value=0, max_value=2**32)
FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))
WEIGHTS = [
    *(cfg.weights for cfg in PORTFOLIO),
    Weights(late=False),
    Weights(horizon=400),  # the horizon beyond the cap
    Weights(cap=60, bottom=False),
    Weights(next_round=True),
    Weights(next_round=True, stock=25),
]


def _positions(deal: int, data: st.DataObject, count: int):
    """Positions along a random line of the steps the beam tries, deals and
    collects included (foundation moves are taken at once, so the line gets on)."""
    state = State.from_game(new_game("stjernen", deal=deal))
    cfg = BeamConfig()
    for _ in range(count):
        yield state
        steps = [tuple(m for m, _ in done) for done in beam_steps(state, cfg)]
        steps += [(m,) for m in sound_steps(state) if m < 0]
        if not steps:
            return
        for m in data.draw(st.sampled_from(steps)):
            state.make(m)


@settings(deadline=None, max_examples=200 if FULL else 10)
@given(deal=DEALS, data=st.data())
def test_the_evaluation_scores_every_position_as_the_plain_one(deal, data):
    for state in _positions(deal, data, 150 if FULL else 60):
        for w in WEIGHTS:
            assert evaluate(state, w) == plain.evaluate(state, w), (w, state.key())


@settings(deadline=None, max_examples=200 if FULL else 10)
@given(deal=DEALS, data=st.data())
def test_a_dig_is_tried_exactly_when_it_gets_through(deal, data):
    for state in _positions(deal, data, 150 if FULL else 60):
        before = state.key()
        reach: dict[int, int] = {}
        for p, k in dig_targets(state, 3, 10):
            done: list[tuple[int, int]] = []
            ok = dig(state, p, k, done)
            for m, info in reversed(done):
                state.unmake(m, info)
            assert state.key() == before
            if p not in reach:
                reach[p] = dig_reach(state, p)
            assert (dig_size(state, p, k) <= reach[p]) == ok, (p, k, state.key())


@settings(deadline=None, max_examples=200 if FULL else 10)
@given(deal=DEALS, data=st.data(), ahead=st.integers(1, 3), depth=st.integers(1, 10))
def test_diggable_keeps_exactly_the_targets_within_reach(deal, data, ahead, depth):
    """The beam's one-pass filter (its walks cut short, what they share worked
    out once) keeps the targets, in order, whose dig is no longer than the reach."""
    for state in _positions(deal, data, 150 if FULL else 60):
        targets = dig_targets(state, ahead, depth)
        within = [(p, k) for p, k in targets if dig_size(state, p, k) <= dig_reach(state, p)]
        assert diggable(state, ahead, depth) == within, state.key()


def test_the_shortcuts_leave_a_beam_line_unchanged(monkeypatch):
    """A narrow beam, its positions scored plainly and every dig played out, finds
    the same line through the same number of positions."""
    if layer.__name__ in compiled_modules():  # its calls are bound at compile time
        pytest.skip("a compiled layer never sees the patched functions")
    root = State.from_game(new_game("stjernen", deal=5))
    cfg = dataclasses.replace(PORTFOLIO[0], width=3, look=10)
    fast = beam(root, cfg, float("inf"))
    monkeypatch.setattr(layer, "evaluate", plain.evaluate)
    monkeypatch.setattr(layer, "diggable", dig_targets)  # every dig played out
    assert beam(root, cfg, float("inf")) == fast


def _collections_in_solve(monkeypatch, deal: int, seconds: float) -> tuple[int, bool, object]:
    """Cyclic collections started while ``solve`` searched ``deal`` (in its
    ``_search``), whether the collector was on as the search began, and the result.

    The youngest generation's threshold is lowered to 100 for the call: the search
    frees nearly all it makes as it goes, so at Python's 700 its net growth alone
    need not start a collection (twice in CI, with the collector on, none did)."""
    started = []
    searching = []
    enabled = []
    search = stjernen._search

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and searching:
            started.append(info["generation"])

    def watched(*args):
        enabled.append(gc.isenabled())
        searching.append(True)
        try:
            return search(*args)
        finally:
            searching.clear()

    monkeypatch.setattr(stjernen, "_search", watched)
    game = new_game("stjernen", deal=deal)
    thresholds = gc.get_threshold()
    gc.set_threshold(100, *thresholds[1:])
    gc.callbacks.append(note)
    try:
        result = solve(game, Budget(seconds=seconds, cpu=True))
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)
    return len(started), enabled == [True], result


def test_solve_searches_without_the_cyclic_collector_and_gives_it_back(monkeypatch):
    """The search's garbage is freed by reference counting alone (COLLECTOR_OFF):
    no collection runs while it searches, the collector is on again after, and
    one switched off before stays off."""
    assert stjernen.COLLECTOR_OFF
    assert gc.isenabled()
    count, enabled, result = _collections_in_solve(monkeypatch, 1, 0.5)
    assert count == 0 and not enabled
    # a search that made garbage: each position is many allocations (a quiet
    # machine searches some 12,000 in 0.5 CPU-s; one running two benchmarks 8,000)
    assert result.positions > 2_000
    assert gc.isenabled()
    gc.disable()
    try:
        _collections_in_solve(monkeypatch, 1, 0.2)
        assert not gc.isenabled()
    finally:
        gc.enable()
    monkeypatch.setattr(stjernen, "COLLECTOR_OFF", False)
    count, enabled, _ = _collections_in_solve(monkeypatch, 1, 0.5)
    assert enabled and count > 0  # the switch off: collections as usual
