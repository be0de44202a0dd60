"""The SSH server in the test's own event loop on 127.0.0.1 (a free port, a temporary
data directory), and players who connect with asyncssh as a real client with a pty.

What a player sees is what pyte (a small VT emulator) makes of the bytes the
server sent: tests wait for text on that screen, with a generous deadline (a
busy 2-core machine takes seconds to start Textual), never for a fixed time.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest
import pytest_asyncio

from termsolitaire.serve.config import ServeConfig
from termsolitaire.serve.players import Player
from termsolitaire.serve.server import ServeServer
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import Saved, SaveStore

START = 60.0
"""Seconds an app may take to show its first screen on a busy machine."""


class GuestClient(asyncssh.SSHClient):
    """A client with no key that answers keyboard-interactive, as OpenSSH does."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str, prompts: Any):
        return ["" for _ in prompts]


class Screen:
    """One SSH session as a player sees it: a pyte screen of the client's size."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes], cols: int, rows: int) -> None:
        self.process = process
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self.closed = False
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while data := await self.process.stdout.read(65536):
                self.raw += data
                self.stream.feed(data)
                self.changed.set()
        except (OSError, asyncssh.Error):
            pass
        finally:
            self.closed = True
            self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def plain(self) -> str:
        """Everything received, escape sequences removed (lines printed before the app)."""
        text = bytes(self.raw).decode(errors="replace")
        return re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])", "", text)

    async def wait_for(self, what: str | Callable[[], Any], timeout: float = START) -> Any:
        """Wait until ``what`` is on the screen (or the check is truthy); its result."""
        check = (lambda: what in self.text()) if isinstance(what, str) else what
        deadline = time.monotonic() + timeout
        while True:
            closed = self.closed  # nothing can change after the last check once closed
            result = check()
            if result:
                return result
            left = deadline - time.monotonic()
            if left <= 0 or closed:
                raise AssertionError(
                    f"gave up waiting for {what!r}; closed={self.closed}; screen:\n{self.text()}"
                    f"\nreceived: {self.plain()[-600:]!r}"
                )
            self.changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def wait_said(self, line: str, timeout: float = START) -> None:
        """Wait until ``line`` was printed (whatever has been drawn over it since), in
        one line or broken between words to fit the window."""
        words = " ".join(line.split())
        await self.wait_for(lambda: words in " ".join(self.plain().split()), timeout)

    async def wait_closed(self, timeout: float = START) -> int | None:
        """Wait for the server to end the session; its exit status."""
        await self.wait_for(lambda: self.closed, timeout)
        await asyncio.wait_for(self.process.wait_closed(), timeout)
        return self.process.exit_status

    async def menu(self) -> None:
        """From the server's home, the match lobby, to the menu of the solo games."""
        await self.wait_for("Spider match lobby")
        self.send("g")
        await self.wait_for("Penguin   seven columns")

    async def quit(self) -> None:
        """Leave the app from the menu: Escape back to the lobby, q there."""
        self.send("\x1b")
        await self.wait_for("Spider match lobby")
        self.send("q")

    def send(self, keys: str | bytes) -> None:
        self.process.stdin.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self.process.change_terminal_size(cols, rows)


class Harness:
    """A running server and the players' keys and connections of one test."""

    def __init__(
        self, server: ServeServer | None, caplog: pytest.LogCaptureFixture | None, port: int = 0
    ) -> None:
        self._server = server
        self.caplog = caplog
        self._port = port  # a server in another process: only its port is known
        self.conns: list[asyncssh.SSHClientConnection] = []

    @property
    def server(self) -> ServeServer:
        assert self._server is not None, "the server runs in another process"
        return self._server

    async def close(self) -> None:
        """Close every client connection of the test and wait until each is closed."""
        for conn in self.conns:
            conn.close()
        for conn in self.conns:
            with suppress(TimeoutError):
                await asyncio.wait_for(conn.wait_closed(), 10.0)

    @property
    def port(self) -> int:
        return self._server.port if self._server is not None else self._port

    def register(self, key: asyncssh.SSHKey, name: str) -> Player:
        """A player who has been here before (no name prompt)."""
        text = key.export_public_key().decode().strip()
        return self.server.players.register(key.get_fingerprint("sha256"), name, text)

    async def connect(
        self, key: asyncssh.SSHKey | None = None, **kw: Any
    ) -> asyncssh.SSHClientConnection:
        options: dict[str, Any] = dict(
            known_hosts=None, username="player", agent_path=None, config=None, password_auth=False
        )
        if key is None:
            options.update(client_keys=None, client_factory=GuestClient)
        else:
            options.update(client_keys=[key], kbdint_auth=False)
        options.update(kw)
        conn = await asyncssh.connect("127.0.0.1", self.port, **options)
        self.conns.append(conn)
        return conn

    async def session(
        self,
        key: asyncssh.SSHKey | None = None,
        size: tuple[int, int] = (80, 24),
        conn: asyncssh.SSHClientConnection | None = None,
        *,
        term: str = "xterm-256color",
        seen: tuple[int, int] | None = None,
        **kw: Any,
    ) -> Screen:
        """A new session with a pty of ``size`` on ``conn`` (or a new connection);
        ``seen``: the part of the window the test's screen keeps (a huge window)."""
        conn = conn or await self.connect(key, **kw)
        process = await conn.create_process(term_type=term, term_size=size, encoding=None)
        return Screen(process, *(seen or size))

    async def no_sessions(self, timeout: float = START) -> None:
        """Wait until the server has ended every session (their apps are reaped)."""
        deadline = time.monotonic() + timeout
        while self.server.sessions:
            assert time.monotonic() < deadline, f"sessions still running: {self.server.sessions}"
            await asyncio.sleep(0.05)

    def logged(self, pattern: str) -> list[str]:
        """The server's log lines matching ``pattern`` (a regular expression)."""
        assert self.caplog is not None
        return [
            r.getMessage()
            for r in self.caplog.records
            if r.name == "termsolitaire.serve" and re.search(pattern, r.getMessage())
        ]

    async def wait_logged(self, pattern: str, timeout: float = 30.0) -> list[str]:
        """Wait for a log line matching ``pattern`` (some are written as a socket closes)."""
        deadline = time.monotonic() + timeout
        while not (lines := self.logged(pattern)):
            assert time.monotonic() < deadline, f"no log line {pattern!r}"
            await asyncio.sleep(0.05)
        return lines

    def session_of(self, name: str) -> Any:
        """The server's running session of player ``name``."""
        for s in self.server.sessions:
            if s.player is not None and s.player.name == name:
                return s
        raise AssertionError(f"no session of {name}")


@pytest.fixture
def key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def other_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@asynccontextmanager
async def running(
    tmp: Path, caplog: pytest.LogCaptureFixture, **options: Any
) -> AsyncIterator[Harness]:
    """A server on 127.0.0.1 and a free port, data in ``tmp``, ``options`` of ServeConfig."""
    caplog.set_level(logging.INFO, logger="termsolitaire.serve")
    config = ServeConfig(**{"data_dir": tmp / "data", "port": 0, "grace": 10.0, **options})
    server = ServeServer(config)
    await server.start()
    harness = Harness(server, caplog)
    try:
        yield harness
    finally:
        await harness.close()
        await server.stop()


@pytest_asyncio.fixture
async def serve(
    request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[Callable[..., Any]]:
    """``async with serve(**options) as h``: a server for this test.

    Its apps are spawned (``prestart=False``), unless the test's module sets
    ``PRESTART = True`` or the test passes ``prestart``: the warm process
    imports every module and rehearses a login before it forks the first app,
    about 3 CPU-s a server, which most of these tests (refusals, hostile
    input, caps) spend on nothing they check. A forked app is the spawned one
    (test_prestart.py checks that); the modules about forking and the players'
    whole path (test_play.py, test_prestart.py, test_pool_forks.py) keep the
    server's default."""
    prestart = getattr(request.module, "PRESTART", False)

    def start(**options: Any) -> Any:
        return running(tmp_path, caplog, **{"prestart": prestart, **options})

    yield start


def saved_game(player: Player, game: str) -> Saved | None:
    saved, problem = SaveStore(paths(player.home)).load(game)
    assert problem is None, problem
    return saved


async def first_save(player: Player, game: str, timeout: float = START) -> Saved:
    """The save a new board writes once it is painted (``save_soon``): the header
    can reach the player a moment before the file is on disk, so wait for it."""
    deadline = time.monotonic() + timeout
    while (saved := saved_game(player, game)) is None:
        assert time.monotonic() < deadline, f"no {game} save for {player.name}"
        await asyncio.sleep(0.05)
    return saved


def deal_on(screen: Screen, game: str = "Penguin") -> int:
    """The deal number in a board's header."""
    found = re.search(rf"{game} · deal (\d+)", screen.text())
    assert found, screen.text()
    return int(found.group(1))


PENGUIN_KEYS = {f"t{i}": str(i) for i in range(1, 8)} | {
    f"c{i}": k for i, k in enumerate("qwertyu", 1)
}
"""Penguin's pile keys (tableau 1-7, cells q-u), as a player types them."""


def first_move_keys(deal: int) -> str:
    """The keys of Penguin's first card move on ``deal`` (a deal left without a
    move is no game to resume: the menu has no Resume line for it)."""
    from termsolitaire.rules import new_game

    move = next(m for m in new_game("penguin", deal).legal_moves() if m.kind == "move")
    return PENGUIN_KEYS[move.src] + ("f" if move.dst.startswith("f") else PENGUIN_KEYS[move.dst])


async def played_save(read: Callable[[], Saved | None], timeout: float = START) -> Saved:
    """The save ``read`` finds once it holds a move (typed a moment before)."""
    deadline = time.monotonic() + timeout
    while (saved := read()) is None or not saved.game.log:
        assert time.monotonic() < deadline, "no save with a move"
        await asyncio.sleep(0.05)
    return saved
