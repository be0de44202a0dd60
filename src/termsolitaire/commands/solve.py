"""``termsolitaire solve GAME (--deal N | --position FILE) [--suits S] [--budget S] [--best]``
(and ``[--jobs J]``).

Output, so that it can be saved and replayed (``termsolitaire replay FILE``):

- solved (exit 0): a move list (API.md): a comment line, the header naming the
  start position as comments (``# game: …``, ``# variant: …``, ``# deal: …``
  for ``--deal``, the whole position text for ``--position``), which ``replay``
  reads, and the winning line, one action a line;
- ``lost`` on stdout (exit 1): the search went through every position;
- ``unknown after T s`` on stderr (exit 3): the budget ran out first;
- bad arguments (exit 2): one ``error:`` line on stderr, as argparse writes.

With ``--best``, a search that finds no win prints the best line it found
instead of ``lost`` (a comment saying how many cards it puts home, the header,
the line: replayable like a win); the exit status and the ``unknown`` line on
stderr stay as they are. Stjernen's solver rarely ends with more than that.

``--jobs 2`` lets a search use two processes at once (Stjernen's solver shares
its beam with a second one; the other games' solvers use one whatever this
says).

``add_arguments`` stays cheap: the search modules load in :func:`run`.
"""

from __future__ import annotations

import argparse
import sys

from termsolitaire.commands.options import deal_number, digits, position_file, usage_error
from termsolitaire.rules import Game, IllegalMove, games, info, new_game
from termsolitaire.solver.base import Result
from termsolitaire.solver.plan import cards_home

PROG = "termsolitaire solve"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 86_400:  # also false for nan
        raise argparse.ArgumentTypeError(
            f"budget must be a number of seconds above 0, not {text!r}"
        )
    return value


def _jobs(text: str) -> int:
    n = digits(text)
    if n is None or not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"jobs must be a whole number from 1 to 64, not {text!r}")
    return n


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``termsolitaire solve`` (no heavy import here): the games
    and the ``--suits`` values are the registry's (a game without a solver is
    accepted here, and :func:`run` says it has none)."""
    suits = sorted({v for g in games() for c in g.variants if c.key == "suits" for v in c.values})
    parser.add_argument("game", choices=[g.name for g in games()], help="which game")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--deal", type=deal_number, metavar="N", help="solve deal number N")
    source.add_argument("--position", metavar="FILE", help="solve the position text in FILE")
    parser.add_argument(
        "--suits",
        type=int,
        choices=suits,
        metavar="S",
        help="how many suits, for a game with suits (" + ", ".join(map(str, suits)) + ")",
    )
    parser.add_argument(
        "--budget",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="give up with 'unknown' after this long (default 10)",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="J",
        help="processes one search may use at once (default 1; Stjernen uses 2)",
    )
    parser.add_argument(
        "--best",
        action="store_true",
        help="with no win found, print the best line found (replayable; same exit status)",
    )


def _start(args: argparse.Namespace) -> Game | str:
    """The position to solve, or the error message."""
    g = info(args.game)
    if args.suits is not None and "suits" not in {c.key for c in g.variants}:
        return f"--suits is not an option of {g.title}"
    if args.deal is not None:
        variant = g.default_variant()
        if args.suits is not None:
            variant["suits"] = args.suits
        return new_game(args.game, args.deal, **variant)
    if args.suits is not None:
        return "--suits goes with --deal (a position text names its own variant)"
    game = position_file(args.position)
    if isinstance(game, str):
        return game
    if game.name != args.game:
        return f"{args.position} holds a {game.name} position, not {args.game}"
    return game


def header(game: Game, whole: bool) -> str:
    """The lines that name the start position, what ``replay`` reads before the
    moves, as comments: the output stays a move list (API.md), every line not a
    comment an action."""
    if whole or game.deal is None:
        lines = game.to_text().splitlines()
    else:
        lines = [f"game: {game.name}"]
        if game.variant:
            lines.append("variant: " + ",".join(f"{k}={v}" for k, v in game.variant.items()))
        lines.append(f"deal: {game.deal}")
    return "".join(f"# {line}\n" for line in lines)


def run(args: argparse.Namespace) -> int:
    """Solve and print (see the module's notes); the exit status."""
    from termsolitaire.solver import Budget, has_solver, solve

    if not has_solver(args.game):
        sys.stderr.write(f"{PROG}: there is no solver for {args.game} yet\n")
        return 2
    game = _start(args)
    if isinstance(game, str):
        return usage_error(PROG, game)

    result = solve(game, Budget(seconds=args.budget, jobs=args.jobs))
    if result.verdict == "won":
        out = [
            f"# {game.title}: a win in {len(result.moves)} moves, found in "
            f"{result.seconds:.1f} s ({result.positions} positions)\n",
            *(f"# {note}\n" for note in result.notes),
            header(game, whole=args.position is not None),
            *(f"{m}\n" for m in result.moves),
        ]
        sys.stdout.write("".join(out))
        return 0
    if args.best:
        _print_best(game, result, whole=args.position is not None)
    elif result.verdict == "lost":
        sys.stdout.write("lost\n")
    if result.verdict == "lost":
        return 1
    sys.stderr.write(f"unknown after {result.seconds:.1f} s\n")
    return 3


def _print_best(game: Game, result: Result, whole: bool) -> None:
    """The best line of a search with no win, replayed through the rules core
    first: as far as it is legal (a search's line always is, every move)."""
    g = game.copy()
    line = []
    for m in result.moves:
        try:
            g.play(m)
        except IllegalMove:
            break
        line.append(m)
    verdict = "proved lost" if result.verdict == "lost" else f"unknown after {result.seconds:.1f} s"
    total = sum(len(g.pile(name)) for name in g.pile_names)
    out = [
        f"# {game.title}: no win ({verdict}); the best line found, {len(line)} moves, "
        f"puts {cards_home(g)} of {total} cards home\n",
        header(game, whole),
        *(f"{m}\n" for m in line),
    ]
    sys.stdout.write("".join(out))
