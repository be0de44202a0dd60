"""The replay screen: a game's own board, read only, stepped through a line of play.

``termsolitaire replay FILE`` reads the file (:mod:`termsolitaire.replay`) and
shows it on the board of its game: the screen is the game's board screen
class with :class:`ReplayMixin` in front, so the piles, their keys, marks and
layout are exactly those of play. Nothing can be played: its controller is in
the read-only mode (:data:`~termsolitaire.play.modes.REPLAY`), the board's
keys are not bound (``inherit_bindings = False``), and a click or a drag only
says that a replay is read only. The header shows ``move i of N: <move>``.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding, BindingType
from textual.events import Mount

from termsolitaire.play.controller import Controller
from termsolitaire.play.hand import Hand
from termsolitaire.play.modes import REPLAY, Policy
from termsolitaire.play.session import GameSession
from termsolitaire.play.tables import ViewTable
from termsolitaire.replay import Replay
from termsolitaire.rules import Move
from termsolitaire.screens.boards import board_class
from termsolitaire.screens.boards.bindings import key_actions
from termsolitaire.screens.boards.registry import board_css
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.line import TextLine

if TYPE_CHECKING:  # a replay is put in front of whichever board class it is given
    from termsolitaire.screens.boards.board import BoardScreen

REPLAY_BINDINGS: list[BindingType] = [
    Binding("right,l,n", "step(1)", "Next", id="replay-next", tooltip="the next move"),
    Binding(
        "D", "demo", "Demo", id="replay-demo", tooltip="play the moves one by one; any key stops"
    ),
    Binding(
        "plus,equals_sign",
        "speed(-1)",
        "Faster",
        show=False,
        id="replay-faster",
        tooltip="demo: faster",
    ),
    Binding("minus", "speed(1)", "Slower", show=False, id="replay-slower", tooltip="demo: slower"),
    Binding("left,h,p", "step(-1)", "Previous", id="replay-previous", tooltip="take a move back"),
    Binding("home,g", "jump(0)", "Start", id="replay-start", tooltip="the start position"),
    Binding("end,G", "jump(-1)", "End", id="replay-end", tooltip="the last position"),
    Binding(
        "M",
        "move_list",
        "Moves",
        show=False,
        id="replay-moves",
        tooltip="show or hide the list of moves up to here",
    ),
    Binding("question_mark,f1", "help", "Help", id="replay-help", tooltip="this help"),
    Binding("Q,escape", "quit", "Quit", id="replay-quit", tooltip="leave the replay"),
]
READ_ONLY = REPLAY.refusal
PACES = (0.15, 0.3, 0.6, 1.2, 2.5)
"""Seconds between a demo's moves, fastest first."""


class ReplayMixin:
    """Put in front of a game's board screen class; see :func:`replay_screen`."""

    POLICY: ClassVar[Policy] = REPLAY
    replay: Replay

    if TYPE_CHECKING:  # given by the board screen it is mixed into
        sep: str
        app: Any
        controller: Controller

        def say(self, text: str) -> None: ...
        def query_one(self, *a: Any, **kw: Any) -> Any: ...

    heading: str = "Replay"
    demo_timer: Any = None
    demo_at_start: bool = False
    """Start the demo as soon as the screen is shown (``D`` on a board): not
    before, as its status line is not there yet."""
    speed: int = 2
    """The demo's pace: an index into ``PACES``."""

    def setup_replay(self, replay: Replay, heading: str = "Replay", demo: bool = False) -> None:
        self.replay = replay
        self.heading = heading
        self.demo_at_start = demo

    # -------------------------------------------------------------- header

    def title_text(self) -> str:
        return f"{self.heading}{self.sep}{super().title_text()}"  # type: ignore[misc]

    def stats_text(self) -> str:
        return move_text(self.replay, self.move_text)  # type: ignore[attr-defined]

    def hint(self) -> str:
        # Only what the key line below does not say (it read "→ l n next, ← h p
        # previous, Home g start, End G end, Q quit, ? help" over "→ Next ←
        # Previous home Start end End ? Help Q Quit"); clauses drop when narrow.
        return "M lists the moves so far; l n next, h p previous; g first, G last"

    def on_mount(self, event: Mount) -> None:
        # query, not query_one: a screen closed while it is still being composed
        # (the app ending on a loaded machine) mounts without its children.
        self.query("#clock").set(display=False)  # type: ignore[attr-defined]
        if self.demo_at_start:
            self.call_after_refresh(self.start_demo)  # type: ignore[attr-defined]

    def redraw(self) -> None:
        super().redraw()  # type: ignore[misc]
        said = self.move_text  # type: ignore[attr-defined]
        moves = self.replay.moves[: self.replay.index]
        self.move_list.set_moves([said(m) for m in moves])  # type: ignore[attr-defined]

    def tick(self) -> None:
        """The clock stands still in a replay."""

    # ------------------------------------------------------------ stepping

    def show_position(self) -> None:
        self.controller.hand = Hand(self.replay.game)  # its legal moves are cached per game
        self.query_one("#title", TextLine).set(self.title_text())
        self.redraw()

    def action_step(self, step: int) -> None:
        before = self.replay.index
        self.replay.go(before + step)
        if self.replay.index == before:
            self.say("This is the start" if step < 0 else "This is the end of the replay")
        else:
            self.say(self.hint())
        self.show_position()

    def action_jump(self, where: int) -> None:
        self.replay.go(len(self.replay) if where < 0 else where)
        self.say(self.hint())
        self.show_position()

    # ----------------------------------------------------------------- demo

    def start_demo(self) -> None:
        """Play the moves one by one at the chosen pace, until the end or any key."""
        self.stop_demo()
        if self.replay.index >= len(self.replay):
            self.replay.go(0)
            self.show_position()
        self.demo_timer = self.set_interval(PACES[self.speed], self.demo_step)  # type: ignore[attr-defined]
        self.say(f"Demo: a move every {PACES[self.speed]:g} s; + faster, - slower, any key stops")

    def demo_step(self) -> None:
        if self.replay.index >= len(self.replay):
            self.stop_demo()
            self.say("End of the demo")
            return
        self.replay.next()
        self.show_position()

    def stop_demo(self) -> bool:
        """Stop a running demo; whether one ran."""
        timer, self.demo_timer = self.demo_timer, None
        if timer is None:
            return False
        timer.stop()
        return True

    def action_demo(self) -> None:
        if not self.stop_demo():
            self.start_demo()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Every key of a replay works (the board's own keys are not bound here)."""
        return True

    def update_footer(self) -> None:
        """A replay's keys are always the same."""

    def action_speed(self, step: int) -> None:
        self.speed = max(0, min(len(PACES) - 1, self.speed + step))
        if self.demo_timer is not None:
            self.start_demo()
        else:
            self.say(f"Demo pace: a move every {PACES[self.speed]:g} s (D plays)")

    def on_key(self, event: Any) -> None:
        """Any key stops a running demo (and does only that). A key that plays on
        the game's own board (a pile's, ``z``, ``H``) says the replay is read only,
        as a click does: it did nothing at all, and a player who pressed ``z`` to
        go back a move could not tell why (playtest40b)."""
        if self.demo_timer is not None and event.key not in ("plus", "equals_sign", "minus"):
            self.stop_demo()
            self.say("Demo stopped: → ← step, D plays on")
            event.stop()
            event.prevent_default()
            return
        mine = key_actions(type(self))
        board = next(c for c in type(self).__mro__[1:] if c is not ReplayMixin)
        if event.key not in mine and event.key in key_actions(board):
            self.say(self.controller.policy.refusal or READ_ONLY)
            event.stop()
            event.prevent_default()

    def action_quit(self) -> None:
        self.stop_demo()
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit(0)

    def help_keys(self) -> list[tuple[str, str]]:
        rows = []
        for b in REPLAY_BINDINGS:
            assert isinstance(b, Binding)
            keys = " ".join(
                self.app.get_key_display(Binding(k.strip(), b.action)) for k in b.key.split(",")
            )
            rows.append((keys, b.tooltip or b.description))
        return rows

    def action_help(self) -> None:
        from termsolitaire.screens.dialogs.help import (
            HelpScreen,  # Markdown: imported when first opened
        )

        self.app.push_screen(HelpScreen(self.help_keys(), "Replay", playing=False))


def move_text(replay: Replay, say: Callable[[Move], str] = str) -> str:
    """``move i of N: <move>`` (``start of N moves`` before the first); ``say``
    words the move as the board labels its piles (``7→3``).

    Where the line also deals, turns or collects, it counts steps: those
    are not moves (RULES.md, Spider's score), and the board's and the results'
    ``moves`` count transfers only, so ``move 122 of 122: turn 0`` after
    "Moves 103" read as a contradiction."""
    n = len(replay)
    word = "move" if all(m.kind == "move" for m in replay.moves) else "step"
    if replay.index == 0 or replay.last_move is None:
        return f"start of {n} {word}{'s' if n != 1 else ''}"
    return f"{word} {replay.index} of {n}: {say(replay.last_move)}"


_CLASSES: dict[type[BoardScreen], type[BoardScreen]] = {}


def replay_class(board: type[BoardScreen]) -> type[BoardScreen]:
    """The read-only replay screen class of a game's board screen class."""
    if board not in _CLASSES:
        css = board.CSS_PATH if isinstance(board.CSS_PATH, list) else [board.CSS_PATH]
        namespace = {
            "__module__": __name__,
            "CSS_PATH": [*css, *board_css("replay")],
            "BINDINGS": REPLAY_BINDINGS,  # only these: the board's keys would play
        }
        _CLASSES[board] = types.new_class(
            f"Replay{board.__name__}",
            (ReplayMixin, board),
            {"inherit_bindings": False},
            lambda ns: ns.update(namespace),
        )
    return _CLASSES[board]


def replay_screen(
    replay: Replay,
    look: CardLook | None = None,
    heading: str | None = None,
    demo: bool = False,
    policy: Policy = REPLAY,
) -> BoardScreen:
    """A screen showing ``replay`` on the board of its game (``heading`` opens its
    title: "Solution", "Replay of ann"; by default "Replay", or "Replay shared
    by ann" where the replay knows its sharer; with ``demo`` it plays the moves
    as soon as it is shown); ValueError when there is none."""
    if heading is None:
        by = replay.shared_by
        heading = f"Replay shared by {by}" if by else "Replay"
    board = board_class(replay.game.name)
    session, table = GameSession(None, replay.game), ViewTable(lambda: replay.game)
    screen = replay_class(board)(session, look, policy=policy, table=table, classes="replay")
    screen.setup_replay(replay, heading, demo)  # type: ignore[attr-defined]
    return screen
