"""The storage contract: what the app may count on from any backend.

Each test runs against the files (today's default) and against PostgreSQL (a
fresh database for the test session, tests/postgres.py); ``make(player)``
opens the storage of one player, as one session of ``serve`` would.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from termsolitaire.rules import new_game
from termsolitaire.storage.backend import Storage, backend_of, open_storage
from termsolitaire.storage.files import StorageError
from termsolitaire.storage.paths import paths
from termsolitaire.storage.settings import Settings

Make = Callable[[str], Storage]


@pytest.fixture(params=["files", "postgresql"])
def make(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch) -> Iterator[Make]:  # type: ignore[no-untyped-def]
    opened: list[Storage] = []
    url = request.getfixturevalue("postgres") if request.param == "postgresql" else None

    def make(player: str) -> Storage:
        monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", player)
        s = open_storage(tmp_path / player, url)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


def _played(name: str = "spider", moves: int = 20, **variant: int):  # type: ignore[no-untyped-def]
    g = new_game(name, deal=42, **variant)
    rng = random.Random(5)
    for _ in range(moves):
        legal = g.legal_moves()
        if not legal:
            break
        g.play(rng.choice(legal))
    g.elapsed = 61.5
    return g


def test_the_backend_is_the_one_the_setting_names(
    make: Make, request: pytest.FixtureRequest
) -> None:
    s = make("ann")
    want = {"files": "FileStorage", "postgresql": "PostgresStorage"}
    assert type(s).__name__ == want[request.node.callspec.params["make"]]
    assert backend_of(None) == "files"
    with pytest.raises(ValueError, match="mysql"):
        backend_of("mysql://x")


def test_a_save_comes_back_as_the_identical_game(make: Make) -> None:
    s = make("ann")
    g = _played(suits=2)
    s.saves.save(g, "id-1", {"time_limit": 10})
    saved, problem = make("ann").saves.load("spider", {"suits": 2})
    assert problem is None and saved is not None
    assert saved.game.to_json() == g.to_json()
    assert (saved.id, saved.options) == ("id-1", {"time_limit": 10})


def test_no_save_is_none_and_no_message(make: Make) -> None:
    assert make("ann").saves.load("penguin") == (None, None)
    assert make("ann").saves.all() == ([], [])


def test_each_variant_has_its_own_save_and_saving_again_replaces(make: Make) -> None:
    s = make("ann")
    one, two = _played(suits=1), _played(suits=2)
    s.saves.save(one, "a")
    s.saves.save(two, "b")
    s.saves.save(two, "c")
    found, problems = s.saves.all()
    assert problems == []
    assert sorted((x.game.variant["suits"], x.id) for x in found) == [(1, "a"), (2, "c")]
    assert s.saves.exists("spider", {"suits": 1})
    s.saves.delete("spider", {"suits": 1})
    assert not s.saves.exists("spider", {"suits": 1})
    assert s.saves.exists("spider", {"suits": 2})


def test_players_never_see_each_others_data(make: Make) -> None:
    ann, bob = make("ann"), make("bob")
    ann.saves.save(_played("penguin"), "x")
    ann.stats.record("g1", "penguin", {}, 1, True, 52, 80, 100.0)
    settings = Settings()
    settings.set("theme", "nord")
    ann.save_settings(settings)
    assert bob.saves.all() == ([], [])
    assert bob.stats.finished() == []
    assert bob.load_settings()[0].theme == "textual-dark"


def test_a_finished_game_counts_once(make: Make) -> None:
    s = make("ann")
    assert s.stats.record("g1", "spider", {"suits": 1}, 7, True, 900, 120, 300.0)
    assert not s.stats.record("g1", "spider", {"suits": 1}, 7, True, 900, 120, 300.0)
    assert s.stats.record("g2", "spider", {"suits": 1}, 8, False, 400, 90, 200.25)
    assert s.stats.record("g3", "penguin", {}, 9, True, 52, 70, 99.0)
    rows = make("ann").stats.finished()
    assert [r.id for r in rows] == ["g3", "g2", "g1"]  # newest first
    assert [r.id for r in make("ann").stats.finished(limit=1)] == ["g3"]
    assert rows[1].variant == "suits=1" and rows[1].seconds == 200.25 and rows[1].deal == 8
    spider = next(x for x in s.stats.summaries() if x.game == "spider")
    assert (spider.played, spider.won, spider.best_score, spider.current_streak) == (
        2,
        1,
        900,
        0,
    )


def test_a_finished_game_keeps_the_time_limit_it_was_played_with(make: Make) -> None:
    """A 5-minute Spider game was dealt again from the statistics with the
    settings' limit: the stores kept none (schema 2 of the files, migration 6 of
    PostgreSQL)."""
    s = make("ann")
    assert s.stats.record("g1", "spider", {"suits": 2}, 7, False, 90, 40, 300.0, minutes=5)
    assert s.stats.record("g2", "spider", {"suits": 2}, 8, True, 900, 120, 600.0)
    assert [(r.id, r.minutes) for r in make("ann").stats.finished()] == [("g2", 0), ("g1", 5)]


def test_settings_come_back_and_default_when_none(make: Make) -> None:
    s = make("ann")
    assert s.load_settings() == (Settings(), [])
    settings = Settings()
    settings.set("card_style", "ascii")
    settings.set("spider.suits", 2)
    s.save_settings(settings)
    back, problems = make("ann").load_settings()
    assert problems == [] and back == settings


def test_a_file_storage_is_todays_files(tmp_path: Path) -> None:
    """No change for the file backend: the same files in the same places."""
    s = open_storage(tmp_path, None)
    s.saves.save(_played("penguin"), "x")
    s.stats.record("g1", "penguin", {}, 1, True, 52, 80, 100.0)
    s.save_settings(Settings())
    where = paths(tmp_path)
    assert where.save_file("penguin").is_file()
    assert where.stats_db.is_file() and where.settings.is_file()
    s.close()


def test_a_database_that_is_not_there_says_so(tmp_path: Path) -> None:
    s = open_storage(tmp_path, "postgresql://postgres@127.0.0.1:1/nothing")
    with pytest.raises(StorageError, match="cannot reach the database"):
        s.stats.finished()
    saved, problem = s.saves.load("penguin")
    assert saved is None and problem is not None and "cannot reach" in problem
