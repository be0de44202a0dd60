"""SVG snapshots of the solver on the board (issue 11): the verdict and a hint, the
solution stepped through, the demo's pace, the winnable-deals-only dialog.

The searches run in other processes; each scenario waits for what it shows.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from termsolitaire.app import SolitaireApp


@pytest.fixture(autouse=True)
def _solver_help(monkeypatch: pytest.MonkeyPatch, full_knowledge_help: None) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "1")


def penguin() -> SolitaireApp:
    """Penguin deal 3: the solver's first turn wins it (44 positions, inside its
    first chunk of 256), so its line is the same however busy the machine is. On a
    deal that needs several turns, which search finds the line depends on how the
    turns fall in time (deal 5: 96 moves or 97 under load)."""
    return SolitaireApp("penguin", 3, {}, clock=False)


async def until(pilot: Any, check: Any) -> None:
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        await pilot.pause(0.05)


async def solution_shown(pilot: Any) -> None:
    """``S``, then the solution's own screen before the next key: pushed while the
    board still had the keys, a key sent at once went to the board (under load the
    demo's two ``-`` were lost, and the picture showed the default pace)."""
    from termsolitaire.screens.boards.replay import ReplayMixin

    await pilot.press("S")
    await until(pilot, lambda: isinstance(pilot.app.screen, ReplayMixin))


def status(app: SolitaireApp) -> str:
    return app.screen.query_one("#status").text  # type: ignore[attr-defined,no-any-return]


def test_verdict_and_hint_80x24(snap_compare: Any) -> None:
    """Penguin deal 3 after H: "winnable" at the right of the status line; the
    hint's card (8♦ of column 6) is in hand, reversed, the cursor [4] is on the
    9♦ it goes to, and the status line says "Hint: 8♦ 6→4 (Enter or its key
    plays it)"."""

    async def hint(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: app.screen.solving.verdict == "winnable")  # type: ignore[attr-defined]
        await pilot.press("H")
        await until(pilot, lambda: status(app).startswith("Hint:"))

    assert snap_compare(penguin(), terminal_size=(80, 24), run_before=hint)


def test_solution_stepped_80x24(snap_compare: Any) -> None:
    """S on Penguin deal 3 opens the solution read only: the header says
    "Solution · Penguin · deal 3 · beak 5" and "move 2 of 85: t4-t6:2"; the board shows
    the position two moves along the winning line."""

    async def steps(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: app.screen.solving.verdict == "winnable")  # type: ignore[attr-defined]
        await solution_shown(pilot)
        await pilot.press("right", "right")

    assert snap_compare(penguin(), terminal_size=(80, 24), run_before=steps)


def test_demo_pace_80x24(snap_compare: Any) -> None:
    """In the solution, - twice slows the demo to its slowest pace and D starts it:
    the status line says "Demo: a move every 2.5 s; + faster, - slower, any key
    stops" at the start of the line."""

    async def demo(pilot: Any) -> None:
        app = pilot.app
        await until(pilot, lambda: app.screen.solving.verdict == "winnable")  # type: ignore[attr-defined]
        await solution_shown(pilot)
        await pilot.press("minus", "minus", "D")

    assert snap_compare(penguin(), terminal_size=(80, 24), run_before=demo)


def test_finding_a_winnable_deal_80x24(snap_compare: Any) -> None:
    """With "winnable deals only" on, Play on Penguin first shows "Finding a
    winnable Penguin deal…", what the solver is doing, and that Escape plays any
    deal (the search is held still for the picture)."""

    async def find(pilot: Any) -> None:
        app = pilot.app
        app.services.settings.winnable_only = True

        async def forever(*args: Any, **kw: Any) -> None:
            await asyncio.Event().wait()

        app.services.solver().find_winnable_deal = forever
        lines = app.screen.query_one("#games")
        lines.highlighted = [o.id for o in lines.options].index("penguin")
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(SolitaireApp(clock=False), terminal_size=(80, 24), run_before=find)
