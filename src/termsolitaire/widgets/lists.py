"""A list whose click first looks, then acts.

Textual's ``OptionList`` selects the option clicked at once. Where selecting
starts something (a game, the day's one attempt at a daily), a click on a line
that is not highlighted highlights it (what ↑ ↓ do: the menu's line, a daily's
leaderboard), and a click on the highlighted line selects it (what Enter does);
a double click does both.
"""

from __future__ import annotations

from textual import events
from textual.widgets import OptionList


class LookFirstList(OptionList):
    """An option list whose first click on a line highlights it, the next selects it."""

    async def _on_click(self, event: events.Click) -> None:
        clicked = event.style.meta.get("option")
        if isinstance(clicked, int) and clicked != self.highlighted:
            event.prevent_default()  # not the list's own click, which selects too
            if not self.get_option_at_index(clicked).disabled:
                self.highlighted = clicked
