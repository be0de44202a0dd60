"""``serve`` gives a restart's downtime back to its players' match clocks
(docs/match.md, "A server restart"): the server's own record of its sessions,
written at a clean stop and read at the next start, on both backends. The
record and the credit follow the server's clock, which the test moves (the
sessions are stand-ins: no app, no SSH client)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.serve.config import ServeConfig
from termsolitaire.serve.players import Player as ServePlayer
from termsolitaire.serve.server import ServeServer

from ..match.conftest import T0, Clock


async def a_server(config: ServeConfig, clock: Clock) -> ServeServer:
    server = ServeServer(config)
    server.clock = clock
    await server.start()
    return server


@dataclass(eq=False)
class StandIn:
    """What the server reads of a session when it stops: its player, its end, its app."""

    player: ServePlayer
    done: asyncio.Future[None]
    app: Any = None


def a_session(server: ServeServer, player: Player, home: Path) -> None:
    """A session of ``player`` as the server counts it (what ``Session.run`` adds)."""
    done = asyncio.get_running_loop().create_future()
    done.set_result(None)
    who = ServePlayer(player.name, player.id, home)
    server.sessions.add(StandIn(who, done))
    server.caps.add(player.id)
    server.note_alive()


async def test_a_server_stopped_and_started_gives_its_players_the_downtime(
    backend: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = ServeConfig(
        data_dir=tmp_path / "data", port=0, prestart=False, solver_workers=0, cpu_share=0
    )
    clock = Clock()
    ann = MatchStore(Player.make("ann"), config.matches, now=clock)
    bob = MatchStore(Player.make("bob"), config.matches, now=clock)  # a local login
    seat = ann.open_table(minutes=5, deal=1)
    bob.join(seat.table_id).start()
    seat.start()
    server = await a_server(config, clock)
    a_session(server, ann.me, tmp_path)
    clock.advance(240)  # a minute left on both clocks
    await server.stop()
    clock.advance(120)  # down for two minutes
    caplog.set_level(logging.INFO, logger="termsolitaire.serve")
    server = await a_server(config, clock)
    await server.stop()
    assert "restart credit: table 1 seat 1 player=ann 120 s" in caplog.text
    info = ann.table(seat.table_id)
    assert [(s.player.id, s.credit, s.remaining_at(clock())) for s in info.seats] == [
        ("ann", 120, 60),
        ("bob", 0, 0),
    ]
    assert ann.seat(seat.table_id).remaining() == 60 and info.seats[0].started_at == T0
    ann.close()
    bob.close()


async def test_the_heartbeat_names_the_players_in_sessions_from_start_to_end(
    serve: Callable[..., Any], key: asyncssh.SSHKey
) -> None:
    """On files: a player is in ``alive.json`` as soon as their app runs (a crash
    then credits them), and out of it as soon as their session ends (a crash
    10 s later does not)."""
    async with serve() as h:
        alive = h.server.config.data_dir / "alive.json"
        s = await h.session(key)
        await s.wait_for("Name:")
        s.send("alice\r")
        await s.menu()
        assert json.loads(alive.read_text())["players"] == [key.get_fingerprint("sha256")]
        await s.quit()
        await h.no_sessions()
        assert json.loads(alive.read_text())["players"] == []
