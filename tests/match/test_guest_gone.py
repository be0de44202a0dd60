"""A guest of ``serve --open`` is gone for good when their session ends (a new id
at every connection): their tables and games do not outlive them. On both
backends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from termsolitaire.match import MatchStore, Player
from termsolitaire.match.store import guest_gone

from .conftest import Clock


def test_a_gone_guests_tables_close_and_their_games_end(
    store: Callable[..., MatchStore], shared: Path, clock: Clock
) -> None:
    guest = store("guest:1f2e", "guest-1f2e")
    ann, bob, carl = store("ann"), store("bob"), store("carl")
    alone = guest.open_table(deal=1).table_id  # nobody joined: closes
    joined = guest.open_table(deal=2).table_id  # bob sat down: the guest's game ends
    bob.join(joined).start()
    theirs = ann.open_table(deal=3).table_id  # the guest sat, not started: seat given up
    guest.join(theirs)
    playing = carl.open_table(deal=4).table_id  # the guest plays there: their game ends
    carl.seat(playing).start()
    guest.join(playing).start()

    assert guest_gone(shared, Player("guest:1f2e", "guest-1f2e"), clock) == 4

    assert alone not in [t.id for t in ann.tables()]
    seats = {s.player.id: s for s in bob.table(joined).seats}
    assert seats["guest:1f2e"].reason == "end" and not seats["bob"].finished
    assert [s.player.id for s in ann.table(theirs).seats] == ["ann"]
    assert bob.table(theirs).can_join  # the table takes players again
    seats = {s.player.id: s for s in carl.table(playing).seats}
    assert seats["guest:1f2e"].reason == "end" and not seats["carl"].finished
    assert guest_gone(shared, Player("guest:1f2e", "guest-1f2e"), clock) == 0  # nothing more


def test_a_guest_who_never_sat_anywhere_is_not_registered(
    store: Callable[..., MatchStore], shared: Path
) -> None:
    ann = store("ann")
    assert guest_gone(shared, Player("guest:99aa", "guest-99aa")) == 0
    assert ann.find_player("ann").name == "ann"
    assert guest_gone(Path(shared).parent / "none", Player("guest:99aa", "guest-99aa")) == 0
