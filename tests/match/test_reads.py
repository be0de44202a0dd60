"""A table read with its revision from one snapshot (pgrace): the revision a screen
remembers is the one that goes with the seats it shows, whatever another
process commits between the read's statements. On both backends, the writer
on a connection of its own (on PostgreSQL a process's stores share one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.match import store as store_module

from .conftest import Clock


def other_connection(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stores made after this use a connection of their own (PostgreSQL: another URL
    string is another of the process's shared connections)."""
    if backend == "postgresql":
        import os

        url = os.environ["TERMSOLITAIRE_DATABASE"]
        sep = "&" if "?" in url else "?"
        monkeypatch.setenv("TERMSOLITAIRE_DATABASE", f"{url}{sep}application_name=writer")


def test_a_table_read_while_a_move_commits_carries_the_revision_it_saw(
    store: Callable[..., MatchStore],
    backend: str,
    shared: Path,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann = store("ann")
    seat = ann.open_table(deal=4)
    seat.start()
    other_connection(backend, monkeypatch)
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    bseat = bob.join(seat.table_id)
    bseat.start()
    before = ann.revision(seat.table_id)

    real = store_module.seat_rows
    played: list[object] = []

    def seats_after_a_move(db, table_id):  # type: ignore[no-untyped-def]
        """ann's read has read the table's row; bob's move commits now."""
        if not played:
            played.append(bseat.play(next(m for m in bseat.game.legal_moves() if m.kind == "move")))
        return real(db, table_id)

    monkeypatch.setattr(store_module, "seat_rows", seats_after_a_move)
    info = ann.table(seat.table_id)
    monkeypatch.setattr(store_module, "seat_rows", real)

    assert played  # the move went in during the read
    theirs = info.opponent_of("ann")
    assert theirs is not None and theirs.moves == 0  # the snapshot's: before the move
    assert info.revision == before  # and the revision that goes with it
    assert ann.revision(seat.table_id) > info.revision  # so a screen reads again
    after = ann.table(seat.table_id)
    assert after.opponent_of("ann").moves == 1 and after.revision == ann.revision(seat.table_id)  # type: ignore[union-attr]
    bob.close()
