"""The options several commands share (API.md, "Command line"): the deal number,
the display options, ``--winnable`` and each game's variants, all from the
games' declarations (:func:`termsolitaire.rules.games`)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import Any

from termsolitaire.rules import Game, GameInfo, from_text, games, info
from termsolitaire.rules.game import or_list

DEAL_RANGE = f"a whole number from 0 to {(1 << 64) - 1}"
"""What a deal number may be, as every message says it (never ``2**64 - 1``)."""


def usage_error(prog: str, message: str) -> int:
    """Say what is wrong with the command line, as argparse does; the status is 2."""
    sys.stderr.write(f"{prog}: error: {message}\n")
    return 2


def digits(text: str) -> int | None:
    """``text`` as a whole number where it is ASCII digits only, else None: every
    command's whole numbers are read by it. ``int`` reads "٣" as 3, and
    ``str.isdigit`` passes "²", which ``int`` refuses (argparse then said
    "invalid _count value").

    >>> digits("12"), digits("²"), digits("٣"), digits("-1"), digits("")
    (12, None, None, None, None)
    """
    return int(text) if text.isascii() and text.isdigit() else None


def deal_number(text: str) -> int:
    """``--deal`` of every command: a whole number below 2**64."""
    n = digits(text)
    if n is None or n >= 1 << 64:
        raise argparse.ArgumentTypeError(f"deal must be {DEAL_RANGE}, not {text!r}")
    return n


def port_number(text: str) -> int:
    """``--port`` of ``serve`` and ``web``: a TCP port (0: any free one)."""
    n = digits(text)
    if n is None or n > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return n


def position_file(path: str) -> Game | str:
    """``--position FILE`` of ``solve`` and ``opponent``: the game the file's
    position text holds, or the one-line error message (the command checks
    the game is one it takes)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return f"cannot read {path}: {e.strerror or e}"
    except UnicodeDecodeError:
        return f"{path} is not a text file"
    try:
        return from_text(text)
    except ValueError as e:
        return f"{path}: {e}"


def recent(text: str) -> int:
    n = digits(text)
    if n is None:
        raise argparse.ArgumentTypeError(f"a whole number from 0 up, not {text!r}")
    return n


def choice(values: tuple[int, ...], what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        n = digits(text.strip())
        if n is not None and n in values:
            return n
        allowed = ", ".join(str(v) for v in values)
        raise argparse.ArgumentTypeError(f"{what} is one of {allowed}, not {text!r}")

    return parse


def match_dir_option(p: argparse.ArgumentParser) -> None:
    """``--match-dir``: the host's shared store (tables, dailies, share codes)."""
    p.add_argument(
        "--match-dir",
        metavar="DIR",
        help="the shared match directory (default: $TERMSOLITAIRE_MATCH_DIR, "
        "else match/ under the data directory)",
    )


def display_options(p: argparse.ArgumentParser, *, top: bool = False) -> None:
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


def deal_options(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    """``--winnable``: on the main parser (``termsolitaire --winnable penguin``, or the
    menu's new deals) and on every game, as the display options are."""
    default: dict[str, Any] = {} if top else {"default": argparse.SUPPRESS}
    p.add_argument(
        "--winnable",
        action="store_true",
        help="random deals only among those the solver proves winnable (as the setting)",
        **default,
    )


def variant_options(p: argparse.ArgumentParser, g: GameInfo | None) -> None:
    """One option per variant of ``g`` (None: every variant key any game has)."""
    declared = {c.key: c for x in ([g] if g else games()) for c in x.variants}
    p.set_defaults(variant_keys=tuple(declared))  # what variant_of checks
    for key, c in declared.items():
        owner = f"{g.title}: " if g else ""
        p.add_argument(
            f"--{key.replace('_', '-')}",
            dest=key,
            type=choice(c.values, key) if g else int,
            metavar=key[0].upper(),
            help=f"{owner}{c.help or key}" if g else f"{c.help or key} (games that have it)",
        )


def variant_of(
    args: argparse.Namespace, game: str, parser: argparse.ArgumentParser
) -> dict[str, int]:
    """The variant the options ask for (the game's defaults for those not given);
    an option the game does not have is a usage error."""
    g = info(game)
    keys = {c.key for c in g.variants}
    for other in set(getattr(args, "variant_keys", ())) - keys:
        if getattr(args, other, None) is not None:
            parser.error(f"--{other.replace('_', '-')} is not an option of {g.title}")
    variant = g.default_variant()
    for c in g.variants:
        value = getattr(args, c.key, None)
        if value is not None:
            if value not in c.values:
                parser.error(f"{g.title} is played with {c.key}={or_list(c.values)}, not {value}")
            variant[c.key] = value
    return variant


SERVE_EXTRA = "termsolitaire[serve]"
"""The extra that brings the SSH server's and the browser entry's packages."""


def lacks_serve_extra(command: str, package: str) -> bool:
    """Whether ``package`` (which ``termsolitaire COMMAND`` needs) is missing; if so,
    one line on stderr says what to install."""
    try:
        importlib.import_module(package)
    except ImportError:
        sys.stderr.write(
            f"termsolitaire {command}: needs {package.replace('_', '-')}, which is not installed: "
            f"pip install '{SERVE_EXTRA}'\n"
        )
        return True
    return False
