"""The solver on the board: the searches run in another process; the screen never waits.

:class:`SolverRunner` is the board's link to the solver's worker process
(:class:`~termsolitaire.solver.worker.SolverWorker`, one per app): it asks,
the board goes on answering keys, and the answer is handed to the play
controller's :class:`~termsolitaire.play.advice.Advice` when it comes, if the
position is still the one it asked about. What the help then is (the verdict,
a hint that never loops, the way back from a lost position, the solution) is
decided there, not here.

- **The verdict** ("winnable", "no longer winnable", "cannot tell yet") stands at
  the right of the status line. After every change the board asks again, unless
  the winning line already known passes through the new position.
- **Hint** (``H``), **Solution** (``S``), **Demo** (``D``): when no line is
  known yet, the full search runs (up to :data:`HINT_SECONDS`), and its answer
  gives the hint or opens the line on a read-only copy of the board
  (:mod:`.replay`). Asked again from the same position while it runs, it goes
  on (an impatient second press never starts it over) and answers the latest
  request.
- **Fair hints** (the setting, on by default; a match's policy forces it): the
  help asks the worker's fair search instead
  (:func:`~termsolitaire.solver.fair.fair_search`, only the cards the player
  sees); its verdict starts "fair:" and its hints "Fair hint:". With the
  setting off, Spider's and Stjernen's solver sees every card, the face-down
  ones too: its answers say "with the cards known". A match board has no
  hints at all (its policy).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from textual.worker import Worker

from termsolitaire.play.advice import verdict_forms
from termsolitaire.widgets.line import TextLine

if TYPE_CHECKING:  # the solver's modules load when its help is on, the replay's when shown
    from termsolitaire.play.outcome import Line
    from termsolitaire.screens.boards.board import BoardScreen
    from termsolitaire.solver import Result
    from termsolitaire.solver.fair import FairResult

VERDICT_SECONDS = 4.0
"""The search behind the verdict, after each change."""
HINT_SECONDS = 10.0
"""The search a hint waits for when no winning line is known."""
SEARCHING = "…"
"""The verdict while a search runs."""
SETTLE = 0.3
"""Seconds to wait after a change before searching (keys in a burst ask once)."""


class SolverRunner:
    """The searches of one board."""

    def __init__(self, screen: BoardScreen) -> None:
        self.screen = screen
        self._asked: tuple[Worker[Any], str] | None = None
        self._then = "hint"
        self.verdict = ""
        """The verdict in its whole form (shown shorter when the message needs room)."""

    @property
    def possible(self) -> bool:
        """Whether this board's game has the solver behind it (new deals too, once
        the game on the board is over): the setting, and a solver for the game."""
        services = self.screen.session.services
        if not (self.screen.controller.policy.hints and services is not None):
            return False
        if not services.solver_help:
            return False
        from termsolitaire.solver import has_solver

        return has_solver(self.screen.game.name)

    @property
    def fair(self) -> bool:
        """Whether the help sees only what the player sees: the board's policy (a
        match) or the setting "fair hints"."""
        return self.screen.controller.fair_help

    def fair_here(self) -> bool:
        """Whether the search from the board's position is the fair one: fair help,
        and a card the player cannot see (with none hidden, as in Penguin and
        Napoleon, the solver's own search is fair)."""
        from termsolitaire.solver.fair import hidden_cards

        return self.fair and hidden_cards(self.screen.game) > 0

    @property
    def fair_now(self) -> bool:
        """Whether ``H``, ``S`` and ``D`` give the fair help now (what the key line
        and the help call them)."""
        return self.available and self.fair_here()

    def help_changed(self) -> None:
        """The kind of help changed (the setting): forget what was found (a proof of
        loss the new help may use is kept), ask again."""
        self.screen.controller.help_changed()
        self.position_changed()
        self.screen.update_footer()  # H's words ("Fair hint"), on a board in view too

    @property
    def available(self) -> bool:
        """Whether the solver helps with the game on the board now."""
        return self.possible and not self.screen.over

    def show_verdict(self, text: str) -> None:
        """The verdict at the right of the status line (:meth:`fit`)."""
        self.verdict = text
        self.fit()

    def fit(self) -> None:
        """The verdict in the longest form that leaves the status line's message
        whole (:func:`~termsolitaire.play.advice.verdict_forms`): the message a
        player needs wins over the verdict."""
        screen = self.screen
        if not screen.is_mounted:
            return
        status = screen.query_one("#status", TextLine)
        verdict = screen.query_one("#verdict", TextLine)
        room = screen.app.size.width - 4 - len(status.text)  # both lines' padding
        # (the search's "…" as "..." on an ASCII terminal, as the status line's words)
        forms = [screen.look.words(f) for f in verdict_forms(self.verdict)]
        text = next(f for f in forms if not f or len(f) <= room)
        kept = int(verdict.styles.width.value) if verdict.styles.width is not None else 0
        if verdict.text == text and (not text or kept - 2 <= room):
            return
        width = len(text) + 2
        if self.verdict == SEARCHING and verdict.display and kept - 2 <= room:
            # The "…" of a new search goes out with the move that started it, in its
            # frame: in the room the last verdict had (no new layout, no second frame),
            # unless the message needs that room ("Looking for a good move with the
            # cards you see (keep…" was cut so at 80 columns).
            width = max(width, kept)
        if verdict.display != bool(text):
            verdict.display = bool(text)
        if verdict.styles.width is None or int(verdict.styles.width.value) != width:
            verdict.styles.width = width
        verdict.set(text)

    def position_changed(self) -> None:
        """After any change: keep the line if it still passes here, else ask again."""
        c = self.screen.controller
        c.solver = self.available
        if not c.solver:
            self.show_verdict("")
            return
        if c.advice.keeps_line(c.game):
            self.show_verdict(c.advice.verdict)
            return
        self.show_verdict(SEARCHING)
        # The method, not a coroutine: an exclusive worker cancelled before it starts
        # must leave no coroutine behind (Textual's WorkType cannot infer None here).
        self.screen.run_worker(cast(Any, self._verdict), group="solver", exclusive=True)

    async def _verdict(self) -> None:
        await asyncio.sleep(SETTLE)
        await self._search(VERDICT_SECONDS, shorten=False)

    async def _search(self, seconds: float, shorten: bool = True) -> Result | FairResult | None:
        """Search from the position on the board; the answer, kept and shown, when
        the board still shows that position. ``shorten=False`` (the verdict): the
        line is not shortened, and a hint or solution from it searches again."""
        screen = self.screen
        c = screen.controller
        game = c.game
        text = game.to_text()
        history = game.history
        services = c.session.services
        assert services is not None
        from termsolitaire.solver import Budget, Result

        setting, fair = self.fair, self.fair_here()
        try:
            if fair:
                found: Result | FairResult = await services.solver().fair(
                    text, Budget(seconds=seconds)
                )
            else:
                found = await services.solver().solve(
                    text, Budget(seconds=seconds), shorten=shorten
                )
        except Exception as e:  # the worker process failed: say so, play goes on
            self.show_verdict("")
            screen.say(f"The solver failed: {e}")
            return None
        if not screen.query("#verdict"):
            return None  # the board closed meanwhile (the app is quitting)
        c = screen.controller
        if c.game is not game or game.to_text() != text or not self.available:
            return None  # the player moved on meanwhile (or the game is over)
        if setting != self.fair:
            return None  # the setting changed meanwhile (help_changed asks again)
        proved, plan = c.advice.lost_text, c.advice.plan
        if isinstance(found, Result):
            c.advice.take(game, found, history, rough=not shorten)
        else:
            c.advice.take_fair(game, found, history)
        self.show_verdict(c.advice.verdict)
        if c.advice.lost_text != proved or c.advice.plan is not plan:
            # A new proof of loss or winning line goes into the save at once: a
            # connection dropped before the next move kept neither (proofkeep2).
            screen.save_soon()
        return found

    def ask(self, then: str) -> None:
        """Start the full search from here, its answer given as ``then`` (``hint``,
        ``solution`` or ``demo``); one running from this position goes on."""
        self._then = then
        text = self.screen.game.to_text()
        if self._asked is not None:
            worker, searched = self._asked
            if worker.is_running and searched == text:
                self.screen.say("Still looking for a winning line (keep playing)…")
                return
        worker = self.screen.run_worker(self._full_search, group="solver", exclusive=True)
        self._asked = (worker, text)
        if self.fair_here():
            self.screen.say("Looking for a good move with the cards you see (keep playing)…")
        elif then == "hint":
            self.screen.say(
                f"Looking for a winning line (up to {HINT_SECONDS:.0f} s; keep playing)…"
            )
        else:
            self.screen.say("Looking for a winning line first (keep playing)…")

    async def _full_search(self) -> None:
        result = await self._search(HINT_SECONDS)
        if result is not None:
            self.screen.do(self.screen.controller.answered(self._then, HINT_SECONDS))

    def open(self, line: Line) -> None:
        """Step through ``line`` (or play it as a demo) on a read-only copy."""
        from termsolitaire.replay import Replay
        from termsolitaire.screens.boards.replay import replay_screen

        screen = self.screen
        replay = Replay(screen.game.copy(), list(line.moves))
        screen.say(screen.hint())  # back on the board, no stale "Looking for…"
        screen.app.push_screen(
            replay_screen(replay, screen.look, heading=line.heading, demo=line.demo)
        )
