"""The terminal driver's gate (terminal/driver.py): a paste longer than anything
the game takes is dropped whole and reported, never cut to its first part."""

from __future__ import annotations

from textual import events

from termsolitaire.terminal.driver import PASTE_LIMIT, Gate


def test_a_paste_too_long_is_dropped_whole_and_reported() -> None:
    gate = Gate(clock=lambda: 0.0)
    assert gate.admit(events.Paste("x" * (PASTE_LIMIT + 1))) is None
    assert gate.admit(events.Paste("y" * 10_000)) is None
    report = gate.report()
    assert report is not None and (report.keys, report.paste) == (0, 10_000)
    assert gate.report() is None  # said once
    kept = gate.admit(events.Paste("z" * PASTE_LIMIT))
    assert isinstance(kept, events.Paste) and kept.text == "z" * PASTE_LIMIT
