"""Playing at a seat: actions appended as played, the clock, the ways a game ends."""

from __future__ import annotations

import pytest

from termsolitaire.match import (
    START_GRACE,
    GameOver,
    NotAllowed,
    NotInvited,
    SeatMoved,
    TimeUp,
)
from termsolitaire.rules import IllegalMove, UndoForbidden, from_text, new_game

from .conftest import first_moves


@pytest.fixture
def pair(store, clock):  # type: ignore[no-untyped-def]
    """ann hosts a 5-minute public 1-suit table on deal 11; bob joins; neither started."""
    ann, bob = store("ann"), store("bob")
    a = ann.open_table(suits=1, minutes=5, deal=11)
    b = bob.join(1)
    return ann, bob, a, b


def actions_in_store(s, table: int, seat: int) -> list[str]:  # type: ignore[no-untyped-def]
    with s.db.read() as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE table_id = ? AND seat = ? ORDER BY n", (table, seat)
        ).fetchall()
    return [r[0] for r in rows]


def test_the_clock_starts_with_start_and_actions_wait_for_it(pair, clock) -> None:  # type: ignore[no-untyped-def]
    ann, _, a, _ = pair
    with pytest.raises(NotAllowed, match="Start your game first"):
        a.act("deal")
    a.start()
    t0 = a.started_at
    clock.advance(10)
    a.start()  # again: changes nothing
    assert a.started_at == t0 == ann.seat(1).started_at
    assert a.time_used() == 10


def test_every_action_is_in_the_store_as_soon_as_it_is_played(pair, clock) -> None:  # type: ignore[no-untyped-def]
    ann, _, a, _ = pair
    a.start()
    line = first_moves(a.game, 4)
    for i, action in enumerate(line, start=1):
        clock.advance(1)
        a.act(action)
        assert actions_in_store(ann, 1, 1) == line[:i]
    a.undo()
    a.redo()
    a.act("DEAL")  # notation is not case-sensitive; the store keeps the canonical text
    assert actions_in_store(ann, 1, 1) == [*line, "undo", "redo", "deal"]
    assert a.log == [*line, "undo", "redo", "deal"]
    # the table's figures for the lobby are the game's
    info = ann.table(1).seats[0]
    assert (info.score, info.runs, info.moves, info.actions) == (*a.figures, 7)


def test_a_refused_action_changes_nothing(pair) -> None:  # type: ignore[no-untyped-def]
    ann, _, a, _ = pair
    a.start()
    a.act("deal")
    before = a.game.to_text(), list(a.log), ann.revision()
    with pytest.raises(IllegalMove, match="Cannot read move 't1-'"):
        a.act("t1-")
    with pytest.raises(UndoForbidden, match="A deal cannot be taken back"):
        a.undo()
    with pytest.raises(IllegalMove, match="Nothing to redo"):
        a.redo()
    bad = next(
        f"t{i}-t{j}" for i in range(1, 11) for j in range(1, 11) if a.game.why_illegal(f"t{i}-t{j}")
    )
    with pytest.raises(IllegalMove):
        a.act(bad)
    assert (a.game.to_text(), list(a.log), ann.revision()) == before
    assert actions_in_store(ann, 1, 1) == ["deal"]


def test_a_seat_is_rebuilt_from_the_store_exactly(pair, store, clock) -> None:  # type: ignore[no-untyped-def]
    _, _, a, _ = pair
    a.start()
    for action in first_moves(a.game, 6):
        a.act(action)
    a.undo()
    again = store("ann").seat(1)
    assert again.game.to_json() == a.game.to_json()
    assert (again.game.score, again.log, again.started_at) == (a.game.score, a.log, a.started_at)


def test_the_clock_runs_while_a_player_is_away(pair, store, clock) -> None:  # type: ignore[no-untyped-def]
    _, _, a, _ = pair
    a.start()
    a.act("deal")
    del a  # the player's connection drops
    clock.advance(200)
    back = store("ann").seat(1)
    assert back.remaining() == 100 and back.log == ["deal"] and not back.finished
    back.act(first_moves(back.game, 1)[0])
    clock.advance(100)
    assert back.remaining() == 0
    with pytest.raises(TimeUp, match="Time is up"):
        back.act("deal")
    assert (back.reason, back.time_used()) == ("time", 300)


def test_time_up_ends_the_game_and_freezes_its_figures(pair, clock) -> None:  # type: ignore[no-untyped-def]
    _ann, bob, a, _b = pair
    a.start()
    a.act(first_moves(a.game, 1)[0])
    figures = a.figures
    clock.advance(299)
    assert not a.check_clock()
    clock.advance(1)
    assert a.check_clock() and a.reason == "time" and a.finished_at == a.started_at + 300
    with pytest.raises(GameOver, match=r"ended \(time ran out\)"):
        a.act("deal")
    info = bob.table(1).seats[0]
    assert (info.reason, info.time_used, info.remaining, info.score) == ("time", 300, 0, figures[0])


def test_end_ends_the_game_and_the_other_goes_on(pair, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob, a, b = pair
    a.start()
    b.start()
    a.act("deal")
    clock.advance(42)
    a.end()
    assert a.reason == "end" and a.time_used() == 42
    with pytest.raises(GameOver, match=r"has ended \(End pressed\)"):
        a.act("deal")
    clock.advance(10)
    b.act("deal")  # the opponent's game goes on
    seat_a, seat_b = bob.table(1).seats
    assert (seat_a.reason, seat_a.time_used, seat_b.reason) == ("end", 42, None)
    assert actions_in_store(ann, 1, 1) == ["deal", "end"]


def test_end_before_starting_counts_as_a_game_of_nothing(pair) -> None:  # type: ignore[no-untyped-def]
    _, bob, a, _ = pair
    a.end()
    assert (a.reason, a.figures, a.time_used()) == ("end", (0, 0, 0), 0)
    assert bob.table(1).seats[0].finished


NEAR_WON = """game: spider
variant: suits=2
score: 0
moves: 0
t1: AH
t2: KH QH JH TH 9H 8H 7H
t3: 6H 5H 4H 3H 2H
t4: KS QS JS TS 9S 8S 7S
t5: 6S 5S 4S 3S 2S
t6: AS
t7: -
t8: -
t9: -
t10: -
stock: -
done: S S S H H H
"""


def test_discarding_every_card_ends_the_game(store, clock, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The seat's game starts from the deal; here the deal is swapped for a position
    two runs from the end, so a few real actions clear the board."""
    import termsolitaire.match.replay as replay

    monkeypatch.setattr(replay, "fresh", lambda deal, suits: from_text(NEAR_WON))
    seat = store("ann").open_table(suits=2)
    seat.start()
    for action in ("t3-t2:5", "t1-t2", "t5-t4:5"):
        clock.advance(5)
        seat.act(action)
    assert not seat.finished
    seat.act("t6-t4")
    assert seat.game.is_won and seat.reason == "cleared" and seat.time_used() == 15
    assert store("bob").table(1).seats[0].reason == "cleared"
    assert store("ann").seat(1).game.score == seat.game.score


def test_a_vanished_player_runs_out_of_time(pair, store, clock) -> None:  # type: ignore[no-untyped-def]
    _ann, bob, a, b = pair
    a.start()
    a.act("deal")
    b.start()
    b.act("deal")
    del a  # ann vanishes mid-match: nobody writes for her again
    clock.advance(120)
    b.act(first_moves(b.game, 1)[0])
    b.end()
    assert not bob.results(1).final  # ann's clock still runs
    clock.advance(180)
    res = bob.results(1)
    assert res.final and [f.reason for f in res.seats] == ["time", "end"]
    assert res.seats[0].time_used == 300
    assert store("ann").seat(1).reason == "time"


def test_a_seated_player_who_never_starts_starts_by_themselves(pair, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob, a, b = pair
    b.start()
    clock.advance(START_GRACE - 1)
    assert not ann.table(1).seats[0].started
    assert not a.check_clock() and not a.started
    clock.advance(1)
    assert not a.check_clock() and a.started_at == b.started_at + START_GRACE
    clock.advance(300)
    assert a.check_clock() and a.reason == "time"
    res = bob.results(1)
    assert res.final and [f.reason for f in res.seats] == ["time", "time"]


def test_two_windows_of_one_player_do_not_mix_their_games(pair, store) -> None:  # type: ignore[no-untyped-def]
    _, _, a, _ = pair
    a.start()
    other = store("ann").seat(1)
    a.act("deal")
    with pytest.raises(SeatMoved, match="another window"):
        other.act("deal")
    assert other.log == ["deal"] and other.game.to_text() == a.game.to_text()
    other.act("deal")
    a.sync()
    assert a.log == ["deal", "deal"]


def test_results_the_same_for_both_and_the_record(pair, store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob, a, b = pair
    a.start()
    b.start()
    a.act("deal")  # no move: score 0
    b.act(first_moves(b.game, 1)[0])
    assert b.figures[0] != 0
    a.end()
    assert not ann.results(1).final and ann.results(1).winner is None
    b.end()
    ra, rb = ann.results(1), bob.results(1)
    assert ra == rb and ra.final
    assert [(f.player.id, f.score) for f in ra.seats] == [("ann", 0), ("bob", b.figures[0])]
    winner = "ann" if b.figures[0] < 0 else "bob"
    assert ra.winner is not None and ra.winner.id == winner
    loser = "bob" if winner == "ann" else "ann"
    assert ra.outcome_for(winner) == "win" and ra.outcome_for(loser) == "loss"
    rec = store("cat").record(winner)
    assert (rec.overall.wins, rec.overall.losses, rec.overall.draws) == (1, 0, 0)
    assert [(p.id, t.wins) for p, t in rec.opponents] == [(loser, 1)]
    assert ann.record(loser).overall.losses == 1


def test_equal_scores_draw_and_records_count_per_opponent(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    for other in (bob, cat, bob):
        seat = ann.open_table()
        mine = other.join(seat.table_id)
        seat.end()
        mine.end()
        assert ann.results(seat.table_id).draw
    rec = ann.record()
    assert (rec.overall.draws, rec.overall.played) == (3, 3)
    assert [(p.id, t.draws) for p, t in rec.opponents] == [("bob", 2), ("cat", 1)]


def test_the_record_counts_matches_nobody_looked_at(pair, store, clock) -> None:  # type: ignore[no-untyped-def]
    _, _, a, b = pair
    a.start()
    b.start()
    del a, b  # both vanish: nobody ever opens the results
    clock.advance(301)
    assert store("ann").record().overall.draws == 1


def test_cached_figures_are_the_replayed_ones(pair, clock) -> None:  # type: ignore[no-untyped-def]
    ann, _, a, _ = pair
    a.start()
    for action in first_moves(a.game, 8):
        a.act(action)
    a.end()
    info = ann.table(1).seats[0]
    figures = ann.results(1).seats[0]
    assert (info.score, info.runs, info.moves) == (figures.score, figures.runs, figures.moves)


def test_watch_waits_for_the_watchers_own_game_to_end(pair, store, clock) -> None:  # type: ignore[no-untyped-def]
    _ann, _bob, a, b = pair
    a.start()
    b.start()
    b.act("deal")
    with pytest.raises(NotAllowed, match="once your own game has ended"):
        a.watch()
    # a spectator seated nowhere watches a public table live (issue 31)
    assert store("cat").watch(1, 2).game.to_text() == b.game.to_text()
    a.end()
    w = a.watch()
    assert w.game.to_text() == b.game.to_text() and [x.text for x in w.actions] == ["deal"]
    assert not w.refresh()
    b.act(first_moves(b.game, 1)[0])
    assert w.refresh() and w.game.to_text() == b.game.to_text()
    assert w.info.actions == 2 and w.info.score == b.figures[0]
    b.end()
    # after the match anyone may replay a public table's games
    replay = store("cat").watch(1, 1)
    assert replay.game.to_text() == a.game.to_text()
    assert [x.text for x in store("cat").actions(1, 2)] == b.log


def test_watch_of_a_private_match_is_for_its_players(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    a = ann.open_table(public=False)
    ann.invite(1, "bob")
    b = bob.join(1)
    a.end()
    b.end()
    assert bob.watch(1, 1).game.to_text() == new_game("spider", a.deal, suits=1).to_text()
    with pytest.raises(NotInvited, match="Table 1 is private"):
        store("cat").watch(1, 1)
