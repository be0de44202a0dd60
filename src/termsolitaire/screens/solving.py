"""The solver on the board: a verdict, hints that never loop, the solution, a demo.

Every search runs in another process (:class:`~termsolitaire.solver.worker.SolverWorker`,
one per app, in the services), so the screen never waits: the board asks, goes
on answering keys, and shows the answer when it comes, if the position is
still the one it asked about.

- **The verdict** ("winnable", "no longer winnable", "cannot tell yet") stands at
  the right of the status line. After every change the board asks again, unless
  the winning line it already has passes through the new position.
- **Hint** (``H``): the next move of a winning line, its cards picked up and its
  destination marked, and said in words. The line is kept (a
  :class:`~termsolitaire.solver.Plan`) while the player follows it, or undoes
  back along it, so hints cannot loop. A position proved lost says "No winning
  line from here" and offers to undo to the last position a win was found from.
  When the search found no win and cannot tell (Stjernen, mostly), the hint is
  the next move of the best line it found, saying how many cards that line
  puts home; that line is kept the same way, and replaced only by one that
  puts more cards home, so these hints cannot loop either.
- **Solution** (``S``): the winning line from here, stepped through on a read-only
  copy of the board (→ ← Home End); ``D`` there plays it as a demo, any key
  stops it (:mod:`.replay`). **Demo** (``D`` on the board) opens it playing.
  With no winning line known, both show the best line found instead.
- Spider's solver sees every card, the face-down ones too: its answers say
  "with the cards known". A board whose ``SOLVER_HELP`` is false (a match) has
  none of this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.worker import Worker

from termsolitaire.replay import Replay
from termsolitaire.rules import IllegalMove, Move
from termsolitaire.solver import Budget, Plan, Result, has_solver

from .choice import ChoiceScreen

if TYPE_CHECKING:
    from termsolitaire.rules import Game
    from termsolitaire.session import GameSession

    from .selection import Hand

VERDICT_SECONDS = 4.0
"""The search behind the verdict, after each change."""
HINT_SECONDS = 10.0
"""The search a hint waits for when no winning line is known."""
SETTLE = 0.3
"""Seconds to wait after a change before searching (keys in a burst ask once)."""


class SolverHelp:
    """Mixed into :class:`~termsolitaire.screens.board.BoardScreen`."""

    SOLVER_HELP: ClassVar[bool] = True
    """Hints, the verdict and the solution (False in a match)."""

    if TYPE_CHECKING:  # given by the board screen it is mixed into
        session: GameSession
        hand: Hand
        look: Any
        app: Any

        @property
        def game(self) -> Game: ...

        def say(self, text: str) -> None: ...
        def hint(self) -> str: ...
        def redraw(self) -> None: ...
        def move_text(self, move: Move) -> str: ...
        def named_move_text(self, move: Move) -> str: ...
        def query_one(self, *a: Any, **kw: Any) -> Any: ...
        def query(self, *a: Any, **kw: Any) -> Any: ...
        def run_worker(self, *a: Any, **kw: Any) -> Worker[Any]: ...
        def save_soon(self) -> None: ...

    plan: Plan | None = None
    won_from: tuple[Move, ...] | None = None
    """The line of play up to the last position a win was found from."""
    proved_lost: str | None = None
    """The board a search proved lost (so a hint there need not search again)."""
    best_plan: Plan | None = None
    """With no winning line known: the best line a search found (its end
    position has ``best_cards`` cards home)."""
    best_cards: int = 0
    best_trusted: bool = False
    """A hint's full search (not only the verdict's short one) found no win on
    the way to the kept best line, so hints may follow it without searching."""
    _asked: tuple[Worker[Any], str] | None = None
    """The full search running for a hint or a solution, and the position it
    searches from (asked again there, it goes on rather than starting over)."""
    _then: str = "hint"
    """What the full search's answer is for: ``hint``, ``solution`` or ``demo``."""

    # ------------------------------------------------------------- asking

    @property
    def solver_here(self) -> bool:
        """Whether this board's game has the solver behind it (for new deals too,
        once the game on the board is over)."""
        services = self.session.services
        return bool(
            self.SOLVER_HELP
            and services is not None
            and services.solver_help
            and has_solver(self.game.name)
        )

    @property
    def solver_help(self) -> bool:
        """Whether this board offers the solver's help on the game it shows."""
        return self.solver_here and not self.session.over

    def solver_note(self, text: str) -> str:
        """The solver sees face-down cards too (Spider's, a stock's order): when
        there are any, its answers say so."""
        game = self.game
        if any(not up for n in game.pile_names for _, up in game.pile(n)):
            return f"{text} with the cards known"
        return text

    def show_verdict(self, text: str) -> None:
        """The verdict at the right of the status line, as wide as it needs."""
        verdict = self.query_one("#verdict")
        if verdict.text != text:
            verdict.display = bool(text)
            verdict.styles.width = len(text) + 2
            verdict.set(text)

    def position_changed(self) -> None:
        """After any change: keep the line if it still passes here, else ask again."""
        if not self.solver_help:
            self.show_verdict("")
            return
        if self.plan is not None and self.plan.remaining(self.game) is not None:
            self.won_from = self.game.history
            self.show_verdict(self.solver_note("winnable"))
            return
        self.plan = None
        self.show_verdict("…")
        self.run_worker(self._verdict, group="solver", exclusive=True)

    async def _verdict(self) -> None:
        import asyncio

        await asyncio.sleep(SETTLE)
        await self._search(VERDICT_SECONDS)

    async def _search(self, seconds: float) -> Result | None:
        """Search from the position on the board; the answer, kept and shown, when
        the board still shows that position."""
        game = self.game
        text = game.to_text()
        history = game.history
        worker = self.session.services.solver()  # type: ignore[union-attr]
        try:
            result: Result = await worker.solve(text, Budget(seconds=seconds))
        except Exception as e:  # the worker process failed: say so, play goes on
            self.show_verdict("")
            self.say(f"The solver failed: {e}")
            return None
        if not self.query("#verdict"):
            return None  # the board closed meanwhile (the app is quitting)
        if self.game is not game or self.game.to_text() != text or not self.solver_help:
            return None  # the player moved on meanwhile (or the game is over)
        self.take(result, history)
        return result

    def take(self, result: Result, history: tuple[Move, ...]) -> None:
        """Keep what a search found about the position after ``history``."""
        from termsolitaire.solver.plan import board

        if result.verdict == "won":
            self.plan = Plan.of(self.game, result.moves)
            self.won_from = history
            self.proved_lost = None
            self.show_verdict(self.solver_note("winnable"))
        elif result.verdict == "lost":
            self.plan = None
            self.proved_lost = board(self.game)
            lost = "not winnable" if not history else "no longer winnable"
            self.show_verdict(self.solver_note(lost))
        else:
            self.show_verdict("cannot tell yet")
            self.keep_best_line(result)

    def best_rest(self) -> tuple[Move, ...] | None:
        """The rest of the kept best line from here (``None``: none, or off it)."""
        return self.best_plan.remaining(self.game) if self.best_plan is not None else None

    def keep_best_line(self, result: Result) -> None:
        """Keep an unknown search's best line for the hints, unless the line kept
        already passes here and puts at least as many cards home."""
        kept = self.best_rest() is not None
        if not kept:
            self.best_plan, self.best_trusted = None, False
        if not result.moves or (kept and result.best <= self.best_cards):
            return
        from termsolitaire.solver.plan import cards_home

        if result.best <= cards_home(self.game):
            return  # it gets no card further than the board already has
        try:
            self.best_plan = Plan.of(self.game, result.moves)
        except IllegalMove:
            return
        self.best_cards = result.best

    def best_line_hint(self) -> bool:
        """Show the best line's next move from here, if the board is on it."""
        rest = self.best_rest()
        if rest is None:
            return False
        if not rest:
            self.say(
                f"The best line found ends here ({self.best_cards} cards home); H searches again"
            )
            self.best_plan, self.best_trusted = None, False
            return True
        self.show_hint(rest[0], best=self.best_cards)
        return True

    # ---------------------------------------------------------------- hint

    def action_hint(self) -> None:
        """``H``: the next move of a winning line from here, or why there is none."""
        if not self.solver_help:
            self.say("No hints here")
            return
        move = self.plan.next(self.game) if self.plan is not None else None
        if move is not None:
            self.show_hint(move)
            return
        from termsolitaire.solver.plan import board

        if self.proved_lost == board(self.game):
            self.offer_way_back()
            return
        if self.best_trusted and self.best_line_hint():
            return
        if self.ask("hint"):
            self.say(f"Looking for a winning line (up to {HINT_SECONDS:.0f} s; keep playing)…")

    def ask(self, then: str) -> bool:
        """Start the full search from here, its answer then given as ``then``
        (``hint``, ``solution`` or ``demo``); False when one is running from this
        position already: it goes on (an impatient second press must not start
        it over) and answers the latest request."""
        self._then = then
        text = self.game.to_text()
        if self._asked is not None:
            worker, searched = self._asked
            if worker.is_running and searched == text:
                self.say("Still looking for a winning line (keep playing)…")
                return False
        worker = self.run_worker(self._full_search, group="solver", exclusive=True)
        self._asked = (worker, text)
        return True

    async def _full_search(self) -> None:
        result = await self._search(HINT_SECONDS)
        if result is None:
            return
        if self._then == "hint":
            self._hint_from(result)
        else:
            self._solution_from(result, self._then == "demo")

    def _hint_from(self, result: Result) -> None:
        if result.verdict == "won" and self.plan is not None:
            move = self.plan.next(self.game)
            if move is not None:
                self.show_hint(move)
        elif result.verdict == "lost":
            self.offer_way_back()
        else:
            self.best_trusted = self.best_plan is not None
            if not self.best_line_hint():
                self.say(f"No winning line found in {HINT_SECONDS:.0f} s: cannot tell yet")

    def show_hint(self, move: Move, best: int | None = None) -> None:
        """Pick up the cards the hint moves and put the cursor where they go, so
        Enter (or the destination's key) plays it; say it in words (``best``: the
        move is of the best line found, which puts that many cards home)."""
        hand = self.hand
        hand.drop()
        if move.kind == "move":
            hand.pick(move.src, move.count)
            hand.cursor, hand.cursor_count = move.dst, None
            keys = "Enter or its key plays it"
        else:  # deal, collect, turn: the cursor on the pile whose click does it
            hand.cursor = move.src or self.game.stock_pile or None
            hand.cursor_count = None
            keys = "Enter does it"
        self.redraw()
        if best is None:
            self.say(f"Hint: {self.named_move_text(move)} ({keys})")
        else:
            self.say(f"Best line found ({best} home): {self.named_move_text(move)} ({keys})")

    def offer_way_back(self) -> None:
        """A position proved lost: "no winning line from here", and the way back."""
        back = self.won_from
        history = self.game.history
        if back is None or history[: len(back)] != back or len(back) >= len(history):
            self.say(self.solver_note("No winning line from here"))
            return
        steps = len(history) - len(back)

        def answered(answer: str | None) -> None:
            if answer == "undo":
                self.undo_to(len(back))
            else:
                self.say("Playing on")

        self.app.push_screen(
            ChoiceScreen(
                self.solver_note("No winning line from here."),
                [f"A win was found {steps} move{'s' if steps > 1 else ''} ago."],
                [("u", "Undo to there", "undo"), ("k", "Keep playing", "keep")],
            ),
            answered,
        )

    def undo_to(self, length: int) -> None:
        """Undo until the line is ``length`` moves long (or an undo barrier stops it)."""
        try:
            while len(self.game.history) > length:
                self.game.undo()
        except IllegalMove as e:
            self.say(f"{e.reason}: stopped there")
        else:
            self.say("Back at the last position a win was found from")
        self.hand.drop()
        self.redraw()
        self.save_soon()
        self.position_changed()

    # ---------------------------------------------------- solution and demo

    def action_solution(self, demo: bool = False) -> None:
        """``S``: step through the winning line from here (``D``: as a demo)."""
        if not self.solver_help:
            self.say("No solution here")
            return
        rest = self.plan.remaining(self.game) if self.plan is not None else None
        if rest is not None:
            self.open_solution(rest, demo)
        elif not (self.best_trusted and self.best_line(demo)) and self.ask(
            "demo" if demo else "solution"
        ):
            self.say("Looking for a winning line first (keep playing)…")

    def action_demo(self) -> None:
        self.action_solution(demo=True)

    def _solution_from(self, result: Result, demo: bool) -> None:
        rest = self.plan.remaining(self.game) if self.plan is not None else None
        if rest is not None:
            self.open_solution(rest, demo)
        elif result.verdict == "lost":
            self.offer_way_back()
        else:
            self.best_trusted = self.best_plan is not None
            if not self.best_line(demo):
                self.say(f"No winning line found in {HINT_SECONDS:.0f} s: cannot tell yet")

    def best_line(self, demo: bool) -> bool:
        """With no winning line: step through (or play) the best line found, from
        here, if the board is on it."""
        rest = self.best_rest()
        if not rest:
            return False
        self.open_solution(rest, demo, heading=f"Best line ({self.best_cards} home)")
        return True

    def open_solution(self, moves: tuple[Move, ...], demo: bool, heading: str = "Solution") -> None:
        from .replay import replay_screen

        replay = Replay(self.game.copy(), list(moves))
        self.say(self.hint())  # back on the board, no stale "Looking for…"
        self.app.push_screen(replay_screen(replay, self.look, heading=heading, demo=demo))
