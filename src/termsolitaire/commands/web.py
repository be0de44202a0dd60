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
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

from .options import lacks_serve_extra

APP_COMMAND = "{python} -m termsolitaire"


def _port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return int(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Serve the app to a browser on this machine (textual-serve)."
    p.add_argument("--host", default="localhost", help="address to listen on (default localhost)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
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


def run(args: argparse.Namespace) -> int:
    if lacks_serve_extra("web", "textual_serve"):
        return 1
    from textual_serve.server import Server

    data_dir = getattr(args, "data_dir", None)
    if data_dir is not None:
        os.environ["TERMSOLITAIRE_HOME"] = os.path.abspath(os.path.expanduser(data_dir))
    with tempfile.TemporaryDirectory(prefix="termsolitaire-web-") as pages:
        server = Server(
            command_line(args.app_command),
            host=args.host,
            port=args.port,
            title="termsolitaire",
            public_url=args.public_url,
            templates_path=templates_dir(Path(pages)),
        )
        try:
            server.serve()
        except OSError as e:
            sys.stderr.write(f"termsolitaire web: cannot listen on {args.host}:{args.port}: {e}\n")
            return 1
    return 0
