"""Statistics in SQLite: exact counts under two writers, figures, damaged files."""

from __future__ import annotations

import subprocess
import sys

import pytest

from termsolitaire.storage.stats import Stats

from ..conftest import FULL

WRITER = """
import sys
from termsolitaire.storage.stats import Stats
stats = Stats(__import__("pathlib").Path(sys.argv[1]))
tag, n = sys.argv[2], int(sys.argv[3])
for i in range(n):
    stats.record(f"{tag}-{i}", "penguin", {}, i, i % 3 == 0, i % 52, 100 + i % 7, 60.0 + i)
    if i % 2:
        stats.record(f"{tag}-{i}", "penguin", {}, i, True, 52, 1, 1.0)  # a repeat: ignored
print("ok")
"""


def test_two_processes_record_at_once_and_counts_are_exact(tmp_path):
    db = tmp_path / "stats.sqlite3"
    n = 1000
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), tag, str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("a", "b")
    ]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and out.strip() == "ok", err
    (summary,) = Stats(db).summaries()
    assert summary.played == 2 * n
    assert summary.won == 2 * len(range(0, n, 3))
    assert summary.fewest_moves == 100 and summary.best_score == 51


def test_figures_and_streaks(tmp_path):
    stats = Stats(tmp_path / "s.db")
    results = [True, True, False, True, True, True, False, True]
    for i, won in enumerate(results):
        stats.record(f"g{i}", "spider", {"suits": 2}, i, won, 500 + i, 90 - i, 300.0 - i)
    stats.record("g0", "spider", {"suits": 2}, 0, False, 0, 0, 0.0)  # counted once
    stats.record("x", "spider", {"suits": 1}, 9, False, 10, 10, 10.0)
    s2, s1 = sorted(stats.summaries(), key=lambda s: s.variant, reverse=True)
    assert (s2.variant, s2.played, s2.won) == ("suits=2", 8, 6)
    assert s2.win_rate == pytest.approx(0.75)
    assert (s2.longest_streak, s2.current_streak) == (3, 1)
    assert (s2.best_score, s2.best_time, s2.fewest_moves) == (507, 293.0, 83)
    assert (s1.played, s1.won, s1.best_time, s1.current_streak) == (1, 0, None, 0)
    assert [f.id for f in stats.finished(limit=2)] == ["x", "g7"]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "future"])
def test_damaged_database_is_kept_aside(tmp_path, damage):
    path = tmp_path / "stats.sqlite3"
    stats = Stats(path)
    for i in range(20 if not FULL else 200):
        stats.record(f"g{i}", "napoleon", {}, i, True, 52, 80, 100.0)
    stats.close()
    raw = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "truncated":
        path.write_bytes(raw[:50])
    else:
        import sqlite3

        db = sqlite3.connect(path)
        db.execute("PRAGMA user_version = 99")
        db.commit()
        db.close()
    fresh = Stats(path)
    assert fresh.summaries() == []
    assert fresh.messages and "starting afresh" in fresh.messages[0]
    assert list(tmp_path.glob("stats.sqlite3.corrupt-*"))
    assert fresh.record("new", "napoleon", {}, 1, True, 52, 70, 90.0)


def test_wal_switch_waits_out_another_process_switching(tmp_path):
    """SQLite answers a second WAL switch "locked" at once, bypassing its busy
    handler; opening the statistics must wait, not fail (seen in CI)."""
    import sqlite3

    from termsolitaire.storage.sqlite import use_wal

    class Racing:
        def __init__(self):
            self.refusals = 2
            self.db = sqlite3.connect(tmp_path / "s.db")

        def execute(self, sql):
            if sql.endswith("= WAL") and self.refusals:
                self.refusals -= 1
                raise sqlite3.OperationalError("database is locked")
            return self.db.execute(sql)

    racing = Racing()
    use_wal(racing)  # type: ignore[arg-type]
    assert racing.refusals == 0
    assert racing.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_file_from_before_the_time_limits_takes_the_column_and_keeps_its_rows(tmp_path):
    """Schema 2 adds each game's time limit: a file of schema 1 is brought to 2
    in place, its games kept with the limit unknown (None)."""
    import sqlite3

    path = tmp_path / "stats.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, finished_at TEXT NOT NULL, game TEXT NOT"
        " NULL, variant TEXT NOT NULL, deal INTEGER, result TEXT NOT NULL, score INTEGER NOT"
        " NULL, moves INTEGER NOT NULL, seconds REAL NOT NULL);"
        "INSERT INTO games VALUES ('old', '2026-01-01T00:00:00Z', 'spider', 'suits=2', 7,"
        " 'lost', 10, 5, 60.0); PRAGMA user_version = 1;"
    )
    old.close()
    stats = Stats(path)
    assert stats.record("new", "spider", {"suits": 2}, 8, False, 10, 5, 60.0, minutes=5)
    assert [(f.id, f.minutes) for f in stats.finished()] == [("new", 5), ("old", None)]
    assert stats.messages == []
    stats.close()
    again = Stats(path)  # opened again: nothing to bring up, nothing lost
    assert [f.id for f in again.finished()] == ["new", "old"]
    again.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2
