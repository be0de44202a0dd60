"""``termsolitaire share [FILE | --table N [--seat S]] [--match-dir DIR]``: a
finished game as two codes (issue 31; docs/share.md).

What is shared: FILE (anything ``termsolitaire replay`` reads: an autosave, a
game's JSON, a move list with its ``game:``/``deal:`` header, such as
``termsolitaire solve``'s output); ``--table N`` a match game once the match is
over (one's own seat, or ``--seat S``: any seat one may watch); else the last solo game this player
finished (the app keeps it: :mod:`termsolitaire.storage.lastgame`);
``--daily GAME --day DATE [--suits S]`` one's daily attempt of a day that is
over (while it lasts, a code would give the others the deal).

Printed: the host code (at most eight characters, kept in this host's match
store: anyone here opens it with ``termsolitaire replay CODE``) and the
self-contained code (opens anywhere, no store needed). Exit 0; a game that
cannot be shared, or a bad code or file, is one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from termsolitaire.rules import GAMES, Game, from_json, new_game

from .options import choice, digits

if TYPE_CHECKING:
    from termsolitaire.match import MatchStore
    from termsolitaire.replay import Replay


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "A finished game as a short code anyone can replay: FILE, --table, --daily, "
        "else the last solo game you finished."
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="a saved game or a move list")
    p.add_argument("--table", type=table_number, metavar="N", help="a match table's game")
    p.add_argument("--seat", type=choice((1, 2), "--seat"), metavar="S", help="its seat (1 or 2)")
    p.add_argument("--daily", metavar="GAME", help="your daily of GAME on --day (a past day)")
    p.add_argument("--day", metavar="DATE", help="the daily's day, YYYY-MM-DD")
    p.add_argument("--suits", type=int, metavar="S", help="the Spider daily's suits (1, 2, 4)")
    p.add_argument("--match-dir", metavar="DIR", help="the match directory (the host's store)")


def table_number(text: str) -> int:
    """``--table N``: a table's number, said in words where it is not one (argparse
    said "invalid int value: 'x'", and "invalid choice: 3 (choose from 1, 2)" for
    ``--seat``, where every other number of the command line names what it takes).

    >>> table_number("12")
    12
    >>> table_number("x")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: a table number is a whole number from 1 up, not 'x'
    """
    n = digits(text)
    if n is None or n < 1:
        raise argparse.ArgumentTypeError(
            f"a table number is a whole number from 1 up, not {text!r}"
        )
    return n


def game_of_file(path: str) -> Game:
    """The game in a file ``replay`` reads, with its whole log where the file has it."""
    from termsolitaire.replay import load_replay
    from termsolitaire.storage.saves import FORMAT, decode

    raw = Path(path).read_bytes() if Path(path).is_file() else b""
    if raw.lstrip().startswith(b"{"):
        try:
            doc = json.loads(raw)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            return decode(raw).game
        if isinstance(doc, dict) and "log" in doc:
            return from_json(raw.decode())
    replay = load_replay(path)
    start = replay.start
    if start.deal is None:
        raise ValueError("this game has no deal number: it cannot be shared as a code")
    game = new_game(start.name, start.deal, **start.variant)
    for m in replay.moves:
        game.play(m)
    return game


def host_store(match_dir: str | None, none_yet: str) -> MatchStore:
    """The host's match store, never created here; ValueError ``none_yet`` where
    there is none (it said "The match database …/match.sqlite3 is not there" to a
    player who had not played a daily or a match yet, as ``board`` does not)."""
    from termsolitaire.match import MatchStore, StoreGone

    try:
        return MatchStore(None, match_dir, create=False, keep_dir=None)
    except StoreGone:
        raise ValueError(none_yet) from None


def run(args: argparse.Namespace) -> int:
    from termsolitaire.match import MatchError
    from termsolitaire.match.shares import check_match_over, share_game
    from termsolitaire.storage import lastgame
    from termsolitaire.storage.paths import paths

    store = None
    try:
        if sum(x is not None for x in (args.file, args.table, args.daily)) > 1:
            raise ValueError("give one of FILE, --table and --daily")
        if args.daily is not None:
            from termsolitaire.match.shares import past_daily
            from termsolitaire.rules import info

            if args.daily not in GAMES:  # before the store: none may be here yet
                raise ValueError(f"There is no game called {args.daily!r}")
            if args.day is None:
                raise ValueError("--daily needs --day YYYY-MM-DD (a day that is over)")
            variant = info(args.daily).default_variant()
            if args.suits is not None:
                variant["suits"] = args.suits
            store = host_store(args.match_dir, "No daily has been played on this host yet")
            game = past_daily(store, args.daily, variant, args.day)
        elif args.table is not None:
            store = host_store(
                args.match_dir,
                f"There is no table {args.table}: no match has been played on this host yet",
            )
            check_match_over(store, args.table)
            seat = store.seat(args.table) if args.seat is None else None
            game = seat.game if seat is not None else store.watch(args.table, args.seat).game
        elif args.file:
            game = game_of_file(args.file)
        else:
            game = lastgame.load(paths())
        shared = share_game(game, store, Path(args.match_dir) if args.match_dir else None)
    except (ValueError, MatchError) as e:
        sys.stderr.write(f"termsolitaire share: {e}\n")
        return 1
    finally:
        if store is not None:
            store.close()
    n = len(game.history)
    title = f"{game.title} deal {game.deal}, {n} move{'' if n == 1 else 's'}"
    print(f"{title}{', won' if game.is_won else ''}")
    if shared.host:
        print(f"on this host:  termsolitaire replay {shared.host}")
    else:
        print(f"no host code: {shared.problem}")
    print(f"anywhere:      termsolitaire replay {shared.code}")
    return 0


def opened(text: str, match_dir: str | None) -> tuple[Game, str | None]:
    """The game a code names and who shared it, where the code says (a host code);
    ValueError with one sentence."""
    from termsolitaire.match import MatchError
    from termsolitaire.match.shares import open_shared

    try:
        return open_shared(text, Path(match_dir) if match_dir else None)
    except MatchError as e:
        raise ValueError(e.reason) from None


def replay_of_code(text: str, match_dir: str | None) -> Replay:
    """``replay CODE``: the game a code names, as a replay that knows who shared
    it where the code says (a host code; its header names them); ValueError
    with one sentence."""
    from termsolitaire.replay import replay_of

    return replay_of(*opened(text, match_dir))
