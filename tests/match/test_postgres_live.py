"""Live changes pushed, not polled (issue 32): a write by one host's store reaches a
listener of another within a second, as the revision the screens wait for."""

from __future__ import annotations

import threading
import time

import pytest

from termsolitaire.match.pgdb import Changes


@pytest.fixture
def backend(postgres: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    return "postgresql"


def test_a_write_on_one_host_is_heard_on_the_other_within_a_second(  # type: ignore[no-untyped-def]
    store, postgres
) -> None:
    ann = store("ann")  # host one
    heard: list[tuple[int | None, float]] = []
    changes = Changes(postgres)  # host two
    before = ann.revision()
    ready = threading.Event()

    def listen() -> None:
        ready.set()
        revision = changes.wait(5.0)
        heard.append((revision, time.monotonic()))

    t = threading.Thread(target=listen)
    t.start()
    ready.wait()
    time.sleep(0.1)
    sent = time.monotonic()
    ann.open_table(deal=4)
    t.join(10)
    assert heard and heard[0][0] is not None and heard[0][0] > before
    assert heard[0][0] == ann.revision()
    assert heard[0][1] - sent < 1.0
    assert changes.wait(0.05) is None  # nothing more written
    changes.close()
