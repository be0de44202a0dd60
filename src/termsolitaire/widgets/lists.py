"""Lists whose click does less than Textual's, which selects the line clicked.

- :class:`LookFirstList`: where selecting starts something (a game, the day's
  one attempt at a daily), a click on a line that is not highlighted highlights
  it (what ↑ ↓ do: the menu's line, a daily's leaderboard), and a click on the
  highlighted line selects it (what Enter does); a double click does both.
- :class:`ChoiceRows`: rows of a label and its choices side by side (the
  settings, the lobby's New dialog), where a click chooses the choice under it
  (:func:`choice_at`) and a click on the label only highlights the row.
- :class:`ValueRow`: a row of radio buttons whose ← → choose, as the
  :class:`ChoiceRows` do (the menu's option rows).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, RadioButton, RadioSet


class LookFirstList(OptionList):
    """An option list whose first click on a line highlights it, the next selects it."""

    async def _on_click(self, event: events.Click) -> None:
        clicked = event.style.meta.get("option")
        if isinstance(clicked, int) and clicked != self.highlighted:
            event.prevent_default()  # not the list's own click, which selects too
            if not self.get_option_at_index(clicked).disabled:
                self.highlighted = clicked


def choice_at(label_width: int, shown: Sequence[str], column: int) -> int | None:
    """Which of the choices ``shown`` lies at ``column`` of a row that draws them
    after a label of ``label_width`` columns, each as ``[text]`` or `` text ``
    with a space between; None on the label or a gap.

    >>> [choice_at(4, ["1", "2"], c) for c in (3, 4, 6, 7, 8, 11)]
    [None, 0, 0, None, 1, None]
    """
    at = label_width
    for i, text in enumerate(shown):
        width = len(text) + 2
        if at <= column < at + width:
            return i
        at += width + 1
    return None


class ChoiceRows(OptionList):
    """Rows of choices: a click highlights its row and tells :meth:`clicked_at`
    where in it it fell (Textual's click selected the row, which changed or
    started something wherever the click fell)."""

    async def _on_click(self, event: events.Click) -> None:
        clicked = event.style.meta.get("option")
        if not isinstance(clicked, int):
            return
        event.prevent_default()  # not the list's own click, which selects
        self.highlighted = clicked
        offset = event.get_content_offset(self)
        if offset is not None:
            self.clicked_at(clicked, offset.x + int(self.scroll_x))

    def clicked_at(self, index: int, column: int) -> None:
        """A click on row ``index``, ``column`` cells into it (a subclass chooses)."""


class ValueRow(RadioSet, inherit_bindings=False):
    """A row of values side by side, one chosen (the menu's Spider suits and time
    limit): ← → (or h l, Space) choose the value beside the chosen one, round
    the row, as in the settings and the lobby's New dialog; ↑ ↓ go to the row
    above or below; Enter is left to the screen (the menu plays). Textual's ← →
    moved a highlight the chosen value told apart by colour alone: a player who
    lit "4" and went back to the games played 1 suit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "choose(1)", "Next value", show=False),
        Binding("left,h", "choose(-1)", "Previous value", show=False),
        Binding("down", "app.focus_next", "Next row", show=False),
        Binding("up", "app.focus_previous", "Previous row", show=False),
    ]

    def action_choose(self, step: int) -> None:
        buttons = list(self.query(RadioButton))
        if buttons:
            buttons[(self.pressed_index + step) % len(buttons)].value = True
