"""Glicko-2 ratings (issue 31, acceptance 3): Glickman's worked example, properties
over random matches, and ratings worked out from the matches the store records."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termsolitaire.match import MatchStore
from termsolitaire.match.ratings import (
    ANCHORS,
    MIN_DEVIATION,
    PROVISIONAL,
    START_DEVIATION,
    Rating,
    rate,
    update,
)


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500 (RD 200, volatility 0.06)
    beats 1400/30, loses to 1550/100 and 1700/300: 1464.06, RD 151.52, 0.05999
    (the paper rounds its intermediate values; unrounded the rating is 1464.05)."""
    r = update(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
    )
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.deviation == pytest.approx(151.52, abs=0.01)
    assert r.volatility == pytest.approx(0.05999, abs=0.00001)
    assert r.matches == 3


def test_no_games_only_widens_the_deviation() -> None:
    r = update(Rating(1500, 200, 0.06), [])
    assert r.rating == 1500 and r.deviation == pytest.approx(200.27, abs=0.01)


ratings = st.builds(
    Rating,
    st.floats(800, 2400),
    st.floats(MIN_DEVIATION, START_DEVIATION),
    st.floats(0.03, 0.09),
)
players = st.sampled_from(["ann", "bob", "carol", "dave", *ANCHORS])
match = st.tuples(players, players, st.sampled_from(["win", "loss", "draw"])).filter(
    lambda m: m[0] != m[1]
)


@given(ratings, ratings)
def test_the_winner_never_loses_rating_and_the_loser_never_gains(a: Rating, b: Rating) -> None:
    assert update(a, [(b, 1.0)]).rating > a.rating
    assert update(b, [(a, 0.0)]).rating < b.rating


@settings(max_examples=60)
@given(st.lists(match, max_size=40))
def test_ratings_stay_within_bounds(matches: list[tuple[str, str, str]]) -> None:
    """Whatever the matches: every rating stays in a sane range, the deviation
    between its floor and the start, the volatility near the start, the anchors
    where they are, and the ratings' total moves no more than the matches could
    move it (each match moves each person by less than 2 x 350 x 0.8)."""
    out = rate(matches)
    people = [p for p in out if p not in ANCHORS]
    for pid in people:
        r = out[pid]
        assert 0 < r.rating < 3000
        assert MIN_DEVIATION <= r.deviation <= START_DEVIATION
        assert 0.05 < r.volatility < 0.07
        assert r.matches == sum(pid in m[:2] for m in matches)
    for pid, value in ANCHORS.items():
        assert out[pid].rating == value
    total = sum(out[p].rating - 1500 for p in people)
    assert abs(total) <= 2 * len(matches) * 2 * START_DEVIATION * 0.8


def test_provisional_until_ten_matches() -> None:
    out = rate([("ann", "bob", "win")] * (PROVISIONAL - 1))
    assert out["ann"].provisional and out["ann"].text().endswith("?")
    out = rate([("ann", "bob", "win")] * PROVISIONAL)
    assert not out["ann"].provisional and not out["ann"].text().endswith("?")


def test_a_recorded_match_rates_both_players(
    store: Callable[..., MatchStore], clock: object
) -> None:
    """A finished match (both ended with End) is rated on both sides, once, on each
    backend; a computer level stays at its anchor."""
    ann, bob = store("ann"), store("bob")
    seat = ann.open_table(suits=1, minutes=5, deal=3)
    bseat = bob.join(seat.table_id)
    seat.start()
    bseat.start()
    seat.play(str(seat.game.legal_moves()[0]))  # a move scores -1: ann is behind...
    bseat.end()
    seat.end()
    result = ann.results(seat.table_id)
    assert result.final
    a, b = ann.rating(), bob.rating("bob")
    assert a.matches == b.matches == 1
    winner = result.winner.id if result.winner else None
    if winner == "bob":
        assert b.rating > 1500 > a.rating
    else:
        assert winner == "ann" and a.rating > 1500 > b.rating
    assert ann.rating("computer:good").rating == ANCHORS["computer:good"]


def test_a_hot_seat_match_moves_no_rating(store: Callable[..., MatchStore], clock: object) -> None:
    """The host beat a hot-seat guest named on the spot and their rating rose
    from 1468 to 1619 (playtest40): anyone could raise theirs with made-up
    guests. A match with a guest is in both records but rated for neither."""
    from termsolitaire.match.hotseat import guest_player

    ann = store("ann")
    bob = guest_player(ann.me, "Bob")
    guest = store(bob.id, bob.name)
    seat = ann.open_table(suits=1, minutes=5, deal=3, public=False)
    ann.invite(seat.table_id, bob.id)
    seat.start()
    seat.end()  # ann: 0 points
    gseat = guest.join(seat.table_id)
    gseat.start()
    gseat.play(str(gseat.game.legal_moves()[0]))  # the scores differ: a winner
    gseat.end()
    result = ann.results(seat.table_id)
    assert result.final and result.winner is not None
    assert ann.rating().matches == 0 and ann.rating().rating == 1500
    assert ann.rating(bob.id).matches == 0
