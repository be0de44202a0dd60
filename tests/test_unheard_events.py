"""Issue 33: the message pump makes no event log line when no one could read it
(textual_hooks.unheard_events_not_logged): none while the app has no log file and
no devtools, every handled message's line in a log file as Textual writes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import constants, message_pump
from textual.app import App, ComposeResult
from textual.widgets import Static

from termsolitaire import textual_hooks

assert textual_hooks.unheard_events_not_logged()


class Keyed(App[None]):
    pressed = 0

    def compose(self) -> ComposeResult:
        yield Static("keys")

    def on_key(self) -> None:
        self.pressed += 1


async def test_no_line_is_made_for_no_one() -> None:
    app = Keyed()
    async with app.run_test() as pilot:
        assert message_pump.log.event is textual_hooks.messages._UNHEARD
        await pilot.press("a", "b")
        await pilot.pause()
    assert app.pressed == 2  # the handlers still run


async def test_a_log_file_gets_each_handled_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "textual.log"
    monkeypatch.setattr(constants, "LOG_FILE", str(log))
    app = Keyed()
    async with app.run_test() as pilot:
        assert message_pump.log.event is not textual_hooks.messages._UNHEARD
        await pilot.press("a")
        await pilot.pause()
    lines = log.read_text().splitlines()
    assert any("Key(" in line and ">>>" in line and "Keyed.on_key" in line for line in lines)
    assert app.pressed == 1


def test_other_log_names_are_textuals() -> None:
    assert message_pump.log.system is not None
    assert message_pump.log.verbosity(True) is not None
