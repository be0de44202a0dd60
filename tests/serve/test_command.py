"""``termsolitaire serve`` and ``termsolitaire web`` as commands: bad options say so,
SIGTERM saves every game before the server leaves, the web page is served."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from termsolitaire.cli import main
from termsolitaire.serve.players import Players

from .conftest import START, Harness, first_save, saved_game
from .test_web_page import fetched_elsewhere

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["serve", "--idle-timeout", "soon"], "not a duration: 'soon'"),
        (["serve", "--port", "70000"], "a port is a number from 0 to 65535"),
        (["serve", "--max-sessions", "-1"], "expected a whole number >= 0"),
        (["web", "--port", "0"], "a port is a number from 1 to 65535"),
    ],
)
def test_bad_options_exit_2_with_one_line(argv, error, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert error in err and "Traceback" not in err


def test_missing_authorized_keys_file(tmp_path, capsys) -> None:
    assert main(["serve", "--data-dir", str(tmp_path), "--authorized-keys", "nope"]) == 2
    assert capsys.readouterr().err == "termsolitaire serve: no such file: nope\n"


def serve_exit(tmp_path: Path, database: str) -> tuple[int, str]:
    """``termsolitaire serve --database URL`` as a command: its exit status and stderr
    (a server that starts anyway runs until the timeout, and the test fails)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "termsolitaire", "serve", "--port", "0",
         "--data-dir", str(tmp_path), "--database", database],
        capture_output=True, text=True, timeout=START,
    )  # fmt: skip
    return done.returncode, done.stderr


def test_a_database_that_does_not_answer_stops_the_server_in_one_line(tmp_path) -> None:
    """It served, and every player read "Your account could not be opened"."""
    status, err = serve_exit(tmp_path, "postgresql://nobody@127.0.0.1:1/none")
    assert status == 1
    assert err.startswith("termsolitaire serve: cannot reach the database: ")
    assert err.count("\n") == 1


def test_a_database_without_its_schema_stops_the_server_naming_the_upgrade(
    tmp_path, postgres
) -> None:
    import psycopg

    from termsolitaire.storage import schema

    with psycopg.connect(postgres, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
        try:
            status, err = serve_exit(tmp_path, postgres)
        finally:
            conn.execute("DELETE FROM schema_version WHERE version = 99")
    assert status == 1
    assert err == (
        "termsolitaire serve: the database's schema is 99, newer than this termsolitaire "
        f"(want {schema.LATEST}): run `termsolitaire db upgrade`\n"
    )


class Lines:
    """A child's stderr, line by line, as it comes."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.lines: list[str] = []
        self.task = asyncio.create_task(self._read(stream))

    async def _read(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self.lines.append(line.decode(errors="replace").rstrip())

    async def wait(self, pattern: str, timeout: float = START) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            for line in self.lines:
                if found := re.search(pattern, line):
                    return found
            assert time.monotonic() < deadline and not self.task.done(), (pattern, self.lines)
            await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_sigterm_saves_every_game_then_stops(tmp_path: Path, key, other_key) -> None:
    """The server as a command, two players mid-game: SIGTERM hangs up both apps,
    each saves, each player reads why, and the server exits 0."""
    data = tmp_path / "data"
    players = Players(data)
    ann = players.register(key.get_fingerprint("sha256"), "ann", "k1")
    ben = players.register(other_key.get_fingerprint("sha256"), "ben", "k2")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "termsolitaire", "serve", "--port", "0", "--data-dir", str(data),
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    log = Lines(proc.stderr)
    try:
        port = int((await log.wait(r"serving on 127\.0\.0\.1:(\d+)")).group(1))
        h = Harness(None, None, port)
        screens = [await h.session(k) for k in (key, other_key)]
        for s in screens:
            await s.menu()
            s.send("\x1b[B\r")  # down to Penguin, the second game; Enter
        for s in screens:
            await s.wait_for("Penguin · deal")
        before = [await first_save(p, "penguin") for p in (ann, ben)]
        stamp = time.time()
        proc.send_signal(signal.SIGTERM)
        for s in screens:
            await s.wait_said("The server is stopping; your game is saved.")
            assert await s.wait_closed() == 0
        assert await asyncio.wait_for(proc.wait(), START) == 0
        await log.task
        for p, first in zip((ann, ben), before, strict=True):
            saved = saved_game(p, "penguin")
            assert first is not None and saved is not None and saved.id == first.id
            assert saved.saved_at >= stamp  # saved by the hang-up
        assert any("why='server stopping' exit=0" in line for line in log.lines), log.lines
        assert log.lines[-1].endswith("stopped")
        # The host's log is the server's own lines: no library's warning on top.
        assert not [line for line in log.lines if "Warning" in line], log.lines
        with pytest.raises(OSError):
            await asyncssh.connect("127.0.0.1", port, known_hosts=None, client_keys=[key])
        await h.close()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.asyncio
async def test_web_serves_the_page(tmp_path: Path) -> None:
    """``termsolitaire web`` answers on localhost with textual-serve's page, and its
    websocket runs the app: the menu's text comes through."""
    import aiohttp

    deadline = time.monotonic() + START
    async with aiohttp.ClientSession() as http:
        # A free port can be taken between the check and the command's bind by
        # another test's server (a CI run once met an SSH server there: "Bad
        # status line ... SSH-2.0-termsolitaire"); the command then fails to
        # bind and ends, so a port that answers but not as HTTP is tried anew.
        for _ in range(3):
            port = free_port()
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "termsolitaire", "web", "--host", "127.0.0.1",
                "--port", str(port), "--data-dir", str(tmp_path),
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
            )  # fmt: skip
            page = await _web_page(http, port, proc, deadline)
            if page is not None:
                break
            await asyncio.wait_for(proc.wait(), START)
        assert page is not None, "every port tried was taken"
        try:
            assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
            assert fetched_elsewhere(page, f"http://127.0.0.1:{port}/") == []  # no web font
            drawn = b""
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24") as ws:
                while b"seven columns" not in drawn:
                    message = await asyncio.wait_for(ws.receive(), deadline - time.monotonic())
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    drawn += message.data
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), START)


async def _web_page(http: Any, port: int, proc: Any, deadline: float) -> str | None:
    """The page the command serves on ``port`` once it answers; None where
    something else answers there (not HTTP)."""
    import aiohttp

    while True:
        try:
            async with http.get(f"http://127.0.0.1:{port}/") as r:
                assert r.status == 200
                return str(await r.text())
        except aiohttp.ClientResponseError:
            return None  # not an HTTP server: another test's
        except aiohttp.ClientConnectionError:
            assert time.monotonic() < deadline and proc.returncode is None
            await asyncio.sleep(0.1)
