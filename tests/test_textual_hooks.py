"""Every private part of Textual the program uses still exists in the installed
Textual (:mod:`termsolitaire.textual_hooks`): an upgrade that renames one fails
here, not in front of a player."""

from __future__ import annotations

import asyncio
import gc
import importlib
import signal
import types

import pytest

from termsolitaire.textual_hooks import HOOKS


@pytest.mark.parametrize(("module", "cls", "attribute"), HOOKS, ids=lambda x: str(x))
def test_the_private_hook_still_exists(module: str, cls: str, attribute: str) -> None:
    owner = getattr(importlib.import_module(module), cls)
    if hasattr(owner, attribute):
        return
    # Set in __init__: look on an instance.
    from textual.app import App

    async def instance() -> object:
        app = App()
        if cls == "App":
            return app
        if cls in ("Driver", "LinuxDriver"):
            from textual.drivers.linux_driver import LinuxDriver

            return LinuxDriver(app, size=(80, 24))
        if cls == "DOMNode":
            from textual.widget import Widget

            return Widget()
        if cls == "RenderStyles":
            from textual.widget import Widget

            return Widget().styles
        if cls in ("BorderProperty", "BoxProperty"):  # descriptors named by their owner
            from textual.css.styles import StylesBase

            return vars(StylesBase)["border" if cls == "BorderProperty" else "border_top"]
        if cls == "AwaitMount":
            from textual.widget import Widget

            return owner(Widget(), [])
        if cls == "Reactive":
            return owner(0)
        return owner()

    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        found = asyncio.run(instance())
    finally:  # the driver hooks SIGTSTP and SIGCONT: give them back
        for sig, handler in kept.items():
            signal.signal(sig, handler)
    assert hasattr(found, attribute), f"{module}.{cls}.{attribute} is gone from Textual"


def test_a_drawn_line_makes_its_caches_when_it_first_uses_them() -> None:
    """textual_hooks.lazy_strip_caches (installed by the app): a Strip starts with
    none of its seven caches (a session keeps some 1,800 strips: 1.6 MiB of caches,
    mostly never used), makes one on first use, and draws as Textual's does."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    import termsolitaire.app  # noqa: F401  (installs it)
    from termsolitaire.textual_hooks import lazy_strip_caches

    assert lazy_strip_caches()  # this Textual's Strip is the one it knows
    bold = Style(bold=True)
    strip = Strip([Segment("abc", bold), Segment("defgh")], 8)
    assert _caches(strip) == 0
    cropped = strip.crop(1, 6)
    assert cropped.text == "bcdef" and cropped.cell_length == 5
    assert strip.crop(1, 6) is cropped  # cached, as Textual's
    assert _caches(strip) == 1
    assert strip.divide([2, 8]) == [Strip([Segment("ab", bold)]), strip.crop(2, 8)]
    assert _caches(strip) == 2
    assert Strip.join([strip, cropped]).text == "abcdefghbcdef"
    assert strip.apply_style(bold).text == "abcdefgh"
    assert strip.adjust_cell_length(10).cell_length == 10


def _caches(strip: object) -> int:
    """How many caches ``strip`` has made (the objects its slots hold)."""
    from textual.cache import FIFOCache

    return sum(isinstance(o, FIFOCache) for o in gc.get_referents(strip))


def test_the_package_hands_on_its_modules_own_names() -> None:
    """A name :mod:`termsolitaire.textual_hooks` hands on is the one its module holds
    once the app has installed every hook: none is a copy, made at import, of what
    an install sets later (Textual's own functions, kept as ``textuals_...``, or a
    switch: those are read and set on their module, where the hooks read them)."""
    import termsolitaire.app  # noqa: F401  (installs them)
    from termsolitaire import textual_hooks

    package = vars(textual_hooks)
    modules = [m for m in package.values() if isinstance(m, types.ModuleType)]
    assert {m.__name__.rsplit(".", 1)[1] for m in modules} >= {"stylesheet", "drawing"}
    for name in set(textual_hooks.__all__) - {"HOOKS"}:  # HOOKS: each module's, joined
        held = [vars(m)[name] for m in modules if name in vars(m)]
        assert held, name
        assert all(value is package[name] for value in held), f"textual_hooks.{name} is a copy"
    assert len(set(textual_hooks.HOOKS)) == len(textual_hooks.HOOKS)  # each module its own
