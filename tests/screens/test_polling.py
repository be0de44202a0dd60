"""How a match screen follows the store (screens/match/polling.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from termsolitaire.screens.match import polling
from termsolitaire.screens.match.polling import FALLBACK, Follow


async def test_a_pushed_screen_reads_again_at_its_fallback_look_with_no_change_heard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A two-process match on PostgreSQL failed 2 of 4 CI runs: the joining
    player's panel showed the opponent with 0 moves for a minute, their move long
    in the database, the revision the screen had read already counting it. The
    pushed screen's fallback look (no change heard for FALLBACK seconds) now says
    it is one (``anyway``), so the screen reads what it shows again."""
    now = [100.0]
    monkeypatch.setattr(polling.time, "monotonic", lambda: now[0])
    heard: list[Any] = []
    store = SimpleNamespace(
        db=SimpleNamespace(subscribe=lambda listener: heard.append(listener) or (lambda: None))
    )
    screen = SimpleNamespace(is_attached=True)
    follow = Follow(screen, store, lambda: None, every=0.25)  # type: ignore[arg-type]
    assert follow.pushed
    assert follow.due() and not follow.anyway  # the first look: a new screen reads
    assert not follow.due()  # nothing heard, fallback not yet
    now[0] += FALLBACK + 0.1
    assert follow.due() and follow.anyway  # the fallback: read again whatever the revision
    heard[0]()  # a write heard
    await asyncio.sleep(0)
    assert follow.due() and not follow.anyway
