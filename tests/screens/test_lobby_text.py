"""The lobby's table rows fit their columns at 80 columns: a computer opponent's
long name is not cut off in the middle."""

from __future__ import annotations

from termsolitaire.match import Player, SeatInfo, TableInfo
from termsolitaire.screens.match.lobby_text import COLUMNS, players_text, state_text

WIDTH = dict(COLUMNS)


def seat(number: int, player: Player, reason: str | None) -> SeatInfo:
    ended = 70.0 if reason else None
    return SeatInfo(number, player, 0.0, 10.0, ended, reason, 600.0, 5, 0, 3, 3, 60.0)  # type: ignore[arg-type]


def table(*seats: SeatInfo) -> TableInfo:
    host = seats[0].player
    return TableInfo(1, host, 1, 600.0, False, 596368032, 0.0, "playing", seats, None, False, False)


def test_a_done_player_against_the_playing_computer_fits() -> None:
    me = Player("root", "root")
    cpu = Player("cpu:casual", "computer (casual)")
    t = table(seat(1, me, "end"), seat(2, cpu, None))
    assert players_text(t) == "root vs computer (casual)"
    assert len(players_text(t)) <= WIDTH["Players"]
    assert state_text(t, "root") == "yours: done; they play"


def test_a_short_name_is_still_named() -> None:
    t = table(seat(1, Player("ann", "ann"), "end"), seat(2, Player("bob", "bob"), None))
    assert state_text(t, "ann") == "yours: done; bob plays"
    assert len(state_text(t, "ann")) <= WIDTH["State"]
