"""The command line (API.md, "Command line").

Subcommands that print (``show``) never import textual, so they start fast and
work without a terminal. Bad arguments print argparse's usage and one error
line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __version__
from .rules import GAMES, new_game

COMMANDS: dict[str, tuple[str, str]] = {
    "opponent": ("termsolitaire.solver.opponent_command", "the Spider computer opponent, headless"),
}
"""Subcommands that live in their own package: name -> (module, help). The module
has ``add_arguments(parser)`` (cheap: heavy imports wait for ``run``) and
``run(args) -> int`` (the exit status)."""


def _deal(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"deal must be a whole number >= 0, not {text!r}")
    value = int(text)
    if value >= 1 << 64:
        raise argparse.ArgumentTypeError("deal must be below 2**64")
    return value


def _add_game_options(p: argparse.ArgumentParser, *, game_arg: bool) -> None:
    if game_arg:
        p.add_argument("game", choices=GAMES, help="which game")
    p.add_argument("--deal", type=_deal, metavar="N", help="deal number (default: random)")
    p.add_argument(
        "--suits", type=int, choices=(1, 2, 4), metavar="S", help="Spider: 1, 2 or 4 suits"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="termsolitaire",
        description="Stjernen, Penguin, Spider and Napoleon in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"termsolitaire {__version__}")
    parser.add_argument("--ascii", action="store_true", help="draw cards with ASCII only")
    parser.add_argument("--data-dir", metavar="DIR", help="where games and settings are kept")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for game in GAMES:
        p = sub.add_parser(game, help=f"play {game.capitalize()}")
        _add_game_options(p, game_arg=False)
        p.add_argument(  # SUPPRESS: keep a --ascii given before the game's name
            "--ascii",
            action="store_true",
            default=argparse.SUPPRESS,
            help="draw cards with ASCII only",
        )
        p.add_argument(
            "--four-colour",
            action="store_true",
            help="four suit colours (♠ black ♥ red ♦ blue ♣ green)",
        )
        if game == "spider":
            p.add_argument(
                "--time-limit",
                type=int,
                choices=(0, 5, 10, 15, 20),
                default=0,
                metavar="MIN",
                help="Spider: minutes on the clock (0: no limit)",
            )
    show = sub.add_parser("show", help="print the position text of a deal")
    _add_game_options(show, game_arg=True)
    stats = sub.add_parser("stats", help="print the statistics as a table")
    stats.add_argument(
        "--data-dir", metavar="DIR", default=argparse.SUPPRESS, help="where the statistics are"
    )
    stats.add_argument("--recent", type=int, default=20, metavar="N", help="finished games to list")
    replay = sub.add_parser("replay", help="step through a saved game or a move list")
    replay.add_argument("file", metavar="FILE", help="an autosave, a game's JSON or a move list")
    replay.add_argument(
        "--data-dir", metavar="DIR", default=argparse.SUPPRESS, help="where the settings are"
    )
    replay.add_argument(  # SUPPRESS: keep a --ascii given before the subcommand
        "--ascii", action="store_true", default=argparse.SUPPRESS, help="draw cards with ASCII only"
    )
    for name, (module, help_text) in COMMANDS.items():
        importlib.import_module(module).add_arguments(sub.add_parser(name, help=help_text))
    return parser


def _variant(game: str, suits: int | None, parser: argparse.ArgumentParser) -> dict[str, int]:
    if game == "spider":
        return {"suits": suits or 1}
    if suits is not None:
        parser.error(f"--suits is for Spider only, not {game}")
    return {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "show":
        game = new_game(args.game, args.deal, **_variant(args.game, args.suits, parser))
        sys.stdout.write(game.to_text())
        return 0
    if args.command == "stats":
        from .stats_table import print_stats

        return print_stats(args.data_dir, args.recent)
    if args.command == "replay":
        try:
            from .app import run_replay
        except ImportError:
            sys.stderr.write("termsolitaire: the board is not built yet\n")
            return 1
        return run_replay(args)
    if args.command in COMMANDS:
        status: int = importlib.import_module(COMMANDS[args.command][0]).run(args)
        return status
    if args.command in GAMES:
        variant = _variant(args.command, args.suits, parser)
        return _run_app(args, game=args.command, variant=variant)
    return _run_app(args, game=None, variant={})


def _run_app(args: argparse.Namespace, game: str | None, variant: dict[str, int]) -> int:
    """Start the Textual app (menu when ``game`` is None, else that game's board)."""
    try:
        from .app import run
    except ImportError:
        sys.stderr.write(
            "termsolitaire: the board is not built yet; try 'termsolitaire show GAME'\n"
        )
        return 1
    return run(args, game=game, variant=variant)
