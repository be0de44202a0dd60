"""``termsolitaire serve``: the command line of the SSH server.

``add_arguments`` only declares options (the CLI builds every subcommand's parser
at each start); asyncssh is imported by ``run``.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from termsolitaire.serve.config import APP_COMMAND, ServeConfig
from termsolitaire.serve.limits import parse_duration

from .options import digits, lacks_serve_extra, port_number

D = ServeConfig(data_dir=Path())


def _duration(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _count(text: str) -> int:
    n = digits(text)
    if n is None:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, not {text!r}")
    return n


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a percentage from 0 to 100, not {text!r}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "An SSH server: every connection plays in its own process, the SSH key is the "
        "account. Durations read 90s, 30m or 8h (a bare number is minutes; 0 turns a limit off)."
    )
    p.add_argument("--host", default=D.host, help=f"address to listen on (default {D.host})")
    p.add_argument("--port", type=port_number, default=D.port, help=f"port (default {D.port})")
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="host key, players' saves and the match lobby (default: TERMSOLITAIRE_HOME "
        "or the user data directory)",
    )
    p.add_argument("--match-dir", metavar="DIR", help="the Spider lobby (default DATA/match)")
    p.add_argument(
        "--database",
        metavar="URL",
        default=argparse.SUPPRESS,
        help="keep every player's saves, statistics and settings in this PostgreSQL "
        "database (postgresql://…; default TERMSOLITAIRE_DATABASE, else files)",
    )
    p.add_argument(
        "--proxy-protocol",
        action="store_true",
        help="behind a TCP balancer: every connection starts with a PROXY header (v1 or "
        "v2), whose address the limits and the log use; one without it is refused",
    )
    who = p.add_argument_group("who may play")
    who.add_argument(
        "--open", action="store_true", help="admit guests without a key (nothing is kept)"
    )
    who.add_argument(
        "--authorized-keys", metavar="FILE", type=Path, help="admit only the keys in FILE"
    )
    lim = p.add_argument_group("limits")
    lim.add_argument(
        "--max-sessions",
        type=_count,
        default=D.max_sessions,
        metavar="N",
        help=f"sessions in all (default {D.max_sessions}; 0: no cap)",
    )
    lim.add_argument(
        "--max-per-key",
        type=_count,
        default=D.max_per_key,
        metavar="N",
        help=f"sessions per key (default {D.max_per_key}; 0: no cap)",
    )
    lim.add_argument(
        "--max-connections",
        type=_count,
        default=D.max_connections,
        metavar="N",
        help=f"open connections in all, before they log in (default {D.max_connections}, "
        "and no more than the file-descriptor limit allows; 0: only that)",
    )
    lim.add_argument(
        "--max-per-address",
        type=_count,
        default=D.max_per_address,
        metavar="N",
        help=f"open connections from one address (default {D.max_per_address}; 0: no cap)",
    )
    lim.add_argument(
        "--memory",
        type=_count,
        default=D.memory_mb,
        metavar="MIB",
        help=f"address space of each session's app in MiB (default {D.memory_mb}; 0: no limit)",
    )
    lim.add_argument(
        "--cpu-share",
        type=_percent,
        default=round(D.cpu_share * 100),
        metavar="PERCENT",
        help="of one core an app may use before it runs in the background, behind the "
        f"players who type (default {D.cpu_share * 100:g}; 0: off)",
    )
    lim.add_argument(
        "--ip-burst",
        type=_count,
        default=D.ip_burst,
        metavar="N",
        help=f"connections one address may open at once (default {D.ip_burst})",
    )
    lim.add_argument(
        "--ip-per-minute",
        type=float,
        default=D.ip_per_minute,
        metavar="N",
        help=f"then connections a minute per address (default {D.ip_per_minute:g}; 0: no limit)",
    )
    lim.add_argument(
        "--idle-timeout",
        type=_duration,
        default="30m",
        metavar="TIME",
        help="no key for this long: save and end the session (default 30m)",
    )
    lim.add_argument(
        "--session-limit",
        type=_duration,
        default="8h",
        metavar="TIME",
        help="the longest session (default 8h)",
    )
    lim.add_argument(
        "--grace",
        type=_duration,
        default="10s",
        metavar="TIME",
        help="time an app has to save after a hang-up before it is killed (default 10s)",
    )
    p.add_argument(
        "--no-prestart",
        dest="prestart",
        action="store_false",
        help="spawn every session's app (default: fork it from a process that has "
        "already imported the app, which starts a session in a fraction of the time)",
    )
    p.add_argument(
        "--solver-workers",
        type=_count,
        default=None,
        metavar="N",
        help="solver processes shared by every session, fairly (default: one a core; "
        "0: each session's app starts its own)",
    )
    p.add_argument(
        "--app-command",
        default=APP_COMMAND,
        metavar="CMD",
        help=f"what each session runs (default {APP_COMMAND!r})",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning"),
        help="how much to log on stderr (default info)",
    )


def config_from(args: argparse.Namespace) -> ServeConfig:
    from termsolitaire.storage.paths import paths

    return ServeConfig(
        data_dir=paths(getattr(args, "data_dir", None)).data,
        host=args.host,
        port=args.port,
        match_dir=Path(args.match_dir).expanduser() if args.match_dir else None,
        app_command=args.app_command,
        open=args.open,
        authorized_keys=args.authorized_keys,
        max_sessions=args.max_sessions,
        max_per_key=args.max_per_key,
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        memory_mb=args.memory,
        cpu_share=args.cpu_share / 100,
        ip_burst=args.ip_burst,
        ip_per_minute=args.ip_per_minute,
        idle_timeout=args.idle_timeout,
        session_limit=args.session_limit,
        grace=args.grace,
        proxy_protocol=getattr(args, "proxy_protocol", False),
        prestart=getattr(args, "prestart", True),
        solver_workers=-1 if args.solver_workers is None else args.solver_workers,
    )


class SafeFormatter(logging.Formatter):
    """Log lines that say what a client sent without acting on it: a newline in a
    client's string cannot forge a line, an escape code cannot reach the terminal
    that reads the log (a traceback keeps its own line breaks)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        record.msg, record.args = _escaped(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        return super().format(record)


def _escaped(text: str) -> str:
    """Control characters as escapes (``\\n``, ``\\x1b``).

    >>> _escaped("ok")
    'ok'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import os

    from termsolitaire.storage.backend import DATABASE_ENV, backend_of, database_url
    from termsolitaire.storage.files import StorageError

    if lacks_serve_extra("serve", "asyncssh"):
        return 1

    database = getattr(args, "database", None)
    url = database_url(database)
    try:
        backend = backend_of(url)
    except ValueError as e:
        sys.stderr.write(f"termsolitaire serve: {e}\n")
        return 2
    if url is not None and backend == "postgresql":
        # A database that does not answer, or has no schema yet, let the server
        # start and then told every player "Your account could not be opened".
        try:
            from termsolitaire.storage.postgres import check
        except ImportError:
            sys.stderr.write(
                "termsolitaire serve: --database needs psycopg, which is not installed: "
                "pip install 'termsolitaire[postgres]'\n"
            )
            return 1
        try:
            check(url)
        except StorageError as e:
            sys.stderr.write(f"termsolitaire serve: {e}\n")
            return 1
    if database:  # each session's app inherits it (config.PASSED_ON)
        os.environ[DATABASE_ENV] = database
    config = config_from(args)
    if config.authorized_keys is not None and not config.authorized_keys.is_file():
        sys.stderr.write(f"termsolitaire serve: no such file: {config.authorized_keys}\n")
        return 2
    if not config.command():
        sys.stderr.write("termsolitaire serve: --app-command is empty\n")
        return 2
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(SafeFormatter("%(asctime)s %(message)s"))
    logging.basicConfig(level=args.log_level.upper(), handlers=[handler])
    logging.getLogger("asyncssh").setLevel(logging.WARNING)

    from termsolitaire.serve.server import ServeServer

    try:
        asyncio.run(ServeServer(config).serve_until_signal())
    except OSError as e:
        sys.stderr.write(
            f"termsolitaire serve: cannot listen on {config.host}:{config.port}: "
            f"{e.strerror or e}\n"
        )
        return 1
    except ValueError as e:  # a broken host key or authorized-keys file
        sys.stderr.write(f"termsolitaire serve: {e}\n")
        return 1
    return 0
