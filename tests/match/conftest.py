"""Fixtures for the match store: a shared directory, a clock the test moves by
hand (no test sleeps), and a store per player."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, Player

T0 = 1_000_000.0


class Clock:
    """A wall clock that only moves when told to."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    return tmp_path / "match"


@pytest.fixture
def store(shared: Path, clock: Clock, backend: str) -> Callable[..., MatchStore]:
    """``store("ann")``: the store as player ``ann`` sees it (name defaults to the id),
    on each backend."""
    opened: list[MatchStore] = []

    def make(pid: str, name: str | None = None, **kw: object) -> MatchStore:
        s = MatchStore(Player.make(pid, name), shared, now=clock, **kw)  # type: ignore[arg-type]
        opened.append(s)
        return s

    yield make  # type: ignore[misc]
    for s in opened:
        s.close()


def first_moves(game, count: int) -> list[str]:  # type: ignore[no-untyped-def]
    """``count`` actions to play from ``game`` (transfers first, then turns and
    deals), played on a copy so ``game`` is unchanged."""
    g = game.copy()
    out = []
    for _ in range(count):
        moves = g.legal_moves()
        pick = next((m for m in moves if m.kind == "move"), None) or moves[0]
        g.play(pick)
        out.append(str(pick))
    return out
