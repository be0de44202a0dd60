"""Winnable deals only: the solver tries deal numbers until it proves one winnable.

The search runs in the solver's worker processes; this dialog says what is
going on and lets the player stop waiting (Escape: any deal).
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from termsolitaire.play.session import Services
from termsolitaire.rules import info
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.solver import Budget
from termsolitaire.solver.winnable import seconds_per_deal
from termsolitaire.storage.files import StorageError
from termsolitaire.widgets.keyline import KeyLine

TRIES = 15
"""Deals tried before giving up (then a deal not known to be winnable is played)."""


class FindDealScreen(AsciiFrames, ModalScreen[int | None]):
    """Dismisses with a deal number proved winnable, or None (none found, Escape)."""

    CSS_PATH = "finding.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "give_up", "Any deal", id="find-any"),
    ]

    def __init__(self, services: Services, name: str, variant: dict[str, int]) -> None:
        super().__init__()
        self.services = services
        self.game_name = name
        self.variant = variant

    def compose(self) -> ComposeResult:
        g = info(self.game_name)
        what = " ".join(filter(None, (g.title, g.variant_text(self.variant))))
        with Vertical(id="panel"):
            yield Static(f"Finding a winnable {what} deal…", id="headline")
            why = "--winnable" if self.services.winnable else "winnable deals only, in the settings"
            yield Static(
                f"The solver tries deal numbers until it proves one winnable ({why}).",
                classes="line",
            )
            yield Static("Escape: any deal, winnable or not", classes="line")
        yield KeyLine()  # its own keys over the board's, which do nothing under it

    def on_mount(self) -> None:
        self.run_worker(cast(Any, self.find), exclusive=True)  # the method: see solving.py

    async def find(self) -> None:
        worker = self.services.solver()
        try:
            played = {
                f.deal
                for f in self.services.stats.finished()
                if f.game == self.game_name and f.deal is not None
            }
        except StorageError:
            played = set()  # the statistics are unreadable: any order will do
        try:
            found = await worker.find_winnable_deal(
                self.game_name,
                self.variant,
                Budget(seconds=seconds_per_deal(self.game_name)),
                tries=TRIES,
                avoid=played,
            )
        except Exception as e:
            self.notify(f"The solver failed ({e}): any deal", severity="warning")
            self.dismiss(None)
            return
        if found is None:
            self.notify(f"No deal proved winnable in {TRIES} tries: any deal", severity="warning")
        self.dismiss(found.deal if found else None)

    def action_give_up(self) -> None:
        self.workers.cancel_all()
        self.dismiss(None)
