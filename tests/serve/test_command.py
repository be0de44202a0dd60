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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pytest

from termsolitaire.cli import main
from termsolitaire.commands import web
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
        (["web", "--port", "65536"], "a port is a number from 0 to 65535"),
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


async def started_web(tmp_path: Path, *options: str) -> asyncio.subprocess.Process:
    """``termsolitaire web`` on 127.0.0.1 as a command, its stdout a pipe."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "termsolitaire", "web", "--host", "127.0.0.1",
        "--data-dir", str(tmp_path), *options,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def served_port(proc: asyncio.subprocess.Process) -> int:
    """The port the command's first line names (it listens before it says so)."""
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), START)).decode()
    found = re.fullmatch(r"serving on http://127\.0\.0\.1:(\d+)\n", line)
    assert found is not None and int(found.group(1)) > 0, line
    return int(found.group(1))


@pytest.mark.asyncio
async def test_web_serves_the_page(tmp_path: Path) -> None:
    """``termsolitaire web --port 0`` listens on a free port, names it in one line,
    and the page from there names it in its websocket URL; the websocket runs the
    app: the menu's text comes through."""
    deadline = time.monotonic() + START
    proc = await started_web(tmp_path, "--port", "0")
    try:
        port = await served_port(proc)
        url = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            page = await _web_page(http, url)
            assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page
            assert fetched_elsewhere(page, f"{url}/") == []  # no web font
            drawn = b""
            async with http.ws_connect(f"{url}/ws?width=80&height=24") as ws:
                while b"seven columns" not in drawn:
                    message = await asyncio.wait_for(ws.receive(), deadline - time.monotonic())
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    drawn += message.data
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), START)
    assert proc.returncode == 0  # SIGTERM: a clean stop


async def _web_page(http: aiohttp.ClientSession, url: str) -> str:
    """The page at ``url``: at once, since the command listens before it names it."""
    async with http.get(f"{url}/") as r:
        assert r.status == 200
        return await r.text()


@pytest.mark.asyncio
async def test_web_on_a_taken_port_says_so_and_serves_nothing(tmp_path: Path) -> None:
    """One line on stderr, exit 1, and no "serving" line (textual-serve's banner
    named the address before the bind failed)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = await started_web(tmp_path, "--port", str(port))
        out, err = await asyncio.wait_for(proc.communicate(), START)
    assert proc.returncode == 1
    assert out == b""
    assert err.decode() == (
        f"termsolitaire web: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    )


def addresses(*hosts: str) -> Callable[..., list[tuple[Any, ...]]]:
    """A ``getaddrinfo`` that names ``hosts`` for every name, as ``localhost`` may
    name 127.0.0.1 and ::1."""

    def getaddrinfo(name: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (h, port)) for h in hosts]

    return getaddrinfo


@pytest.mark.skipif(sys.platform != "linux", reason="binds 127.0.0.2 (Linux's loopback has it)")
def test_web_listens_on_every_address_on_one_port(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host naming two addresses: ``--port 0`` listens on one port on both, the one
    the URL names; where the second has the first pick taken, the system picks again."""
    monkeypatch.setattr(socket, "getaddrinfo", addresses("127.0.0.1", "127.0.0.2"))
    taken: list[socket.socket] = []

    class FirstPickTaken(socket.socket):
        """Something else listens on 127.0.0.2 at the port picked first."""

        def bind(self, address: Any) -> None:
            if address[0] == "127.0.0.2" and not taken:
                taken.append(blocker := original())
                blocker.bind(address)
                blocker.listen()
            super().bind(address)

    original = socket.socket
    monkeypatch.setattr(socket, "socket", FirstPickTaken)
    sockets = web.listen("localhost", 0)
    monkeypatch.undo()
    try:
        assert len(taken) == 1
        names = [s.getsockname() for s in sockets]
        assert [host for host, _ in names] == ["127.0.0.1", "127.0.0.2"]
        assert names[0][1] == names[1][1] != taken[0].getsockname()[1]
        with socket.create_connection(("127.0.0.2", names[1][1]), timeout=START):
            pass  # it listens
    finally:
        for s in [*sockets, *taken]:
            s.close()
