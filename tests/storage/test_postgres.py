"""What only the PostgreSQL backend has: the schema's versions, broken rows kept
aside, and ``db import`` moving a populated data directory (twice: nothing more)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import psycopg
import pytest

from termsolitaire.cli import main
from termsolitaire.match import MatchError, MatchStore, Player
from termsolitaire.match.daily import Daily, DailyDone
from termsolitaire.match.shares import open_code, share
from termsolitaire.rules import new_game
from termsolitaire.storage import schema
from termsolitaire.storage.backend import open_storage
from termsolitaire.storage.files import StorageError
from termsolitaire.storage.settings import Settings


def test_upgrade_twice_applies_nothing_the_second_time(postgres: str) -> None:
    with psycopg.connect(postgres, autocommit=True) as conn:
        assert schema.version(conn) == schema.LATEST
        assert schema.upgrade(conn) == []


def test_migration_6_keeps_the_finished_games_and_adds_their_time_limit(
    postgres: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database at migration 5 with a finished game: ``db upgrade`` adds the
    limit, the game kept with its limit unknown, and a new game keeps its own."""
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "ann")
    s = open_storage(tmp_path, postgres)
    assert s.stats.record("before", "spider", {"suits": 1}, 3, True, 900, 100, 400.0)
    s.close()
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("ALTER TABLE finished_games DROP COLUMN minutes")
        conn.execute("ALTER TABLE match.seats DROP COLUMN credit_s")  # (and 7's, after it)
        conn.execute("ALTER TABLE sessions DROP COLUMN stopped_at")
        conn.execute("DELETE FROM schema_version WHERE version >= 6")
        assert schema.version(conn) == 5
        with pytest.raises(StorageError, match="db upgrade"):
            open_storage(tmp_path, postgres).stats.finished()
    assert main(["db", "--database", postgres, "upgrade"]) == 0
    s = open_storage(tmp_path, postgres)
    assert s.stats.record("after", "spider", {"suits": 1}, 4, False, 90, 10, 300.0, minutes=10)
    assert [(f.id, f.minutes) for f in s.stats.finished()] == [("after", 10), ("before", None)]
    s.close()


def test_a_database_at_another_schema_is_refused_with_what_to_do(
    postgres: str, tmp_path: Path
) -> None:
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
        try:
            s = open_storage(tmp_path, postgres)
            with pytest.raises(StorageError, match="db upgrade"):
                s.stats.finished()
        finally:
            conn.execute("DELETE FROM schema_version WHERE version = 99")


def test_a_broken_save_is_reported_and_kept_aside(postgres: str, tmp_path: Path) -> None:
    s = open_storage(tmp_path, postgres)
    s.saves.save(new_game("penguin", deal=3), "x")
    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("UPDATE saves SET body = replace(body, 'penguin', 'pengu1n')")
    saved, problem = s.saves.load("penguin")
    assert saved is None and problem is not None and "kept as penguin.corrupt-" in problem
    assert s.saves.load("penguin") == (None, None)
    s.close()


def _populate(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """A serve host's data directory: a local player's files at the top, two SSH
    players under players/, and a finished match in the match store."""
    top = open_storage(root, None)
    top.saves.save(new_game("penguin", deal=1), "p1")
    top.stats.record("t1", "penguin", {}, 1, True, 52, 60, 90.0)
    top.save_settings(Settings())
    for n, name in enumerate(("ann", "bob")):
        home = root / "players" / f"sha256-{name}"
        home.mkdir(parents=True)
        record = {"name": name, "fingerprint": f"SHA256:{name}", "key": f"ssh-ed25519 {name}"}
        (home / "player.json").write_text(json.dumps(record))
        mine = open_storage(home, None)
        mine.saves.save(new_game("spider", deal=n, suits=2), f"{name}-s")
        mine.saves.save(new_game("stjernen", deal=n), f"{name}-t")
        for k in range(3):
            mine.stats.record(f"{name}-{k}", "spider", {"suits": 2}, k, k == 0, 10, 5, 1.0)
        mine.close()
    top.close()
    ann = MatchStore(Player.make("ann"), root / "match")
    bob = MatchStore(Player.make("bob"), root / "match")
    a = ann.open_table(suits=1, minutes=5, deal=11)
    b = bob.join(a.table_id)
    a.start()
    b.start()
    a.act("deal")
    a.end()
    b.end()
    ann.results(a.table_id)
    ann.close()
    bob.close()
    with sqlite3.connect(root / "match" / "match.sqlite3") as db:
        counts = {
            t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("players", "tables", "seats", "actions", "outcomes")
        }
    assert counts["tables"] == 1 and counts["outcomes"] == 2 and counts["actions"] >= 1
    return counts


def test_db_import_moves_everything_and_twice_moves_nothing(
    postgres: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = tmp_path / "host"
    match = _populate(root, monkeypatch)
    argv = ["db", "--database", postgres, "import", str(root), "--owner", "local:me"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "2 players, 5 saves, 7 statistics, 1 settings" in first
    assert f"{match['actions']} match actions" in first
    assert f"{match['outcomes']} match outcomes" in first

    for who, saves, games in (("local:me", 1, 1), ("SHA256:ann", 2, 3), ("SHA256:bob", 2, 3)):
        monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", who)
        s = open_storage(tmp_path / "elsewhere", postgres)
        found, problems = s.saves.all()
        assert problems == [] and len(found) == saves
        assert len(s.stats.finished()) == games
        s.close()
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "SHA256:ann")
    s = open_storage(tmp_path / "elsewhere", postgres)
    assert s.saves.load("spider", {"suits": 2})[0] is not None
    s.close()
    with psycopg.connect(postgres) as conn:
        assert conn.execute("SELECT name FROM players ORDER BY 1").fetchall() == [
            ("ann",),
            ("bob",),
        ]
        for table, count in match.items():
            assert conn.execute(f"SELECT count(*) FROM match.{table}").fetchone() == (count,)

    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("moved 0 rows")


def test_db_import_keeps_the_daily_the_spectators_and_the_share_codes(
    postgres: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A host moved to PostgreSQL keeps what its players did beyond the matches:
    ``db import`` moved only the match store's first tables, so after the move the
    day's daily was another deal, one ann had already played was hers to play
    again (and its leaderboard empty), carl who had watched table 1 could take
    its free seat, and a share code named no game."""
    root = tmp_path / "host"
    ann = MatchStore(Player.make("ann"), root / "match")
    carl = MatchStore(Player.make("carl"), root / "match")
    daily = Daily(ann)
    deal = daily.deal("penguin", {})
    daily.attempt("penguin", {}).act("end")
    table = ann.open_table(suits=1, minutes=5, deal=11).table_id
    carl.spectate(table)
    carl.set_watchable(False)
    code = share(ann, new_game("penguin", deal=3))
    ann.close()
    carl.close()

    assert main(["db", "--database", postgres, "import", str(root)]) == 0
    out = capsys.readouterr().out
    assert "1 match host secret, 1 match daily attempts" in out
    assert "1 match spectators" in out and "1 match shares" in out

    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    ann = MatchStore(Player.make("ann"), tmp_path / "elsewhere")
    carl = MatchStore(Player.make("carl"), tmp_path / "elsewhere")
    try:
        daily = Daily(ann)
        assert daily.deal("penguin", {}) == deal
        assert daily.state("penguin", {}) == "lost"
        with pytest.raises(DailyDone):
            daily.attempt("penguin", {})
        with pytest.raises(MatchError, match="seen its deal"):
            carl.join(table)
        assert not carl.watchable()
        assert open_code(ann, code).deal == 3
    finally:
        ann.close()
        carl.close()
    assert main(["db", "--database", postgres, "import", str(root)]) == 0
    assert capsys.readouterr().out.startswith("moved 0 rows")


def test_db_import_takes_a_match_store_older_than_the_daily(
    postgres: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A host that last ran before the daily has a match store without its tables:
    the import moves what there is."""
    store = tmp_path / "host" / "match"
    ann = MatchStore(Player.make("ann"), store)
    ann.open_table(suits=1, minutes=5, deal=11)
    ann.close()
    with sqlite3.connect(store / "match.sqlite3") as db:
        for table in ("host_secret", "daily_attempts", "spectators", "shares"):
            db.execute(f"DROP TABLE {table}")
    assert main(["db", "--database", postgres, "import", str(tmp_path / "host")]) == 0
    assert "1 match tables" in capsys.readouterr().out


def test_main_leaves_no_database_behind_for_the_next_test() -> None:
    import os

    assert "TERMSOLITAIRE_DATABASE" not in os.environ


def test_stats_reads_the_database_named_on_the_command_line(
    postgres: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "SHA256:ann")
    s = open_storage(tmp_path, postgres)
    s.stats.record("g1", "penguin", {}, 5, True, 52, 80, 100.0)
    s.close()
    assert main(["stats", "--database", postgres]) == 0
    out = capsys.readouterr().out
    assert "Penguin" in out and "52" in out
    assert main(["stats", "--database", "mysql://x/y"]) == 1
    assert "unknown database 'mysql'" in capsys.readouterr().err


def test_db_without_a_database_says_what_to_give(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "status"]) == 1
    assert "give --database postgresql://" in capsys.readouterr().err


def test_db_takes_the_database_after_its_action_too(
    postgres: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """As README writes it, ``db status --database URL``: it was an unknown argument."""
    assert main(["db", "status", "--database", postgres]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["db", "--database", postgres, "status"]) == 0
    assert "up to date" in capsys.readouterr().out
