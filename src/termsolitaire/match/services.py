"""What the match screens are handed: the player's store, and the other players
this terminal plays for (the computer, a hot-seat guest).

:class:`MatchServices` is to the lobby what :class:`~termsolitaire.play.session.Services`
is to a board: one typed object, made by ``termsolitaire match`` (or a test)
and handed down. It opens the three kinds of game of the New dialog:

- a table for a person at another terminal (public or private);
- a match against the computer: a private table its host opens, the computer
  (``computer:<level>``) invited and seated at once, its moves chosen in a
  process of its own (:mod:`.computer`);
- a hot-seat match: a private table, the guest invited at once and seated when
  the first player has finished (:mod:`.hotseat`).

Every other player this terminal acts for gets a store of their own on the same
database with the same clock, so the store's rule that a player only acts for
themselves holds here too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Literal

from .clock import DEFAULT_LIMIT
from .computer import DEFAULT_LEVEL, ENGINE, ComputerDriver, computer_player, level_of
from .errors import MatchError, NotAllowed, StoreError
from .hotseat import guest_player, invited_guest, is_guest_of
from .identity import Player
from .model import TableInfo
from .seat import Seat
from .store import MatchStore

Kind = Literal["table", "computer", "hotseat"]


@dataclass(frozen=True, slots=True)
class NewGame:
    """What the New dialog asks for."""

    kind: Kind = "table"
    suits: int = 1
    minutes: int = DEFAULT_LIMIT
    public: bool = True
    """For a table: anyone may join (else only by invitation or code)."""
    level: str = DEFAULT_LEVEL
    """For the computer."""
    guest: str = ""
    """For hot-seat: the second player's name."""


@dataclass
class MatchServices:
    """The player's store and the players this terminal plays for besides them."""

    store: MatchStore
    engine: str = ENGINE
    """Where the computer's process finds its engine (tests may name another)."""
    drivers: dict[int, ComputerDriver] = field(default_factory=dict)
    """The computer playing at each of this player's computer tables, by table id."""
    _stores: dict[str, MatchStore] = field(default_factory=dict)

    @property
    def me(self) -> Player:
        return self.store.me

    def now(self) -> float:
        return self.store.now()

    def store_as(self, player: Player) -> MatchStore:
        """The store as ``player`` sees it (same database, same clock)."""
        if player.id == self.me.id:
            return self.store
        if player.id not in self._stores:
            self._stores[player.id] = MatchStore(
                player, self.store.db.directory, now=self.store.now, create=False
            )
        return self._stores[player.id]

    # ------------------------------------------------------------ opening

    def open(self, new: NewGame) -> Seat:
        """Open the game ``new`` asks for; this player's seat (not started). For the
        computer, its driver is in :attr:`drivers` and starts with :meth:`start`."""
        if new.kind == "computer":
            return self._open_computer(new)
        if new.kind == "hotseat":
            guest = guest_player(self.me, new.guest)
            if guest.id == self.me.id or guest.name == self.me.name:
                raise NotAllowed("The second player needs a name of their own")
            self.store_as(guest)  # registers the guest, so they can be invited
            seat = self.store.open_table(new.suits, new.minutes, public=False)
            self.store.invite(seat.table_id, guest.id)
            return seat
        return self.store.open_table(new.suits, new.minutes, public=new.public)

    def _open_computer(self, new: NewGame) -> Seat:
        cpu = computer_player(new.level)
        cstore = self.store_as(cpu)
        seat = self.store.open_table(new.suits, new.minutes, public=False)
        try:
            self.store.invite(seat.table_id, cpu.id)
            cseat = cstore.join(seat.table_id)
        except MatchError:
            with contextlib.suppress(MatchError):
                seat.leave()
            raise
        self.drivers[seat.table_id] = ComputerDriver(cseat, new.level, engine=self.engine)
        return seat

    # ------------------------------------------------------------ who is who

    @staticmethod
    def computer_level(info: TableInfo, me: str) -> str | None:
        """The computer's level at this table, when this player's opponent is the computer."""
        other = info.opponent_of(me)
        return None if other is None else level_of(other.player)

    def guest_of(self, info: TableInfo) -> Player | None:
        """The hot-seat guest of this player's table: seated, or invited and waiting."""
        if info.host.id != self.me.id:
            return None
        other = info.opponent_of(self.me.id)
        if other is not None:
            return other.player if is_guest_of(other.player, self.me.id) else None
        return invited_guest(self.store, info.id)

    def driver(self, info: TableInfo) -> ComputerDriver | None:
        """The computer playing at this player's table (started again after a restart:
        it picks up from its stored actions); None when the opponent is a person."""
        level = self.computer_level(info, self.me.id)
        if level is None:
            return None
        driver = self.drivers.get(info.id)
        if driver is None:
            other = info.opponent_of(self.me.id)
            assert other is not None
            cseat = self.store_as(other.player).seat(info.id)
            driver = ComputerDriver(cseat, level, engine=self.engine)
            self.drivers[info.id] = driver
        return driver

    def start_driver(self, driver: ComputerDriver) -> None:
        """Start the computer (its clock and its process) unless it plays already."""
        if not driver.running and not driver.seat.finished:
            driver.start()

    def hand_over(self, table_id: int, guest: Player) -> Seat:
        """The hot-seat guest sits down (or resumes) at ``table_id``."""
        gstore = self.store_as(guest)
        try:
            return gstore.seat(table_id)
        except NotAllowed:
            return gstore.join(table_id)

    # ------------------------------------------------------------ running

    def pump(self) -> list[int]:
        """Let every computer do what is due; the tables where something changed."""
        changed = []
        for table_id, driver in list(self.drivers.items()):
            try:
                if driver.pump():
                    changed.append(table_id)
            except StoreError as e:
                driver.problem = e.reason
        return changed

    def close(self) -> None:
        """Stop the computers' processes and close the stores."""
        for driver in self.drivers.values():
            driver.stop()
        for store in self._stores.values():
            store.close()
        self._stores.clear()
