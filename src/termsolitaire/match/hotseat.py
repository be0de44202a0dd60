"""Hot-seat: two people at one terminal, one after the other, on the same deal.

The first player is the one logged in; the second is a *guest* of theirs,
named at the start and kept in the store as ``guest:<host id>:<name>`` (so the
host's record counts the match against that name, and two hosts' guests of
the same name stay apart). The table is private; the guest is invited at
opening (that is how the table remembers who plays second, also after a
restart) and sits down only when the first player has finished, with a full
clock of their own: the store's rule that a seated player's clock starts by
itself ten minutes after the opponent's never touches them.
"""

from __future__ import annotations

import re

from .identity import Player, check_name, guests_of
from .rows import hot_seat_guest
from .store import MatchStore


def guest_player(host: Player, name: str) -> Player:
    """The second player of a hot-seat match hosted by ``host``, called ``name``
    (BadName when the name cannot be used).

    >>> guest_player(Player("ann", "ann"), " Bob Smith ")
    Player(id='guest:ann:bob_smith', name='Bob Smith')
    """
    shown = check_name(name)
    slug = re.sub(r"\s+", "_", shown.lower())
    return Player.make(f"{guests_of(host.id)}{slug}", shown)


def is_guest_of(player: Player, host_id: str) -> bool:
    """Whether ``player`` is a hot-seat guest of the player ``host_id``."""
    return player.id.startswith(guests_of(host_id))


def invited_guest(store: MatchStore, table_id: int) -> Player | None:
    """The guest invited to this player's hot-seat table who has not sat down yet
    (read from the store's invitations, which keep who plays second)."""
    with store.db.read("read the table") as db:
        return hot_seat_guest(db, table_id, store.me.id)
