"""Issue 33, acceptance 2: apps forked from the warm process (serve/prestart.py,
serve/warm.py) play exactly as spawned ones; one forked app's crash touches
neither the warm process nor the other sessions; with the warm process killed
the server spawns (and says so), never refuses, and forks again once a new
warm process is up."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

import pytest

from termsolitaire.rules import Game
from termsolitaire.serve import prestart

from .conftest import START, Screen, first_save, running, saved_game

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork"),
]
PRESTART = True  # apps forked from the warm process, as the server runs them

SPIDER = "{python} -m termsolitaire spider --deal 5"
PILES = dict(zip([f"t{i}" for i in range(1, 11)], "1234567890", strict=True))
CLOCK = re.compile(r"\b\d+:\d\d\b")


async def warm(h) -> None:  # type: ignore[no-untyped-def]
    """Wait until the server's warm process is ready to fork."""
    assert h.server.prestart is not None
    await asyncio.wait_for(h.server.prestart.ready_event.wait(), START)


def cells(screen: Screen) -> list[tuple[str, ...]]:
    """Every cell of the screen as the player sees it: its character, colours and
    attributes (a blank's foreground colour shows nowhere), the clock masked (it
    ticks on its own)."""
    out = []
    for y, line in enumerate(screen.screen.display):
        masked = {x for m in CLOCK.finditer(line) for x in range(m.start(), m.end())}
        row = screen.screen.buffer[y]
        for x in range(screen.screen.columns):
            c = row[x]
            if x in masked:
                out.append(("#",))
            elif c.data == " " and not (c.reverse or c.underscore):  # a blank's fg is unseen
                out.append((c.data, c.bg))
            else:
                out.append((c.data, c.fg, c.bg, str(c.bold), str(c.reverse), str(c.underscore)))
    return out


def keys_of(game: Game) -> str | None:
    """The keys of the next action to play (the first legal move onto another pile,
    else a turn, else a deal), played on ``game`` too."""
    moves = game.legal_moves()
    move = next((m for m in moves if m.kind == "move"), None)
    move = move or next((m for m in moves if m.kind == "turn"), None)
    move = move or next((m for m in moves if m.kind == "deal"), None)
    if move is None:
        return None
    game.play(move)
    if move.kind == "deal":
        return "d"
    if move.kind == "turn":
        return "t" + PILES[move.src]
    return PILES[move.src] + PILES[move.dst]


async def test_a_forked_session_plays_exactly_as_a_spawned_one(tmp_path, caplog, key) -> None:
    """The same deal played through by the same keys, side by side, on a server that
    forks its apps and on one that spawns them: after every action both have the same
    position saved and the same screen, cell by cell, colours included."""
    async with (
        running(tmp_path / "forks", caplog, app_command=SPIDER) as forks,
        running(tmp_path / "spawns", caplog, app_command=SPIDER, prestart=False) as spawns,
    ):
        await warm(forks)
        players = [h.register(key, "ann") for h in (forks, spawns)]
        screens = [await h.session(key) for h in (forks, spawns)]
        for s in screens:
            await s.wait_for("Spider · 1 suit · deal 5")
        assert forks.server.sessions and all(s.app.forked for s in forks.server.sessions)
        assert not any(s.app.forked for s in spawns.server.sessions)
        assert forks.logged(r"^connect .*player=ann .* forked$")
        game = (await first_save(players[0], "spider")).game
        assert (await first_save(players[1], "spider")).game.to_text() == game.to_text()

        for _ in range(12):
            keys = keys_of(game)
            if keys is None:
                break
            for s in screens:
                s.send(keys)
            for player in players:
                await wait(lambda p=player: _position(p) == game.to_text())
            try:
                await screens[0].wait_for(lambda: cells(screens[0]) == cells(screens[1]), 20)
            except AssertionError:
                a, b = cells(screens[0]), cells(screens[1])
                cols = screens[0].screen.columns
                pairs = enumerate(zip(a, b, strict=True))
                diff = [(i // cols, i % cols, x, y) for i, (x, y) in pairs if x != y]
                raise AssertionError(f"screens differ: {diff[:10]}") from None
        assert "moves" in screens[0].text()


def _position(player) -> str | None:  # type: ignore[no-untyped-def]
    saved = saved_game(player, "spider")
    return saved.game.to_text() if saved is not None else None


async def wait(check, timeout: float = START) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        await asyncio.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_a_forked_app_that_crashes_leaves_the_warm_process_and_the_others(
    serve, key, other_key
) -> None:
    """One forked app is killed: its player reads the line and the session ends, the
    warm process and the other player's app go on, and the next login forks again."""
    async with serve() as h:
        await warm(h)
        h.register(key, "ann")
        h.register(other_key, "ben")
        a = await h.session(key)
        b = await h.session(other_key)
        for s in (a, b):
            await s.wait_for("Spider match lobby")
        warm_pid = h.server.prestart.pid
        assert warm_pid is not None
        assert all(s.app.forked for s in h.server.sessions)

        os.kill(h.session_of("ann").app.pid, signal.SIGKILL)
        await a.wait_said("The game stopped unexpectedly; your game is saved.")
        assert await a.wait_closed() == 1
        assert h.logged(r"^disconnect .*player=ann .*exit=SIGKILL")

        assert alive(warm_pid) and h.server.prestart.pid == warm_pid
        await b.menu()  # ben's app answers keys
        a = await h.session(key)
        await a.wait_for("Spider match lobby")
        assert h.session_of("ann").app.forked


async def test_without_the_warm_process_the_server_spawns_and_says_so(
    serve, key, other_key, monkeypatch
) -> None:
    """The warm process is killed: the session it forked goes on (and its end is still
    known), a new login is spawned and logged as such, never refused; a new warm
    process comes and the next login is forked again. The server's sweep of stray
    children runs all the time here: it must leave the dead warm process to be
    reaped with its status (it took it once, and the log said exit=0)."""
    from termsolitaire.serve import server as serve_server

    monkeypatch.setattr(prestart, "RESTART", 0.5)
    monkeypatch.setattr(serve_server, "SWEEP", 0.005)
    sweeps = 0
    sweep = serve_server.reap_strays

    def counted(known: set[int]) -> list[int]:
        nonlocal sweeps
        sweeps += 1
        return sweep(known)

    monkeypatch.setattr(serve_server, "reap_strays", counted)
    ended = prestart.Prestart._ended

    async def after_sweeps(self, proc):  # type: ignore[no-untyped-def]
        # the dead warm process's zombie waits through a few of the server's sweeps
        # before it is reaped here, as a loaded machine once made it wait
        start, give_up = sweeps, time.monotonic() + 10  # (no sweep without a subreaper)
        while sweeps < start + 3 and time.monotonic() < give_up:
            await asyncio.sleep(0.001)
        await ended(self, proc)

    monkeypatch.setattr(prestart.Prestart, "_ended", after_sweeps)
    async with serve() as h:
        await warm(h)
        h.register(key, "ann")
        h.register(other_key, "ben")
        a = await h.session(key)
        await a.wait_for("Spider match lobby")
        old = h.server.prestart.pid
        assert old is not None and h.session_of("ann").app.forked

        os.kill(old, signal.SIGKILL)
        await h.wait_logged(r"^prestart: the warm process ended \(exit=-9\): spawning apps")
        b = await h.session(other_key)
        await b.wait_for("Spider match lobby")
        assert not h.session_of("ben").app.forked
        assert h.logged(r"^prestart: no warm process yet: spawning")

        await a.menu()  # ann's forked app outlived its warm process
        await a.quit()
        assert await a.wait_closed() == 0
        assert h.logged(r"^disconnect .*player=ann .*why='player quit' exit=0")

        await warm(h)
        assert h.server.prestart.pid not in (None, old)
        b.send("q")
        await b.wait_closed()
        c = await h.session(other_key)
        await c.wait_for("Spider match lobby")
        assert h.session_of("ben").app.forked
