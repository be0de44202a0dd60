"""``termsolitaire board [GAME] [--day DATE] [--week | --all]``: the daily leaderboards
as Rich tables, for scripts and motd banners.

Reads the match store (``--match-dir``, else ``$TERMSOLITAIRE_MATCH_DIR``, else
``match/`` under the data directory) as the player this login is: their own
line is marked, players they ignore are left out. Never creates a store: on a
host where nobody has played yet it says so. Bad input (an unknown game, a
day not written YYYY-MM-DD, a zone nobody knows) is one line on stderr and
exit status 2; a store that cannot be read, status 1.
"""

from __future__ import annotations

import argparse
import sys

from .options import display_options, match_dir_option, usage_error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", metavar="GAME", help="one game's dailies (default: all)")
    parser.add_argument(
        "--day", metavar="DATE", help="that day's daily (YYYY-MM-DD; default today)"
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--week", action="store_true", help="the week of the day instead")
    which.add_argument("--all", action="store_true", help="all-time records instead")
    parser.add_argument("--suits", type=int, metavar="N", help="Spider's dailies of N suits only")
    parser.add_argument(
        "--zone",
        metavar="ZONE",
        help="the time zone the day is counted in (default $TERMSOLITAIRE_DAILY_ZONE, else UTC)",
    )
    match_dir_option(parser)
    display_options(parser)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from termsolitaire.board_table import board_table
    from termsolitaire.match import MatchError, MatchStore, StoreGone, current_player
    from termsolitaire.match.daily import Board, Daily, dailies, parse_day, zone
    from termsolitaire.rules import games

    prog = "termsolitaire board"
    names = [g.name for g in games()]
    if args.game is not None and args.game not in names:
        return usage_error(prog, f"no game is called {args.game!r} (games: {', '.join(names)})")
    chosen = dailies(args.game)
    if args.suits is not None:
        chosen = [(g, v) for g, v in chosen if v.get("suits") == args.suits]
        if not chosen:
            return usage_error(prog, f"no daily has --suits {args.suits} (Spider: 1, 2 or 4)")
    try:
        day = parse_day(args.day) if args.day else None
        tz = zone(args.zone)
    except MatchError as e:
        return usage_error(prog, e.reason)
    try:
        store = MatchStore(current_player(), args.match_dir, create=False, keep_dir=False)
    except StoreGone:
        sys.stdout.write("No daily has been played on this host yet.\n")
        return 0
    except MatchError as e:
        sys.stderr.write(f"termsolitaire: {e.reason}\n")
        return 1
    which: Board = "week" if args.week else "all" if args.all else "day"
    console = Console(highlight=False, soft_wrap=False)
    ascii_only = bool(getattr(args, "ascii", False))
    try:
        daily = Daily(store, tz)
        day = day or daily.today()
        shown = 0
        for game, variant in chosen:
            lines = daily.board(game, variant, which, day)
            if not lines and args.game is None:
                continue  # all games: only the dailies someone played
            console.print(board_table(lines, which, game, variant, day, ascii_only=ascii_only))
            shown += 1
        if not shown:
            console.print(f"No daily played for {'the week of ' if args.week else ''}{day} yet.")
    except MatchError as e:
        sys.stderr.write(f"termsolitaire: {e.reason}\n")
        return 1
    finally:
        store.close()
    return 0
