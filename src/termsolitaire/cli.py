"""The command line (API.md, "Command line").

Every game's subcommand and its options (``--deal``, its variants such as
``--suits``, ``--time-limit`` where it has a clock limit) come from the games'
declarations (:func:`termsolitaire.rules.games`). Display options (``--ascii``,
``--four-colour``), ``--data-dir`` and ``--winnable`` are accepted before or
after a command.

Subcommands that print (``show``, ``stats``) never import textual, so they
start fast and work without a terminal. Bad arguments print argparse's usage
and one error line on stderr and exit with status 2. A command whose reader
goes away (``termsolitaire stats | head -1``) stops quietly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Collection, Sequence
from typing import Any

from . import __version__
from .rules import GameInfo, games, info, new_game

COMMANDS: dict[str, tuple[str, str]] = {
    "match": ("termsolitaire.match.command", "the Spider match lobby: tables on this host"),
    "serve": ("termsolitaire.serve.command", "the SSH server: every connection plays"),
    "web": ("termsolitaire.serve.web", "the app in a browser on this machine"),
    "solve": ("termsolitaire.solver.command", "find a winning line, or prove there is none"),
    "opponent": ("termsolitaire.solver.opponent.command", "the Spider computer opponent, headless"),
    "db": ("termsolitaire.storage.command", "the PostgreSQL database: upgrade, import"),
}
"""Subcommands that live in their own package: name -> (module, help). The module
has ``add_arguments(parser)`` (cheap: heavy imports wait for ``run``) and
``run(args) -> int`` (the exit status)."""


DEAL_RANGE = f"a whole number from 0 to {(1 << 64) - 1}"
"""What a deal number may be, as every message says it (never ``2**64 - 1``)."""


def _deal(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) >= 1 << 64:
        raise argparse.ArgumentTypeError(f"deal must be {DEAL_RANGE}, not {text!r}")
    return int(text)


def _recent(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"a whole number from 0 up, not {text!r}")
    return int(text)


def _choice(values: tuple[int, ...], what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if text.strip().isdigit() and int(text) in values:
            return int(text)
        allowed = ", ".join(str(v) for v in values)
        raise argparse.ArgumentTypeError(f"{what} is one of {allowed}, not {text!r}")

    return parse


def _display_options(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``--ascii``, ``--four-colour`` and ``--data-dir``: on the main parser and on
    every command (SUPPRESS below the top, so one given before the command stays)."""
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    p.add_argument("--ascii", action="store_true", help="draw cards with ASCII only", **default)
    p.add_argument(
        "--four-colour",
        action="store_true",
        help="four suit colours (♠ black ♥ red ♦ blue ♣ green)",
        **default,
    )
    p.add_argument(
        "--data-dir", metavar="DIR", help="where games, settings and statistics are kept", **default
    )
    p.add_argument(
        "--database",
        metavar="URL",
        help="keep them in this database (postgresql://…) instead of files "
        "(default: TERMSOLITAIRE_DATABASE)",
        **default,
    )


def _deal_options(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``--winnable``: on the main parser (``termsolitaire --winnable penguin``, or the
    menu's new deals) and on every game, as the display options are."""
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    p.add_argument(
        "--winnable",
        action="store_true",
        help="random deals only among those the solver proves winnable (as the setting)",
        **default,
    )


def _variant_options(p: argparse.ArgumentParser, g: GameInfo | None) -> None:
    """One option per variant of ``g`` (None: every variant key any game has)."""
    declared = {c.key: c for x in ([g] if g else games()) for c in x.variants}
    for key, c in declared.items():
        owner = f"{g.title}: " if g else ""
        p.add_argument(
            f"--{key.replace('_', '-')}",
            dest=key,
            type=_choice(c.values, key) if g else int,
            metavar=key[0].upper(),
            help=f"{owner}{c.help or key}" if g else f"{c.help or key} (games that have it)",
        )


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser; ``commands``: which of :data:`COMMANDS` get their options (None:
    all), so that playing a game does not import the server's modules."""
    parser = argparse.ArgumentParser(
        prog="termsolitaire",
        description=" ".join(g.title for g in games()) + ": solitaire in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"termsolitaire {__version__}")
    _display_options(parser, top=True)
    _deal_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for g in games():
        p = sub.add_parser(g.name, help=f"play {g.title}: {g.blurb}")
        p.add_argument("--deal", type=_deal, metavar="N", help="deal number (default: random)")
        _deal_options(p)
        _variant_options(p, g)
        if g.time_limits:
            p.add_argument(
                "--time-limit",
                type=_choice(g.time_limits, "--time-limit"),
                default=g.time_limit_default,
                metavar="MIN",
                help="minutes on the clock (0: no limit): "
                + ", ".join(str(t) for t in g.time_limits),
            )
        _display_options(p)
    show = sub.add_parser("show", help="print the position text of a deal")
    show.add_argument("game", choices=[g.name for g in games()], help="which game")
    show.add_argument("--deal", type=_deal, metavar="N", help="deal number (default: random)")
    _variant_options(show, None)
    stats = sub.add_parser("stats", help="print the statistics as a table")
    stats.add_argument(
        "--recent", type=_recent, default=20, metavar="N", help="finished games to list"
    )
    _display_options(stats)
    replay = sub.add_parser("replay", help="step through a saved game or a move list")
    replay.add_argument("file", metavar="FILE", help="an autosave, a game's JSON or a move list")
    _display_options(replay)
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        if commands is None or name in commands:
            importlib.import_module(module).add_arguments(command)
    return parser


def variant_of(
    args: argparse.Namespace, game: str, parser: argparse.ArgumentParser
) -> dict[str, int]:
    """The variant the options ask for (the game's defaults for those not given);
    an option the game does not have is a usage error."""
    g = info(game)
    keys = {c.key for c in g.variants}
    for other in {c.key for x in games() for c in x.variants} - keys:
        if getattr(args, other, None) is not None:
            parser.error(f"--{other.replace('_', '-')} is not an option of {g.title}")
    variant = g.default_variant()
    for c in g.variants:
        value = getattr(args, c.key, None)
        if value is not None:
            if value not in c.values:
                parser.error(f"{g.title} is played with {c.key}={c.values}, not {value}")
            variant[c.key] = value
    return variant


CRASH_LOG_ENV = "TERMSOLITAIRE_CRASH_LOG"


def _crash_log() -> None:
    """Under ``serve`` (``TERMSOLITAIRE_CRASH_LOG=FILE``): what would go to stderr (a
    crash's traceback, with the server's paths) goes to FILE for the server's log,
    not to the player's screen. The screen itself is drawn on ``sys.__stderr__``."""
    path = os.environ.get(CRASH_LOG_ENV)
    if not path:
        return
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:
        return
    sys.stderr = os.fdopen(fd, "a", buffering=1, encoding="utf-8", errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _crash_log()
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser([a for a in argv if a in COMMANDS])
    args = parser.parse_args(argv)
    try:
        return _dispatch(args, parser)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from
        # complaining again when it flushes stdout on the way out.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.data_dir is not None:
        os.environ["TERMSOLITAIRE_HOME"] = args.data_dir
    if getattr(args, "database", None):
        os.environ["TERMSOLITAIRE_DATABASE"] = args.database
    if args.command == "show":
        game = new_game(args.game, args.deal, **variant_of(args, args.game, parser))
        sys.stdout.write(game.to_text())
        sys.stdout.flush()
        return 0
    if args.command == "stats":
        from .stats_table import print_stats

        return print_stats(args.data_dir, args.recent)
    if args.command == "replay":
        from .app import run_replay

        return run_replay(args)
    if args.command in COMMANDS:
        status: int = importlib.import_module(COMMANDS[args.command][0]).run(args)
        return status
    from .app import run

    if args.command is None:
        return run(args, game=None, variant={})
    g = info(args.command)
    args.variant_given = any(getattr(args, c.key, None) is not None for c in g.variants)
    return run(args, game=args.command, variant=variant_of(args, args.command, parser))
