"""Accounts: the SSH public key is the player.

The key's SHA256 fingerprint names the player's directory under
``<data>/players/`` (saves, settings and statistics, used by the app as its
``TERMSOLITAIRE_HOME``); ``player.json`` there holds the name chosen on the
first connection and the public key. Guests (``--open``, no key) get a fresh
directory under ``<data>/guests/`` that goes when their session ends.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..match.identity import GUEST, looks_alike
from ..storage.files import StorageError, write_atomic

if TYPE_CHECKING:
    from ..storage.postgres import Database

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,19}")
NAME_RULE = "2 to 20 letters, digits, - _ or ., starting with a letter or digit"
RESERVED = ("guest", "admin", "root", "server", "termsolitaire", "computer")
"""Names no key may start with: the server's own words, a guest's name
(``guest-…``), and the computer opponent's ("computer (good)"), which a player
named "computer" passed for in the lobby's rows and the records."""


def safe_id(fingerprint: str) -> str:
    """A directory name for a key fingerprint (``SHA256:ab+/c`` -> ``sha256-ab-_c``).

    >>> safe_id("SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s")
    'sha256-uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s'
    >>> safe_id("SHA256:a+b/c=")
    'sha256-a-b_c'
    """
    algo, _, digest = fingerprint.partition(":")
    digest = digest.rstrip("=").replace("+", "-").replace("/", "_")
    if not digest or not re.fullmatch(r"[A-Za-z0-9_-]+", digest):
        raise ValueError(f"not a key fingerprint: {fingerprint!r}")
    return f"{algo.lower()}-{digest}"


def check_name(text: str) -> str | None:
    """Why ``text`` cannot be a player's name (None: it can). Names are ASCII:
    anything else is refused with a sentence that names it, never dropped.

    >>> check_name("alice"), check_name("Bob_2")
    (None, None)
    >>> check_name("a-very-long-name-indeed")
    'A name is 2 to 20 letters, digits, - _ or ., starting with a letter or digit.'
    >>> check_name("guest7")
    "Names starting with 'guest' are kept for the server."
    >>> check_name("Computer")
    "Names starting with 'computer' are kept for the server."
    >>> check_name("αlice")
    "A name uses the letters A to Z, digits, - _ and . only: 'α' is not one of them."
    """
    odd = [c for c in text if not (c.isascii() and (c.isalnum() or c in "_.-"))]
    if odd:
        rule = "A name uses the letters A to Z, digits, - _ and . only"
        if odd[0] == "\ufffd":
            return f"{rule}; your terminal sent bytes that are not UTF-8."
        if not odd[0].isprintable():
            return f"{rule}: no control characters."
        return f"{rule}: {odd[0]!r} is not one of them."
    if not NAME.fullmatch(text):
        return f"A name is {NAME_RULE}."
    for word in RESERVED:
        if text.lower().startswith(word):
            return f"Names starting with {word!r} are kept for the server."
    return None


@dataclass(frozen=True)
class Player:
    """Who is playing: the name others see, the id the lobby keys on, their files."""

    name: str
    id: str
    home: Path
    guest: bool = False


class Players:
    """The players known to this server, under ``root`` (the server's data directory)."""

    def __init__(self, root: Path, local: Callable[[], Iterable[str]] = tuple) -> None:
        self.root = root
        self.players = root / "players"
        self.guests = root / "guests"
        self.local = local
        """The names of local players the match store knows (they keep them)."""

    def home(self, fingerprint: str) -> Path:
        return self.players / safe_id(fingerprint)

    def find(self, fingerprint: str) -> Player | None:
        """The registered player of this key, or None (first connection)."""
        home = self.home(fingerprint)
        try:
            data = json.loads((home / "player.json").read_text(encoding="utf-8"))
            name = data["name"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(name, str) or check_name(name) is not None:
            return None
        return Player(name, fingerprint, home)

    def taken(self, name: str) -> bool:
        """Whether another key already goes by ``name``, or one that looks like it
        (letter case aside, ``I`` for ``l``: :func:`~termsolitaire.match.identity.looks_alike`),
        or a local account of this host does (local and SSH players share one lobby)."""
        if any(looks_alike(local, name) for local in self.local_names()):
            return True
        for path in self.players.glob("*/player.json"):
            try:
                other = json.loads(path.read_text(encoding="utf-8")).get("name")
            except (OSError, ValueError, AttributeError):
                continue
            if isinstance(other, str) and looks_alike(other, name):
                return True
        return False

    def local_names(self) -> list[str]:
        """The names local players go by: this host's accounts, and the names the
        match store has seen (``local``)."""
        names = list(self.local())
        with contextlib.suppress(ImportError, OSError):
            import pwd

            names += [p.pw_name for p in pwd.getpwall()]
        return names

    def _check_free(self, name: str) -> None:
        """ValueError with the player's message when ``name`` may not be registered:
        not allowed (:func:`check_name`), or :meth:`taken` (in this registry's own
        sense: these files, or every host's players)."""
        problem = check_name(name)
        if problem:
            raise ValueError(problem)
        if self.taken(name):
            raise ValueError(f"{name!r} is taken (or looks like a name that is); choose another.")

    def register(self, fingerprint: str, name: str, public_key: str) -> Player:
        """Keep ``name`` for this key; raises ValueError with the player's message when
        the name is not allowed or taken, StorageError when it cannot be written."""
        self._check_free(name)
        home = self.home(fingerprint)
        try:
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            raise StorageError(f"cannot create {home}: {e.strerror or e}") from e
        record = {"name": name, "fingerprint": fingerprint, "key": public_key}
        write_atomic(home / "player.json", json.dumps(record, indent=1) + "\n")
        return Player(name, fingerprint, home)

    def guest(self) -> Player:
        """A new guest with an empty directory of its own (see :meth:`forget`)."""
        token = secrets.token_hex(4)
        home = self.guests / token
        try:
            home.mkdir(parents=True, mode=0o700)
        except OSError as e:
            raise StorageError(f"cannot create {home}: {e.strerror or e}") from e
        return Player(f"guest-{token}", f"{GUEST}{token}", home, guest=True)

    def forget(self, player: Player) -> None:
        """Remove a guest's directory (their games go with them)."""
        if player.guest and player.home.parent == self.guests:
            shutil.rmtree(player.home, ignore_errors=True)

    def left_guests(self) -> list[Player]:
        """The guests whose directories a server that died left (each directory's
        name is its guest's token): this host's guests only, whatever the store."""
        with contextlib.suppress(OSError):
            return [
                Player(f"guest-{d.name}", f"{GUEST}{d.name}", d, guest=True)
                for d in sorted(self.guests.iterdir())
                if d.is_dir()
            ]
        return []

    def close(self) -> None:
        """Let go of what the accounts hold open (nothing, on files)."""

    def forget_all_guests(self) -> None:
        """Guest directories left by a server that died: nobody can come back to them."""
        shutil.rmtree(self.guests, ignore_errors=True)


class SharedPlayers(Players):
    """The accounts in the shared PostgreSQL database (``serve --database``), so a
    key is the same player on every host: table ``players`` (id: the key's
    fingerprint). The player's directory stays on this host (the app's working
    directory and crash log); their games are in the database too."""

    def __init__(
        self,
        root: Path,
        url: str,
        local: Callable[[], Iterable[str]] = tuple,
        db: Database | None = None,
    ) -> None:
        super().__init__(root, local)
        from ..storage.postgres import PooledDatabase

        self._own = db is None
        self.db = db if db is not None else PooledDatabase(url)
        """The server's pool, used from its event loop (short queries)."""

    def close(self) -> None:
        """Close the pool these accounts opened themselves (the server closes its own)."""
        if self._own:
            self.db.close()

    def find(self, fingerprint: str) -> Player | None:
        row = self.db.run(
            "find the player",
            lambda c: c.execute(
                "SELECT name FROM players WHERE id = %s", (fingerprint,)
            ).fetchone(),
        )
        if row is None or check_name(row[0]) is not None:
            return None
        home = self.home(fingerprint)  # made here when they registered on another host
        try:
            home.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            raise StorageError(f"cannot create {home}: {e.strerror or e}") from e
        return Player(row[0], fingerprint, home)

    def taken(self, name: str) -> bool:
        if any(looks_alike(local, name) for local in self.local_names()):
            return True
        rows = self.db.run(
            "read the players", lambda c: c.execute("SELECT name FROM players").fetchall()
        )
        return any(looks_alike(other, name) for (other,) in rows)

    def register(self, fingerprint: str, name: str, public_key: str) -> Player:
        self._check_free(name)
        import time

        import psycopg

        try:
            self.db.run(
                "register the player",
                lambda c: (
                    c.execute(
                        "INSERT INTO players VALUES (%s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                        (fingerprint, name, public_key, time.time()),
                    ).rowcount
                ),
            )
        except StorageError as e:
            if isinstance(e.__cause__, psycopg.errors.UniqueViolation):
                raise ValueError(f"{name!r} was taken a moment ago; choose another.") from None
            raise
        found = self.find(fingerprint)
        if found is None:  # pragma: no cover - a name refused by check_name cannot be in
            raise StorageError("the new account could not be read back")
        return found  # (not added: this key registered on another host a moment ago)

    def forget(self, player: Player) -> None:
        """A guest's directory and what their session kept in the database."""
        super().forget(player)
        if not player.guest:
            return

        def work(c: Any) -> None:
            for table in ("saves", "finished_games", "settings"):
                c.execute(f"DELETE FROM {table} WHERE owner = %s".encode(), (player.id,))

        with contextlib.suppress(StorageError):
            self.db.run("forget the guest", work)


def open_players(
    root: Path, local: Callable[[], Iterable[str]] = tuple, db: Database | None = None
) -> Players:
    """The accounts: in the shared database (``db``, the server's pool) when the
    storage setting names one, else files."""
    from ..storage.url import backend_of, database_url

    url = database_url()
    if url is not None and backend_of(url) == "postgresql":
        return SharedPlayers(root, url, local, db)
    return Players(root, local)
