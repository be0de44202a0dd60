"""The Textual app: thin. It opens the menu, a board or a replay, hands the screens
their services, saves every board on the way out, and offers the board's actions
in the command palette; the screens do the rest."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.driver import Driver
from textual.screen import Screen

from termsolitaire.screens.notices import tell
from termsolitaire.screens.styled import unless_painted
from termsolitaire.screens.typeahead import after_escape, stray

from . import collector, lifeline, textual_hooks
from .messages import SettingChanged
from .play.session import Clock, Services
from .screens.navigation import Navigation
from .widgets.cards import CardLook
from .widgets.scrollbars import scroll_bars_follow_the_look

if TYPE_CHECKING:
    from termsolitaire.screens.boards.board import BoardScreen
    from termsolitaire.screens.menu import MenuScreen

    from .replay import Replay
    from .terminal.driver import InputDropped

textual_hooks.lazy_strip_caches()  # a drawn line's caches made when first used
textual_hooks.dispatch_once()  # a message's handlers found once per widget class
textual_hooks.parameters_once()  # a callback's parameters counted from its code, once
textual_hooks.extras_when_needed()  # a screen's toast rack and tooltip when first needed
textual_hooks.reactive_reads()  # a reactive's value read without three hasattr
textual_hooks.themes_read_in_place()  # a theme found in Textual's registry, not a copy
textual_hooks.screen_lookup_without_import()  # a node's screen found without an import
textual_hooks.scrollbar_colours_without_import()  # the same for a scrollbar colour's set
textual_hooks.borders_read_at_once()  # a border's four edges read in one step
textual_hooks.unheard_events_not_logged()  # no event log line made for no one
textual_hooks.prevent_without_generator()  # a pump's prevent() a plain context manager
textual_hooks.message_hook_found_without_exception()  # no LookupError a message
textual_hooks.region_without_exceptions()  # a widget's region without NoWidget raised
textual_hooks.cache_misses_without_exceptions()  # no KeyError a cache miss, no QueueEmpty
textual_hooks.none_is_not_awaited()  # a callback's None result not checked against an ABC
textual_hooks.reactives_set_at_once()  # a node's reactives set without two failed look-ups each
textual_hooks.ansi_theme_direct()  # the ANSI theme a line is drawn with read in three dict reads
textual_hooks.auto_focus_without_query()  # a screen's first focus found without a CSS query
textual_hooks.covered_lines_not_divided()  # a line under the widgets in front not cut up
scroll_bars_follow_the_look()  # a scroll bar's thumb in whole cells under ASCII

# Screens are imported when first shown: a board opened from the command line
# starts without the menu, the statistics, the settings or the other boards.

APP_ACTIONS = [
    ("Rules", "The rules of this game", "rules"),
    ("Four-colour deck", "Switch between two and four suit colours", "four_colour"),
    ("Statistics", "Games played and won; start a finished deal again", "statistics"),
    ("Settings", "Card style, colours, theme, defaults, mouse", "settings"),
    ("Fair hints", "", "fair_hints"),  # as it is now: :meth:`SolitaireApp.fair_hints_entry`
]
"""The palette's entries every screen has (the screen's own come from its keys:
:mod:`termsolitaire.screens.palette`)."""

TEXTUAL_LEFT_OUT = frozenset({"Keys", "Quit", "Maximize"})
"""Textual's own palette entries that the screens' Help and Quit replace, and its
Maximize, which on the menu showed the list of games alone on a hatched screen,
no key line, until Escape."""


def loaded(module: str, name: str) -> type | tuple[()]:
    """Class ``name`` of ``termsolitaire.screens.<module>`` if that module was
    imported (no such screen can be on the stack otherwise), for ``isinstance``;
    else an empty tuple, which nothing is an instance of."""
    found = sys.modules.get(f"{__package__}.screens.{module}")
    cls = getattr(found, name, None)
    return cls if isinstance(cls, type) else ()


class BottomScreen(Screen[Any]):
    """Textual's default screen, the bottom of the stack under the app's first screen,
    shown never (the app pushes its first screen at its mount). Textual lays it out
    after that screen when the terminal's size comes, and asks the screen on top to
    repaint what changed on it: the whole of it, a second full paint of the match
    lobby at every login (issue 33). Covered by an opaque screen it keeps what
    changed for itself, as the app's other screens do
    (:func:`~termsolitaire.textual_hooks.refresh_covered`), and is not laid out
    (six times at an app's start, for a screen nobody sees: about 3M instructions
    an app); should it show, Textual lays it out at its resume."""

    def _compositor_refresh(self) -> None:
        if not textual_hooks.refresh_covered(self):
            super()._compositor_refresh()

    def _refresh_layout(self, size: Any = None, scroll: bool = False) -> None:
        if textual_hooks.covered(self):
            self._layout_required = True  # when it is the app's screen again
            return
        super()._refresh_layout(size, scroll)


class SolitaireApp(Navigation, App[int]):
    """Menu first, or straight to a board when a game was named."""

    TITLE = "termsolitaire"
    CSS = "Toast { max-width: 75%; } ModalScreen ToastRack { margin-bottom: 2; }"
    """A notice three quarters of the window wide, not half: at 80 columns a half
    broke a kept-aside file's name ("settings.json.corrupt-20261206-05414" over
    "5"). Over a dialog it stands above the status line of the screen beneath, as
    on a board (board.tcss): under End's question it hid "No move helps here"."""

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
        # Each stylesheet source parsed once per process, not at every new screen.
        self.stylesheet = textual_hooks.shared_stylesheet(self.stylesheet)
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
        self._sized = False  # the terminal's first size has come (see _on_resize)

    def call_next(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Textual's; a new screen is not laid out again once it is mounted when its
        first paint did it (:func:`~termsolitaire.screens.styled.unless_painted`)."""
        super().call_next(unless_painted(callback), *args, **kwargs)

    def get_default_screen(self) -> Screen[Any]:
        """Textual's empty screen at the bottom of the stack, which a screen pushed at
        the mount covers for good (:class:`BottomScreen`)."""
        return BottomScreen(id="_default")

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
        tell(self, self.services.messages)
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
        # The launch keeps the cyclic collector off until the first screen's first
        # paint (screens/styled.py); at the latest, it runs again a second from now.
        self.set_timer(1.0, collector.resume)

    def save_boards(self) -> None:
        """Autosave every game on a board (leaving, a hang-up, SIGTERM)."""
        for screen in self.boards():
            screen.autosave()

    def boards(self) -> list[BoardScreen]:
        """The board screens on the stack."""
        kind = loaded("boards.board", "BoardScreen")
        return cast("list[BoardScreen]", [s for s in self.screen_stack if isinstance(s, kind)])

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

    def _handle_exception(self, error: Exception) -> None:
        """After a hang-up an error in a handler ends nothing that is not ending
        already, and shows nobody a traceback: the games are saved and the app is
        leaving with status 0. A terminal hung up about 0.2 s after the start (an
        SSH client gone at once) caught the first screen half built: Textual mounts
        none of a closing screen's widgets but still sends it its ``Mount``, and
        the board's, the menu's and the lobby's handlers each raised looking for
        them (``NoMatches``), ending the process in a traceback with status 1."""
        if lifeline.hung_up() is not None:
            return
        super()._handle_exception(error)

    def on_input_dropped(self, message: InputDropped) -> None:
        """The terminal sent more than anyone types, or pasted more than anything
        here takes: say so, once in a while."""
        from .terminal.driver import PASTE_LIMIT

        said = []
        if message.paste:
            said.append(
                f"A paste of {message.paste} characters is longer than anything here "
                f"takes (at most {PASTE_LIMIT}): it was left out."
            )
        if message.keys:
            said.append(f"Input came faster than anyone types: {message.keys} keys dropped.")
        self.notify(" ".join(said), severity="warning", timeout=4)

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

    async def _on_resize(self, event: events.Resize) -> None:
        """A resize to the size the app already has changes nothing: it is dropped
        here. Textual keeps such an event anyway and sends it to every screen at the
        next idle moment, which lays out and repaints the whole board a second time
        at its start (the terminal reports its size twice; issue 33).

        Textual calls each class's ``_on_resize`` in turn: preventing the default
        keeps ``App._on_resize`` from storing the event."""
        if self._sized and event.size == self.size:
            event.stop()
            event.prevent_default()
        self._sized = True

    async def _on_key(self, event: events.Key) -> None:
        """A key typed on a screen that has since given way (``#`` then ``4321``
        in one burst) goes to the screen on top now, in order, not to the keys of
        the screen it was typed on (:mod:`termsolitaire.screens.typeahead`).

        Textual calls each class's ``_on_key`` in turn: preventing the default
        keeps ``App._on_key`` from reading the stray key as well."""
        if stray(event, self.screen):
            event.prevent_default()
            self.post_message(events.Key(event.key, event.character))
        elif (key := after_escape(event)) is not None:
            event.prevent_default()  # Escape and a key in one read: both, in order
            self.post_message(events.Key("escape", "\x1b"))
            self.post_message(events.Key(key, key))

    def get_key_display(self, binding: Binding) -> str:
        """A binding's key as the key lines show it: in words on ASCII terminals."""
        return self.look.key(super().get_key_display(binding))

    # ---------------------------------------------------------- settings

    def set_look(self, look: CardLook) -> None:
        """Draw every open board with ``look``."""
        self.look = look
        for screen in self.boards():
            screen.set_look(look)

    def action_four_colour(self) -> None:
        self.set_look(replace(self.look, four_colour=not self.look.four_colour))
        self.services.settings.four_colour = self.look.four_colour
        self.tell_settings_problem(self.services.save_settings("four_colour"))

    def fair_hints_held(self) -> str | None:
        """Why fair hints cannot be turned off now (a match or a daily attempt
        under way on a board of this app), or None."""
        for screen in self.boards():
            held = screen.controller.policy.fair_held
            if held and not screen.over:
                return held
        return None

    def fair_hints_entry(self) -> tuple[str, str]:
        """The palette's entry for the setting "Fair hints": what choosing it does
        (its title, beside a board's "Fair hint", says which way) and what the
        help is now."""
        if self.services.settings.fair_hints:
            return "Turn fair hints off", "Hints see only the cards you see now; off, every card"
        return "Turn fair hints on", "Hints see every card now; on, only the cards you see"

    def action_fair_hints(self) -> None:
        """The command palette's "Fair hints": the setting switched, saved and put
        into effect, as the settings screen does; not off during a match or a
        daily attempt (it says so, and changes nothing)."""
        from termsolitaire.screens.settings import FAIR_HINTS_WORDS

        settings = self.services.settings
        held = self.fair_hints_held() if settings.fair_hints else None
        if held is not None:
            self.notify(held, timeout=6)
            return
        settings.fair_hints = not settings.fair_hints
        problem = self.services.save_settings("fair_hints")
        self.on_setting_changed(SettingChanged("fair_hints"))
        if problem:
            self.tell_settings_problem(problem)
        else:
            on = "on" if settings.fair_hints else "off"
            self.notify(f"Fair hints {on}: {FAIR_HINTS_WORDS[settings.fair_hints]}", timeout=6)

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
            if name == "card_style":  # the menu and the settings, drawn before, follow
                for screen in self.screen_stack:
                    changed = getattr(screen, "look_changed", None)
                    if changed is not None:
                        self.call_later(changed)
        elif name == "theme":
            self.theme = s.theme
        elif name == "fair_hints":
            for board in self.boards():
                board.solving.help_changed()
        elif name == "mouse":
            from termsolitaire.screens.settings import SettingsScreen, set_mouse

            note = set_mouse(self, s.mouse)
            if isinstance(self.screen, SettingsScreen):
                self.screen.note(f"Saved; {note}")
        else:
            for screen in self.screen_stack:
                if isinstance(screen, loaded("menu", "MenuScreen")):
                    cast("MenuScreen", screen).apply_defaults()

    def action_statistics(self) -> None:
        from termsolitaire.screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen(self.services))

    def action_settings(self) -> None:
        from termsolitaire.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.services, self.fair_hints_held))

    def action_match(self) -> None:
        """The Spider match lobby from the menu: back to it when it is open below,
        else opened. The match store and its screens load only now (start-up time:
        most sessions never ask for them)."""
        from termsolitaire.screens.match.home import back_to_lobby
        from termsolitaire.screens.match.lobby import LobbyScreen

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

    def daily(self, quiet: bool = False) -> Any:
        """The daily deals (:class:`~termsolitaire.match.daily.Daily`) on the match store
        the lobby uses (opened now when no lobby was); None, after a toast saying
        why (``quiet``: without), when the store cannot be opened."""
        from .match import MatchError, MatchStore, current_player
        from .match.daily import Daily
        from .match.services import MatchServices

        match = self.match_services or next(
            (getattr(s, "match", None) for s in self.screen_stack if hasattr(s, "match")), None
        )
        try:
            if match is None:
                match = self.match_services = MatchServices(MatchStore(current_player(), None))
                # Opened here (the menu's daily line, d): what opening it found, a
                # damaged database set aside, is told once, as the lobby tells it;
                # it was told nowhere, and the daily results and rating were gone
                # without a word.
                tell(self, match.store.messages)
                match.store.messages.clear()
            return Daily(match.store)
        except MatchError as e:
            if not quiet:
                self.notify(e.reason, severity="error", timeout=8)
            return None

    def action_daily(self) -> None:
        """The daily deals and their leaderboards."""
        from termsolitaire.screens.daily import DailyScreen

        if isinstance(self.screen, DailyScreen):
            return
        daily = self.daily()
        if daily is not None:
            self.push_screen(DailyScreen(daily, self.look))

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """The palette's Screenshot, into the Downloads folder as Textual does; where
        there is none (a fresh account, a server's) Textual said only "Failed to save
        screenshot", so that case is named before anything is tried. In a browser
        (``termsolitaire web``) the browser takes the file: no folder is asked."""
        from pathlib import Path

        from platformdirs import user_downloads_path

        web = self._driver is not None and self._driver.is_web
        folder = Path(path) if path else user_downloads_path()
        if not web and not folder.is_dir():
            self.notify(
                f"No folder {str(folder)!r} to save the screenshot in",
                title="Screenshot",
                severity="warning",
            )
            return None
        return super().deliver_screenshot(filename, path, time_format)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The screen's actions by name (from its keys), then the app's, then
        Textual's theme and screenshot entries."""
        from termsolitaire.screens.palette import entries

        offered = set()
        for entry in entries(screen):
            offered.add(entry.action.removeprefix("app."))
            yield SystemCommand(entry.title, entry.help, partial(screen.run_action, entry.action))
        for title, help_text, action in APP_ACTIONS:
            if action == "fair_hints":
                title, help_text = self.fair_hints_entry()
            method = getattr(screen, f"action_{action}", None) or getattr(
                self, f"action_{action}", None
            )
            if action in offered or method is None:
                continue
            if screen.check_action(action, ()) is not False:
                yield SystemCommand(title, help_text, method)
        for command in super().get_system_commands(screen):
            if command.title not in TEXTUAL_LEFT_OUT:
                yield command
