"""SVG snapshots of the match screens at 80x24: the lobby, the match board with its
side panel, and the results. Fixed deals, fixed codes, a clock that stands
still; each docstring says what to look for. Update a snapshot only after
looking at it (``pytest tests/snapshots --snapshot-update``, then open the SVG).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from termsolitaire.match import MatchStore, Player, Seat
from termsolitaire.match import codes as code_module

from ..screens.matchkit import WallClock, lobby_app


@pytest.fixture(autouse=True)
def fixed_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    counter: Iterator[int] = itertools.count()
    alphabet = code_module.ALPHABET

    def code() -> str:
        n = next(counter)
        return "7KQM3XR" + alphabet[n % len(alphabet)]

    monkeypatch.setattr(code_module, "new_code", code)


def moves(seat: Seat, n: int) -> None:
    """``n`` transfers (the first legal one each time)."""
    for _ in range(n):
        seat.play(next(m for m in seat.game.legal_moves() if m.kind == "move"))


def stores(shared: Path, clock: WallClock, *names: str) -> list[MatchStore]:
    return [MatchStore(Player.make(n), shared, now=clock) for n in names]


def test_lobby_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """The lobby: ann's own table first (not started, code shown below), carol's
    private table with ann's invitation (and the invitation line), bob's started
    table with a free seat, dave and erin playing; the footer's keys."""
    clock = WallClock()
    shared = tmp_path / "match"
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob, carol, dave, erin = stores(shared, clock, "bob", "carol", "dave", "erin")
    d = dave.open_table(suits=2, minutes=15, deal=11)
    erin.join(d.table_id)
    b = bob.open_table(suits=1, minutes=5, deal=22)
    b.start()
    c = carol.open_table(suits=2, minutes=10, public=False, deal=33)
    match.store.open_table(suits=1, minutes=10, deal=44)
    carol.invite(c.table_id, "ann")
    clock.advance(90)
    assert snap_compare(app, terminal_size=(80, 24))


def test_match_board_with_side_panel_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """ann's board at table 1 (1 suit, deal 123, 10 min) after one move, her clock at
    8:45; the side panel: bob, score/runs/moves of his two moves, 9:15 left,
    playing; the footer has End and Watch, no Restart or New."""
    clock = WallClock()
    shared = tmp_path / "match"
    app, match = lobby_app(shared, clock, tmp_path / "home")
    (bob,) = stores(shared, clock, "bob")
    seat = match.store.open_table(suits=1, minutes=10, deal=123)
    seat.start()
    moves(seat, 1)
    clock.advance(30)
    bseat = bob.join(seat.table_id)
    bseat.start()
    moves(bseat, 2)
    clock.advance(45)
    assert snap_compare(app, terminal_size=(80, 24), press=["enter"])


def test_match_results_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """The results both players see, here from ann's side: both columns (ann (you),
    bob) with score, runs, moves, time used and how each game ended (End pressed,
    time ran out), the winner line, and the Watch / replay / New / Leave buttons."""
    clock = WallClock()
    shared = tmp_path / "match"
    app, match = lobby_app(shared, clock, tmp_path / "home")
    (bob,) = stores(shared, clock, "bob")
    seat = match.store.open_table(suits=2, minutes=5, deal=123)
    seat.start()
    bseat = bob.join(seat.table_id)
    bseat.start()
    moves(bseat, 3)
    moves(seat, 2)
    clock.advance(100)
    seat.end()
    clock.advance(300)  # bob's time runs out: the table is finished
    assert snap_compare(app, terminal_size=(80, 24), press=["a", "enter"])
