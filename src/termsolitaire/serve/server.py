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
from pathlib import Path
from typing import Any

import asyncssh

from .config import ServeConfig
from .limits import Caps, RateLimit, Refusal
from .players import Players

log = logging.getLogger("termsolitaire.serve")


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
        self.key: asyncssh.SSHKey | None = None
        self.rejected: list[str] = []  # fingerprints of keys not on the list
        self.refusal: Refusal | None = None
        self.sessions = 0
        self.logged = False  # a refusal was logged for this connection

    @property
    def fingerprint(self) -> str | None:
        return self.key.get_fingerprint("sha256") if self.key is not None else None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        # Refused in words by the session (logged there, or below if none opens).
        self.refusal = self.server.rate.admit(self.address)

    def connection_lost(self, exc: Exception | None) -> None:
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


class ServeServer:
    """Listens, admits, counts and stops; :class:`~.play.Session` runs each session."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.players = Players(config.data_dir)
        self.caps = Caps(config.max_sessions, config.max_per_key)
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

    async def start(self) -> int:
        """Listen; the port (the one asked for, or the one given for port 0)."""
        from .play import Session

        cfg = self.config
        cfg.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.players.players.mkdir(exist_ok=True, mode=0o700)
        cfg.matches.mkdir(parents=True, exist_ok=True)
        self.players.forget_all_guests()
        host_key = load_host_key(cfg.host_key)

        async def process_factory(process: asyncssh.SSHServerProcess[bytes]) -> None:
            await Session(self, process).run()

        self.listener = await asyncssh.create_server(
            lambda: Login(self),
            cfg.host,
            cfg.port,
            server_host_keys=[host_key],
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
        )
        self.port = self.listener.get_port()
        log.info(
            "serving on %s:%d host-key=%s data=%s match=%s app=%r%s%s",
            cfg.host,
            self.port,
            host_key.get_fingerprint("sha256"),
            cfg.data_dir,
            cfg.matches,
            cfg.app_command,
            " open" if cfg.open else "",
            f" authorized-keys={cfg.authorized_keys}" if cfg.authorized_keys else "",
        )
        return self.port

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
        if self.listener is not None:
            self.listener.close()
        wait = (grace if grace is not None else self.config.grace) + 15.0
        tasks = [s.done for s in list(self.sessions)]
        if tasks:
            await asyncio.wait(tasks, timeout=wait)
        if self.listener is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.listener.wait_closed(), 5.0)
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
