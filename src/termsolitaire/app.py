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
from .replay import Replay
from .rules import new_game
from .storage.paths import paths
from .storage.saves import Saved, SaveStore
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
    ("Statistics", "Games played and won; start a finished deal again", "statistics"),
    ("Settings", "Card style, colours, theme, defaults, mouse", "settings"),
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
    game: str,
    deal: int | None,
    variant: dict[str, int],
    look: CardLook,
    time_limit: int = 0,
    *,
    saved: Saved | None = None,
    notice: str | None = None,
) -> Screen[None]:
    """The board screen of ``game`` with a new game of that deal, or the ``saved``
    game continued (its id, clock and time limit)."""
    import importlib

    game_id = None
    if saved is not None:
        g = saved.game
        game_id = saved.id
        limit = saved.options.get("time_limit", 0)
        time_limit = limit if isinstance(limit, int) and limit >= 0 else 0
    else:
        g = new_game(game, deal, **variant)
    try:
        module = importlib.import_module(f"termsolitaire.screens.{game}")
        cls = getattr(module, SCREENS[game])
    except (ImportError, AttributeError, KeyError):
        raise ValueError(f"the {game} board is not built yet") from None
    kw: dict[str, Any] = {"game_id": game_id, "notice": notice}
    if game == "spider":
        screen: Screen[None] = cls(g, look, time_limit=time_limit, **kw)
    else:
        screen = cls(g, look, **kw)
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
        replay: Replay | None = None,
        resume: bool = False,
        variant_given: bool = True,
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
        self.look = look or self.settings_look()
        self.time_limit = time_limit
        self.clock = clock  # False: the clock stands still (tests, snapshots)
        # The command line's bare game command continues its save (docs/ui.md).
        self.resume = resume
        self.variant_given = variant_given
        self.start_replay = replay  # termsolitaire replay FILE: only the replay screen

    def settings_look(self) -> CardLook:
        """The card look the settings ask for."""
        s = self.settings
        return CardLook(ascii=s.card_style == "ascii", four_colour=s.four_colour)

    def on_mount(self) -> None:
        self.catch_signals()
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        for message in self.storage_messages:
            self.notify(message, severity="warning", timeout=10)
        if self.start_replay is not None:
            from .screens.replay import replay_screen

            self.push_screen(replay_screen(self.start_replay, self.look))
        elif self.start_game is None:
            from .screens.menu import MenuScreen

            self.push_screen(MenuScreen())
        else:
            self.push_screen(self.start_board())

    # ------------------------------------------------- saving and resuming

    def start_board(self) -> Screen[None]:
        """The board the command line asked for: its save continued when there is one
        and no --deal (nor other suits) was asked; else a new game, the saved one
        counting as abandoned if it had a move."""
        name = self.start_game
        assert name is not None
        saved, problem = self.saves.load(name)
        if (
            saved is not None
            and self.resume
            and self.start_deal is None
            and (not self.variant_given or dict(saved.game.variant) == self.start_variant)
        ):
            return board_screen(name, None, {}, self.look, saved=saved)
        return self.new_board(
            name, self.start_deal, self.start_variant, self.time_limit, (saved, problem)
        )

    def new_board(
        self,
        name: str,
        deal: int | None,
        variant: dict[str, int],
        time_limit: int,
        loaded: tuple[Saved | None, str | None] | None = None,
    ) -> Screen[None]:
        """A new game of ``name``; its saved game (``loaded`` when already read), if
        any, is abandoned."""
        from .session import abandon

        saved, problem = loaded if loaded is not None else self.saves.load(name)
        messages = [problem] if problem else []
        messages += abandon(self.stats, saved)
        return board_screen(
            name, deal, variant, self.look, time_limit, notice="; ".join(messages) or None
        )

    def on_menu_choice(self, message: MenuChoice) -> None:
        if message.resume:
            saved, problem = self.saves.load(message.game)
            if saved is not None:
                self.push_screen(board_screen(message.game, None, {}, self.look, saved=saved))
                return
            self.push_screen(
                board_screen(
                    message.game,
                    message.deal,
                    message.variant,
                    self.look,
                    message.time_limit,
                    notice=problem or "The saved game is gone; a new deal",
                )
            )
            return
        self.push_screen(
            self.new_board(message.game, message.deal, message.variant, message.time_limit)
        )

    def save_boards(self) -> None:
        """Autosave every game on a board (leaving, a hang-up, SIGTERM)."""
        from .screens.board import BoardScreen

        for screen in self.screen_stack:
            if isinstance(screen, BoardScreen):
                screen.autosave()

    def catch_signals(self) -> None:
        """SIGHUP (a dropped SSH connection) and SIGTERM save the game and leave."""
        import asyncio
        import signal

        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self.on_hang_up, sig)
        except (NotImplementedError, RuntimeError, ValueError, AttributeError):
            pass  # no signals here (Windows, not the main thread): autosave still runs

    def on_hang_up(self, sig: int = 0) -> None:
        """Save every game and leave; a dead terminal cannot keep the process alive."""
        self.save_boards()
        if not self.is_headless:
            import os
            import threading

            timer = threading.Timer(5.0, os._exit, (0,))
            timer.daemon = True
            timer.start()
        self.exit(0)

    def exit(self, result: int | None = None, return_code: int = 0, message: Any = None) -> None:
        """Leave the app; every game on a board is saved first."""
        self.save_boards()
        super().exit(result, return_code, message)

    def action_four_colour(self) -> None:
        from .screens.board import BoardScreen

        self.look = replace(self.look, four_colour=not self.look.four_colour)
        screen = self.screen
        if isinstance(screen, BoardScreen):
            screen.set_look(self.look)
        self.settings.four_colour = self.look.four_colour
        self.save_settings()

    def save_settings(self) -> str | None:
        """Write the settings; the message for the player when that failed (play goes on)."""
        from .storage.files import StorageError
        from .storage.settings import save_settings

        try:
            save_settings(self.paths, self.settings)
        except StorageError as e:
            message = f"Settings not saved: {e}"
            self.notify(message, severity="warning", timeout=8)
            return message
        return None

    def action_statistics(self) -> None:
        from .screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen())

    def action_settings(self) -> None:
        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen())

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, action in PALETTE_ACTIONS:
            method = getattr(screen, f"action_{action}", None) or getattr(
                self, f"action_{action}", None
            )
            if method is not None and screen.check_action(action, ()) is not False:
                yield SystemCommand(title, help_text, method)


def run(args: argparse.Namespace, game: str | None, variant: dict[str, int]) -> int:
    """Start the app (called by ``cli``); the exit status."""
    if game is not None and not has_board(game):
        sys.stderr.write(f"termsolitaire: the {game} board is not built yet; try 'show {game}'\n")
        return 1
    app = SolitaireApp(
        game,
        getattr(args, "deal", None),
        variant,
        time_limit=getattr(args, "time_limit", 0) or 0,
        data_dir=getattr(args, "data_dir", None),
        resume=getattr(args, "deal", None) is None,
        variant_given=getattr(args, "suits", None) is not None,
    )
    # The settings give the look; what the command line asks for wins.
    if getattr(args, "ascii", False):
        app.look = replace(app.look, ascii=True)
    if getattr(args, "four_colour", False):
        app.look = replace(app.look, four_colour=True)
    result = app.run(mouse=app.settings.mouse)
    return result if isinstance(result, int) else 0


def run_replay(args: argparse.Namespace) -> int:
    """``termsolitaire replay FILE`` (called by ``cli``); the exit status."""
    from .replay import load_replay

    try:
        replay = load_replay(args.file)
    except ValueError as e:
        where = "" if str(args.file) in str(e) else f"{args.file}: "
        sys.stderr.write(f"termsolitaire: {where}{e}\n")
        return 1
    if not has_board(replay.game.name):
        sys.stderr.write(f"termsolitaire: the {replay.game.name} board is not built yet\n")
        return 1
    app = SolitaireApp(data_dir=getattr(args, "data_dir", None), replay=replay)
    if getattr(args, "ascii", False):
        app.look = replace(app.look, ascii=True)
    result = app.run(mouse=app.settings.mouse)
    return result if isinstance(result, int) else 0
