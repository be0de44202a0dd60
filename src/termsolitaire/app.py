"""The Textual app: thin. It opens the menu, a board or a replay, hands the screens
their services, saves every board on the way out, and offers the board's actions
in the command palette; the screens do the rest."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.driver import Driver
from textual.screen import Screen

from termsolitaire.screens.typeahead import stray

from . import lifeline
from .messages import MenuChoice, SettingChanged
from .play.session import Clock, GameSession, Services, abandon, describe, played, time_limit_of
from .rules import info, new_game
from .widgets.cards import CardLook

if TYPE_CHECKING:
    from termsolitaire.screens.boards.board import BoardScreen

    from .replay import Replay
    from .storage.locks import SaveLock
    from .storage.saves import Saved
    from .terminal.driver import InputDropped

# Screens are imported when first shown: a board opened from the command line
# starts without the menu, the statistics, the settings or the other boards.

PALETTE_ACTIONS = [
    ("Undo", "Take back the last move", "undo"),
    ("Redo", "Play again what undo took back", "redo"),
    ("Restart", "This deal from the start", "restart"),
    ("New deal", "A new random deal of this game", "new_game"),
    ("Deal", "Deal from the stock", "deal"),
    ("Collect", "Stjernen: gather the upturned piles into a new stock", "collect"),
    ("Send to foundation", "The card in hand to its foundation", "foundation"),
    ("Move list", "Napoleon: show or hide the list of moves", "move_list"),
    ("Four-colour deck", "Switch between two and four suit colours", "four_colour"),
    ("Help", "Every key of this board", "help"),
    ("Rules", "The rules of this game", "rules"),
    ("Pause", "Hide the board and stop the clock (P)", "pause"),
    ("Statistics", "Games played and won; start a finished deal again", "statistics"),
    ("Settings", "Card style, colours, theme, defaults, mouse", "settings"),
]


def loaded(module: str, name: str) -> type | tuple[()]:
    """Class ``name`` of ``termsolitaire.screens.<module>`` if that module was
    imported (no such screen can be on the stack otherwise), for ``isinstance``;
    else an empty tuple, which nothing is an instance of."""
    found = sys.modules.get(f"{__package__}.screens.{module}")
    cls = getattr(found, name, None)
    return cls if isinstance(cls, type) else ()


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
        clock: bool | Clock = True,
        data_dir: str | None = None,
        replay: Replay | None = None,
        resume: bool = False,
        variant_given: bool = True,
        first_screen: Callable[[Services, CardLook], Screen[Any]] | None = None,
        winnable: bool = False,
        **kw: Any,
    ) -> None:
        super().__init__(ansi_color=True, **kw)
        # clock=False: the clock stands still (tests, snapshots); a Clock: a test's own.
        clock = clock if isinstance(clock, Clock) else Clock(running=clock)
        self.services = Services.open(data_dir, clock)
        self.start_game = game
        self.start_deal = deal
        self.start_variant = variant or {}
        self.look = look or self.settings_look()
        self.time_limit = time_limit
        # The command line's bare game command continues its save (docs/ui.md).
        self.resume = resume
        self.variant_given = variant_given
        self.start_replay = replay  # termsolitaire replay FILE: only the replay screen
        # A command's own first screen instead of the menu (the match lobby).
        self.first_screen = first_screen
        self.services.winnable = winnable  # --winnable, whatever the setting
        self.match_services: Any = None  # the lobby's, once the menu opened it (m)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver; on a terminal, one that sends only the cells that changed
        (:mod:`termsolitaire.terminal`)."""
        from .terminal.driver import driver_for

        return driver_for(super().get_driver_class())

    def settings_look(self) -> CardLook:
        """The card look the settings ask for."""
        s = self.services.settings
        return CardLook(ascii=s.card_style == "ascii", four_colour=s.four_colour)

    def on_mount(self) -> None:
        self.catch_signals()
        if self.services.settings.theme in self.available_themes:
            self.theme = self.services.settings.theme
        for message in self.services.messages:
            self.notify(message, severity="warning", timeout=10)
        if self.start_replay is not None:
            from termsolitaire.screens.boards.replay import replay_screen

            self.push_screen(replay_screen(self.start_replay, self.look))
        elif self.first_screen is not None:
            self.push_screen(self.first_screen(self.services, self.look))
        elif self.start_game is None:
            from termsolitaire.screens.menu import MenuScreen

            self.push_screen(MenuScreen(self.services))
        else:
            self.start_board()

    # ------------------------------------------------- saving and resuming

    def start_board(self) -> None:
        """The game the command line asked for (the same questions as the menu)."""
        assert self.start_game is not None
        variant = self.start_variant
        problems: list[str] = []
        if self.resume and self.start_deal is None and not self.variant_given:
            latest, problems = self.latest_variant(self.start_game)
            variant = latest or variant
        self.open_game(
            MenuChoice(
                self.start_game,
                self.start_deal,
                variant,
                self.time_limit,
                resume=self.resume and self.start_deal is None,
                or_new=True,
            ),
            "; ".join(problems) or None,
        )

    def latest_variant(self, name: str) -> tuple[dict[str, int] | None, list[str]]:
        """The variant of the game ``name`` saved last, if any (the bare command
        continues it, whichever variant it is), and messages about broken saves."""
        saves, problems = self.services.saves.all()
        mine = [s for s in saves if s.game.name == name]
        if not mine:
            return None, problems
        return dict(max(mine, key=lambda s: s.saved_at).game.variant), problems

    def on_menu_choice(self, message: MenuChoice) -> None:
        self.open_game(message)

    def open_game(self, choice: MenuChoice, notice: str | None = None) -> None:
        """Open the game the player chose. A game open in another copy of the program
        is offered read only; a saved game in progress of the same game and variant
        is never abandoned without the player saying so (resume, abandon, or keep
        it and go back)."""
        saves = self.services.saves
        lock = saves.lock(choice.game, choice.variant)
        if not lock.acquire():
            self.offer_read_only(choice, lock.holder())
            return
        saved, problem = saves.load(choice.game, choice.variant)
        problem = "; ".join(m for m in (notice, lock.problem, problem) if m) or None
        if choice.resume and saved is not None:
            self.push_screen(self.resumed(saved, lock))
            return
        if choice.resume and not choice.or_new:  # the menu's Resume line, its save since gone
            notice = problem or "The saved game is gone; a new deal"
            self.push_screen(self.new_board(choice, None, lock, notice))
            return
        if saved is not None and played(saved.game):
            from termsolitaire.screens.dialogs.choice import ChoiceScreen

            def answered(answer: str | None) -> None:
                if answer == "resume":
                    self.push_screen(self.resumed(saved, lock))
                elif answer == "abandon":
                    self.deal_new_board(choice, saved, lock)
                else:
                    lock.release()
                    self.home("Kept: " + describe(saved))

            self.push_screen(
                ChoiceScreen(
                    f"In progress: {describe(saved)}.",
                    ["Resume it, or abandon it for a new deal (it counts as lost)?"],
                    [
                        ("r", "Resume it", "resume"),
                        ("a", "Abandon it", "abandon"),
                        ("k", "Keep it, go back", "keep"),
                    ],
                ),
                answered,
            )
            return
        self.deal_new_board(choice, saved, lock, problem)

    def deal_new_board(
        self,
        choice: MenuChoice,
        saved: Saved | None,
        lock: SaveLock | None,
        notice: str | None = None,
    ) -> None:
        """Push the board of a new game as ``choice`` asks; a random deal is first
        proved winnable when the player asked for winnable deals only."""
        from .solver import has_solver

        wanted = self.services.winnable_only
        if choice.deal is not None or not wanted or not has_solver(choice.game):
            self.push_screen(self.new_board(choice, saved, lock, notice))
            return

        def found(deal: int | None) -> None:
            chosen = replace(choice, deal=deal)
            self.push_screen(self.new_board(chosen, saved, lock, notice))

        from termsolitaire.screens.dialogs.finding import FindDealScreen

        self.push_screen(FindDealScreen(self.services, choice.game, choice.variant), found)

    def offer_read_only(self, choice: MenuChoice, holder: str) -> None:
        """The game is open in another copy: look at its save read only, or go back."""
        from termsolitaire.screens.dialogs.choice import ChoiceScreen

        title = info(choice.game).title

        def answered(answer: str | None) -> None:
            if answer == "look":
                from termsolitaire.screens.boards.replay import replay_screen

                from .play.modes import VIEW
                from .replay import load_replay

                path = self.services.saves.path(choice.game, choice.variant)
                try:
                    replay = load_replay(path)
                except ValueError as e:
                    self.home(f"The other copy's save cannot be read: {e}")
                    return
                replay.end()
                self.push_screen(replay_screen(replay, self.look, "Read only", policy=VIEW))
            else:
                self.home()

        self.push_screen(
            ChoiceScreen(
                f"{title} is open in another window ({holder}).",
                ["Only one copy of a game can be played at a time, or moves would be lost."],
                [("v", "View it read only", "look"), ("o", "Pick another game", "other")],
            ),
            answered,
        )

    def home(self, note: str | None = None) -> None:
        """Back to the menu (opening it when the app was started on a board)."""
        from termsolitaire.screens.menu import MenuScreen

        if not any(isinstance(s, MenuScreen) for s in self.screen_stack):
            self.push_screen(MenuScreen(self.services))
        if note:
            self.notify(note, timeout=6)

    def resumed(self, saved: Saved, lock: SaveLock | None = None) -> BoardScreen:
        """The board of a saved game, continued exactly (its id, clock and limit)."""
        from termsolitaire.screens.boards import board_screen

        session = GameSession(self.services, saved.game, saved.id, time_limit_of(saved), lock)
        return board_screen(session, self.look)

    def new_board(
        self,
        choice: MenuChoice,
        saved: Saved | None,
        lock: SaveLock | None = None,
        notice: str | None = None,
    ) -> BoardScreen:
        """A new game as ``choice`` asks; the ``saved`` game it replaces, if any,
        counts as lost when it had a move."""
        messages = [m for m in (notice,) if m]
        messages += abandon(self.services.stats, saved)
        game = new_game(choice.game, choice.deal, **choice.variant)
        session = GameSession(self.services, game, None, choice.time_limit, lock)
        from termsolitaire.screens.boards import board_screen

        return board_screen(session, self.look, notice="; ".join(messages) or None)

    def save_boards(self) -> None:
        """Autosave every game on a board (leaving, a hang-up, SIGTERM)."""
        for screen in self.boards():
            screen.autosave()

    def boards(self) -> list[BoardScreen]:
        """The board screens on the stack."""
        return [
            s for s in self.screen_stack if isinstance(s, loaded("boards.board", "BoardScreen"))
        ]

    def catch_signals(self) -> None:
        """A hang-up (SIGHUP, SIGTERM, the terminal's end of file or an error on it)
        saves the game and leaves; the process ends within two seconds whatever it
        is doing (:mod:`termsolitaire.lifeline`)."""
        if self.is_headless:
            return  # tests: no terminal to lose, and no process to end
        with contextlib.suppress(RuntimeError):
            lifeline.install(self.on_hang_up, asyncio.get_running_loop())

    def on_hang_up(self, reason: str = "") -> None:
        """Save every game and leave (the lifeline ends the process should this stall)."""
        self.save_boards()
        self.exit(0)

    def on_input_dropped(self, message: InputDropped) -> None:
        """The terminal sent more than anyone types: say so, once in a while."""
        self.notify(
            f"Input came faster than anyone types: {message.keys} keys dropped.",
            severity="warning",
            timeout=4,
        )

    async def on_unmount(self) -> None:
        """The solver's worker processes (and the computer's, in a match) end with the app."""
        if self.match_services is not None:
            self.match_services.close()
            self.match_services.store.close()
        await self.services.close()

    def exit(self, result: int | None = None, return_code: int = 0, message: Any = None) -> None:
        """Leave the app; every game on a board is saved first."""
        self.save_boards()
        super().exit(result, return_code, message)

    def _on_key(self, event: events.Key) -> None:
        """A key typed on a screen that has since given way (``#`` then ``4321``
        in one burst) goes to the screen on top now, in order, not to the keys of
        the screen it was typed on (:mod:`termsolitaire.screens.typeahead`).

        Textual calls each class's ``_on_key`` in turn: preventing the default
        keeps ``App._on_key`` from reading the stray key as well."""
        if stray(event, self.screen):
            event.prevent_default()
            self.post_message(events.Key(event.key, event.character))

    # ---------------------------------------------------------- settings

    def set_look(self, look: CardLook) -> None:
        """Draw every open board with ``look``."""
        self.look = look
        for screen in self.boards():
            screen.set_look(look)

    def action_four_colour(self) -> None:
        self.set_look(replace(self.look, four_colour=not self.look.four_colour))
        self.services.settings.four_colour = self.look.four_colour
        self.tell_settings_problem(self.services.save_settings())

    def tell_settings_problem(self, problem: str | None) -> None:
        if problem:
            self.notify(problem, severity="warning", timeout=8)

    def on_setting_changed(self, message: SettingChanged) -> None:
        """Put a changed setting into effect now (the settings screen saved it)."""
        s = self.services.settings
        name = message.name
        if name in ("card_style", "four_colour"):
            self.set_look(
                replace(self.look, ascii=s.card_style == "ascii", four_colour=s.four_colour)
            )
        elif name == "theme":
            self.theme = s.theme
        elif name == "mouse":
            from termsolitaire.screens.settings import SettingsScreen, set_mouse

            note = set_mouse(self, s.mouse)
            if isinstance(self.screen, SettingsScreen):
                self.screen.note(f"Saved; {note}")
        else:
            for screen in self.screen_stack:
                if isinstance(screen, loaded("menu", "MenuScreen")):
                    screen.apply_defaults()

    def action_statistics(self) -> None:
        from termsolitaire.screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen(self.services))

    def action_settings(self) -> None:
        from termsolitaire.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.services))

    def action_match(self) -> None:
        """The Spider match lobby from the menu: back to it when it is open below,
        else opened. The match store and its screens load only now (start-up time:
        most sessions never ask for them)."""
        from termsolitaire.screens.match.lobby import LobbyScreen, back_to_lobby

        from .match import MatchError, MatchStore, current_player
        from .match.services import MatchServices

        if back_to_lobby(self):
            return
        if self.match_services is None:
            try:
                store = MatchStore(current_player(), None)
            except MatchError as e:
                self.notify(e.reason, severity="error", timeout=8)
                return
            self.match_services = MatchServices(store)
        self.push_screen(LobbyScreen(self.services, self.match_services, self.look))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, help_text, action in PALETTE_ACTIONS:
            method = getattr(screen, f"action_{action}", None) or getattr(
                self, f"action_{action}", None
            )
            if method is not None and screen.check_action(action, ()) is not False:
                yield SystemCommand(title, help_text, method)


def _apply_display_options(app: SolitaireApp, args: argparse.Namespace) -> None:
    """The settings give the look; what the command line asks for wins."""
    if getattr(args, "ascii", False):
        app.look = replace(app.look, ascii=True)
    if getattr(args, "four_colour", False):
        app.look = replace(app.look, four_colour=True)


def run(args: argparse.Namespace, game: str | None, variant: dict[str, int]) -> int:
    """Start the app (called by ``cli``); the exit status."""
    app = SolitaireApp(
        game,
        getattr(args, "deal", None),
        variant,
        time_limit=getattr(args, "time_limit", 0) or 0,
        data_dir=getattr(args, "data_dir", None),
        resume=getattr(args, "deal", None) is None,
        variant_given=bool(getattr(args, "variant_given", False)),
        winnable=bool(getattr(args, "winnable", False)),
    )
    _apply_display_options(app, args)
    result = app.run(mouse=app.services.settings.mouse)
    return exit_status(app, result)


def exit_status(app: App[Any], result: object) -> int:
    """The process's exit status: the app's error code after a crash (Textual has
    shown or logged its traceback), else the result it exited with."""
    if app.return_code:
        return app.return_code
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
    app = SolitaireApp(data_dir=getattr(args, "data_dir", None), replay=replay)
    _apply_display_options(app, args)
    result = app.run(mouse=app.services.settings.mouse)
    return exit_status(app, result)
