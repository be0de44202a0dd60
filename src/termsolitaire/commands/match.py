"""``termsolitaire match [--join CODE] [--match-dir DIR]``: the Spider match lobby.

Opens the shared store (docs/match.md: ``--match-dir``, else
``$TERMSOLITAIRE_MATCH_DIR``, else ``match/`` under the data directory) as the
player this login is, and the app with the lobby as its home screen.
``--join CODE`` takes the seat of the table with that code at once. A store
that cannot be opened, or a player name that cannot be used, is one line on
stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import sys

from .options import display_options, match_dir_option


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--join", metavar="CODE", help="take the seat of the table with this code")
    match_dir_option(parser)
    display_options(parser)


def run(args: argparse.Namespace) -> int:
    from termsolitaire.match import MatchError, MatchStore, current_player
    from termsolitaire.match.services import MatchServices

    from .play import no_terminal

    if no_terminal():
        return 1
    try:
        store = MatchStore(current_player(), args.match_dir)
    except MatchError as e:
        sys.stderr.write(f"termsolitaire: {e.reason}\n")
        return 1
    match = MatchServices(store)
    try:
        return _run_app(args, match)
    finally:
        match.close()
        store.close()


def _run_app(args: argparse.Namespace, match: object) -> int:
    from termsolitaire.app import SolitaireApp
    from termsolitaire.match.services import MatchServices
    from termsolitaire.screens.match.lobby import LobbyScreen

    from .play import apply_display_options, exit_status

    assert isinstance(match, MatchServices)
    app = SolitaireApp(
        data_dir=getattr(args, "data_dir", None),
        first_screen=lambda services, look: LobbyScreen(services, match, look, join=args.join),
    )
    apply_display_options(app, args)
    result = app.run(mouse=app.services.settings.mouse)
    return exit_status(app, result)
