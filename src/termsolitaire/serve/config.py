"""What ``termsolitaire serve`` was asked for, and the app each session runs.

The defaults are for one small machine shared by friends: a session costs one
Python process (see docs/scaling.md for the measured figures).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .players import Player

APP_COMMAND = "{python} -m termsolitaire match"
"""The app every session runs; ``{python}`` is this interpreter. Its home screen is the
Spider match lobby (``g`` there opens the menu of the solo games)."""

PASSED_ON = (
    "PATH",
    "PYTHONPATH",
    "PYTHONHOME",
    "VIRTUAL_ENV",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "TERMSOLITAIRE_SOLVER_HELP",
    "TERMSOLITAIRE_DATABASE",
)
"""What the app inherits from the server's environment (nothing else leaks into a session).
``TERMSOLITAIRE_SOLVER_HELP=0`` on the server turns the solver's help (and its worker
process per session) off for everyone (docs/scaling.md). ``TERMSOLITAIRE_DATABASE`` (set by
``--database``) gives every session the server's database."""

WARM_ONLY = ("TERMSOLITAIRE_MERGE_PAGES", "TERMSOLITAIRE_IMMORTAL")
"""What the warm process alone inherits: ``TERMSOLITAIRE_MERGE_PAGES=1`` offers its
pages and its children's to the kernel's same-page merging (serve/heap.py);
``TERMSOLITAIRE_IMMORTAL=0`` leaves its objects mortal (serve/immortal.py)."""

FROM_CLIENT = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR")
CLIENT_VALUE = re.compile(r"[A-Za-z0-9._@=+-]{1,64}")
"""What such a value looks like (``en_GB.UTF-8``, ``truecolor``, ``1``)."""
"""What the player's ssh may set (``SendEnv``): their locale and colour wishes."""


@dataclass
class ServeConfig:
    """Everything the server needs; ``commands/serve.py`` fills it from the command line."""

    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 2222
    match_dir: Path | None = None
    app_command: str = APP_COMMAND
    open: bool = False
    authorized_keys: Path | None = None
    max_sessions: int = 100
    max_per_key: int = 3
    max_connections: int = 200
    """Open connections in all, authenticated or not (0: only the file-descriptor limit)."""
    max_per_address: int = 10
    """Open connections from one address."""
    ip_burst: int = 10
    ip_per_minute: float = 10.0
    idle_timeout: float = 30 * 60.0
    session_limit: float = 8 * 3600.0
    grace: float = 10.0
    login_timeout: float = 60.0
    session_wait: float = 10.0
    """Seconds an authenticated connection may go without opening a session."""
    max_window: tuple[int, int] = (300, 120)
    """The largest window drawn (columns, rows): a larger one shows the game at this
    size in its top left corner."""
    memory_mb: int = 1024
    """Address space of one session's app (RLIMIT_AS; 0: no limit)."""
    proxy_protocol: bool = False
    """Connections come through a TCP balancer and start with a PROXY header
    (:mod:`.proxy`): its address is the player's; one without it is refused."""
    input_per_second: int = 65_536
    """Bytes of keys, mouse and paste a second a session passes on (4x that at once);
    more waits at the client (0: no limit)."""
    cpu_share: float = 0.5
    """The part of one core an app may use and stay in the foreground; more runs it in
    the background until it calms down (:mod:`.fairshare`; 0: off). Half a core: on a
    quiet machine it kept the typing players' p95 within 2x under every attack of
    bench/serve_hostile.py (docs/serve.md)."""

    prestart: bool = True
    """Fork each app from a warm process that has imported it (:mod:`.prestart`);
    False: spawn each (``--no-prestart``)."""
    solver_workers: int = -1
    """Solver worker processes shared by every session (:mod:`.solverpool`; -1: one a
    core; 0: no pool, each app starts its own)."""

    @property
    def host_key(self) -> Path:
        return self.data_dir / "ssh_host_ed25519_key"

    @property
    def matches(self) -> Path:
        return self.match_dir if self.match_dir is not None else self.data_dir / "match"

    def command(self) -> list[str]:
        """The app's argv: ``app_command`` split as a shell would, ``{python}`` filled in."""
        return [part.replace("{python}", sys.executable) for part in shlex.split(self.app_command)]

    def warm_environment(self) -> dict[str, str]:
        """The warm process's environment: what every app inherits from the server
        (each forked app then gets its own, :meth:`environment`)."""
        env = {k: os.environ[k] for k in (*PASSED_ON, *WARM_ONLY) if k in os.environ}
        env.setdefault("LANG", "C.UTF-8")
        return env

    def environment(
        self, player: Player, term: str, client_env: Mapping[str, str]
    ) -> dict[str, str]:
        """The app's environment: a clean one, the player's identity and directories,
        the client's terminal type (checked: :func:`terminal_type`), and no
        COLUMNS/LINES (they would pin the size). The app writes a crash's traceback
        to ``crash.log`` in the player's directory, never to their screen."""
        env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
        env.setdefault("LANG", "C.UTF-8")
        for k in FROM_CLIENT:
            value = client_env.get(k)
            if value and CLIENT_VALUE.fullmatch(value):
                env[k] = value
        env.update(
            TERM=term,
            HOME=str(player.home),
            TERMSOLITAIRE_HOME=str(player.home),
            TERMSOLITAIRE_PLAYER=player.name,
            TERMSOLITAIRE_PLAYER_ID=player.id,
            TERMSOLITAIRE_MATCH_DIR=str(self.matches),
            TERMSOLITAIRE_CRASH_LOG=str(player.home / CRASH_LOG),
        )
        return env


CRASH_LOG = "crash.log"
"""In the player's directory: what the app wrote on stderr, a crash's traceback."""
TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
"""What a terminal type looks like (``xterm-256color``, ``screen.xterm-new``)."""
DEFAULT_TERM = "xterm-256color"


def terminal_type(asked: str | None) -> str:
    """The client's TERM when it looks like one, else :data:`DEFAULT_TERM` (a newline
    or an escape code in it never reaches the log or the app).

    >>> terminal_type("screen-256color"), terminal_type("x\\nforged"), terminal_type(None)
    ('screen-256color', 'xterm-256color', 'xterm-256color')
    """
    return asked if asked and TERM.fullmatch(asked) else DEFAULT_TERM
