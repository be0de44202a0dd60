"""Spectators and host share codes in the store, on both backends (issue 31):
presence that expires, who may watch what, a spectator kept from the deal they
saw, the watching setting, host codes, and a version-1 SQLite file upgraded in
place."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, NotAllowed, NotInvited, Player
from termsolitaire.match.errors import BadCode
from termsolitaire.match.shares import open_code, share
from termsolitaire.match.watching import EXPIRY
from termsolitaire.rules import new_game

from .conftest import first_moves


def test_presence_counts_and_expires(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat, dan = store("ann"), store("bob"), store("cat"), store("dan")
    table = ann.open_table(deal=4).table_id
    bob.join(table)
    before = ann.revision(table)
    assert cat.spectate(table) == 1
    assert ann.revision(table) > before  # the players' screens read the count at once
    assert dan.spectate(table) == 2 and ann.spectators(table) == 2
    quiet = (ann.revision(), ann.revision(table))
    clock.advance(1)
    assert cat.spectate(table) == 2  # a renewal wakes no screen: no revision moves
    assert (ann.revision(), ann.revision(table)) == quiet
    clock.advance(EXPIRY / 2)
    cat.spectate(table)  # cat renews, dan's process died
    clock.advance(EXPIRY / 2 + 1)
    assert ann.spectators(table) == 1
    cat.stop_spectating(table)
    assert ann.spectators(table) == 0


def test_a_spectator_sees_the_moves_and_may_not_play_the_deal(store) -> None:  # type: ignore[no-untyped-def]
    ann, cat = store("ann"), store("cat")
    a = ann.open_table(deal=8)
    a.start()
    seats = cat.watch_seats(a.table_id)
    assert [s.player.name for s in seats] == ["ann"]
    w = cat.watch(a.table_id, 1)
    cat.spectate(a.table_id)
    for m in first_moves(a.game, 3):
        a.act(m)
    assert w.refresh() and w.game.to_text() == a.game.to_text()
    with pytest.raises(NotAllowed, match="you have seen its deal"):
        cat.join(a.table_id)
    with pytest.raises(NotAllowed, match="Enter goes to your own game"):
        ann.watch_seats(a.table_id)


def test_a_guest_watches_a_table_only_once_both_seats_are_taken(store) -> None:  # type: ignore[no-untyped-def]
    """A spectator may not take the free seat of a table whose deal they saw, by id;
    a guest of ``serve --open`` watched as a guest, then joined with their key
    (playtest25). A guest now watches a table only once nobody can join it."""
    ann, bob = store("ann"), store("bob")
    guest = store("guest:1f2e", "guest-1f2e")
    a = ann.open_table(deal=8)
    a.start()
    for m in first_moves(a.game, 3):
        a.act(m)
    with pytest.raises(NotAllowed, match="Guests can watch only full tables"):
        guest.watch_seats(a.table_id)
    with pytest.raises(NotAllowed, match="Guests can watch only full tables"):
        guest.watch(a.table_id, 1)
    bob.join(a.table_id)
    assert [s.player.name for s in guest.watch_seats(a.table_id)] == ["ann", "bob"]
    assert guest.watch(a.table_id, 1).game.to_text() == a.game.to_text()


def test_private_tables_by_invitation_and_the_setting(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob, cat = store("ann"), store("bob"), store("cat")
    table = ann.open_table(public=False, deal=2).table_id
    ann.invite(table, "bob")
    bob.join(table)
    with pytest.raises(NotInvited, match="only when a player invites you"):
        cat.watch_seats(table)
    assert [t.id for t in cat.tables()] == []
    with pytest.raises(NotAllowed, match="Only a player seated"):
        cat.invite_to_watch(table, "cat")
    bob.invite_to_watch(table, "cat")
    assert [t.id for t in cat.tables()] == [table]
    assert len(cat.watch_seats(table)) == 2
    ann.set_watchable(False)
    assert not ann.watchable() and cat.watchable()
    assert [s.player.name for s in cat.watch_seats(table)] == ["bob"]
    with pytest.raises(NotAllowed, match="does not let others watch"):
        cat.watch(table, 1)


def test_host_codes(store) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    g = new_game("napoleon", 12)
    for m in first_moves(g, 5):
        g.play(m)
    code = share(ann, g)
    assert len(code) <= 8 and share(bob, g) == code  # the same game, the same code
    back = open_code(bob, code.lower())
    assert back.history == g.history and back.to_text() == g.to_text()
    with pytest.raises(BadCode, match="No shared game has the code"):
        open_code(bob, "2345678")


def test_a_version_1_file_is_upgraded_in_place(shared: Path) -> None:
    ann = MatchStore(Player.make("ann"), shared, keep_dir=None)
    table = ann.open_table(deal=1).table_id
    ann.close()
    db = sqlite3.connect(shared / "match.sqlite3")
    for name in ("spectators", "watch_invitations", "watch_settings", "shares"):
        db.execute(f"DROP TABLE {name}")
    db.execute("ALTER TABLE seats DROP COLUMN credit_s")  # (version 4's)
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    cat = MatchStore(Player.make("cat"), shared, keep_dir=None)
    assert cat.table(table).seats[0].player.name == "ann"  # nothing lost
    assert cat.spectate(table) == 1
    cat.close()


def test_a_daily_is_shared_once_its_day_is_over(store, clock) -> None:  # type: ignore[no-untyped-def]
    from termsolitaire.match.daily import Daily
    from termsolitaire.match.shares import past_daily
    from termsolitaire.rules.sharecode import decode, encode

    ann, bob = store("ann"), store("bob")
    daily = Daily(ann)
    day = daily.today()
    attempt = daily.attempt("penguin", {})
    attempt.act(str(attempt.game.legal_moves()[0]))
    with pytest.raises(NotAllowed, match="once its day is over"):
        past_daily(ann, "penguin", {}, day)
    clock.advance(86_400)
    game = past_daily(ann, "penguin", {}, day)
    assert game.history == attempt.game.history and game.deal == attempt.deal
    assert decode(encode(game)).to_text() == attempt.game.to_text()
    with pytest.raises(NotAllowed, match="You did not play"):
        past_daily(bob, "penguin", {}, day)
