"""Issue 27, point 5: a symbolic link planted where the program keeps a file is
refused with a sentence and left alone; its target is never created, written,
truncated or made group-writable."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, Player, StoreError
from termsolitaire.storage.files import StorageError
from termsolitaire.storage.locks import SaveLock
from termsolitaire.storage.stats import Stats

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symbolic links")


@pytest.mark.parametrize("name", ["match.sqlite3", "match.sqlite3-wal", "match.sqlite3-shm"])
def test_a_link_in_the_shared_match_directory_is_refused(tmp_path: Path, name: str) -> None:
    shared, victim = tmp_path / "shared", tmp_path / "victim"
    shared.mkdir(mode=0o2770)
    os.chmod(shared, 0o2770)
    victim.mkdir()
    target = victim / "their.db"
    (shared / name).symlink_to(target)
    with pytest.raises(StoreError, match="is a symbolic link: refused and left alone"):
        MatchStore(Player.make("ann"), shared)
    assert not target.exists()
    assert (shared / name).is_symlink()


def test_a_link_to_an_existing_file_is_not_made_group_writable(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o2770)
    target = tmp_path / "private.txt"
    target.write_text("mine")
    os.chmod(target, 0o600)
    (shared / "match.sqlite3").symlink_to(target)
    with pytest.raises(StoreError, match="symbolic link"):
        MatchStore(Player.make("ann"), shared)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_text() == "mine"


def test_a_link_in_place_of_a_save_lock_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("do not truncate me")
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "penguin.lock").symlink_to(target)
    lock = SaveLock(saves / "penguin.lock")
    assert lock.acquire()  # play goes on, unlocked, and the player is told
    assert lock.problem is not None and "symbolic link" in lock.problem
    assert target.read_text() == "do not truncate me"
    assert lock.holder() == "another copy"
    lock.release()


def test_a_link_in_place_of_the_statistics_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.db"
    (tmp_path / "stats.sqlite3").symlink_to(target)
    store = Stats(tmp_path / "stats.sqlite3")
    with pytest.raises(StorageError, match="symbolic link"):
        store.record("g1", "penguin", {}, 5, True, 52, 100, 60.0)
    assert not target.exists()
