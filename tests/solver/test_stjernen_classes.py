"""The beam's storage classes (``BeamConfig.fine``, ``beams.FINE_CLASSES``; issue
34, stjernen18): the storage key counts the cards in storage wherever they lie,
the choice keeps a position with other cards in storage before a second one
with the same cards, it changes nothing while the progress classes fill the
width, and a beam that keeps its positions so gives a line that replays."""

from __future__ import annotations

import dataclasses
import time

from termsolitaire.rules import new_game
from termsolitaire.solver.stjernen import BeamConfig, beam
from termsolitaire.solver.stjernen import beams as beams_module
from termsolitaire.solver.stjernen.layer import classes, progress, select, storage_key
from termsolitaire.solver.stjernen.state import State, to_move


def _position_with_storage() -> State:
    """Deal 2 after the first beam's line has put cards into storage."""
    game = new_game("stjernen", deal=2)
    st = State.from_game(game)
    assert any(st.piles[q] for q in range(4, 9))
    return st


def test_the_storage_key_is_the_cards_in_storage_wherever_they_lie():
    st = _position_with_storage()
    key = storage_key(st)
    moved = st.copy()
    # The same cards, the outer ring's piles in another order: the same key.
    moved.piles[4], moved.piles[5] = moved.piles[5], moved.piles[4]
    assert storage_key(moved) == key
    # A card more in storage (one from an inner pile): another key.
    other = st.copy()
    other.piles[8] = [*other.piles[8], other.piles[0][-1]]
    assert storage_key(other) != key
    assert classes(st, BeamConfig(fine=True)) == (*progress(st), key)
    assert classes(st, BeamConfig()) == progress(st)
    assert classes(st, BeamConfig(diverse=False, fine=True)) == ()


def _entry(score: int, like: tuple[int, ...]) -> tuple:
    return (score, 0, 0, (score,), like, score)


def test_a_second_pick_holds_other_cards_in_storage():
    """Two progress classes, A with three positions (two alike in storage) and B
    with one. Main's choice at width 3 takes A's second best, the same storage;
    the fine choice takes A's best of another storage class instead."""
    a, b = (1, 0, 0, 0, 5, 5, 5, 5), (0, 1, 0, 0, 5, 5, 5, 5)
    found = [
        _entry(100, (*a, 7)),
        _entry(90, (*a, 7)),
        _entry(80, (*b, 3)),
        _entry(70, (*a, 9)),
    ]
    plain = [x[0] for x in select([(*x[:4], x[4][:-1], x[5]) for x in found], BeamConfig(), 3)]
    assert plain == [100, 80, 90]
    fine = [x[0] for x in select(found, BeamConfig(fine=True), 3)]
    assert fine == [100, 80, 70]
    assert [x[0] for x in select(found, BeamConfig(fine=True), 4)] == [100, 80, 70, 90]


def test_while_the_progress_classes_fill_the_width_nothing_changes():
    """The best of each progress class first, as before: the storage classes only
    share out the picks after those (not classes of their own, which would keep
    three of A before B's only position)."""
    a, b = (1, 0, 0, 0, 5, 5, 5, 5), (0, 1, 0, 0, 5, 5, 5, 5)
    found = [_entry(100, (*a, 7)), _entry(95, (*a, 8)), _entry(90, (*a, 9)), _entry(50, (*b, 7))]
    assert [x[0] for x in select(found, BeamConfig(fine=True), 2)] == [100, 50]
    found = [_entry(100 - k, (k, 0, 0, 0, 5, 5, 5, 5, k % 3)) for k in range(20)]
    fine = select(found, BeamConfig(fine=True), 10)
    plain = select([(*x[:4], x[4][:-1], x[5]) for x in found], BeamConfig(), 10)
    assert [x[0] for x in fine] == [x[0] for x in plain] == list(range(100, 90, -1))


def test_an_adaptive_beam_with_storage_classes_gives_a_line_that_replays(monkeypatch):
    """Deal 3, an adaptive beam of a second with ``FINE_CLASSES``: the line replays
    through the rules core to the count the beam reports."""
    monkeypatch.setattr(beams_module, "FINE_CLASSES", True)
    game = new_game("stjernen", deal=3)
    cfg = dataclasses.replace(BeamConfig(), adaptive=True, late_round=5)
    clock = time.process_time
    score, line, seen = beam(State.from_game(game), cfg, clock() + 1.0, clock)
    g = game.copy()
    for m in line:
        g.play(to_move(m))
    assert g.score == score > 0 and seen > 0
