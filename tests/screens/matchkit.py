"""Helpers for the match's Pilot tests: a shared match directory, a wall clock the
test moves by hand (no test sleeps on it), and the app with the lobby as home
for one player; other players act through their own stores."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual.pilot import Pilot

from termsolitaire.app import SolitaireApp
from termsolitaire.match import MatchStore, Player
from termsolitaire.match.computer import ENGINE as COMPUTER_ENGINE
from termsolitaire.match.services import MatchServices
from termsolitaire.play.session import Clock
from termsolitaire.screens.match.lobby import LobbyScreen

if TYPE_CHECKING:
    from termsolitaire.screens.match.watch import WatchScreen

T0 = 1_000_000.0
S = TypeVar("S")
ENGINE = COMPUTER_ENGINE
"""The computer's engine in these tests: the real opponent (its beginner plays the
computer tests)."""


class WallClock:
    """The store's wall clock, moved only by the test."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


def lobby_app(
    shared: Path, clock: WallClock, home: Path, player: str = "ann", engine: str = ENGINE
) -> tuple[SolitaireApp, MatchServices]:
    """The app as ``termsolitaire match`` makes it, for ``player``, on the test's clock."""
    match = MatchServices(MatchStore(Player.make(player), shared, now=clock), engine=engine)
    app = SolitaireApp(
        clock=Clock(running=False, now=clock),
        data_dir=str(home),
        first_screen=lambda services, look: LobbyScreen(services, match, look),
    )
    return app, match


@contextmanager
def lobby_first(home: Path, player: str = "ann") -> Iterator[SolitaireApp]:
    """The app with the match lobby as its first screen, as a login has it, with no
    clock: the data and the match directory under ``home``; the stores closed after."""
    store = MatchStore(Player.make(player), home / "match")
    match = MatchServices(store)
    try:
        yield SolitaireApp(
            data_dir=str(home),
            clock=False,
            first_screen=lambda services, look: LobbyScreen(services, match, look),
        )
    finally:
        match.close()
        store.close()


async def until(
    pilot: Pilot[object], ok: Callable[[], object], what: str, timeout: float = 20.0
) -> None:
    """Wait (in small steps of the app's own loop) until ``ok()`` is true."""
    end = time.monotonic() + timeout
    while not ok():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def screen_text(app: SolitaireApp) -> str:
    """The characters on the screen now (from the SVG screenshot, tags removed)."""
    svg = app.export_screenshot()
    body = svg[svg.index("<g") :]
    text = re.sub(r"<[^>]+>", "", body)
    return html.unescape(text).replace("\xa0", " ")


def key_line(app: SolitaireApp) -> list[str]:
    """The words of the key line at the foot of the screen shown, 80x24 (the
    screen's own line, not one showing through from below)."""
    from termsolitaire.widgets.keyline import KeyLine

    widget, _ = app.screen.get_widget_at(1, 23)
    assert isinstance(widget, KeyLine), widget
    return widget.shown()


async def shown_screen(pilot: Pilot[object], kind: type[S], timeout: float = 20.0) -> S:
    """The app's screen once it is a ``kind`` (a key's effect may take a moment)."""
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), kind.__name__, timeout)
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    return screen


async def ascii_chosen_over(pilot: Pilot[object], app: SolitaireApp, kind: type[S]) -> S:
    """Card style ASCII chosen in the settings opened over the screen shown (as the
    command palette opens them anywhere), then Escape back to that ``kind`` of
    screen."""
    from termsolitaire.screens.settings import SettingsScreen

    app.action_settings()
    await shown_screen(pilot, SettingsScreen)
    await pilot.press("enter")  # Card style: ASCII
    await until(pilot, lambda: "+----" in screen_text(app), "the settings in ASCII")
    await pilot.press("escape")
    return await shown_screen(pilot, kind)


async def watched_after_ending(pilot: Pilot[object]) -> WatchScreen:
    """From the lobby, the highlighted table played (Enter), this player's game
    ended (e, y), and from its results the opponent's board watched (w)."""
    from termsolitaire.screens.match.match import MatchScreen
    from termsolitaire.screens.match.match_results import MatchResultsScreen
    from termsolitaire.screens.match.watch import WatchScreen

    from .conftest import answer

    await pilot.press("enter")
    await shown_screen(pilot, MatchScreen)
    await answer(pilot, ["e"], "y")
    await shown_screen(pilot, MatchResultsScreen)
    await pilot.press("w")
    return await shown_screen(pilot, WatchScreen)
