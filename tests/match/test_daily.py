"""The daily deal in the match store (issue 31): the same deal for everyone, from the
host's secret; one attempt a day, kept from its start; the leaderboards' order;
every row a player's process writes is their own. On both backends."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from termsolitaire.match import GameOver, MatchError, MatchStore, Player, SeatMoved
from termsolitaire.match.daily import Attempt, Daily, DailyDone, day_of, zone
from termsolitaire.match.db import _SCHEMA, FILENAME, SCHEMA_VERSION
from termsolitaire.match.leaderboard import rank
from termsolitaire.match.ratings import Rating
from termsolitaire.rules import new_game

from .conftest import Clock

T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC, a Friday
DAY = 86_400.0


@pytest.fixture
def day0(clock: Clock) -> Clock:
    clock.t = T0
    return clock


def play(a: Attempt, n: int, clock: Clock) -> None:
    """``n`` moves, foundation moves first, 5 seconds apart."""
    for _ in range(n):
        legal = a.game.legal_moves()
        home = [m for m in legal if m.dst in a.game.foundations]
        clock.advance(5)
        a.act(str((home or legal)[0]))


def test_everyone_gets_the_same_deal_and_another_host_another(
    store: Callable[..., MatchStore], day0: Clock, tmp_path: Path, backend: str
) -> None:
    ann, bob = Daily(store("ann")), Daily(store("bob"))
    assert ann.deal("penguin", {}) == bob.deal("penguin", {})
    assert ann.attempt("penguin", {}).game.to_text() == bob.attempt("penguin", {}).game.to_text()
    deals = {ann.deal("spider", {"suits": s}) for s in (1, 2, 4)} | {ann.deal("penguin", {})}
    assert len(deals) == 4  # each game and variant its own
    tomorrow = ann.deal("penguin", {}, day_of(T0 + DAY, dt.UTC))
    assert tomorrow != ann.deal("penguin", {})
    if backend == "sqlite":  # another host: another secret, another deal
        elsewhere = Daily(MatchStore(Player.make("ann"), tmp_path / "other", now=day0))
        assert elsewhere.deal("penguin", {}) != ann.deal("penguin", {})


def test_one_attempt_kept_from_its_start(store: Callable[..., MatchStore], day0: Clock) -> None:
    ann = Daily(store("ann"))
    assert ann.state("penguin", {}) is None
    a = ann.attempt("penguin", {})
    assert ann.state("penguin", {}) == "playing"
    assert ann.summary("penguin", {}) == (0, 1)  # counted from its start, no move needed
    play(a, 3, day0)
    again = ann.attempt("penguin", {})  # resumed: the same game, the same clock
    assert again.log == a.log and again.started_at == a.started_at
    assert again.game.elapsed == pytest.approx(15.0)
    again.act("end")
    assert ann.state("penguin", {}) == "lost"
    with pytest.raises(DailyDone, match="one attempt a day"):
        ann.attempt("penguin", {})
    with pytest.raises(GameOver):
        a.act("undo")  # the old window's copy sees it ended too
    day0.advance(DAY)
    assert ann.attempt("penguin", {}).log == []  # tomorrow: a new daily


def test_a_guest_cannot_play_the_daily(store: Callable[..., MatchStore], day0: Clock) -> None:
    """A guest of ``serve --open`` is a new id at every connection: the daily let one
    play it again and again (a player could learn it as a guest, then play it with
    their key), and left a line for each on the leaderboard."""
    guest = Daily(store("guest:1f2e", "guest-1f2e"))
    with pytest.raises(MatchError, match="Guests cannot play the daily"):
        guest.attempt("spider", {"suits": 1})
    assert guest.state("spider", {"suits": 1}) is None  # nothing written
    assert Daily(store("ann")).attempt("spider", {"suits": 1}).log == []


def test_a_second_window_cannot_fork_the_attempt(
    store: Callable[..., MatchStore], day0: Clock
) -> None:
    ann = Daily(store("ann"))
    one, two = ann.attempt("penguin", {}), ann.attempt("penguin", {})
    play(one, 2, day0)
    with pytest.raises(SeatMoved):
        two.act(str(two.game.legal_moves()[0]))
    assert two.log == one.log  # it now shows the other window's game


def test_the_leaderboards(store: Callable[..., MatchStore], day0: Clock) -> None:
    """Today's: finished attempts by score (no one won), then time; those still going
    on last (the next test has the whole rule). The week adds the days; all-time
    keeps each player's best. Ignored players are left out of one's own view only."""
    ann_s, bob_s, cat_s = store("ann"), store("bob"), store("cat")
    ann, bob, cat = Daily(ann_s), Daily(bob_s), Daily(cat_s)
    a, b = ann.attempt("penguin", {}), bob.attempt("penguin", {})
    cat.attempt("penguin", {})
    play(a, 2, day0)
    play(b, 6, day0)  # its first two moves are ann's: bob has at least ann's score
    b.act("end")
    day0.advance(30)
    a.act("end")  # and ann took longer
    lines = ann.board("penguin", {})
    assert b.game.score >= a.game.score and lines[0].seconds < lines[1].seconds
    assert [(ln.player.id, ln.won) for ln in lines] == [
        ("bob", False),
        ("ann", False),
        ("cat", None),
    ]
    assert [ln.mine for ln in lines] == [False, True, False]
    assert ann.summary("penguin", {}) == (0, 3)

    day0.advance(DAY)  # Saturday: ann plays better
    a2 = ann.attempt("penguin", {})
    play(a2, 8, day0)
    a2.act("end")
    week = ann.board("penguin", {}, "week")
    ann_week = next(ln for ln in week if ln.player.id == "ann")
    assert ann_week.days == 2 and ann_week.score == a.game.score + a2.game.score
    best = {ln.player.id: ln for ln in ann.board("penguin", {}, "all")}
    assert best["ann"].score == max(a.game.score, a2.game.score)
    assert "cat" not in best  # all-time counts finished dailies only

    ann_s.ignore("bob")
    assert "bob" not in [ln.player.id for ln in ann.board("penguin", {}, "day", day_of(T0, dt.UTC))]
    assert "ann" in [ln.player.id for ln in bob.board("penguin", {}, "day", day_of(T0, dt.UTC))]


def test_rank_rule_won_then_score_then_time_then_moves() -> None:
    def row(pid: str, won: int | None, score: int, seconds: float, moves: int) -> dict[str, object]:
        return {"player": pid, "name": pid, "day": "d", "won": won, "score": score,
                "seconds": seconds, "moves": moves}  # fmt: skip

    rows = [
        row("slow", 1, 52, 300.0, 90),
        row("lost", 0, 51, 60.0, 40),
        row("fast", 1, 52, 200.0, 99),
        row("few", 1, 52, 200.0, 80),
        row("twin", 1, 52, 200.0, 80),
        row("going", None, 0, 0.0, 0),
    ]
    lines = rank("day", rows, {}, "few")  # type: ignore[arg-type]
    assert [(ln.rank, ln.player.id) for ln in lines] == [
        (1, "few"),
        (1, "twin"),  # equal in everything: the same rank
        (3, "fast"),
        (4, "slow"),
        (5, "lost"),
        (6, "going"),
    ]
    assert lines[0].rating == Rating()


def test_a_players_process_writes_only_their_own_rows(
    store: Callable[..., MatchStore], day0: Clock
) -> None:
    ann_s = store("ann")
    a = Daily(store("bob")).attempt("penguin", {})
    play(a, 2, day0)
    a.act("end")
    with ann_s.db.read() as db:
        for table in ("daily_attempts", "daily_actions", "daily_results"):
            owners = {r[0] for r in db.execute(f"SELECT player FROM {table}").fetchall()}
            assert owners == {"bob"}, table


def test_the_day_follows_the_hosts_zone(store: Callable[..., MatchStore], clock: Clock) -> None:
    clock.t = dt.datetime(2027, 1, 15, 23, 30, tzinfo=dt.UTC).timestamp()
    assert Daily(store("ann"), zone("UTC")).today() == "2027-01-15"
    assert Daily(store("ann"), zone("Europe/Oslo")).today() == "2027-01-16"  # 00:30 there


def test_bad_choices_are_one_sentence(store: Callable[..., MatchStore], day0: Clock) -> None:
    ann = Daily(store("ann"))
    with pytest.raises(MatchError, match="suits"):
        ann.attempt("spider", {})
    with pytest.raises(MatchError, match="no suits=3"):
        ann.attempt("spider", {"suits": 3})
    with pytest.raises(MatchError, match="no game"):
        ann.attempt("chess", {})


def test_a_version_1_file_takes_the_daily_in_place(tmp_path: Path, clock: Clock) -> None:
    """A match database of schema 1 (before the daily) keeps its tables and rows and
    gets the daily's tables when first opened by this version."""
    d = tmp_path / "m"
    d.mkdir()
    old = _SCHEMA[: _SCHEMA.index("CREATE TABLE IF NOT EXISTS host_secret")]
    old = old.replace("credit_s REAL NOT NULL DEFAULT 0,", "")  # (version 4's)
    db = sqlite3.connect(d / FILENAME)
    db.executescript(old)
    db.execute("INSERT INTO players VALUES ('carol', 'carol', 1, 1)")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    ann = MatchStore(Player.make("ann"), d, now=clock)
    assert ann.find_player("carol").id == "carol"
    Daily(ann).attempt("penguin", {})
    with ann.db.read() as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert Daily(ann).summary("penguin", {}) == (0, 1)


def test_a_solo_game_on_the_dailys_deal_counts_for_nothing(
    store: Callable[..., MatchStore], day0: Clock
) -> None:
    """``--deal N`` with the daily's number is a solo game: it neither starts nor
    replaces the attempt."""
    ann = Daily(store("ann"))
    solo = new_game("penguin", ann.deal("penguin", {}))
    solo.play(str(solo.legal_moves()[0]))
    assert ann.state("penguin", {}) is None and ann.summary("penguin", {}) == (0, 0)


PINNED = "pinned-1"
"""A host secret whose Penguin daily of 2027-01-15 the tests' search wins fast."""


def test_a_won_daily_comes_first(
    store: Callable[..., MatchStore], day0: Clock, backend: str
) -> None:
    """The winning move writes the result (won) in its own transaction; a won daily
    ranks above any that was not won, whatever the figures. (538 moves: on
    PostgreSQL 8 seconds, so there with TERMSOLITAIRE_FULL=1 only.)"""
    if backend == "postgresql" and os.environ.get("TERMSOLITAIRE_FULL") != "1":
        pytest.skip("538 transactions on PostgreSQL: TERMSOLITAIRE_FULL=1 plays them")
    from ..screens.conftest import winning_line

    ann_s, bob_s = store("ann"), store("bob")
    with ann_s.db.write("pin the secret") as db:
        db.execute("INSERT INTO host_secret VALUES (1, ?, 0)", (PINNED,))
    ann, bob = Daily(ann_s), Daily(bob_s)
    b = bob.attempt("penguin", {})
    play(b, 4, day0)
    b.act("end")
    a = ann.attempt("penguin", {})
    line = winning_line(new_game("penguin", a.deal), lambda m: ("ftc".index(m.dst[0]), -m.count))
    assert line is not None
    for move in line:
        day0.advance(1)
        a.act(str(move))
    assert a.finished and a.game.is_won and ann.state("penguin", {}) == "won"
    lines = bob.board("penguin", {})
    assert [(ln.player.id, ln.won) for ln in lines] == [("ann", True), ("bob", False)]
    assert lines[0].moves > lines[1].moves and lines[0].seconds > lines[1].seconds
    assert bob.summary("penguin", {}) == (1, 2)
    assert bob.line("penguin", {}) == "Daily: Penguin · 1 of 2 players won so far · you played"
