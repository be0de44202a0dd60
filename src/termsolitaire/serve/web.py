"""``termsolitaire web``: the app in a browser, through textual-serve.

Every browser tab runs its own app process, driven over a websocket. There is
no login: it is meant for this machine (``localhost``); put it behind
something that authenticates before offering it to anyone else. All tabs share
one data directory (``--data-dir`` or ``TERMSOLITAIRE_HOME``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

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


def command_line(app_command: str) -> str:
    """The shell command textual-serve starts per tab (``{python}``: this interpreter)."""
    return " ".join(
        shlex.quote(part.replace("{python}", sys.executable)) for part in shlex.split(app_command)
    )


def run(args: argparse.Namespace) -> int:
    from textual_serve.server import Server

    data_dir = getattr(args, "data_dir", None)
    if data_dir is not None:
        os.environ["TERMSOLITAIRE_HOME"] = os.path.abspath(os.path.expanduser(data_dir))
    server = Server(
        command_line(args.app_command),
        host=args.host,
        port=args.port,
        title="termsolitaire",
        public_url=args.public_url,
    )
    try:
        server.serve()
    except OSError as e:
        sys.stderr.write(f"termsolitaire web: cannot listen on {args.host}:{args.port}: {e}\n")
        return 1
    return 0
