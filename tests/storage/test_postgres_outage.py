"""The database down under a solo game (issue 32): every save and every finished game
is kept on this host and shared when the database is back; nothing is lost."""

from __future__ import annotations

import random
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from termsolitaire.rules import new_game
from termsolitaire.storage import postgres as postgres_backend
from termsolitaire.storage.backend import open_storage
from termsolitaire.storage.files import StorageError

from ..postgres import CutProxy


def test_the_database_down_mid_game_loses_nothing(
    postgres: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_backend, "RETRY_AFTER", 0.2)  # (2 s in play)
    url = urlsplit(postgres)
    proxy = CutProxy((url.hostname or "127.0.0.1", url.port or 5432))
    through = url._replace(netloc=f"postgres@127.0.0.1:{proxy.port}").geturl()
    s = open_storage(tmp_path, through)
    g = new_game("penguin", deal=8)
    rng = random.Random(1)
    s.saves.save(g, "id-1")
    proxy.cut()
    for _ in range(5):
        if g.legal_moves():
            g.play(rng.choice(g.legal_moves()))
    with pytest.raises(StorageError, match="kept on this machine"):
        s.saves.save(g, "id-1")
    assert s.stats.record("won-1", "spider", {"suits": 1}, 3, True, 900, 100, 200.0)
    assert "not shared for now" in s.stats.messages[-1]
    saved, _ = s.saves.load("penguin")  # down: the game from this host
    assert saved is not None and saved.game.to_json() == g.to_json()

    proxy.restore()
    time.sleep(0.3)  # a moment later: the next use connects again
    saved, problem = s.saves.load("penguin")
    assert problem is None and saved is not None and saved.game.to_json() == g.to_json()
    assert [f.id for f in s.stats.finished()] == ["won-1"]
    assert not list((tmp_path / "unshared-saves").rglob("*.json"))
    assert not (tmp_path / "unshared-stats.jsonl").exists()
    elsewhere = open_storage(tmp_path / "other-host", postgres)  # what another host sees
    there, _ = elsewhere.saves.load("penguin")
    assert there is not None and there.game.to_json() == g.to_json()
    assert [f.id for f in elsewhere.stats.finished()] == ["won-1"]
    s.close()
    elsewhere.close()
    proxy.cut()
