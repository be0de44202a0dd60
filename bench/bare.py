"""The floor: a bare Textual app, one Static. The arrow keys change its text.

bench/run.py starts it beside termsolitaire: what this app costs (launch,
memory, a repaint after a key) is what any Textual app costs on this machine.

    python bench/bare.py
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

TEXT = "bare Textual app"


class Bare(App[None]):
    BINDINGS = [("right", "step(1)", "next"), ("left", "step(-1)", "back")]  # noqa: RUF012

    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def compose(self) -> ComposeResult:
        yield Static(f"{TEXT} {self.n}")

    def action_step(self, by: int) -> None:
        self.n += by
        self.query_one(Static).update(f"{TEXT} {self.n}")


if __name__ == "__main__":
    Bare().run()
