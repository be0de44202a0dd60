"""``termsolitaire web``: the app in a browser, through textual-serve.

Every browser tab runs its own app process, driven over a websocket. There is
no login: it is meant for this machine (``localhost``); put it behind
something that authenticates before offering it to anyone else. All tabs share
one data directory (``--data-dir`` or ``TERMSOLITAIRE_HOME``).

The page uses no font from the internet: textual-serve's own page asks Google
for Roboto Mono; ours is that page with the stylesheet link replaced by an
``@font-face`` for the copy of Roboto Mono textual-serve ships and serves
itself (:func:`page_template`), so the page works offline and tells nobody
else who plays.

The command binds its sockets itself (:func:`listen`) before textual-serve
builds anything: ``--port 0`` takes a free port from the system, and the page's
URLs (its websocket's among them) and the one line on stdout name the port
really bound. textual-serve's ``Server.serve`` binds ``host:port`` itself and
takes no socket, and it fixes its URLs from ``host:port`` when it is built
(``http://localhost:0`` for port 0), so the command hands the sockets to
aiohttp's ``run_app`` with the app textual-serve makes (its ``_make_app``, the
one private name used here; tests/serve/test_command.py fails if it goes).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import socket
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .options import lacks_serve_extra, port_number

if TYPE_CHECKING:
    from aiohttp import web

APP_COMMAND = "{python} -m termsolitaire"
PICKS = 3
"""How often ``--port 0`` asks the system for a port: a host naming several
addresses (``localhost``: 127.0.0.1 and ::1) listens on one port on each, and
the port picked for the first may be taken on another."""
BACKLOG = 128
"""Connections waiting to be accepted (aiohttp's default)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Serve the app to a browser on this machine (textual-serve)."
    p.add_argument("--host", default="localhost", help="address to listen on (default localhost)")
    p.add_argument(
        "--port",
        type=port_number,
        default=8000,
        help="port (default 8000; 0: a free one, named on the first line of output)",
    )
    p.add_argument(
        "--data-dir", metavar="DIR", default=argparse.SUPPRESS, help="where games are kept"
    )
    p.add_argument(
        "--database",
        metavar="URL",
        default=argparse.SUPPRESS,
        help="keep games in this PostgreSQL database (default: TERMSOLITAIRE_DATABASE, else files)",
    )
    p.add_argument("--public-url", metavar="URL", help="the address browsers use, behind a proxy")
    p.add_argument(
        "--app-command", default=APP_COMMAND, metavar="CMD",
        help=f"what each tab runs (default {APP_COMMAND!r})",
    )  # fmt: skip


PAGE = "app_index.html"
"""textual-serve's one page template."""
REMOTE_STYLESHEET = re.compile(r"<link\b[^>]*\bhref=[\"']https?://[^>]*>\s*", re.I)
"""A stylesheet from another server (textual-serve's is Google Fonts')."""
LOCAL_FONT = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf")
          format("truetype");
        font-weight: 100 700;
      }
    </style>
  </head>"""
"""The font the terminal asks for, from textual-serve's own static files."""


def page_template(page: str) -> str:
    """textual-serve's page template with no stylesheet (so no font) from the
    internet: the same Roboto Mono comes from the server's own static files.

    >>> page = '<head><link rel="stylesheet" href="https://fonts.example/css"/></head>'
    >>> "https:" in page_template(page), "@font-face" in page_template(page)
    (False, True)
    """
    return REMOTE_STYLESHEET.sub("", page).replace("</head>", LOCAL_FONT, 1)


def templates_dir(into: Path) -> Path:
    """A templates folder for textual-serve holding :func:`page_template` of its page."""
    import textual_serve

    source = Path(textual_serve.__file__).parent / "templates" / PAGE
    (into / PAGE).write_text(page_template(source.read_text(encoding="utf-8")), encoding="utf-8")
    return into


def command_line(app_command: str) -> str:
    """The shell command textual-serve starts per tab (``{python}``: this interpreter)."""
    return " ".join(
        shlex.quote(part.replace("{python}", sys.executable)) for part in shlex.split(app_command)
    )


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets listening on every address ``host`` names, all on one port: ``port``,
    or for 0 the one the system picks for the first address (picked again, up to
    :data:`PICKS` times, where another address has it taken)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    addresses = list(dict.fromkeys((family, address) for family, _, _, _, address in found))
    picks = PICKS
    while True:
        sockets: list[socket.socket] = []
        try:
            for family, address in addresses:
                sock = socket.socket(family, socket.SOCK_STREAM)
                sockets.append(sock)
                if os.name == "posix":  # as asyncio does: a restart binds despite TIME_WAIT
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                bound = sockets[0].getsockname()[1] if len(sockets) > 1 else port
                sock.bind((address[0], bound, *address[2:]))
                sock.listen(BACKLOG)
            return sockets
        except OSError:
            for sock in sockets:
                sock.close()
            picks -= 1
            if port or len(sockets) == 1 or not picks:
                raise


def url(host: str, port: int) -> str:
    """The address a browser on this machine opens.

    >>> url("localhost", 8000), url("::1", 0)
    ('http://localhost:8000', 'http://[::1]:0')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def run(args: argparse.Namespace) -> int:
    if lacks_serve_extra("web", "textual_serve"):
        return 1
    from aiohttp.web import run_app
    from textual_serve.server import Server

    data_dir = getattr(args, "data_dir", None)
    if data_dir is not None:
        os.environ["TERMSOLITAIRE_HOME"] = os.path.abspath(os.path.expanduser(data_dir))
    try:
        sockets = listen(args.host, args.port)
    except OSError as e:
        sys.stderr.write(
            f"termsolitaire web: cannot listen on {args.host}:{args.port}: {e.strerror or e}\n"
        )
        return 1
    port = sockets[0].getsockname()[1]
    address = url(args.host, port)

    class WebServer(Server):
        async def on_startup(self, app: web.Application) -> None:
            """One line a script can read instead of textual-serve's banner."""
            print(f"serving on {address}", flush=True)

    with tempfile.TemporaryDirectory(prefix="termsolitaire-web-") as pages:
        server = WebServer(
            command_line(args.app_command),
            host=args.host,
            port=port,
            title="termsolitaire",
            public_url=args.public_url or address,
            templates_path=templates_dir(Path(pages)),
        )
        server.initialize_logging()
        run_app(server._make_app(), sock=sockets, print=None)  # SIGINT, SIGTERM: exit 0
    return 0
