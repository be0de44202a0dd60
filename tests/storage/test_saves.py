"""The autosave: exact round trip, and damaged files reported and kept aside."""

from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from termsolitaire.rules import new_game
from termsolitaire.storage.files import StorageError
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import SaveStore, decode, encode

from ..conftest import FULL


def _played(name="spider", **variant):
    g = new_game(name, deal=42, **variant)
    rng = random.Random(3)
    for _ in range(25):
        moves = [m for m in g.legal_moves() if m.kind == "move"] or g.legal_moves()
        g.play(rng.choice(moves))
        if rng.random() < 0.3 and g.can_undo:
            g.undo()
    g.elapsed = 123.25
    return g


@pytest.fixture
def store(tmp_path):
    return SaveStore(paths(tmp_path))


def test_resume_gives_the_identical_game(store):
    g = _played(suits=2)
    store.save(g, "id-1", {"time_limit": 10})
    saved, message = store.load("spider", {"suits": 2})
    assert message is None and saved is not None
    assert saved.game.to_json() == g.to_json()
    assert saved.game.to_text() == g.to_text()
    assert saved.game.history == g.history and saved.game.redo_list == g.redo_list
    assert saved.game.can_undo == g.can_undo and saved.game.elapsed == 123.25
    assert (saved.id, saved.options) == ("id-1", {"time_limit": 10})


def test_no_save_is_not_an_error(store):
    assert store.load("penguin") == (None, None)


def _check_damaged(store, raw: bytes, good_json: str, suits: int) -> None:
    path = store.path("spider", {"suits": suits})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    saved, message = store.load("spider", {"suits": suits})
    if saved is not None:
        # Loaded: then it must be exactly the game that was saved.
        assert saved.game.to_json() == good_json
        assert message is None
    else:
        assert message and message.startswith("The saved Spider game could not be read")
        assert not path.exists()
        kept = list(path.parent.glob(f"{path.name}.corrupt-*"))
        assert kept and any(k.read_bytes() == raw for k in kept)
        for k in kept:
            k.unlink()


def test_truncated_at_every_byte_offset(store):
    g = _played(suits=1)
    good = encode(g, "id-2").encode()
    step = 1 if FULL else max(1, len(good) // 400)
    offsets = [*range(0, len(good), step), len(good) - 1]
    for cut in offsets:
        _check_damaged(store, good[:cut], g.to_json(), 1)


def test_random_bytes_flipped(store):
    g = _played(suits=4)
    good = encode(g, "id-3").encode()
    rng = random.Random(11)
    for _ in range(2000 if FULL else 300):
        raw = bytearray(good)
        for _ in range(rng.randint(1, 3)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        _check_damaged(store, bytes(raw), g.to_json(), 4)


def test_future_version_is_kept_aside(store):
    g = _played()
    store.save(g, "id-4")
    path = store.path("spider", g.variant)
    path.write_text(path.read_text().replace('"version": 1', '"version": 9', 1))
    saved, message = store.load("spider", g.variant)
    assert saved is None and "newer termsolitaire" in message
    assert list(path.parent.glob(f"{path.name}.corrupt-*"))


def test_each_variant_has_its_own_save(store):
    """Issue 9.4: starting 2-suit Spider leaves a 1-suit game in progress alone."""
    one, two = _played(suits=1), _played(suits=2)
    store.save(one, "id-1")
    store.save(two, "id-2")
    assert store.load("spider", {"suits": 1})[0].id == "id-1"  # type: ignore[union-attr]
    assert store.load("spider", {"suits": 2})[0].id == "id-2"  # type: ignore[union-attr]
    assert store.load("spider", {"suits": 4}) == (None, None)
    store.delete("spider", {"suits": 2})
    assert store.load("spider", {"suits": 1})[0].id == "id-1"  # type: ignore[union-attr]
    saves, problems = store.all()
    assert [s.id for s in saves] == ["id-1"] and problems == []


def test_a_save_from_before_the_slots_is_still_read(store):
    """A 2-suit game saved as spider.json (one file per game, before) is found in
    its variant's slot and moves to the slot's own file at the next save."""
    g = _played(suits=2)
    legacy = store.paths.save_file("spider")
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text(encode(g, "old"))
    assert store.load("spider", {"suits": 1}) == (None, None)
    saved, _ = store.load("spider", {"suits": 2})
    assert saved is not None and saved.id == "old"
    store.save(saved.game, saved.id)
    assert not legacy.exists() and store.path("spider", {"suits": 2}).exists()


def test_a_save_of_another_game_is_refused(store):
    g = new_game("penguin", deal=1)
    store.paths.saves.mkdir(parents=True)
    store.paths.save_file("napoleon").write_text(encode(g, "x"))
    saved, message = store.load("napoleon")
    assert saved is None and "holds a penguin game" in message


def test_unwritable_data_directory_gives_a_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = SaveStore(paths(blocker / "data"))
    with pytest.raises(StorageError, match="cannot write"):
        store.save(new_game("napoleon", deal=1), "id")


def test_decode_refuses_pickle_and_garbage():
    import pickle

    for raw in (pickle.dumps({"a": 1}), b"", b"[]", b'{"format": "termsolitaire-autosave"}'):
        with pytest.raises(ValueError):
            decode(raw)


@contextlib.contextmanager
def penguin_held_elsewhere(tmp_path: Path, **env: str) -> Iterator[subprocess.Popen[str]]:
    """Another process holding Penguin's save lock in ``tmp_path`` (with ``env``)
    until the block ends, then killed."""
    code = (
        "import time\n"
        "from termsolitaire.storage.paths import paths\n"
        "from termsolitaire.storage.saves import SaveStore\n"
        f"lock = SaveStore(paths({str(tmp_path)!r})).lock('penguin')\n"
        "assert lock.acquire()\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, **env),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def test_a_game_open_in_one_process_is_locked_for_another(store, tmp_path):
    """Issue 9.5: the lock beside a save is held by one process at a time and let go
    when that process dies, however it dies."""
    with penguin_held_elsewhere(tmp_path) as holder:
        mine = store.lock("penguin")
        assert not mine.acquire()
        assert not mine.held_here()
        assert mine.holder().startswith(f"process {holder.pid} on ")
        assert store.lock("napoleon").acquire()  # another game is free
    assert mine.acquire()  # the kill let it go
    mine.release()


def test_a_game_open_in_this_process_is_told_from_one_open_in_another(store):
    """A second lock of a slot this process holds is refused, as another process's
    would be (flock), but knows the game is open here: a double click that opened
    a game twice was told it was "open in another window", this very process."""
    first, second = store.lock("penguin"), store.lock("penguin")
    assert first.acquire() and not second.acquire()
    assert second.held_here()
    first.release()
    assert not second.held_here() and second.acquire()
    second.release()


def test_a_game_open_in_another_ssh_session_names_no_host_or_process(store, tmp_path):
    """Under ``serve`` the player read "open in another window (process 11603 on vm
    since 08:14)": the server's host name and a pid they can do nothing with."""
    player = {"TERMSOLITAIRE_PLAYER_ID": "SHA256:abc", "TERMSOLITAIRE_PLAYER": "ann"}
    with penguin_held_elsewhere(tmp_path, **player):
        mine = store.lock("penguin")
        assert not mine.acquire()
        assert re.fullmatch(r"an SSH session since \d\d:\d\d", mine.holder()), mine.holder()


def test_an_unreadable_save_is_reported_once_and_set_aside(store):
    """Issue 30: a directory where the save file should be is reported once, moved
    aside, and the next save is written in its place; nothing raises."""
    path = store.path("penguin")
    path.mkdir(parents=True)
    saved, message = store.load("penguin")
    assert saved is None and message is not None
    assert message.startswith("The saved Penguin game could not be read") and "kept as" in message
    assert not path.exists() and list(path.parent.glob(f"{path.name}.corrupt-*"))
    assert store.load("penguin") == (None, None)  # once: the next look finds nothing
    assert store.all() == ([], [])
    g = new_game("penguin", deal=3)
    store.save(g, "id-9")
    assert store.load("penguin")[0] is not None
