"""The database going wrong under a match: reported, never a crash; the games go on
here and what can be kept is kept."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from termsolitaire.match import (
    MatchStore,
    Player,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreGone,
)

from .conftest import first_moves


@pytest.fixture
def backend() -> str:
    """These faults are the SQLite file's own (deleted, locked, read-only, put back);
    PostgreSQL's are in test_postgres_outage.py."""
    return "sqlite"


def stored_actions(path: Path, seat: int) -> list[str]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute(
            "SELECT action FROM actions WHERE table_id = 1 AND seat = ? ORDER BY n", (seat,)
        ).fetchall()
    finally:
        db.close()
    return [r[0] for r in rows]


def test_a_database_that_disappears_and_comes_back(store, shared, clock) -> None:  # type: ignore[no-untyped-def]
    ann, bob = store("ann"), store("bob")
    a, b = ann.open_table(deal=4), bob.join(1)
    a.start()
    b.start()
    a.act("deal")
    backup = shared.parent / "backup.sqlite3"
    src = sqlite3.connect(ann.path)
    dst = sqlite3.connect(backup)
    src.backup(dst)
    src.close()
    dst.close()
    for f in shared.iterdir():
        f.unlink()

    move = first_moves(a.game, 1)[0]
    clock.advance(5)
    assert a.act(move) is not None  # no exception: the game goes on here
    assert "has disappeared" in (a.problem or "") and "goes on here" in (a.problem or "")
    assert a.log == ["deal", move] and [p[0] for p in a.pending] == [move]
    b.act("deal")  # and so does the other player's
    assert b.pending and b.game.packets == 4
    with pytest.raises(StoreGone, match="has disappeared: cannot read the tables"):
        ann.tables()
    with pytest.raises(StoreGone, match="is not there"):
        MatchStore(Player.make("cat"), shared, create=False)

    a.sync()  # still gone: nothing lost, still pending
    assert a.pending and "not there" in (a.problem or "")
    shutil.copy(backup, ann.path)  # the admin puts the file back
    a.sync()
    b.sync()
    assert a.problem is None and a.pending == [] and b.pending == []
    assert stored_actions(ann.path, 1) == ["deal", move]
    assert stored_actions(ann.path, 2) == ["deal"]
    assert [t.id for t in store("cat").tables()] == [1]


def test_a_busy_database_keeps_the_action_for_the_next_write(store, shared, clock) -> None:  # type: ignore[no-untyped-def]
    ann = store("ann", busy_ms=50)
    bob = store("bob")
    a = ann.open_table(deal=4)
    a.start()
    holder = sqlite3.connect(ann.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # someone holds the write lock too long
    try:
        a.act("deal")
        assert a.pending and "busy" in (a.problem or "")
        assert [t.id for t in bob.tables()] == [1]  # readers are not blocked (WAL)
        with pytest.raises(StoreBusy, match="busy: cannot open a table now; try again"):
            ann.open_table()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    a.act("deal")
    assert a.pending == [] and a.problem is None
    assert stored_actions(ann.path, 1) == ["deal", "deal"]


def test_a_damaged_database_is_kept_aside_and_a_new_one_started(shared) -> None:  # type: ignore[no-untyped-def]
    shared.mkdir()
    (shared / "match.sqlite3").write_bytes(b"this is not a database at all" * 100)
    s = MatchStore(Player.make("ann"), shared)
    assert len(s.messages) == 1 and "could not be read" in s.messages[0]
    assert "kept as match.sqlite3.corrupt-" in s.messages[0]
    assert [p.name.startswith("match.sqlite3.corrupt-") for p in shared.iterdir()].count(True) == 1
    s.open_table()
    assert len(s.tables()) == 1
    s.close()


def test_a_database_from_a_newer_version_is_left_alone(shared) -> None:  # type: ignore[no-untyped-def]
    MatchStore(Player.make("ann"), shared).close()
    db = sqlite3.connect(shared / "match.sqlite3")
    db.execute("PRAGMA user_version = 99")
    db.close()
    size = (shared / "match.sqlite3").stat().st_size
    with pytest.raises(StoreDamaged, match=r"newer termsolitaire \(schema 99\); update"):
        MatchStore(Player.make("ann"), shared)
    assert (shared / "match.sqlite3").stat().st_size == size
    assert sorted(p.name for p in shared.iterdir())[0] == "match.sqlite3"


def test_a_shared_directory_makes_a_group_writable_database(tmp_path) -> None:  # type: ignore[no-untyped-def]
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o2775)  # group-writable, setgid: what docs/match.md asks for
    s = MatchStore(Player.make("ann"), shared)
    seat = s.open_table()
    seat.start()
    seat.act("deal")
    names = {"match.sqlite3", "match.sqlite3-wal", "match.sqlite3-shm"}
    assert names <= {p.name for p in shared.iterdir()}
    for name in names:
        mode = (shared / name).stat().st_mode
        assert mode & stat.S_IRGRP and mode & stat.S_IWGRP, (name, oct(mode))
        assert (shared / name).stat().st_gid == shared.stat().st_gid
    s.close()


READ_ONLY_CHILD = r"""
import json, os, sys
from termsolitaire.match import MatchStore, MatchError, Player
import termsolitaire.match.seat, termsolitaire.match.results, termsolitaire.rules.spider

if os.geteuid() == 0:
    os.setgid(65534)
    os.setuid(65534)

def out(**kw):
    print(json.dumps(kw), flush=True)

s = MatchStore(Player.make("ann"), sys.argv[1])
seat = s.seat(1)
before = list(seat.log)
moves = seat.game.legal_moves()  # a transfer; on a random deal with none, a deal
move = next((str(m) for m in moves if m.kind == "move"), str(moves[0]))
seat.act(move)
refusals = []
for attempt in (lambda: s.open_table(), lambda: s.add_friend("bob")):
    try:
        attempt()
    except MatchError as e:
        refusals.append([type(e).__name__, e.reason])
out(messages=s.messages, tables=[t.id for t in s.tables()], before=before, log=seat.log,
    pending=len(seat.pending), problem=seat.problem, refusals=refusals)
sys.stdin.readline()  # the parent fixes the permissions
seat.sync()
out(pending=len(seat.pending), problem=seat.problem, log=seat.log)
"""


def test_a_read_only_database_is_reported_and_the_game_goes_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Run as a player who may read the database but not write it (as root: the
    child drops to 'nobody', since root may write any file)."""
    top = Path(tempfile.mkdtemp(prefix="ts-ro-"))
    try:
        os.chmod(top, 0o755)
        shared = top / "match"
        s = MatchStore(Player.make("ann"), shared)
        seat = s.open_table(deal=9)
        seat.start()
        seat.act("deal")
        s.close()
        MatchStore(Player.make("bob"), shared).close()
        files = [*shared.iterdir()]
        for f in files:
            os.chmod(f, 0o444)
        os.chmod(shared, 0o555)
        script = top / "child.py"
        script.write_text(READ_ONLY_CHILD)
        os.chmod(script, 0o644)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        child = subprocess.Popen(
            [sys.executable, str(script), str(shared)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=top,
        )
        assert child.stdin and child.stdout
        first = json.loads(child.stdout.readline())
        assert any("read-only for you" in m for m in first["messages"])
        assert first["tables"] == [1] and first["before"] == ["deal"]
        assert first["pending"] == 1 and len(first["log"]) == 2
        assert "read-only: cannot save your move" in first["problem"]
        assert [r[0] for r in first["refusals"]] == ["StoreReadOnly", "StoreReadOnly"]
        assert "cannot open a table" in first["refusals"][0][1]
        assert stored_actions(shared / "match.sqlite3", 1) == ["deal"]

        os.chmod(shared, 0o777)  # the admin fixes the permissions
        for f in files:
            os.chmod(f, 0o666)
        child.stdin.write("go\n")
        child.stdin.flush()
        second = json.loads(child.stdout.readline())
        assert child.wait(timeout=60) == 0
        assert second["pending"] == 0 and second["problem"] is None
        assert stored_actions(shared / "match.sqlite3", 1) == first["log"]
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_a_match_dir_that_cannot_be_made_is_reported(tmp_path) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match=r"Cannot create the match directory .*match: "):
        MatchStore(Player.make("ann"), blocker / "match")


class Lock:
    """Someone holding the database's write lock until released."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.db.execute("ROLLBACK")
        self.db.close()


def test_an_end_played_while_the_store_is_busy_is_shared_later(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann = store("ann", busy_ms=20)
    a = ann.open_table(minutes=5)
    a.start()
    lock = Lock(ann.path)
    clock.advance(30)
    a.act("deal")
    clock.advance(30)
    a.end()
    assert a.finished and a.reason == "end" and len(a.pending) == 2
    lock.release()
    clock.advance(30)
    a.sync()
    assert a.pending == [] and a.problem is None
    info = store("bob").table(1).seats[0]
    assert (info.reason, info.time_used, info.actions) == ("end", 60, 2)
    assert stored_actions(ann.path, 1) == ["deal", "end"]


def test_actions_still_unshared_when_time_runs_out_are_lost_and_it_says_so(store, clock) -> None:  # type: ignore[no-untyped-def]
    ann = store("ann", busy_ms=20)
    a = ann.open_table(minutes=5)
    a.start()
    a.act("deal")
    lock = Lock(ann.path)
    a.act("deal")
    assert len(a.pending) == 1 and a.game.packets == 3
    lock.release()
    clock.advance(300)
    assert a.check_clock()
    assert a.problem == (
        "1 action played while the match database was unavailable "
        "could not be shared before your time ran out"
    )
    assert a.log == ["deal"] and a.game.packets == 4  # the game the results count
    res = store("bob").results(1)
    assert res.seats[0].reason == "time"


def test_the_next_action_opens_the_store_again_and_shares_what_waited(
    store, shared, clock, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """Issue 27: after the store came back, the next action alone (no sync) shares the
    actions that waited, and a seat made anew meanwhile (the board left and opened
    again) had kept them in the player's own directory."""
    import termsolitaire.match.dbcore as db_module

    monkeypatch.setattr(db_module, "HEAL_EVERY", 0.0)
    ann = store("ann", keep_dir=shared.parent / "ann-own")
    a = ann.open_table(deal=4)
    a.start()
    backup = shared.parent / "backup.sqlite3"
    src, dst = sqlite3.connect(ann.path), sqlite3.connect(backup)
    src.backup(dst)
    src.close()
    dst.close()
    for f in shared.iterdir():
        f.unlink()
    a.act("deal")
    a.act("deal")
    assert len(a.pending) == 2 and a.kept_path is not None and a.kept_path.exists()

    shutil.copy(backup, ann.path)  # back, with none of the two deals
    again = ann.seat(1)  # the board opened again: the deals come from the kept file
    assert again.log == ["deal", "deal"] and len(again.pending) == 2
    again.act("deal")  # the next action shares all three
    assert again.pending == [] and again.problem is None
    assert stored_actions(ann.path, 1) == ["deal", "deal", "deal"]
    assert not again.kept_path.exists()
    assert ann.seat(1).log == ["deal", "deal", "deal"]  # nothing doubled
