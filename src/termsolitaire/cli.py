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
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Collection, Sequence
from types import ModuleType
from typing import Any, NoReturn

from . import __version__, collector
from .commands.options import (
    choice,
    deal_number,
    deal_options,
    display_options,
    recent,
    usage_error,
    variant_of,
    variant_options,
)
from .rules import GAMES, games, info, new_game

COMMANDS: dict[str, tuple[str, str]] = {
    "match": ("termsolitaire.commands.match", "the Spider match lobby: tables on this host"),
    "serve": ("termsolitaire.commands.serve", "the SSH server: every connection plays"),
    "web": ("termsolitaire.commands.web", "the app in a browser on this machine"),
    "solve": ("termsolitaire.commands.solve", "find a winning line, or prove there is none"),
    "opponent": ("termsolitaire.commands.opponent", "the Spider computer opponent, headless"),
    "db": ("termsolitaire.commands.db", "the PostgreSQL database: upgrade, import"),
    "board": ("termsolitaire.commands.board", "the daily deals' leaderboards, as tables"),
    "share": ("termsolitaire.commands.share", "a finished game as a short code to replay"),
}
"""Subcommands with options of their own (:mod:`termsolitaire.commands`): name ->
(module, help). The module has ``add_arguments(parser)`` (cheap: heavy imports wait for ``run``) and
``run(args) -> int`` (the exit status)."""


class _Version(argparse.Action):
    """``--version``: the version, and whether the solver runs compiled (README,
    "Faster solver"); the solver's files are read only when it is asked."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        from .solver.compiled import solver_kind

        print(f"termsolitaire {__version__}\nsolver: {solver_kind()}")
        parser.exit()


PRINTING = ("show", "stats", "replay")
"""The subcommands built in here besides the games."""


class _Parser(argparse.ArgumentParser):
    """The whole command line's parser: its one error line says how to write what
    a player most often writes instead (``termsolitaire napoleon 616``), or, for a
    command that deals nothing, the option meant (``serve --prot 2302``: it said
    "a deal number goes after --deal")."""

    argv: Sequence[str] = ()

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        command = self._command()
        if command is None:
            super().error(message + _deal_hint(message))
        hint = _deal_hint(message) if "--deal" in command._option_string_actions else ""
        # Said as the command's own error, under its usage (``termsolitaire show:
        # error: …``): the arguments it did not take were written for it.
        argparse.ArgumentParser.error(command, message + (hint or _option_hint(message, command)))

    def _command(self) -> argparse.ArgumentParser | None:
        """The subcommand's parser named on the command line (None: none, or a
        name that is no command: ``new stjernen`` is the program's error, not
        Stjernen's)."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                name = self._first_positional()
                return action.choices.get(name) if name is not None else None
        return None

    def _first_positional(self) -> str | None:
        """The first argument that is neither an option of the program's own nor
        an option's value: where the command is named."""
        words = iter(self.argv)
        for word in words:
            if not word.startswith("-"):
                return word
            option = self._option_string_actions.get(word)
            if option is not None and option.nargs is None:  # one that takes a value
                next(words, None)
        return None


def _option_hint(message: str, command: argparse.ArgumentParser) -> str:
    """The option of ``command`` an unknown one was most likely meant to be.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--port")
    >>> _option_hint("unrecognized arguments: --prot 2302", p)
    ' (did you mean --port?)'
    >>> _option_hint("unrecognized arguments: 2302", p)
    ''
    """
    import difflib

    prefix = "unrecognized arguments: "
    if not message.startswith(prefix):
        return ""
    given = next((a for a in message[len(prefix) :].split() if a.startswith("--")), None)
    if given is None:
        return ""
    options = [o for o in command._option_string_actions if o.startswith("--")]
    meant = difflib.get_close_matches(given.partition("=")[0], options, n=1)
    return f" (did you mean {meant[0]}?)" if meant else ""


def _deal_hint(message: str) -> str:
    """A deal number given without ``--deal``: the line that was meant.

    >>> _deal_hint("unrecognized arguments: 616")
    ' (a deal number goes after --deal: --deal 616)'
    >>> _deal_hint("unrecognized arguments: --fast")
    ''

    A number that is the value of an option the command does not have is not a
    deal number (``penguin --suits 2`` was told to write ``--deal 2``):

    >>> _deal_hint("unrecognized arguments: --suits 2")
    ''
    """
    prefix = "unrecognized arguments: "
    if not message.startswith(prefix):
        return ""
    words = message[len(prefix) :].split()
    loose = [a for i, a in enumerate(words) if not (i and words[i - 1].startswith("-"))]
    number = next((a for a in loose if a.isdigit()), None)
    if number is None:
        return ""
    return f" (a deal number goes after --deal: --deal {number})"


class _WrongGuess(Exception):
    """The command line is not what :func:`named_game` took it for."""


class _Tentative(argparse.ArgumentParser):
    """The parser built for one game: an error means the guess was wrong, and the
    whole parser reads the command line again (and says what is wrong with it)."""

    def error(self, message: str) -> NoReturn:
        raise _WrongGuess(message)


def build_parser(
    commands: Collection[str] | None = None, game: str | None = None
) -> argparse.ArgumentParser:
    """The parser; ``commands``: which of :data:`COMMANDS` get their options (None:
    all), so that playing a game does not import the server's modules; ``game``:
    the only subcommand built (None: every one), so that a board started from the
    command line imports no other game's rules and builds no other parser."""
    every = game is None
    parser = (_Parser if every else _Tentative)(
        prog="termsolitaire",
        description=" ".join(g.title for g in games()) + ": solitaire in the terminal."
        if every
        else None,
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="print the version and the solver's build"
    )
    display_options(parser, top=True)
    deal_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for g in games() if game is None else (info(game),):
        p = sub.add_parser(g.name, help=f"play {g.title}: {g.blurb}")
        p.add_argument(
            "--deal", type=deal_number, metavar="N", help="deal number (default: random)"
        )
        deal_options(p)
        variant_options(p, g)
        if g.time_limits:
            p.add_argument(
                "--time-limit",
                type=choice(g.time_limits, "--time-limit"),
                default=g.time_limit_default,
                metavar="MIN",
                help="minutes on the clock (0: no limit): "
                + ", ".join(str(t) for t in g.time_limits),
            )
        display_options(p)
    if not every:
        # Nothing else: a command line this parser cannot read (another game or
        # command) is an error, and main() then reads it with the whole parser.
        # (Each other subcommand's parser cost a launch 1% of its instructions.)
        return parser
    names = [g.name for g in games()]
    show = sub.add_parser("show", help="print the position text of a deal")
    show.add_argument("game", choices=names, help="which game")
    show.add_argument("--deal", type=deal_number, metavar="N", help="deal number (default: random)")
    variant_options(show, None)
    stats = sub.add_parser("stats", help="print the statistics as a table")
    stats.add_argument(
        "--recent", type=recent, default=20, metavar="N", help="finished games to list"
    )
    display_options(stats)
    replay = sub.add_parser("replay", help="step through a saved game, a move list or a code")
    replay.add_argument(
        "file", metavar="FILE|CODE", help="an autosave, a game's JSON, a move list or a share code"
    )
    replay.add_argument("--match-dir", metavar="DIR", help="where host share codes are kept")
    display_options(replay)
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        if commands is None or name in commands:
            importlib.import_module(module).add_arguments(command)
    return parser


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


def named_game(argv: Sequence[str]) -> str | None:
    """The built-in game a command line seems to play (``termsolitaire [OPTIONS]
    GAME ...``), whose options alone are then built; None when it asks for help
    or names another command first. :func:`main` checks the guess."""
    if "-h" in argv or "--help" in argv:
        return None
    for a in argv:
        if a in GAMES:
            return a
        if a in COMMANDS or a in PRINTING:
            return None
    return None


PREBUILT: dict[tuple[tuple[str, ...], str | None], argparse.ArgumentParser] = {}
"""Parsers built before their command line came, by what :func:`build_parser` is
given for it; :func:`main` takes each once. The server's warm process builds its
sessions' (:func:`prebuild`) before it forks: a session built it in 19M
instructions, 3% of a login (issue 33)."""


def _wanted(argv: Sequence[str]) -> tuple[tuple[str, ...], str | None]:
    """What :func:`build_parser` is given for ``argv`` at first."""
    return tuple(a for a in argv if a in COMMANDS), named_game(argv)


def prebuild(argv: Sequence[str]) -> None:
    """Build the parser :func:`main` will first want for ``argv``, now."""
    commands, game = key = _wanted(argv)
    PREBUILT[key] = build_parser(commands, game)


def main(argv: Sequence[str] | None = None) -> int:
    collector.pause()  # until the app's first frame, or the command starts
    try:
        return _main(argv)
    finally:
        collector.resume()


def _main(argv: Sequence[str] | None) -> int:
    _crash_log()
    argv = sys.argv[1:] if argv is None else list(argv)
    key = _wanted(argv)
    commands, game = list(key[0]), key[1]
    parser, args = PREBUILT.pop(key, None) or build_parser(commands, game), None
    if game is not None:
        with contextlib.suppress(_WrongGuess):
            args = parser.parse_args(argv)
        if args is None or args.command != game:  # every game's options
            parser, args = build_parser(commands), None
    if args is None:  # built whole (no game named, or the guess was wrong)
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
        if os.path.exists(args.data_dir) and not os.path.isdir(args.data_dir):
            # A file there: "cannot create /etc/passwd: File exists" (playtest40b).
            return usage_error("termsolitaire", f"--data-dir {args.data_dir} is not a directory")
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
        return int(_quietly(PLAY).run_replay(args))
    if args.command in COMMANDS:
        collector.resume()  # a command of its own: no first frame to wait for
        status: int = importlib.import_module(COMMANDS[args.command][0]).run(args)
        return status
    run = _quietly(PLAY).run
    if args.command is None:
        return int(run(args, game=None, variant={}))
    g = info(args.command)
    args.variant_given = any(getattr(args, c.key, None) is not None for c in g.variants)
    return int(run(args, game=args.command, variant=variant_of(args, args.command, parser)))


PLAY = "termsolitaire.commands.play"
"""The app's module: Textual, the app, the first board's rules and widgets."""


def _quietly(name: str) -> ModuleType:
    """Import ``name`` with the cyclic collector off, then freeze what it made.

    Importing the app (Textual, Rich, the screens: some 35,000 objects, nearly
    all kept for the life of the process) set off the collector's young
    collections again and again, each walking what the imports had just made:
    some 14 ms of a board's 0.24 s to its first frame (issue 33, the local
    launch). Frozen, what the imports made is never walked again (the app's
    own garbage still is), as the server's warm process does before it forks.
    Under :func:`main` the collector is paused already and stays so until the
    app's first paint (:mod:`termsolitaire.collector`); called alone, this
    pauses it for the import only."""
    if name in sys.modules:
        return sys.modules[name]
    held = collector.paused()
    collector.pause()
    try:
        return importlib.import_module(name)
    finally:
        gc.freeze()
        if not held:
            collector.resume()
