"""One SSH session: admit or refuse it in one line, learn who plays, run their app on a
pty of its own, copy bytes both ways, and end it so the game is saved.

How a session ends decides what the player reads last:

- they quit the app: nothing more (the app said goodbye);
- the connection dropped: nobody reads; the app is hung up and saves;
- idle, over the session limit, the server stopping: the app is hung up, saves
  and restores the terminal, then one line says why and that the game is kept;
- the app died on its own (a crash, a kill): one line says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import signal
import textwrap
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import asyncssh

from ..rate import Bucket
from ..storage.files import StorageError
from .apprun import AppProcess
from .config import CRASH_LOG, terminal_type
from .limits import Refusal, duration_text
from .players import NAME_RULE, Player
from .prompt import ask_line

if TYPE_CHECKING:
    from pathlib import Path

    from .server import Login, ServeServer

log = logging.getLogger("termsolitaire.serve")

RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    b"\x1b[?2004l\x1b[?1004l\x1b[?1049l\x1b[?25h\x1b[0m\r\n"  # paste, focus, screen, cursor
)
"""Put the player's terminal back as it was, should the app not have done so."""

NO_PTY = "This is a game: it needs a terminal. Connect with 'ssh -t'."
DUMB = "This is a game: it draws a board, which a terminal with TERM=dumb cannot show."
KEYS_ONLY = "No SSH key: make one with 'ssh-keygen -t ed25519', then connect again."
NOT_LISTED = "Your key {key} is not on this server's list; ask its keeper to add it."
STOPPING = "The server is stopping; try again later."
ONE_SESSION = "One game per connection: open another connection to play another."
SSH_LIMIT = 65535
"""The largest window a pty can have (the kernel keeps its size in 16 bits)."""


class Session:
    """One session channel of one connection (``ssh`` may open several on one)."""

    def __init__(self, server: ServeServer, process: asyncssh.SSHServerProcess[bytes]) -> None:
        self.server = server
        self.process = process
        self.login: Login = process.channel.get_connection().get_owner()  # type: ignore[assignment]
        self.id = server.new_id()
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.size = (80, 24)
        self.player: Player | None = None
        self.app: AppProcess | None = None
        self.channel_open = True
        self.last_input = time.monotonic()
        self.watched_until = 0.0
        """When the server last found this player watching a table (monotonic)."""
        self.started = time.monotonic()
        self.kicked: tuple[str, str] | None = None
        """Why the session must end now (log reason, the player's line)."""
        self.kick_event = asyncio.Event()
        self.unopened: str | None = None
        """Why the player's account could not be opened (the store's sentence)."""
        rate = server.config.input_per_second
        self.input = Bucket(rate, 4 * rate) if rate > 0 else Bucket(1.0, float("inf"))
        self.throttled = 0
        """Input bytes held back as more than a person sends."""

    # ------------------------------------------------------------ talking to the client

    def say(self, text: str) -> None:
        """One line to the player (the channel is raw: CR LF), broken between words to
        fit their window: a terminal breaks it anywhere (at 80 columns the name
        prompt's rule read "start" on one line and "ing with a letter" on the next)."""
        width = self.process.get_terminal_size()[0] if self.process.get_terminal_type() else 0
        self.send(fitted(text, width).encode() + b"\r\n")

    def send(self, data: bytes) -> None:
        if not self.channel_open:
            return
        try:
            self.process.stdout.write(data)
        except (OSError, asyncssh.Error):
            self.channel_open = False

    async def receive(self) -> bytes:
        """The player's next bytes; a window change is applied and reading goes on;
        b"" when the connection is gone."""
        while True:
            try:
                data = await self.process.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as e:
                self.window(e.width, e.height)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (OSError, asyncssh.Error):
                return b""
            if data:
                self.last_input = time.monotonic()
            return data

    def window(self, cols: int, rows: int) -> None:
        """The client's window is ``cols`` x ``rows``: the app is drawn at that size up
        to the largest board's (``max_window``); a size no terminal can have ends
        the session with a sentence."""
        if not (0 <= cols <= SSH_LIMIT and 0 <= rows <= SSH_LIMIT):
            self.kick(
                f"window {cols}x{rows}",
                f"Your window ({cols}x{rows}) is larger than any terminal can be: "
                "the session ends here; your game is saved.",
            )
            return
        self.size = fit_window((cols or 80, rows or 24), self.server.config.max_window)
        if self.app is not None:
            self.app.resize(*self.size)

    def kick(self, why: str, line: str) -> None:
        """End the session now with ``line`` (the app is hung up and saves first)."""
        if self.kicked is None:
            self.kicked = (why, line)
            self.kick_event.set()

    def finish(self, status: int) -> None:
        if self.channel_open:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.process.exit(status)
        self.channel_open = False

    # ------------------------------------------------------------ the session

    async def run(self) -> None:
        server, login = self.server, self.login
        login.sessions += 1
        server.sessions.add(self)
        try:
            if login.sessions > 1:  # ssh can open several channels on one connection
                server.refuse(login, "second session on one connection", self.id)
                self.say(ONE_SESSION)
                self.finish(1)
                return
            refusal = self.admission()
            if refusal:
                server.refuse(login, refusal.why, self.id)
                self.say(refusal.line)
                self.finish(1)
                login.close_soon()  # its one line said, nothing else to do here
                return
            key = login.account
            server.caps.add(key)
            try:
                await self.play()
            finally:
                server.caps.remove(key)
        except Exception:
            log.exception("session=%d failed", self.id)
            self.finish(1)
        finally:
            server.sessions.discard(self)
            if self.player is not None:  # not credited for a restart once gone
                server.note_alive()
            if not self.done.done():
                self.done.set_result(None)

    def admission(self) -> Refusal | None:
        """Why this session may not start (None: it may)."""
        login, cfg = self.login, self.server.config
        if self.server.stopping.is_set():
            return Refusal(STOPPING, "server stopping")
        if login.refusal:
            return login.refusal
        if login.key is None and not cfg.open:
            if login.rejected:
                line = NOT_LISTED.format(key=login.rejected[0])
                return Refusal(line, "key not on the authorized list")
            return Refusal(KEYS_ONLY, "no key (not --open)")
        if self.process.get_terminal_type() is None:
            return Refusal(NO_PTY, "no pty")
        if self.process.get_terminal_type() == "dumb":  # Emacs' shell, a line printer
            return Refusal(DUMB, "TERM=dumb")
        return self.server.caps.admit(login.account)

    async def play(self) -> None:
        """Learn who plays (a guest, a known key, or a new one that picks a name), then
        run their app; a guest's directory goes when the session ends."""
        cols, rows, *_ = self.process.get_terminal_size()
        self.window(cols, rows)
        if self.kicked is not None:
            why, line = self.kicked
            self.say(line)
            self.finish(1)
            self.log_end(why, None)
            return
        player = await self.until_stopping(self.identify())
        if player is None:
            if self.server.stopping.is_set():
                self.say(STOPPING)
                self.finish(0)
                self.log_end("server stopping", None)  # not "left at the name prompt"
                return
            if self.unopened is not None:  # a refusal: status 1, and the log says why
                self.finish(1)
                self.log_end(f"account not opened: {self.unopened}", None)
                return
            self.finish(0)
            self.log_end("left at the name prompt", None)
            return
        self.player = player
        try:
            await self.run_player(player)
        finally:
            if player.guest:
                try:
                    await self.guest_gone(player)
                finally:
                    self.server.players.forget(player)

    async def run_player(self, player: Player) -> None:
        """Start ``player``'s app on a pty and run the session until it ends."""
        process, cfg = self.process, self.server.config
        term = terminal_type(process.get_terminal_type())
        env = cfg.environment(player, term, process.env)
        with contextlib.suppress(OSError):
            (player.home / CRASH_LOG).unlink()
        pool = self.server.pool
        if pool is not None:
            env.update(pool.environment())
        try:
            self.app = None
            if self.server.prestart is not None:
                self.app = await AppProcess.fork(
                    self.server.prestart,
                    cfg.command(),
                    env,
                    self.size,
                    cwd=str(player.home),
                    memory_mb=cfg.memory_mb,
                )
            if self.app is None:
                self.app = AppProcess.start(
                    cfg.command(), env, self.size, cwd=str(player.home), memory_mb=cfg.memory_mb
                )
        except OSError as e:
            self.say(f"The game could not start ({e.strerror or e}); try again later.")
            self.finish(1)
            self.log_end("app did not start", None)
            return
        self.server.note_alive()  # a restart credits this player's clocks from now on
        fair = self.server.fair
        if fair is not None:
            fair.started(self.app.pid)
        if pool is not None:
            pool.player_of[self.app.pid] = player.id
        log.info(
            "connect session=%d ip=%s player=%s key=%s term=%s size=%dx%d pid=%d%s",
            self.id,
            self.login.address,
            player.name,
            player.id,
            term,
            *self.size,
            self.app.pid,
            " forked" if self.app.forked else "",
        )
        try:
            why, status = await self.run_app(self.app)
        finally:
            if self.app.returncode is None:  # only after an unexpected error
                await self.app.stop(cfg.grace)
            self.app.close()
            if fair is not None:
                fair.ended(self.app.pid)
            if pool is not None:
                pool.player_of.pop(self.app.pid, None)
        self.finish(0 if status in (0, -signal.SIGHUP) else 1)
        self.log_end(why, status)

    async def until_stopping(self, work: Awaitable[Player | None]) -> Player | None:
        """``work``'s result, or None as soon as the server stops (no app to save yet)."""
        task = asyncio.ensure_future(work)
        stop = asyncio.create_task(self.server.stopping.wait())
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            return None
        return task.result()

    async def identify(self) -> Player | None:
        """The player of this key (asking a new key for a name), or a guest; None when the
        player left at the prompt."""
        players, login = self.server.players, self.login
        try:
            if login.key is None:
                return players.guest()
            fingerprint = login.fingerprint
            assert fingerprint is not None
            player = players.find(fingerprint)
            if player is not None:
                return player
            self.say("Welcome to termsolitaire! Your SSH key is new here.")
            self.say(f"Choose the name other players will see: {NAME_RULE}.")
            idle = self.server.config.idle_timeout or None
            while True:
                try:
                    name = await ask_line(self.receive, self.send, "Name: ", idle, limit=20)
                except TimeoutError:
                    self.say(f"\r\nNo key for {duration_text(idle or 0)}: goodbye.")
                    return None
                if name is None:
                    return None
                if not name:
                    continue
                async with self.server.register_lock:
                    player = players.find(fingerprint)  # another session got there first
                    if player is not None:
                        return player
                    try:
                        key_text = login.key.export_public_key().decode().strip()
                        player = players.register(fingerprint, name, key_text)
                    except ValueError as e:
                        self.say(str(e))
                        continue
                self.say(f"Welcome, {player.name}. Starting the game...")
                return player
        except StorageError as e:
            self.unopened = str(e)
            self.say(f"Your account could not be opened: {e}. Try again later.")
            return None

    async def run_app(self, app: AppProcess) -> tuple[str, int]:
        """Copy bytes until the app ends, the player goes, or a limit strikes; then end the
        app so it saves. The reason for the log and the app's exit status."""
        out = asyncio.create_task(self.copy_out(app))
        keys = asyncio.create_task(self.copy_in(app))
        limits = asyncio.create_task(self.watch())
        try:
            done, _ = await asyncio.wait({out, keys, limits}, return_when=asyncio.FIRST_COMPLETED)
            if out in done:
                status = await app.wait(self.server.config.grace)
                if status is None:
                    status = await app.stop(self.server.config.grace)
                why = "player quit" if status == 0 else "stopped unexpectedly"
                if status != 0:
                    self.send(RESET)
                    self.say("The game stopped unexpectedly; your game is saved. Sorry!")
                    self.log_crash(status)
                return why, status
            if keys in done:
                self.channel_open = False  # the client is gone: nobody reads any more
                status = await app.stop(self.server.config.grace)
                return "client closed", status
            why, line = limits.result()
            status = await app.stop(self.server.config.grace)
            await asyncio.wait({out}, timeout=5.0)  # the app's goodbye reaches the client
            self.send(RESET)
            self.say(line)
            return why, status
        finally:
            for task in (out, keys, limits):
                task.cancel()
            await asyncio.gather(out, keys, limits, return_exceptions=True)

    async def copy_out(self, app: AppProcess) -> None:
        """The app's screen to the client; once the client is gone, read and drop (an app
        blocked on a full pty could not save)."""
        while data := await app.read():
            if not self.channel_open:
                continue
            self.send(data)
            try:
                await self.process.stdout.drain()
            except (OSError, asyncssh.Error):
                self.channel_open = False

    async def copy_in(self, app: AppProcess) -> None:
        """The player's keys, mouse and pastes to the app, until the connection ends.
        More than ``input_per_second`` is slowed down: reading waits, so SSH's flow
        control holds the rest at the client (dropping bytes here would cut escape
        sequences into stray keys; the app drops what no person types)."""
        rate = self.server.config.input_per_second
        held = b""
        while True:
            try:
                data = await asyncio.wait_for(self.receive(), ESCAPE_WAIT if held else None)
            except TimeoutError:
                data, held = held, b""  # a lone Escape key, say: it goes now
            else:
                if not data:
                    return
                data, held = split_escape(held + data)
            if not data:
                continue
            while not self.input.take(len(data)):
                if not self.throttled:
                    log.info("session=%d input flood: slowed down", self.id)
                wait = (len(data) - self.input.tokens) / rate if rate > 0 else 0.0
                self.throttled += len(data)
                await asyncio.sleep(max(0.01, wait))
            await app.write(data)

    def log_crash(self, status: int) -> None:
        """The log line of an app that died: its exit status and what it wrote last
        (the traceback), from the crash log in the player's directory."""
        tail = ""
        if self.player is not None:
            with contextlib.suppress(OSError):
                text = (self.player.home / CRASH_LOG).read_text(errors="replace")
                tail = text[-4000:].strip()
        log.warning(
            "session=%d app stopped unexpectedly exit=%s%s",
            self.id,
            describe(status),
            f"\n{tail}" if tail else " (nothing on its stderr)",
        )

    async def watch(self) -> tuple[str, str]:
        """Wait for the idle timeout, the session limit or the server stopping: the log
        reason and the line the player reads."""
        cfg, stopping = self.server.config, self.server.stopping
        while True:
            now = time.monotonic()
            if self.kicked is not None:
                return self.kicked
            if stopping.is_set():
                return "server stopping", (
                    "The server is stopping; your game is saved. Connect again later to resume."
                )
            deadlines = []
            if cfg.idle_timeout > 0:
                idle_end = max(self.last_input, self.watched_until) + cfg.idle_timeout
                if now >= idle_end and await self.spectating():
                    self.watched_until = now  # counts as a key: look again an idle time on
                    continue
                if now >= idle_end:
                    return f"idle {duration_text(cfg.idle_timeout)}", (
                        f"No key for {duration_text(cfg.idle_timeout)}: your game is saved. "
                        "Connect again to resume."
                    )
                deadlines.append(idle_end)
            if cfg.session_limit > 0:
                end = self.started + cfg.session_limit
                if now >= end:
                    return f"session limit {duration_text(cfg.session_limit)}", (
                        f"Sessions here last at most {duration_text(cfg.session_limit)}: "
                        "your game is saved. Connect again to resume."
                    )
                deadlines.append(end)
            wait = min(deadlines) - now if deadlines else None
            kicked = asyncio.ensure_future(self.kick_event.wait())
            stop = asyncio.ensure_future(stopping.wait())
            try:
                await asyncio.wait(
                    {kicked, stop}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                kicked.cancel()
                stop.cancel()

    async def guest_gone(self, player: Player) -> None:
        """A guest's tables and games do not outlive them (match.store.guest_gone)."""
        await guest_gone(self.server.config.matches, player)

    async def spectating(self) -> bool:
        """Whether this player is watching a table now: a spectator types nothing
        for as long as the game they watch lasts, and is not idle."""
        if self.player is None:
            return False
        from ..match.store import watching_now

        return await asyncio.to_thread(watching_now, self.server.config.matches, self.player.id)

    def log_end(self, why: str, status: int | None) -> None:
        log.info(
            "disconnect session=%d ip=%s player=%s after=%s why=%r exit=%s%s",
            self.id,
            self.login.address,
            self.player.name if self.player else "-",
            duration_text(time.monotonic() - self.started),
            why,
            describe(status) if status is not None else "-",
            f" throttled={self.throttled}" if self.throttled else "",
        )


def fitted(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` columns, broken between words (CR LF;
    a word longer than the line stays whole; 0: as it is).

    >>> fitted("Choose the name other players will see: 2 to 20 letters", 24)
    'Choose the name other\\r\\nplayers will see: 2 to\\r\\n20 letters'
    >>> fitted("\\r\\nNo key for 30 min: goodbye.", 80)
    '\\r\\nNo key for 30 min: goodbye.'
    """
    if width <= 0:
        return text
    return "\r\n".join(
        part
        for line in text.split("\r\n")
        for part in textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
        or [""]
    )


ESCAPE_WAIT = 0.05
"""Seconds an unfinished escape sequence at the end of what came waits for its
rest before it goes on as it is."""
_ESCAPE_TAIL = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*|O|\][^\x07\x1b]*)?\Z")


def split_escape(data: bytes) -> tuple[bytes, bytes]:
    """``data`` cut before an escape sequence it ends in the middle of, and that
    unfinished part: the app must never see half of one (its parser would read
    the half as Escape and stray keys).

    >>> split_escape(b"ab\\x1b[A\\x1b["), split_escape(b"\\x1b[<35;10;4M")
    ((b'ab\\x1b[A', b'\\x1b['), (b'\\x1b[<35;10;4M', b''))
    """
    found = _ESCAPE_TAIL.search(data[-64:])
    if found is None:
        return data, b""
    cut = len(data) - (len(data[-64:]) - found.start())
    return data[:cut], data[cut:]


def fit_window(size: tuple[int, int], largest: tuple[int, int]) -> tuple[int, int]:
    """The size the app is drawn at: the client's window, within ``largest``.

    >>> fit_window((4000, 2000), (300, 120)), fit_window((80, 24), (300, 120))
    ((300, 120), (80, 24))
    """
    return (min(size[0], largest[0]), min(size[1], largest[1]))


def describe(status: int) -> str:
    """An exit status as a word: ``0``, ``1``, ``SIGKILL``."""
    if status < 0:
        try:
            return signal.Signals(-status).name
        except ValueError:
            return f"signal {-status}"
    return str(status)


async def guest_gone(matches: Path, player: Player) -> int:
    """Close a gone guest's tables and end their shared games (match.store.guest_gone),
    in a thread; how many seats it left (0, and a warning line, when it failed)."""
    from ..match.identity import Player as MatchPlayer
    from ..match.store import guest_gone as gone

    try:
        return await asyncio.to_thread(gone, matches, MatchPlayer(player.id, player.name))
    except Exception as e:  # the store's own errors are answered there; a line, not a trace
        log.warning("guest %s: their match tables stay: %s", player.name, e)
        return 0
