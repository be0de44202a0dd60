"""Issue 33: a message pump's ``prevent`` is a plain context manager
(textual_hooks.prevent_without_generator), keeping Textual's contract: a message
type prevented inside the block is not posted, it is again after the block (also
when the block raises), and blocks nest."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.message_pump import MessagePump
from textual.widgets import Input

from termsolitaire import textual_hooks

assert textual_hooks.prevent_without_generator()


class Typed(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.changes: list[str] = []

    def compose(self) -> ComposeResult:
        yield Input(id="name")

    def on_input_changed(self, event: Input.Changed) -> None:
        self.changes.append(event.value)


async def test_a_prevented_message_is_not_posted_inside_the_block_only() -> None:
    assert getattr(MessagePump, "_prevent_without_generator", False)
    app = Typed()
    async with app.run_test() as pilot:
        field = app.query_one(Input)
        await pilot.pause()
        app.changes.clear()
        with field.prevent(Input.Changed):
            field.value = "quiet"
            with field.prevent():  # nothing more: still prevented
                field.value = "still quiet"
        await pilot.pause()
        assert app.changes == []
        field.value = "heard"
        await pilot.pause()
        assert app.changes == ["heard"]
        with pytest.raises(ValueError), field.prevent(Input.Changed):
            raise ValueError
        field.value = "heard again"
        await pilot.pause()
        assert app.changes == ["heard", "heard again"]
        assert field._prevent_message_types_stack == [set()]
