"""``termsolitaire opponent --level LEVEL --suits S (--deal N | --position FILE)
[--moves K] [--seed X]``.

The computer opponent, headless: it plays the game refereed by the rules core
and prints each of its actions in move notation, one a line, K of them or
until it presses End (or wins). It sees the game as a player does: a position
file's face-down cards and stock reach it only as they are turned or dealt.
Exit status 0; bad arguments print one ``error:`` line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from itertools import islice

from termsolitaire.commands.options import deal_number, digits, position_file, usage_error
from termsolitaire.rules import new_game
from termsolitaire.rules.spider import Spider

PROG = "termsolitaire opponent"


def _whole(what: str) -> Callable[[str], int]:
    """An argparse type reading a whole number >= 0 (``what`` names it in the error)."""

    def read(text: str) -> int:
        n = digits(text)
        if n is None or n >= 1 << 64:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number >= 0, not {text!r}")
        return n

    return read


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``termsolitaire opponent``."""
    from termsolitaire.solver.opponent import LEVELS

    parser.add_argument("--level", required=True, choices=tuple(LEVELS), help="how well it plays")
    parser.add_argument(
        "--suits", type=int, choices=(1, 2, 4), metavar="S", help="1, 2 or 4 suits (default 1)"
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deal", type=deal_number, metavar="N", help="play deal number N")
    source.add_argument("--position", metavar="FILE", help="play on from the position text in FILE")
    parser.add_argument("--moves", type=_whole("--moves"), metavar="K", help="stop after K actions")
    parser.add_argument(
        "--seed",
        type=_whole("--seed"),
        default=0,
        metavar="X",
        help="its random choices (default 0)",
    )


def _start(args: argparse.Namespace) -> Spider | str:
    """The game to play, or the error message."""
    if args.deal is not None:
        dealt = new_game("spider", args.deal, suits=args.suits or 1)
        assert isinstance(dealt, Spider)
        return dealt
    game = position_file(args.position)
    if isinstance(game, str):
        return game
    if not isinstance(game, Spider):
        return f"{args.position} is a {game.title} position; the opponent plays Spider"
    if args.suits is not None and args.suits != game.suits:
        return f"--suits {args.suits} but {args.position} is a {game.suits}-suit game"
    return game


def run(args: argparse.Namespace) -> int:
    """Play and print; the exit status."""
    from termsolitaire.solver.opponent import Opponent, play

    game = _start(args)
    if isinstance(game, str):
        return usage_error(PROG, game)
    opponent = Opponent(args.level, game.suits, seed=args.seed)
    for move in islice(play(game, opponent, seconds=None), args.moves):
        sys.stdout.write(f"{move}\n")
    sys.stdout.flush()
    return 0
