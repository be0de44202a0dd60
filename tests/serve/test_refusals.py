"""Acceptance 2 of issue 14: every refusal is one clear line to the player and one log
line for the keeper; the idle timeout and the session limit save the game first."""

from __future__ import annotations

import asyncio
import os
import re
import time

import asyncssh
import pytest

from .conftest import first_save, saved_game

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty"),
]


async def test_no_pty_is_told_to_use_ssh_t(serve, key) -> None:
    async with serve() as h:
        h.register(key, "alice")
        conn = await h.connect(key)
        result = await conn.run(encoding=None)  # no term_type: no pty, as 'ssh host' in a pipe
        assert result.stdout == b"This is a game: it needs a terminal. Connect with 'ssh -t'.\r\n"
        assert result.exit_status == 1
        assert h.logged(r"^refuse session=\d+ ip=127\.0\.0\.1 key=SHA256:\S+ why='no pty'")
        assert not h.logged("^connect")


async def test_a_dumb_terminal_is_told_why(serve, key) -> None:
    """TERM=dumb (Emacs' shell) cannot show a board: one line, not escape codes."""
    async with serve() as h:
        h.register(key, "alice")
        conn = await h.connect(key)
        # (without the refusal the app started and drew, and the run never ended)
        result = await asyncio.wait_for(conn.run(term_type="dumb", encoding=None), 30)
        assert b"a terminal with TERM=dumb cannot show" in result.stdout
        assert b"\x1b[" not in result.stdout
        assert result.exit_status == 1
        assert h.logged(r"^refuse session=\d+ ip=127\.0\.0\.1 key=SHA256:\S+ why='TERM=dumb'")
        assert not h.logged("^connect")


async def test_authorized_keys_admit_only_listed_keys(serve, key, other_key, tmp_path) -> None:
    """An unlisted key is refused at authentication; a client that then tries
    keyboard-interactive (as OpenSSH does) reads why; a listed key plays."""
    listed = tmp_path / "authorized_keys"
    listed.write_bytes(key.export_public_key())
    async with serve(authorized_keys=listed) as h:
        with pytest.raises(asyncssh.PermissionDenied):
            await h.connect(other_key)
        fingerprint = other_key.get_fingerprint("sha256")
        await h.wait_logged(rf"^refuse ip=127\.0\.0\.1 key={re.escape(fingerprint)} "
                        r"why='key not on the authorized list'")  # fmt: skip

        from .conftest import GuestClient

        s = await h.session(other_key, client_factory=GuestClient, kbdint_auth=True)
        await s.wait_said(f"Your key {fingerprint} is not on this server's list;")
        assert await s.wait_closed() == 1

        s = await h.session(key)
        await s.wait_for("Name:")  # admitted: a first login
        assert len(h.logged("why='key not on the authorized list'")) == 2


async def test_no_key_without_open_is_told_to_make_one(serve) -> None:
    async with serve() as h:
        s = await h.session(None)
        await s.wait_said("No SSH key: make one with 'ssh-keygen -t ed25519', then connect again.")
        assert await s.wait_closed() == 1
        assert h.logged(r"^refuse session=\d+ ip=127\.0\.0\.1 key=none why='no key \(not --open\)'")


async def test_per_key_and_total_caps(serve, key, other_key) -> None:
    """One session per key and two in all: the second session of a key and the third
    in all are refused, each with its own line; a closed session frees its place."""
    third = asyncssh.generate_private_key("ssh-ed25519")
    async with serve(max_per_key=1, max_sessions=2) as h:
        for k, name in ((key, "ann"), (other_key, "ben"), (third, "cid")):
            h.register(k, name)
        a = await h.session(key)
        await a.menu()
        again = await h.session(key)
        await again.wait_said("You already have 1 session here (the most one key may have)")
        assert await again.wait_closed() == 1
        assert h.logged(r"^refuse .*why='per-key cap'")

        b = await h.session(other_key)
        await b.menu()
        c = await h.session(third)
        await c.wait_said("The server is full (2 sessions); try again later.")
        assert await c.wait_closed() == 1
        assert h.logged(r"^refuse .*why='total cap'")

        await a.quit()  # ann quits: a place is free again
        assert await a.wait_closed() == 0
        c = await h.session(third)
        await c.menu()


async def test_per_address_rate(serve, key) -> None:
    """A burst of 2 connections, then 1 a minute: the third connection is refused with
    the wait it needs."""
    async with serve(ip_burst=2, ip_per_minute=1) as h:
        h.register(key, "alice")
        for _ in range(2):
            r = await (await h.connect(key)).run(encoding=None)
            assert b"needs a terminal" in r.stdout  # admitted past the rate (then no pty)
        s = await h.session(key)
        await s.wait_said("Too many connections from 127.0.0.1: try again in")
        line = s.plain()
        wait = int(re.search(r"try again in (\d+) s", line).group(1))
        assert 50 <= wait <= 60 and "(at most 1 a minute)" in line
        assert await s.wait_closed() == 1
        refused = h.logged(
            r"^refuse session=\d+ ip=127\.0\.0\.1 key=SHA256:\S+ why='per-address rate'"
        )
        assert len(refused) == 1 and len(h.logged("why='per-address rate'")) == 1


async def test_idle_timeout_saves_then_ends(serve, key) -> None:
    """No key for the idle time: the app is hung up, saves (clock included), the
    terminal is put back, one line says so, and the session ends."""
    idle = 10.0  # from the session's start too: the menu must show before it strikes
    async with serve(idle_timeout=idle) as h:
        player = h.register(key, "alice")
        s = await h.session(key)
        await s.menu()
        s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        pressed = time.time()
        await s.wait_for("Penguin · deal")
        first = await first_save(player, "penguin")
        assert first is not None
        await s.wait_said(
            "No key for 10 s: your game is saved. Connect again to resume.", timeout=idle + 60
        )
        assert await s.wait_closed() == 0
        ended = time.time()
        saved = saved_game(player, "penguin")
        assert saved is not None and saved.id == first.id
        assert pressed + idle * 0.9 <= saved.saved_at <= ended  # saved at the hang-up
        assert saved.game.elapsed > first.game.elapsed
        assert s.raw.rindex(b"\x1b[?1049l") < s.raw.rindex(b"No key for")
        assert h.logged(r"^disconnect .*player=alice .*why='idle 10 s' exit=0")


async def test_a_spectator_is_not_idle(serve, key) -> None:
    """Someone watching a table types nothing for as long as the game lasts: while
    their presence is fresh in the store the idle rule leaves them be; once they
    stop watching it applies again."""
    from termsolitaire.match.identity import Player as MatchPlayer
    from termsolitaire.match.store import MatchStore

    idle = 2.0
    async with serve(idle_timeout=idle) as h:
        alice = h.register(key, "alice")
        matches = h.server.config.matches
        bob = MatchStore(MatchPlayer.make("bob"), matches, keep_dir=False)
        table = bob.open_table().table_id
        watcher = MatchStore(MatchPlayer.make(alice.id, alice.name), matches, keep_dir=False)
        watcher.spectate(table)  # what the spectator's screen does every BEAT seconds
        s = await h.session(key)
        await s.wait_for("Spider match lobby")
        start = time.monotonic()
        while time.monotonic() - start < 3 * idle:
            await asyncio.sleep(0.2)
            assert not s.closed, s.plain()[-300:]
        watcher.stop_spectating(table)
        await s.wait_said("No key for 2 s: your game is saved.", timeout=4 * idle + 30)
        assert await s.wait_closed() == 0


async def test_session_limit_saves_then_ends(serve, key) -> None:
    """Past the session limit the game is saved and the session ends (the idle
    timeout, 30 min by default, has nothing to do with it)."""
    async with serve(session_limit=15.0) as h:
        player = h.register(key, "bob")
        s = await h.session(key)
        await s.menu()
        s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        await s.wait_for("Penguin · deal")
        first = await first_save(player, "penguin")
        await s.wait_said("Sessions here last at most 15 s: your game is saved.")
        assert await s.wait_closed() == 0
        saved = saved_game(player, "penguin")
        assert first is not None and saved is not None and saved.id == first.id
        assert saved.saved_at > first.saved_at
        assert h.logged(r"why='session limit 15 s' exit=0")


async def test_stopping_server_ends_a_name_prompt_in_words(serve, key) -> None:
    async with serve() as h:
        s = await h.session(key)
        await s.wait_for("Name:")
        await h.server.stop()
        await s.wait_said("The server is stopping; try again later.")
        assert await s.wait_closed() == 0
        assert h.server.players.find(key.get_fingerprint("sha256")) is None
        assert h.logged(r"^disconnect .*player=- .*why='server stopping'")  # not 'left at …'


@pytest.mark.parametrize("cols", [80, 50])
async def test_the_name_prompt_breaks_its_lines_between_words(serve, key, cols) -> None:
    """At 80 columns the rule read "start" at the end of one line and "ing with a
    letter or digit." on the next: the terminal broke the line where it was full."""
    from termsolitaire.serve.players import NAME_RULE

    async with serve() as h:
        s = await h.session(key, size=(cols, 24))
        await s.wait_for("Name:")
        rows = s.screen.display
        words = {word for row in rows for word in row.split()}
        said = f"Welcome to termsolitaire! Choose the name other players will see: {NAME_RULE}."
        assert set(said.split()) <= words, "\n".join(rows)
        assert all(len(row.rstrip()) <= cols for row in rows)
        s.send("\x03")
        await s.wait_closed()


async def test_idle_at_the_name_prompt_says_goodbye(serve, key) -> None:
    async with serve(idle_timeout=2.0) as h:
        s = await h.session(key)
        await s.wait_for("Name:")
        s.send("ali")  # typing counts as a key; then nothing more
        await s.wait_said("No key for 2 s: goodbye.")
        assert await s.wait_closed() == 0
        assert h.server.players.find(key.get_fingerprint("sha256")) is None
        assert h.logged(r"^disconnect .*player=- .*why='left at the name prompt'")


async def test_an_account_that_cannot_be_opened_is_a_refusal(serve, key) -> None:
    """The player reads why, the session ends with status 1 as every refusal does,
    and the log says why (it said 'left at the name prompt', exit 0)."""
    from termsolitaire.storage.files import StorageError

    async with serve() as h:

        def find(fingerprint: str) -> None:
            raise StorageError("cannot find the player: the database does not answer")

        h.server.players.find = find  # type: ignore[method-assign]
        s = await h.session(key)
        await s.wait_said("Your account could not be opened: cannot find the player")
        assert await s.wait_closed() == 1
        assert h.logged(r"^disconnect .*player=- .*why='account not opened: cannot find the player")
