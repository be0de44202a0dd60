"""Per-key session caps across hosts (``serve --database``): the sessions table with
heartbeats; a host that died stops counting once its heartbeats are old."""

from __future__ import annotations

import pytest

from termsolitaire.serve.config import ServeConfig
from termsolitaire.serve.limits import Caps
from termsolitaire.serve.server import open_caps
from termsolitaire.serve.sessions import TTL, SharedCaps


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


def test_a_keys_sessions_count_on_every_host(postgres: str) -> None:
    clock = Clock()
    one = SharedCaps(100, 1, url=postgres, clock=clock)
    two = SharedCaps(100, 1, url=postgres, clock=clock)
    assert two.admit("SHA256:ann") is None
    one.add("SHA256:ann")
    refusal = two.admit("SHA256:ann")
    assert refusal is not None and refusal.why == "per-key cap"
    assert "on this server" in refusal.line
    assert two.admit("SHA256:bob") is None and two.admit(None) is None
    one.remove("SHA256:ann")
    assert two.admit("SHA256:ann") is None
    one.close()
    two.close()


def test_a_dead_hosts_sessions_expire_and_a_stopped_hosts_go_at_once(postgres: str) -> None:
    clock = Clock()
    dead = SharedCaps(100, 1, url=postgres, clock=clock)
    live = SharedCaps(100, 1, url=postgres, clock=clock)
    dead.add("SHA256:ann")
    clock.t += TTL / 2
    live.beat()
    assert live.admit("SHA256:ann") is not None  # still alive as far as anyone knows
    clock.t += TTL  # no heartbeat from it since: its host is gone
    assert live.admit("SHA256:ann") is None
    live.add("SHA256:bob")
    clock.t += TTL / 2
    live.beat()  # its own rows stay alive
    assert dead.admit("SHA256:bob") is not None
    live.close()  # stopped with SIGTERM: its rows go at once
    assert dead.admit("SHA256:bob") is None
    dead.db.close()


def test_the_database_down_leaves_each_host_its_own_count(tmp_path: object) -> None:
    caps = SharedCaps(100, 1, url="postgresql://postgres@127.0.0.1:1/none")
    assert caps.admit("SHA256:ann") is None
    caps.add("SHA256:ann")
    assert caps.admit("SHA256:ann") is not None  # this host's own count still holds
    caps.remove("SHA256:ann")
    caps.beat()
    caps.close()


def test_the_setting_chooses_the_caps(
    postgres: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = ServeConfig(data_dir=tmp_path)  # type: ignore[arg-type]
    assert type(open_caps(config)) is Caps
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    caps = open_caps(config)
    assert type(caps) is SharedCaps and caps.shared
    caps.close()
