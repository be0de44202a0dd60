"""What a board does with the player's keys, clicks and drags: each becomes one
call on the play controller, and :meth:`BoardActions.do` shows the outcome (the
status line, a redraw, a save, a dialog, the results). Mixed into
:class:`~.board.BoardScreen`."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding

from termsolitaire.messages import DragDropped, DragMoved, PileClicked
from termsolitaire.play.outcome import Outcome, Question
from termsolitaire.rules import Move
from termsolitaire.screens.boards.bindings import screen_bindings
from termsolitaire.widgets.line import TextLine

if TYPE_CHECKING:
    from termsolitaire.play.controller import Controller
    from termsolitaire.play.hand import Hand
    from termsolitaire.play.session import GameSession
    from termsolitaire.rules import Game
    from termsolitaire.screens.boards.movelist import MoveList
    from termsolitaire.screens.boards.solving import SolverRunner
    from termsolitaire.screens.boards.words import BoardWords
    from termsolitaire.screens.dialogs.results import ResultsScreen
    from termsolitaire.widgets.board import Board


def key_display(key: str) -> str:
    """A key as the help shows it: function keys as the keyboard labels them (``F1``,
    not ``f1``, which reads like a pile of the notation).

    >>> key_display("f1"), key_display("f"), key_display("ctrl+p")
    ('F1', 'f', 'ctrl+p')
    """
    return key.upper() if re.fullmatch(r"f\d{1,2}", key) else key


class BoardActions:
    """The board's actions and how it shows what they did."""

    if TYPE_CHECKING:  # given by the board screen
        controller: Controller
        solving: SolverRunner
        words: BoardWords
        move_list: MoveList
        board: Board
        app: Any
        BINDINGS: ClassVar[Any]

        @property
        def game(self) -> Game: ...
        @property
        def session(self) -> GameSession: ...
        @property
        def hand(self) -> Hand: ...

        def say(self, text: str) -> None: ...
        def show_moves(self, show: bool) -> bool: ...
        def has_move_list(self) -> bool: ...
        def redraw(self) -> None: ...
        def title_text(self) -> str: ...
        def query_one(self, *a: Any, **kw: Any) -> Any: ...

        set_timer: Any

        def save_soon(self) -> None: ...
        def update_footer(self) -> None: ...
        def key_tooltip(self, action: str) -> str | None: ...
        def answered(self) -> None: ...
        def autosave(self) -> None: ...
        def cover(self) -> None: ...
        def dismiss(self, result: Any = None) -> Any: ...

    NOTE_SECONDS: ClassVar[float] = 15.0
    """How long a note's toast shows."""
    _note: tuple[str, float] = ("", 0.0)

    def notify_once(self, text: str) -> None:
        """A note as a toast, unless the same one still shows: H pressed again where
        the fair help cannot tell stacked the same two lines again and again over
        the board's lower right."""
        now = time.monotonic()
        last, shown_at = self._note
        if text == last and now - shown_at < self.NOTE_SECONDS:
            return
        self._note = (text, now)
        self.app.notify(text, timeout=self.NOTE_SECONDS)

    def do(self, outcome: Outcome) -> None:
        """Show what an action did: the one place an outcome meets the screen."""
        if outcome.new_game:
            self.query_one("#title", TextLine).set(self.title_text())
        if outcome.moved or outcome.marks:
            self.redraw()
        if outcome.message is not None:
            self.say(outcome.message)
        if outcome.note is not None:
            self.notify_once(self.words.status_text(outcome.note))
        if outcome.moved:
            self.save_soon()
            self.solving.position_changed()
        if outcome.ask is not None:
            self.ask(outcome.ask)
        if outcome.search is not None:
            self.solving.ask(outcome.search)
        if outcome.solution is not None:
            self.solving.open(outcome.solution)
        if outcome.finish:
            self.finish_by_itself()
        if outcome.finished is not None:
            self.show_results(outcome.finished)
        elif outcome.stuck:
            from termsolitaire.screens.dialogs.stuck import StuckScreen

            self.app.push_screen(StuckScreen(self.game.deal), self.on_stuck_choice)
        self.update_footer()

    def finish_by_itself(self) -> None:
        """Play the foundation moves that finish the game, one every tenth of a
        second, each shown (:meth:`Controller.finish_step`); a key that changes the
        game meanwhile stops it, and Enter or Space plays the rest at once."""
        c = self.controller

        def step() -> None:
            outcome = c.finish_step()
            if outcome is None:
                return
            if c.finishing:
                self.set_timer(0.1, step)
            self.do(outcome)

        self.set_timer(0.1, step)

    def ask(self, question: Question) -> None:
        """Ask ``question``; its action happens on a yes."""
        from termsolitaire.screens.dialogs.choice import ChoiceScreen
        from termsolitaire.screens.dialogs.confirm import ConfirmAbandonScreen
        from termsolitaire.screens.dialogs.confirm_end import ConfirmEndScreen

        def answered(yes: object) -> None:
            self.answered()
            self.do(question.then() if yes else Outcome(message="Playing on"))

        if question.kind == "end":
            self.app.push_screen(ConfirmEndScreen(question.text), answered)
        elif question.kind == "way_back":
            lost, _, rest = question.text.partition("\n")
            choices = [("u", "Undo to there", True), ("k", "Keep playing", False)]
            self.app.push_screen(ChoiceScreen(lost, [rest], choices), answered)
        else:
            self.app.push_screen(ConfirmAbandonScreen(question.text), answered)

    def show_results(self, headline: str) -> None:
        self.solving.show_verdict("")  # nothing left to win: no verdict by the results
        self.app.push_screen(self.results_screen(headline), self.on_results_choice)

    def results_screen(self, headline: str) -> ResultsScreen:
        """The results panel of the game just over (a game may show more figures)."""
        g = self.game
        from termsolitaire.screens.dialogs.results import ResultsScreen

        return ResultsScreen(headline, g.score, g.moves, int(g.elapsed), game=g)

    def on_results_choice(self, choice: str | None) -> None:
        self.answered()
        if choice == "new":
            self.new_deal()
        elif choice == "quit":
            self.leave()

    def on_stuck_choice(self, choice: str | None) -> None:
        self.answered()
        c = self.controller
        if choice == "undo":
            self.do(c.undo())
        elif choice == "restart":  # the stuck offer is already the question
            g = self.game
            self.do(c.new_deal(g.deal, f"Deal {g.deal} from the start"))
        elif choice == "new":
            self.new_deal()

    def new_deal(self) -> None:
        """A new random deal (one the solver proves winnable, when the player asked
        for those only)."""
        services = self.session.services
        if services is None or not services.winnable_only or not self.solving.possible:
            self.do(self.controller.new_deal())
            return
        from termsolitaire.screens.dialogs.finding import FindDealScreen

        g = self.game

        def found(number: int | None) -> None:
            self.answered()
            self.do(self.controller.new_deal(number))

        self.app.push_screen(FindDealScreen(services, g.name, dict(g.variant)), found)

    def leave(self) -> None:
        """Back to where the board was opened from (the menu, the lobby); the game
        stays saved."""
        self.autosave()
        leave: Callable[[Any], None] | None = getattr(self.app, "leave_board", None)
        if leave is not None:
            leave(self)
        else:
            self.dismiss()

    def act(self, name: str, call: Callable[[], Outcome]) -> None:
        """Do ``call`` unless the controller refuses ``name`` now (it says why)."""
        why = self.controller.refusal(name)
        self.do(Outcome(message=why, refused=True) if why else call())

    def play(self, move: Move | str) -> bool:
        """Play ``move`` as the player would; whether it was played."""
        outcome = self.controller.play(move)
        self.do(outcome)
        return not outcome.refused

    def pick(self, name: str, count: int | None = None) -> None:
        """Pick up ``count`` cards of ``name`` (None: as many as move together)."""
        self.do(self.controller.pick(name, count))

    def action_pile(self, name: str) -> None:
        self.do(self.controller.pile(name))

    def action_cancel(self) -> None:
        outcome = self.controller.cancel()
        if outcome == Outcome() and self.move_list.display and self.show_moves(False):
            # Nothing in hand, no cursor: Escape closes what M opened, as it closes
            # every panel and dialog (playtest39: it said nothing and left it).
            outcome = Outcome(message="Move list hidden (M shows it)")
        self.do(outcome)

    def action_undo(self) -> None:
        self.do(self.controller.undo())

    def action_redo(self) -> None:
        self.do(self.controller.redo())

    def action_deal(self) -> None:
        self.do(self.controller.deal())

    def action_foundation(self) -> None:
        self.do(self.controller.foundation())

    def action_cursor(self, dx: int, dy: int) -> None:
        self.do(self.controller.cursor(dx, dy))

    def action_grab(self) -> None:
        self.do(self.controller.grab())

    def action_more(self) -> None:
        self.do(self.controller.resize(1))

    def action_fewer(self) -> None:
        self.do(self.controller.resize(-1))

    def action_hint(self) -> None:
        self.do(self.controller.hint())

    def action_solution(self) -> None:
        self.do(self.controller.solution())

    def action_demo(self) -> None:
        self.do(self.controller.solution(demo=True))

    def action_pause(self) -> None:
        self.do(self.controller.pause())
        self.cover()

    def action_restart(self) -> None:
        self.do(self.controller.restart())

    def action_new_game(self) -> None:
        c = self.controller
        self.act("new_game", lambda: c.confirm_abandon("Start a new deal", self._new))

    def _new(self) -> Outcome:
        self.new_deal()
        return Outcome()

    def action_deal_number(self) -> None:
        from termsolitaire.screens.dialogs.dealnumber import DealNumberScreen

        def chosen(deal: int | None) -> None:
            self.answered()
            if deal is not None:
                c = self.controller
                self.do(c.confirm_abandon(f"Play deal {deal}", lambda: c.new_deal(deal)))

        why = self.controller.refusal("deal_number")
        if why:
            self.say(why)
        else:
            self.app.push_screen(DealNumberScreen(self.game.title), chosen)

    def action_move_list(self) -> None:
        """``M``: show or hide the list of moves played (a board with a panel of its
        own beside it, a match's, has none)."""
        if not self.show_moves(not self.move_list.display):
            self.say("No move list on this board")

    def action_help(self) -> None:
        from termsolitaire.screens.dialogs.help import HelpScreen

        self.app.push_screen(HelpScreen(self.help_keys(), self.game.title, self.game.name))

    def action_rules(self) -> None:
        from termsolitaire.screens.dialogs.rulebook import RulesScreen

        self.app.push_screen(RulesScreen(self.game.name))

    def action_quit(self) -> None:
        self.leave()

    def help_keys(self) -> list[tuple[str, str]]:
        """Every key of this screen with what it does; a game's pile keys on one row each.
        What the board's mode forbids for good (hints, restart and new deals in the
        daily or a match) is left out, and so is ``M`` where there is no room for a
        move list (a match's board): each such key only says it is refused."""
        rows: list[tuple[str, str]] = []
        groups: dict[str, list[str]] = {}
        for binding in screen_bindings(type(self)):
            action = binding.action.partition("(")[0]
            if self.controller.barred(action) or (
                action == "move_list" and not self.has_move_list()
            ):
                continue
            keys = " ".join(
                key_display(self.app.get_key_display(Binding(k.strip(), binding.action)))
                for k in binding.key.split(",")
            )
            if binding.id and binding.id.startswith("pile-"):
                groups.setdefault(binding.description.partition(" ")[0], []).append(keys)
                continue
            rows.append((keys, self.key_tooltip(action) or binding.tooltip or binding.description))
        grouped = [(" ".join(keys), f"{kind.lower()}s") for kind, keys in groups.items()]
        return [*grouped, *rows, ("ctrl+p", "command palette: every action by name")]

    def on_pile_clicked(self, message: PileClicked) -> None:
        self.do(self.controller.click(message.pile, message.count, message.chain))

    def on_drag_moved(self, message: DragMoved) -> None:
        c = self.controller
        if not c.dragging:
            if not c.drag(message.pile, message.count):
                why = c.held_down(message.pile, message.count)
                if why is not None:  # (each move of the pointer: the same line)
                    self.say(why)
                return
            self.redraw()
        count = self.hand.shown_count()
        self.board.show_ghost(self.game.pile(message.pile)[-count:], message.x, message.y)

    def on_drag_dropped(self, message: DragDropped) -> None:
        if not self.controller.dragging:
            return
        self.board.hide_ghost()
        self.do(self.controller.drop_dragged(self.board.pile_at(message.x, message.y)))
