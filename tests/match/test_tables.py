"""Tables and the lobby: opening, listing, joining, private tables, codes, leaving."""

from __future__ import annotations

import pytest

from termsolitaire.match import (
    JOIN_WINDOW,
    BadChoice,
    BadCode,
    CodeExpired,
    NoSuchTable,
    NotAllowed,
    NotInvited,
    TableClosed,
    TableFull,
    TooManyTries,
    UnknownPlayer,
)
from termsolitaire.rules import new_game
from termsolitaire.rules.deal import MAX_RANDOM_DEAL

from .conftest import first_moves


def states(s):  # type: ignore[no-untyped-def]
    return {t.id: t.state for t in s.tables()}


def test_an_open_table_is_listed_with_its_settings_and_a_random_deal(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    ann.open_table(suits=2, minutes=15, public=True)
    ann.open_table(suits=1, minutes=5, public=True)
    tables = bob.tables()
    assert [(t.suits, t.minutes, t.public, t.state) for t in tables] == [
        (1, 5, True, "waiting"),
        (2, 15, True, "waiting"),
    ]
    assert [[s.player.name for s in t.seats] for t in tables] == [["ann"], ["ann"]]
    assert all(0 <= t.deal <= MAX_RANDOM_DEAL for t in tables)
    assert tables[0].deal != tables[1].deal  # drawn at random (1 in a billion to fail)
    assert all(t.can_join and t.code is None for t in tables)  # the code is the host's
    assert all(t.code and t.seat_of("ann") for t in ann.tables())


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"suits": 3}, "1, 2 or 4 suits, not 3"),
        ({"minutes": 7}, "5, 10, 15 or 20 minutes, not 7"),
        ({"minutes": 0}, "not 0"),
    ],
)
def test_settings_not_offered_are_refused(store, kw, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadChoice, match=message):
        store("ann").open_table(**kw)
    assert store("bob").tables() == []


def test_a_player_hosts_at_most_five_unfinished_tables(store) -> None:  # type: ignore[no-untyped-def]
    ann = store("ann")
    for _ in range(5):
        ann.open_table()
    with pytest.raises(NotAllowed, match="already host 5 tables"):
        ann.open_table()
    ann.seat(1).leave()  # closing one makes room
    ann.open_table()


def test_join_after_the_first_player_started_same_deal_full_clock(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    host = ann.open_table(minutes=5)
    host.start()
    for a in first_moves(host.game, 3):
        host.act(a)
    clock.advance(120)
    assert states(bob) == {1: "started"}
    seat = bob.join(1)
    assert seat.number == 2 and seat.deal == host.deal and seat.log == []
    assert seat.game.to_text() == new_game("spider", host.deal, suits=1).to_text()
    assert seat.remaining() == 300 and not seat.started
    seat.start()
    clock.advance(60)
    assert seat.remaining() == 240 and host.remaining() == 120
    assert states(bob) == {1: "playing"}


def test_a_full_table_refuses_a_third_player(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    ann.open_table()
    bob.join(1)
    with pytest.raises(TableFull, match="Table 1 is full: both seats are taken"):
        cat.join(1)
    assert [t.can_join for t in cat.tables()] == [False]
    assert len(cat.table(1).seats) == 2


def test_joining_twice_resumes_the_same_seat(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    ann.open_table()
    assert bob.join(1).number == 2
    assert bob.join(1).number == 2 and ann.join(1).number == 1


def test_a_table_that_does_not_exist(store) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NoSuchTable, match="There is no table 9"):
        store("bob").join(9)
    store("ann").open_table()
    with pytest.raises(NotAllowed, match="You have no seat at table 1"):
        store("bob").seat(1)


def test_a_private_table_is_entered_only_by_invitation(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    ann.open_table(public=False)
    assert bob.tables() == [] and bob.invitations() == []
    with pytest.raises(NotInvited, match="Table 1 is private: you need an invitation or its code"):
        bob.join(1)
    with pytest.raises(NotInvited):
        bob.table(1)
    assert ann.invite(1, "bob").id == "bob"
    [inv] = bob.invitations()
    assert (inv.table_id, inv.host.id, inv.suits) == (1, "ann", 1)
    assert [(t.id, t.invited, t.can_join) for t in bob.tables()] == [(1, True, True)]
    assert cat.tables() == []
    with pytest.raises(NotInvited):
        cat.join(1)
    bob.join(1)
    assert bob.invitations() == []
    assert [t.state for t in bob.tables()] == ["playing"]


def test_an_invitation_to_a_table_that_filled_up_is_not_shown(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    code = ann.open_table(public=False).info().code
    ann.invite(1, "cat")
    assert [t.id for t in cat.tables()] == [1]
    bob.join_code(code)
    assert cat.tables() == [] and cat.invitations() == []
    with pytest.raises(TableFull):
        cat.join(1)


def test_a_declined_invitation_is_no_longer_shown(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    ann.open_table(public=False)
    ann.invite(1, "bob")
    bob.decline(1)
    assert bob.invitations() == [] and bob.tables() == []
    with pytest.raises(NotAllowed, match="no invitation to table 1"):
        bob.decline(1)
    with pytest.raises(NotInvited):
        bob.join(1)


def test_the_host_reads_who_declined_while_the_table_waits(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    ann.open_table(public=False)
    ann.invite(1, "bob")
    ann.invite(1, "cat")
    assert ann.declined() == []
    bob.decline(1)
    assert [(t, p.name) for t, p in ann.declined()] == [(1, "bob")]
    assert bob.declined() == [] and cat.declined() == []
    ann.invite(1, "bob")  # asked again: no longer a refusal
    assert ann.declined() == []
    bob.decline(1)
    cat.join(1)  # the table found its player: nothing to say any more
    assert ann.declined() == []


def test_invitation_refusals(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    ann.open_table(public=False)
    with pytest.raises(NotAllowed, match="Only the table's host invites"):
        bob.invite(1, "cat")
    with pytest.raises(UnknownPlayer, match="No player called 'dan'"):
        ann.invite(1, "dan")
    with pytest.raises(NotAllowed, match="already at this table"):
        ann.invite(1, "ann")
    ann.invite(1, "bob")
    bob.join(1)
    with pytest.raises(TableFull):
        ann.invite(1, "cat")
    assert cat.invitations() == []


def test_a_code_enters_a_private_table(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    code = ann.open_table(public=False).info().code
    assert code is not None and len(code) == 9 and code[4] == "-"
    seat = bob.join_code(code.lower().replace("-", " "))
    assert (seat.table_id, seat.number) == (1, 2)


def test_a_wrong_code_says_so_and_too_many_wait(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    code = ann.open_table(public=False).info().code
    with pytest.raises(BadCode, match="No table has the code 2222-2222; check it"):
        bob.join_code("2222-2222")
    with pytest.raises(BadCode, match="is not a table code"):
        bob.join_code("OOPS")
    for _ in range(9):
        with pytest.raises(BadCode):
            bob.join_code("2222-2222")
    with pytest.raises(TooManyTries, match="wait ten minutes"):
        bob.join_code(code)
    clock.advance(601)
    assert bob.join_code(code).number == 2


def test_an_expired_code(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    old = ann.open_table(public=False).info().code
    closed = ann.open_table(public=False)
    closed_code = closed.info().code
    closed.leave()
    with pytest.raises(CodeExpired, match=r"Code .* has expired: its table was closed"):
        bob.join_code(closed_code)
    clock.advance(JOIN_WINDOW)
    with pytest.raises(CodeExpired, match="no longer takes players"):
        cat.join_code(old)


def test_a_full_table_by_code(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    code = ann.open_table(public=False).info().code
    bob.join_code(code)
    with pytest.raises(TableFull):
        cat.join_code(code)


def test_a_table_takes_players_for_a_day(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    seat = ann.open_table()
    seat.start()
    clock.advance(JOIN_WINDOW)
    with pytest.raises(TableClosed, match="no longer takes players"):
        bob.join(1)
    assert bob.tables() == []
    assert [t.state for t in bob.tables(include_finished=True)] == ["finished"]


def test_leaving_before_starting(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    host = ann.open_table()
    seat = bob.join(1)
    with pytest.raises(NotAllowed, match="bob has sat down at your table"):
        host.leave()
    seat.leave()  # the joiner gives the seat up: the table takes players again
    assert [(t.state, t.can_join) for t in cat.tables()] == [("waiting", True)]
    host.leave()  # alone: the table closes
    assert cat.tables() == []
    with pytest.raises(TableClosed, match="Table 1 was closed by its host"):
        cat.join(1)


def test_a_game_going_on_is_ended_not_left(store) -> None:  # type: ignore[no-untyped-def]
    seat = store("ann").open_table()
    seat.start()
    with pytest.raises(NotAllowed, match="press End first"):
        seat.leave()
    seat.end()
    seat.leave()  # after the end: nothing to undo, nothing refused


def test_ignored_players_tables_and_invitations_are_not_shown(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    ann.open_table(public=False)
    ann.invite(1, "bob")
    ann.open_table()
    cat.open_table()
    bob.ignore("ann")
    assert [p.id for p in bob.ignored()] == ["ann"]
    assert bob.invitations() == []
    assert [t.host.id for t in bob.tables()] == ["cat"]
    bob.unignore("ann")
    assert len(bob.invitations()) == 1
    assert sorted(t.host.id for t in bob.tables()) == ["ann", "ann", "cat"]
    # a table where an ignored player sits is not shown either
    bob.join(3)
    ann.ignore("bob")
    assert [t.id for t in ann.tables()] == [2, 1]


def test_friends_tables_come_first_and_lists_are_exclusive(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat, dan = store("ann"), store("bob"), store("cat"), store("dan")
    ann.open_table()
    cat.open_table()
    bob.open_table()
    assert [t.host.id for t in dan.tables()] == ["bob", "cat", "ann"]
    dan.add_friend("ann")
    assert [t.host.id for t in dan.tables()] == ["ann", "bob", "cat"]
    assert dan.tables()[0].friends == ("ann",)
    dan.ignore("ann")  # ignoring a friend takes them off the friends list
    assert dan.friends() == [] and [t.host.id for t in dan.tables()] == ["bob", "cat"]
    dan.add_friend("ann")
    assert [p.id for p in dan.friends()] == ["ann"] and dan.ignored() == []
    dan.remove_friend("ann")
    with pytest.raises(NotAllowed, match="ann is not on your friends"):
        dan.remove_friend("ann")
    with pytest.raises(NotAllowed, match="cannot befriend yourself"):
        dan.add_friend("dan")
    with pytest.raises(NotAllowed, match="cannot ignore yourself"):
        dan.ignore("dan")
    with pytest.raises(UnknownPlayer):
        dan.ignore("nobody")


def test_the_revision_moves_on_every_change_and_only_then(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    r0 = bob.revision()
    seat = ann.open_table()
    r1 = bob.revision()
    assert r1 > r0
    bob.tables(), bob.table(1), bob.invitations(), bob.results(1)
    assert bob.revision() == r1
    seat.start()
    r2 = bob.revision()
    t2 = bob.revision(1)
    seat.act(first_moves(seat.game, 1)[0])
    assert r2 > r1 and bob.revision() > r2
    assert bob.revision(1) > t2
    t3 = bob.revision(1)
    store("cat").open_table()  # another table: this one's revision stays
    assert bob.revision(1) == t3 and bob.revision() > r2


def test_a_hot_seat_guest_s_seat_is_theirs_against_a_code_or_an_invitation(store) -> None:  # type: ignore[no-untyped-def]
    """A hot-seat table is private with a code the host sees in the lobby, and its
    guest sits down only when the host has finished: until then the code, or an
    invitation the host sent someone else, took the guest's seat."""
    from termsolitaire.match.hotseat import guest_player

    ann, cat = store("ann"), store("cat")
    bob = guest_player(ann.me, "Bob")
    guest = store(bob.id, bob.name)
    table = ann.open_table(public=False)
    ann.invite(table.table_id, bob.id)
    ann.invite(table.table_id, "cat")
    code = table.info().code
    assert code is not None
    with pytest.raises(TableFull, match="hot-seat match: its second seat is Bob's"):
        cat.join_code(code)
    with pytest.raises(TableFull, match="Bob's"):
        cat.join(table.table_id)
    assert guest.join(table.table_id).number == 2  # the guest still sits down
