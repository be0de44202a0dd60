"""Every private part of Textual the program uses still exists in the installed
Textual (:mod:`termsolitaire.textual_hooks`): an upgrade that renames one fails
here, not in front of a player."""

from __future__ import annotations

import asyncio
import importlib
import signal

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
        if cls == "AwaitMount":
            from textual.widget import Widget

            return owner(Widget(), [])
        return owner()

    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        found = asyncio.run(instance())
    finally:  # the driver hooks SIGTSTP and SIGCONT: give them back
        for sig, handler in kept.items():
            signal.signal(sig, handler)
    assert hasattr(found, attribute), f"{module}.{cls}.{attribute} is gone from Textual"
