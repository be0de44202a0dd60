"""Keys typed ahead (issue 9.18): keys that arrive in one burst with the key that
opens a screen (as over a slow SSH link, or pasted) belong to that screen."""

from __future__ import annotations

import time

from textual import events

from termsolitaire.app import SolitaireApp
from termsolitaire.screens.menu import MenuScreen
from termsolitaire.screens.settings import SettingsScreen
from termsolitaire.screens.typeahead import after_escape

from .conftest import board, status


async def burst(app: SolitaireApp, pilot, keys: str | list[str]) -> None:
    """Keys posted to the app all at once, as one read of a terminal delivers them."""
    chars = {"number_sign": "#", "enter": "\r", "down": None, "right": None}
    await burst_events(app, pilot, [events.Key(key, chars.get(key, key)) for key in keys])


async def burst_events(app: SolitaireApp, pilot, keys: list[events.Key]) -> None:
    for key in keys:
        app.post_message(key)
    for _ in range(6):
        await pilot.pause()


async def test_a_deal_number_typed_in_one_burst_plays_that_deal() -> None:
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await burst(app, pilot, ["number_sign", "4", "3", "2", "1", "enter"])
        screen = board(app)
        assert screen.game.deal == 4321 and screen.game.log == ()
        assert status(app) == "Deal 4321"


async def test_keys_after_a_key_that_opens_a_screen_go_to_that_screen() -> None:
    """Menu: ``o`` then ↓ → in one burst changes the second setting (four-colour)."""
    app = SolitaireApp(clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await burst(app, pilot, ["o", "down", "right"])
        assert isinstance(app.screen, SettingsScreen)
        assert app.services.settings.four_colour is True


def parsed(data: str) -> list[events.Key]:
    """The keys Textual's own parser makes of ``data`` arriving in one read."""
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    keys = list(parser.feed(data))
    deadline = time.monotonic() + 2
    while not keys and time.monotonic() < deadline:  # an Escape waits for more
        time.sleep(0.02)
        keys = list(parser.tick())
    return [k for k in keys if isinstance(k, events.Key)]


async def test_escape_and_a_pile_key_in_one_read_put_back_and_take_that_pile() -> None:
    """Over SSH "Escape, 1" can arrive in one read, which the terminal's parser
    reads as one key (``¡``, Alt+1): both must still count, in order."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7")
        assert status(app).startswith("Column 7 in hand")
        await burst_events(app, pilot, parsed("\x1b1"))
        screen = board(app)
        assert screen.game.log == ()
        assert status(app).startswith("Column 1 in hand"), status(app)
        await burst_events(app, pilot, parsed("\x1bq"))  # Escape, then cell q
        assert screen.game.log == ()
        assert not status(app).startswith("Column 1 in hand"), status(app)


def test_what_an_escape_and_a_key_in_one_read_become_is_known() -> None:
    """Textual's parser turns them into these; ``after_escape`` gives the key back
    (and leaves keys of their own alone)."""
    for data, key in (("\x1b1", "1"), ("\x1b0", "0"), ("\x1bq", "q"), ("\x1bZ", "Z")):
        (event,) = parsed(data)
        assert after_escape(event) == key, (data, event)
    for data in ("1", "q", "Z", "\x1b[A", "£", "§"):  # £ § are Shift+3 on some keyboards
        (event,) = parsed(data)
        assert after_escape(event) is None, (data, event)


def test_no_screen_binds_an_alt_key() -> None:
    """The app reads an Alt key as Escape and the key (above): one bound would
    never be reached. Every class the app's screens and widgets see is looked at
    (Textual's Input binds Alt+Backspace, which is not read so)."""
    import importlib
    import pkgutil

    from textual.binding import Binding

    import termsolitaire

    found = []
    for mod in pkgutil.walk_packages(termsolitaire.__path__, "termsolitaire."):
        if mod.name.split(".")[1] not in ("app", "screens", "widgets"):
            continue
        module = importlib.import_module(mod.name)
        for cls in vars(module).values():
            for b in getattr(cls, "BINDINGS", None) or ():
                keys = b.key if isinstance(b, Binding) else b[0]
                keys = [k.strip() for k in keys.split(",")]
                found += [(mod.name, k) for k in keys if after_escape(events.Key(k, None))]
    assert found == []
