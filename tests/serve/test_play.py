"""Acceptance 1 and 4 of issue 14: over SSH the app appears, keys and window changes
reach it, a dropped connection keeps the game for the next login with the same key,
and one session's crash touches no other."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from termsolitaire.match import MatchStore, Player
from termsolitaire.serve.players import safe_id

from .conftest import deal_on, first_move_keys, first_save, played_save, saved_game

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty"),
]
PRESTART = True  # apps forked from the warm process, as the server runs them


def environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


async def test_first_login_asks_a_name_then_plays_and_follows_the_window(serve, key) -> None:
    """A new key is asked for a name, kept; the menu appears; Enter starts Penguin;
    a window too small gets the 'Enlarge' message, a larger one the board again."""
    async with serve() as h:
        s = await h.session(key)
        await s.wait_for("Name:")
        s.send("x\r")  # too short: said so, asked again
        await s.wait_for("A name is 2 to 20 letters")
        s.send("alice\r")
        await s.menu()
        fingerprint = key.get_fingerprint("sha256")
        player = h.server.players.find(fingerprint)
        assert player is not None and player.name == "alice"
        assert player.home == h.server.config.data_dir / "players" / safe_id(fingerprint)
        assert h.logged(
            rf"^connect session=\d+ ip=127\.0\.0\.1 player=alice key={re.escape(fingerprint)}"
        )

        env = environ(h.session_of("alice").app.pid)
        assert env["TERMSOLITAIRE_HOME"] == str(player.home)
        assert env["TERMSOLITAIRE_PLAYER"] == "alice"
        assert env["TERMSOLITAIRE_PLAYER_ID"] == fingerprint
        assert env["TERMSOLITAIRE_MATCH_DIR"] == str(h.server.config.data_dir / "match")
        assert env["TERM"] == "xterm-256color" and "COLUMNS" not in env

        s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        await s.wait_for("Penguin · deal")
        deal = deal_on(s)
        s.resize(50, 14)
        await s.wait_for("Enlarge the window to 67×18")
        await s.wait_for("(it is 50×14 now)")
        s.resize(100, 30)
        await s.wait_for(f"Penguin · deal {deal}")
        assert "Enlarge" not in s.text()


async def test_a_dropped_connection_saves_and_the_same_key_resumes(serve, key) -> None:
    """The connection dies mid-game: the app is hung up (not left running) and saves;
    the next login with the same key offers Resume, which continues the same game."""
    async with serve() as h:
        player = h.register(key, "bob")
        s = await h.session(key)
        await s.menu()
        s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        await s.wait_for("Penguin · deal")
        deal = deal_on(s)
        app = h.session_of("bob").app
        first = await first_save(player, "penguin")
        assert first is not None and first.game.deal == deal
        s.send(first_move_keys(deal))  # (a deal left without a move is no game to resume)
        first = await played_save(lambda: saved_game(player, "penguin"))

        h.conns[-1].abort()  # the network goes away: no goodbye
        await h.no_sessions()
        assert app.returncode == 0  # it saved and left by itself on SIGHUP
        assert h.logged(r"^disconnect .*player=bob .*why='client closed' exit=0")
        after = saved_game(player, "penguin")
        assert after is not None and after.id == first.id
        assert after.saved_at >= first.saved_at

        s = await h.session(key)
        await s.wait_for(f"Saved: Penguin — deal {deal}")  # the lobby says so
        await s.menu()
        await s.wait_for(f"Resume Penguin — deal {deal}")
        s.send("\r")  # the Resume line has the focus
        await s.wait_for(f"Penguin · deal {deal}")
        again = saved_game(player, "penguin")
        assert again is not None and again.id == first.id


async def test_killing_one_app_leaves_the_other_sessions_playing(serve, key, other_key) -> None:
    """One player's app is killed: that player reads one line and the session ends;
    the other keeps playing, their game intact, and the killed one's save remains."""
    async with serve() as h:
        ann = h.register(key, "ann")
        ben = h.register(other_key, "ben")
        a = await h.session(key)
        b = await h.session(other_key)
        for s in (a, b):
            await s.menu()
            s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        for s in (a, b):
            await s.wait_for("Penguin · deal")
        ben_deal = deal_on(b)
        ann_saved = await first_save(ann, "penguin")
        ben_saved = await first_save(ben, "penguin")
        assert ann_saved is not None and ben_saved is not None
        a.send(first_move_keys(deal_on(a)))  # (a deal left without a move: no Resume line)
        ann_saved = await played_save(lambda: saved_game(ann, "penguin"))

        os.kill(h.session_of("ann").app.pid, signal.SIGKILL)
        await a.wait_said("The game stopped unexpectedly; your game is saved.")
        assert await a.wait_closed() == 1
        assert h.logged(r"^disconnect .*player=ann .*exit=SIGKILL")

        b.send("?")  # ben's app answers: the help screen
        await b.wait_for("Penguin: keys")
        b.send("\x1b")
        await b.wait_for(f"Penguin · deal {ben_deal}")
        assert len(h.server.sessions) == 1
        still = saved_game(ben, "penguin")
        assert still is not None and still.id == ben_saved.id
        kept = saved_game(ann, "penguin")
        assert kept is not None and kept.id == ann_saved.id

        a = await h.session(key)
        await a.menu()
        await a.wait_for(f"Resume Penguin — deal {ann_saved.game.deal}")


async def test_open_server_admits_guests_and_forgets_them(serve) -> None:
    """--open: a client without a key plays at once (no name asked) in a directory of
    its own, removed when the session ends."""
    async with serve(open=True) as h:
        s = await h.session(None)
        await s.menu()
        session = next(iter(h.server.sessions))
        assert session.player.guest and session.player.name.startswith("guest-")
        home = session.player.home
        assert home.is_dir()
        assert environ(session.app.pid)["TERMSOLITAIRE_PLAYER"] == session.player.name
        await s.quit()
        assert await s.wait_closed() == 0
        await h.no_sessions()
        assert not home.exists()
        assert h.logged(r"^disconnect .*player=guest-\w+ .*why='player quit' exit=0")


async def test_a_guests_tables_do_not_outlive_the_guest(serve) -> None:
    """A guest who opened a table and hung up can never come back (a new id at every
    connection), yet their table stayed in everyone's lobby for a day, "seat free:
    join", with nobody to play; and a player who had sat down at a guest's table
    waited for the guest's clock to start by itself and run out (20 minutes) for a
    result. When a guest's session ends, a table of theirs that nobody has joined
    closes, and a game of theirs that someone else shares ends (End)."""
    async with serve(open=True) as h:
        matches = h.server.config.matches
        tables = []
        for _ in range(2):
            s = await h.session(None)
            await s.wait_for("Spider match lobby")
            s.send("n")
            await s.wait_for("New game")
            s.send("\r")  # a public table against a person
            await s.wait_for("yours: not started")
            guest = next(iter(h.server.sessions)).player
            assert guest is not None and guest.guest
            bob = MatchStore(Player.make("bob"), matches)
            table = bob.tables()[0]
            assert table.host.id == guest.id
            tables.append(table.id)
            if len(tables) == 2:  # bob sits down at the second one, and starts
                bob.join(table.id).start()
            bob.close()
            h.conns[-1].abort()  # the guest's network goes away
            await h.no_sessions()
        bob = MatchStore(Player.make("bob"), matches)
        try:
            assert [t.id for t in bob.tables()] == [tables[1]]  # the first one closed
            seat = next(s for s in bob.table(tables[1]).seats if s.player.id != "bob")
            assert seat.finished and seat.reason == "end"
        finally:
            bob.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_dead_servers_guests_tables_close_when_it_starts_again(
    serve, tmp_path: Path, backend: str, request, monkeypatch
) -> None:
    """A server that died (kill -9, the machine) could not close its guests'
    tables as their sessions ended: they stayed in every lobby for a day, "seat
    free: join", and a player at one waited 20 minutes for a result. The guests'
    directories it left name them (this host's guests only, on a shared database
    too): the next start closes their tables and ends their games, then removes
    the directories."""
    if backend == "postgresql":
        monkeypatch.setenv("TERMSOLITAIRE_DATABASE", request.getfixturevalue("postgres"))
    data = tmp_path / "data"
    (data / "guests" / "1f2e").mkdir(parents=True)  # as the dead server left them
    matches = data / "match"
    guest = MatchStore(Player("guest:1f2e", "guest-1f2e"), matches)
    alone = guest.open_table(deal=1).table_id
    shared = guest.open_table(deal=2).table_id
    guest.close()
    bob = MatchStore(Player.make("bob"), matches)
    bob.join(shared).start()
    mine = bob.open_table(deal=3).table_id
    bob.close()
    async with serve(open=True) as h:
        assert not (data / "guests").exists()
        (line,) = h.logged("left by a server that died")
        assert "guest-1f2e" in line
        bob = MatchStore(Player.make("bob"), matches)
        try:
            shown = [t.id for t in bob.tables()]
            assert alone not in shown and sorted(shown) == sorted([shared, mine])
            seats = {s.player.id: s for s in bob.table(shared).seats}
            assert seats["guest:1f2e"].reason == "end" and not seats["bob"].finished
        finally:
            bob.close()


def find(screen_text: str, word: str, row_has: str) -> tuple[int, int]:
    """The 1-based column and row of ``word`` on the row that also shows ``row_has``."""
    for y, line in enumerate(screen_text.splitlines(), 1):
        if word in line and row_has in line:
            return line.index(word) + 2, y
    raise AssertionError(f"no {word!r} beside {row_has!r} on:\n{screen_text}")


async def test_the_mouse_goes_through(serve, key) -> None:
    """A click (SGR mouse report, as a terminal sends it) on the menu's Quit button
    reaches the app: back to the lobby (the home over SSH); q there leaves, and so
    does the session."""
    async with serve() as h:
        h.register(key, "mia")
        s = await h.session(key)
        await s.menu()
        await s.wait_for("Statistics")
        x, y = find(s.text(), "Quit", row_has="Play")
        s.send(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m")
        await s.wait_for("Spider match lobby")
        s.send("q")
        assert await s.wait_closed() == 0
        assert h.logged(r"^disconnect .*player=mia .*why='player quit' exit=0")


STUBBORN = (
    '{python} -c "import signal, time; signal.signal(signal.SIGHUP, signal.SIG_IGN); '
    "print('stubborn', flush=True); time.sleep(600)\""
)


async def test_an_app_that_ignores_the_hang_up_is_killed_after_the_grace(serve, key) -> None:
    """--app-command runs what it is given; an app deaf to SIGHUP does not outlive its
    session: SIGKILL follows the grace period."""
    async with serve(app_command=STUBBORN, grace=1.0) as h:
        h.register(key, "sam")
        s = await h.session(key)
        await s.wait_for("stubborn")
        app = h.session_of("sam").app
        h.conns[-1].abort()
        await h.no_sessions()
        assert app.returncode == -signal.SIGKILL
        assert h.logged(r"^disconnect .*player=sam .*why='client closed' exit=SIGKILL")
