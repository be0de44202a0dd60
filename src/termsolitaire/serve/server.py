"""The SSH server: who may log in, the host key, the sessions running, and a clean stop.

Authentication never refuses with a bare "Permission denied" where a sentence
can be said instead: a client without an accepted key is let in through
keyboard-interactive with no question asked, and its session then either
plays as a guest (``--open``) or prints the one line saying why not and ends.
Such a connection can do nothing else: no shell, no forwarding, no SFTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from ..children import live_pids
from ..match.store import local_player_names
from ..play.session import SOLVER_ENV
from ..solver.compiled import solver_kind
from .config import ServeConfig
from .fairshare import TICK, FairShare, best_priority
from .limits import Caps, RateLimit, Refusal
from .players import open_players
from .prestart import Prestart, become_subreaper, reap_strays
from .restart import HEARTBEAT, Heartbeat, credit_at_start, host_id
from .solverpool import SolverPool

if TYPE_CHECKING:
    from ..storage.postgres import Database

log = logging.getLogger("termsolitaire.serve")

SWEEP = 2.0
"""Seconds between two looks for ended processes nobody waits for."""
CIPHERS = (
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
)
"""The ciphers offered: asyncssh's defaults but ``chacha20-poly1305@openssh.com``,
which it builds from three cipher objects a packet in Python (16 us a packet
against 3-6 us for AES-GCM, or AES-CTR with its encrypt-then-MAC, AES-NI doing
the work), and which clients list first: the server then pays it for every
packet of every session, each key and each frame both ways. Every SSH client
has AES-CTR (OpenSSH and PuTTY for twenty years), most AES-GCM too (OpenSSH
since 6.2, PuTTY since 0.76); a client that offers chacha20-poly1305 alone is
refused at the key exchange. The key exchange, host key and MACs are
asyncssh's defaults."""


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key, made on the first start and kept (mode 0600)."""
    if path.exists():
        return asyncssh.read_private_key(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="termsolitaire serve")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    path.with_name(path.name + ".pub").write_bytes(key.export_public_key())
    log.info("made a new host key %s", path)
    return key


class AuthorizedKeys:
    """``--authorized-keys FILE``, read again whenever the file changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: float | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self.load()

    def load(self) -> None:
        stamp = self.path.stat().st_mtime
        if stamp != self._stamp:
            self._keys = asyncssh.read_authorized_keys(str(self.path))
            self._stamp = stamp

    def admits(self, key: asyncssh.SSHKey, address: str) -> bool:
        try:
            self.load()
        except (OSError, ValueError) as e:
            log.warning("cannot read %s (%s); keeping the keys read before", self.path, e)
        assert self._keys is not None
        return self._keys.validate(key, address, address) is not None


class Login(asyncssh.SSHServer):
    """One SSH connection's side of the server: its address, its key or guest status,
    and the refusal (if any) its session must print."""

    def __init__(self, server: ServeServer) -> None:
        self.server = server
        self.address = "?"
        self.conn: asyncssh.SSHServerConnection | None = None
        self.key: asyncssh.SSHKey | None = None
        self.rejected: list[str] = []  # fingerprints of keys not on the list
        self.refusal: Refusal | None = None
        self.sessions = 0
        self.logged = False  # a refusal was logged for this connection
        self.counted = False  # counted among the open connections
        self._waiting: asyncio.TimerHandle | None = None

    @property
    def fingerprint(self) -> str | None:
        return self.key.get_fingerprint("sha256") if self.key is not None else None

    @property
    def account(self) -> str:
        """Whose sessions this connection's count against the per-key cap: the key,
        or for a guest the address it comes from."""
        return self.fingerprint or f"guest@{self.address}"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        # Open connections are capped before anything else (each holds a file).
        why = self.server.open_connection(self.address)
        if why is not None:
            self.logged = True
            log.info("refuse ip=%s why=%r (closed at once)", self.address, why)
            conn.abort()
            return
        self.counted = True
        # Refused in words by the session (logged there, or below if none opens).
        self.refusal = self.server.rate.admit(self.address)

    def auth_completed(self) -> None:
        """Authenticated: a session must follow soon, or the connection is closed."""
        wait = self.server.config.session_wait
        if wait > 0:
            loop = asyncio.get_running_loop()
            self._waiting = loop.call_later(wait, self._no_session)

    def _no_session(self) -> None:
        if self.sessions == 0 and self.conn is not None:
            self.logged = True
            wait = self.server.config.session_wait
            log.info("close ip=%s why=%r", self.address, f"no session within {wait:g} s")
            self.conn.close()

    def close_soon(self) -> None:
        """Close the connection once what was written to it has gone out."""
        if self.conn is not None:
            asyncio.get_running_loop().call_later(0.5, self.conn.close)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
        if self.counted:
            self.counted = False
            self.server.close_connection(self.address)
        if self.sessions == 0 and not self.logged:
            if self.refusal:
                self.server.refuse(self, self.refusal.why)
            elif self.rejected:
                self.server.refuse(self, "key not on the authorized list")
            else:
                log.debug("closed before a session ip=%s (%s)", self.address, exc)

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        allowed = self.server.authorized
        if allowed is not None and not allowed.admits(key, self.address):
            fingerprint = key.get_fingerprint("sha256")
            if fingerprint not in self.rejected:
                self.rejected.append(fingerprint)
            return False
        self.key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key = None  # no key: a guest, or a refusal in words (the session says which)
        return True

    def password_auth_supported(self) -> bool:
        return False


FILES_PER_CONNECTION = 3
"""Files one playing connection holds: its socket, its app's pty and a pidfd."""
SPARE_FILES = 64
"""Files kept for everything else (logs, databases, the listener)."""


def connection_cap(wanted: int) -> int:
    """The most connections this process can hold open: ``wanted`` (0: no cap of
    its own) within what the file-descriptor limit allows (raised to its hard
    limit first). Past it, new connections are closed at once and the players
    already here keep playing ("Too many open files" would lock everyone out)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    except (ImportError, ValueError, OSError):
        return wanted
    if soft == resource.RLIM_INFINITY:
        return wanted
    room = max(1, (soft - SPARE_FILES) // FILES_PER_CONNECTION)
    return min(wanted, room) if wanted > 0 else room


def open_caps(
    config: ServeConfig,
    db: Database | None = None,
    host: str | None = None,
    clock: Callable[[], float] = time.time,
) -> Caps:
    """The session caps: per key across every host when the storage setting names a
    shared database (:mod:`.sessions`; ``db``: the server's pool; ``host``: this
    host's id, kept in its data directory; ``clock``: the heartbeats'), else this
    host's own count."""
    from ..storage.url import backend_of, database_url

    url = database_url()
    if url is not None and backend_of(url) == "postgresql":
        from .sessions import SharedCaps

        caps = SharedCaps(config.max_sessions, config.max_per_key, url=url, db=db, clock=clock)
        if host is not None:
            caps.host = host
        return caps
    return Caps(config.max_sessions, config.max_per_key)


def where_kept(config: ServeConfig) -> str:
    """Where the lobby (and with a database, the players' games) is kept, for the
    "serving on" line: ``match=DIR``, or ``database=URL`` (no password) with a
    shared database, where it said ``match=DATA/match``, a directory the lobby
    then did not use."""
    from ..storage.url import backend_of, database_url, shown_url

    url = database_url()
    if url is not None and backend_of(url) == "postgresql":
        return f"database={shown_url(url)}"
    return f"match={config.matches}"


def open_pool() -> Database | None:
    """The server's connections to the shared database (None: files)."""
    from ..storage.url import backend_of, database_url

    url = database_url()
    if url is None or backend_of(url) != "postgresql":
        return None
    from ..storage.postgres import PooledDatabase

    return PooledDatabase(url, size=4)


class ServeServer:
    """Listens, admits, counts and stops; :class:`~.play.Session` runs each session."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.database = open_pool()
        self.players = open_players(
            config.data_dir, local=lambda: local_player_names(config.matches), db=self.database
        )
        config.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.host_id = host_id(config.data_dir)
        """This host's id in the shared ``sessions`` table (kept in its data directory)."""
        self.clock: Callable[[], float] = time.time
        """The wall clock of the restart's record and credit (a test moves it)."""
        self.caps = open_caps(config, self.database, self.host_id, self.now)
        self.heartbeat = None if self.caps.shared else Heartbeat(config.data_dir, now=self.now)
        """On files, the record of this host's sessions a restart credits from
        (:mod:`.restart`; with a shared database the ``sessions`` rows are it)."""
        self._beating: asyncio.Task[None] | None = None
        self._alive: asyncio.Task[None] | None = None
        self.fair = FairShare(config.cpu_share, best_priority()) if config.cpu_share > 0 else None
        self._sharing: asyncio.Task[None] | None = None
        self.rate = RateLimit(config.ip_burst, config.ip_per_minute)
        self.authorized = (
            AuthorizedKeys(config.authorized_keys) if config.authorized_keys is not None else None
        )
        self.sessions: set[Any] = set()  # play.Session, running
        self.stopping = asyncio.Event()
        self.register_lock = asyncio.Lock()
        self.next_id = 1
        self.listener: asyncssh.SSHAcceptor | None = None
        self.port = config.port
        self.connections: Counter[str] = Counter()
        """Open connections by address."""
        self.connection_cap = config.max_connections
        self.prestart: Prestart | None = None
        """The warm process the apps are forked from (None: every app is spawned)."""
        self.pool: SolverPool | None = None
        """The solver workers every session shares (None: each app starts its own)."""
        self._sweeping: asyncio.Task[None] | None = None

    def now(self) -> float:
        return self.clock()

    def open_connection(self, address: str) -> str | None:
        """Count a new connection from ``address``; why it may not stay (None: it may)."""
        total = sum(self.connections.values())
        if self.connection_cap > 0 and total >= self.connection_cap:
            return f"total connection cap ({self.connection_cap})"
        cap = self.config.max_per_address
        if cap > 0 and self.connections[address] >= cap:
            return f"per-address connection cap ({cap})"
        self.connections[address] += 1
        return None

    def close_connection(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    async def _guests_left(self) -> None:
        """Guests of a server that died (their directories are still here): nobody can
        come back as them, so their tables close and their shared games end, as when
        a guest's session ends; then their directories go. This host's guests only:
        another host's on a shared database have their own directories."""
        from .play import guest_gone

        for guest in self.players.left_guests():
            left = await guest_gone(self.config.matches, guest)
            if left:
                log.info("guest %s, left by a server that died: %d seats left", guest.name, left)
        self.players.forget_all_guests()

    async def start(self) -> int:
        """Listen; the port (the one asked for, or the one given for port 0)."""
        from .play import Session

        cfg = self.config
        self.connection_cap = connection_cap(cfg.max_connections)
        cfg.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.players.players.mkdir(exist_ok=True, mode=0o700)
        cfg.matches.mkdir(parents=True, exist_ok=True)
        await self._guests_left()
        await self._credit_restart()
        host_key = load_host_key(cfg.host_key)

        async def process_factory(process: asyncssh.SSHServerProcess[bytes]) -> None:
            await Session(self, process).run()

        proxied: dict[str, Any] = {}
        if cfg.proxy_protocol:  # the player's address from the balancer's header
            from .proxy import ProxyListener

            proxied["tunnel"] = ProxyListener()
        self.listener = await asyncssh.create_server(
            lambda: Login(self),
            cfg.host,
            cfg.port,
            server_host_keys=[host_key],
            encryption_algs=CIPHERS,
            process_factory=process_factory,
            encoding=None,
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            login_timeout=cfg.login_timeout,
            keepalive_interval=30,
            keepalive_count_max=4,
            server_version="termsolitaire",
            **proxied,
        )
        self.port = self.listener.get_port()
        if cfg.prestart:
            subreaper = become_subreaper()
            self.prestart = Prestart(cfg.warm_environment())
            self.prestart.start()
            self._sweeping = asyncio.create_task(self._sweep(subreaper))
        else:
            log.info("prestart: off (--no-prestart): every app is spawned")
        if cfg.solver_workers != 0 and os.environ.get(SOLVER_ENV, "1") != "0":
            size = cfg.solver_workers if cfg.solver_workers > 0 else None
            self.pool = SolverPool(size, forker=self.prestart)
            if self.prestart is not None:  # its workers forked from the warm process
                self.prestart.on_ready.append(self.pool.renew)
            await self.pool.start()
        if self.caps.shared:
            self._beating = asyncio.create_task(self._beat())
        if self.heartbeat is not None:
            self._alive = asyncio.create_task(self._keep_alive())
        if self.fair is not None:
            self._sharing = asyncio.create_task(self._share())
        log.info(
            "serving on %s:%d host-key=%s data=%s %s connections=%d app=%r%s%s%s",
            cfg.host,
            self.port,
            host_key.get_fingerprint("sha256"),
            cfg.data_dir,
            where_kept(cfg),
            self.connection_cap,
            cfg.app_command,
            " open" if cfg.open else "",
            f" authorized-keys={cfg.authorized_keys}" if cfg.authorized_keys else "",
            " proxy-protocol" if cfg.proxy_protocol else "",
        )
        log.info("solver: %s", solver_kind())  # README, "Faster solver"
        return self.port

    async def _credit_restart(self) -> None:
        """Give the downtime back to the match clocks of the players who had a session
        here when this host went quiet (:mod:`.restart`), before anyone can play."""
        host = self.host_id if self.caps.shared else None
        try:
            credits = await asyncio.to_thread(
                credit_at_start,
                self.config.matches,
                heartbeat=self.heartbeat,
                host=host,
                now=self.now,
            )
        except Exception:  # never let the credit keep the server from starting
            log.exception("restart credit")
            return
        for c in credits:
            log.info(
                "restart credit: table %d seat %d player=%s %.0f s",
                c.table_id,
                c.seat,
                c.player,
                c.seconds,
            )

    def players_here(self) -> list[str]:
        """The ids of the players in sessions now (not guests: their games end with them)."""
        return [s.player.id for s in self.sessions if s.player is not None and not s.player.guest]

    def note_alive(self) -> None:
        """Write down the players in sessions now (files: :class:`~.restart.Heartbeat`)."""
        if self.heartbeat is not None and not self.stopping.is_set():
            self.heartbeat.beat(self.players_here())

    async def _keep_alive(self) -> None:
        """On files: the heartbeat file every :data:`~.restart.HEARTBEAT` seconds."""
        while True:
            self.note_alive()
            await asyncio.sleep(HEARTBEAT)

    async def _beat(self) -> None:
        """Keep this host's rows in the sessions table alive (:mod:`.sessions`)."""
        from .sessions import BEAT

        while True:
            await asyncio.sleep(BEAT)
            self.caps.beat()

    async def _share(self) -> None:
        """Keep each app's CPU within its share (:mod:`.fairshare`)."""
        assert self.fair is not None
        while True:
            await asyncio.sleep(TICK)
            apps = [s.app.pid for s in self.sessions if s.app is not None and s.app.running]
            try:
                self.fair.tick(apps)
                for _ in range(int(TICK / 0.1) - 1):  # changes the kernel put off
                    if self.fair.retry():
                        break
                    await asyncio.sleep(0.1)
            except Exception:  # never let the watch take the server down
                log.exception("fair share")

    async def _sweep(self, subreaper: bool) -> None:
        """As the subreaper of the forked apps, reap the processes handed up to the
        server that nobody else waits for (an ended app's orphaned children)."""
        if not subreaper:
            return
        while True:
            await asyncio.sleep(SWEEP)
            known = {s.app.pid for s in self.sessions if s.app is not None}
            known |= live_pids()
            if self.prestart is not None:
                known |= self.prestart.owned
            if self.pool is not None:
                known |= self.pool.pids
            reap_strays(known)

    def new_id(self) -> int:
        n = self.next_id
        self.next_id += 1
        return n

    def refuse(self, login: Login, why: str, session: int | None = None) -> None:
        """The log line of a refusal (the player reads the sentence in their session)."""
        login.logged = True
        log.info(
            "refuse%s ip=%s key=%s why=%r",
            f" session={session}" if session is not None else "",
            login.address,
            login.fingerprint or (",".join(login.rejected) or "none"),
            why,
        )

    async def stop(self, grace: float | None = None) -> None:
        """Stop listening, hang up every session's app (each saves) and wait for them."""
        if self.stopping.is_set():
            return
        log.info("stopping: %d session(s) to save", len(self.sessions))
        self.stopping.set()
        for task in (self._alive, self._beating):  # what the restart credits from, first
            if task is not None:
                task.cancel()
        if self.heartbeat is not None:
            self.heartbeat.stopped(self.players_here())
        self.caps.stop()
        if self.listener is not None:
            self.listener.close()
        wait = (grace if grace is not None else self.config.grace) + 15.0
        tasks = [s.done for s in list(self.sessions)]
        if tasks:
            await asyncio.wait(tasks, timeout=wait)
        if self.listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.listener.wait_closed(), 5.0)
        for task in (self._sharing, self._sweeping):
            if task is not None:
                task.cancel()
        if self.pool is not None:  # first: the warm process reports its workers' ends
            await self.pool.stop()
        if self.prestart is not None:
            await self.prestart.stop()
        self.caps.close()  # this host's rows in the sessions table stop counting at once
        if self.database is not None:
            self.database.close()
        log.info("stopped")

    async def serve_until_signal(self) -> None:
        """Run until SIGTERM or SIGINT, then :meth:`stop`."""
        import signal

        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.add_signal_handler(sig, wake.set)
        await self.start()
        await wake.wait()
        await self.stop()
