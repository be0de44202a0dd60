"""The Textual app: thin. It opens the menu or a board and offers the board's actions
in the command palette; the screens do the rest."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen

from .messages import MenuChoice
from .rules import new_game
from .storage.paths import paths
from .storage.saves import SaveStore
from .storage.settings import load_settings
from .storage.stats import Stats
from .widgets.cards import CardLook

PALETTE_ACTIONS = [
    ("Undo", "Take back the last move", "undo"),
    ("Redo", "Play again what undo took back", "redo"),
    ("Restart", "This deal from the start", "restart"),
    ("New deal", "A new random deal of this game", "new_game"),
    ("Deal", "Spider and Stjernen: deal a row from the stock", "deal"),
    ("Collect", "Stjernen: gather the upturned piles into a new stock", "collect"),
    ("Send to foundation", "The card in hand to its foundation", "foundation"),
    ("Move list", "Napoleon: show or hide the list of moves", "move_list"),
    ("Four-colour deck", "Switch between two and four suit colours", "four_colour"),
    ("Help", "Every key of this board", "help"),
]


SCREENS = {
    "penguin": "PenguinScreen",
    "spider": "SpiderScreen",
    "stjernen": "StjernenScreen",
    "napoleon": "NapoleonScreen",
}
"""The board screen class of each game, in ``termsolitaire.screens.<game>``."""


def has_board(game: str) -> bool:
    """Whether ``game`` has a board screen in this version."""
    import importlib.util

    return game in SCREENS and importlib.util.find_spec(f"termsolitaire.screens.{game}") is not None


def board_screen(
    game: str, deal: int | None, variant: dict[str, int], look: CardLook, time_limit: int = 0
) -> Screen[None]:
    """The board screen of ``game`` with a new game of that deal."""
    import importlib

    g = new_game(game, deal, **variant)
    try:
        module = importlib.import_module(f"termsolitaire.screens.{game}")
        cls = getattr(module, SCREENS[game])
    except (ImportError, AttributeError, KeyError):
        raise ValueError(f"the {game} board is not built yet") from None
    if game == "spider":
        screen: Screen[None] = cls(g, look, time_limit=time_limit)
    else:
        screen = cls(g, look)
    return screen


class SolitaireApp(App[int]):
    """Menu first, or straight to a board when a game was named."""

    TITLE = "termsolitaire"

    def __init__(
        self,
        game: str | None = None,
        deal: int | None = None,
        variant: dict[str, int] | None = None,
        *,
        look: CardLook | None = None,
        time_limit: int = 0,
        clock: bool = True,
        data_dir: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(ansi_color=True, **kw)
        # Where saves, settings and statistics live (storage/, no textual there).
        self.paths = paths(data_dir)
        self.saves = SaveStore(self.paths)
        self.stats = Stats(self.paths.stats_db)
        self.settings, self.storage_messages = load_settings(self.paths)
        self.start_game = game
        self.start_deal = deal
        self.start_variant = variant or {}
        self.look = look or CardLook()
        self.time_limit = time_limit
        self.clock = clock  # False: the clock stands still (tests, snapshots)

    def on_mount(self) -> None:
        if self.start_game is None:
            from .screens.menu import MenuScreen

            self.push_screen(MenuScreen())
        else:
            self.push_screen(
                board_screen(
                    self.start_game,
                    self.start_deal,
                    self.start_variant,
                    self.look,
                    self.time_limit,
                )
            )

    def on_menu_choice(self, message: MenuChoice) -> None:
        self.push_screen(
            board_screen(message.game, message.deal, message.variant, self.look, message.time_limit)
        )

    def action_four_colour(self) -> None:
        from .screens.board import BoardScreen

        self.look = replace(self.look, four_colour=not self.look.four_colour)
        screen = self.screen
        if isinstance(screen, BoardScreen):
            screen.set_look(self.look)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, action in PALETTE_ACTIONS:
            method = getattr(screen, f"action_{action}", None) or getattr(
                self, f"action_{action}", None
            )
            if method is not None:
                yield SystemCommand(title, help_text, method)


def run(args: argparse.Namespace, game: str | None, variant: dict[str, int]) -> int:
    """Start the app (called by ``cli``); the exit status."""
    if game is not None and not has_board(game):
        sys.stderr.write(f"termsolitaire: the {game} board is not built yet; try 'show {game}'\n")
        return 1
    look = CardLook(
        ascii=bool(getattr(args, "ascii", False)),
        four_colour=bool(getattr(args, "four_colour", False)),
    )
    app = SolitaireApp(
        game,
        getattr(args, "deal", None),
        variant,
        look=look,
        time_limit=getattr(args, "time_limit", 0) or 0,
        data_dir=getattr(args, "data_dir", None),
    )
    result = app.run()
    return result if isinstance(result, int) else 0
