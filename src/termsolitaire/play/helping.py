"""The controller's part of the solver's help: hints that follow a winning line
(and follow on after a hint is played), the way back from a lost position, the
solution and the demo. What the searches found is in
:class:`~termsolitaire.play.advice.Advice`; the searches themselves run in the
screens' worker process. Mixed into
:class:`~termsolitaire.play.controller.Controller`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import Game, IllegalMove, Move
from ..rules.moves import COLLECT, DEAL
from .advice import FAIR_HINT, Advice, peeks
from .hand import Hand
from .outcome import Line, Outcome, Question, refused
from .words import Words


def no_hints(game: Game) -> str:
    """Why a board without the solver behind it gives no hints: the game has no
    solver, or the setting turned its help off."""
    from ..solver import has_solver

    if not has_solver(game.name):
        return f"No hints: there is no solver for this game ({game.title})"
    return "No hints here: the solver's help is off in the settings"


class Helping:
    """The solver's help on the board."""

    if TYPE_CHECKING:  # given by the controller
        hand: Hand
        advice: Advice
        words: Words
        solver: bool
        hinted: Move | None
        following: bool

        @property
        def game(self) -> Game: ...

        @property
        def fair_help(self) -> bool: ...

        def refusal(self, action: str, hidden: bool | None = None) -> str | None: ...
        def named(self, move: Move) -> str: ...

    def follow_on(self, outcome: Outcome) -> Outcome:
        """A hint's move was played: show the next one at once when the winning line
        is known (Enter plays it), else let the next Enter ask for it."""
        following = self.advice.next_move(self.game) if self.advice.keeps_line(self.game) else None
        if following is not None:
            shown = self.show_hint(following)
            enter = "Enter plays it" if following.kind == "move" else "Enter does it"
            # Short enough for 80 columns with the verdict beside it (issue 30).
            shown.message = f"{outcome.message}. Next: {self.named(following)}, {enter}"
            shown.moved = True
            return shown
        self.following = True
        outcome.message = f"{outcome.message} (Enter: the next hint)"
        return outcome

    def help_refusal(self, action: str) -> str | None:
        why = self.refusal(action)
        if why:
            return why
        if not self.solver:
            return no_hints(self.game)
        return None

    def hint(self) -> Outcome:
        """``H``: the next move of a winning line from here, or why there is none."""
        why = self.help_refusal("hint")
        if why:
            return refused(why)
        self.following = False
        return self.no_move(self._next_hint())

    def _next_hint(self) -> Outcome:
        game, advice = self.game, self.advice
        move = advice.next_move(game)
        if move is not None:
            return self.show_hint(move)
        if advice.rough_here(game):
            return self.searching()
        if advice.fair_here(game):
            return self.fair_answer()
        if advice.is_proved_lost(game):
            return self.way_back()
        if advice.best_trusted:
            found = advice.best_hint(game)
            if isinstance(found, str):
                return Outcome(message=found)
            if found is not None:
                return self.show_hint(found.move, found.best)
        if advice.searched_in_vain(game):
            return self.in_vain()
        return self.searching()

    def no_move(self, said: Outcome) -> Outcome:
        """A hint's answer that shows no move (no cards picked up, :meth:`show_hint`;
        no search begun): the Enter after it says it again, rather than act on
        whatever the cursor is on (a player following the hints with Enter had
        Stjernen's stock collected into the next round, or Spider's dealt), until
        an arrow key or another action takes the cursor up again."""
        if not said.marks and said.search is None:
            self.following = True
        return said

    def searching(self) -> Outcome:
        """The hint needs a search: until it answers, Enter (which plays a hint)
        waits for it too, rather than picking up whatever is under the cursor."""
        self.following = True
        return Outcome(search="hint")

    def show_hint(self, move: Move, best: int | None = None) -> Outcome:
        """Pick up the cards the hint moves and put the cursor where they go, so
        Enter (or the destination's key) plays it; say it in words."""
        hand = self.hand
        hand.drop()
        if move.kind == "move":
            hand.pick(move.src, move.count)
            hand.by_hint = True
            hand.cursor, hand.cursor_count = move.dst, None
            keys = "Enter or its key plays it"
        else:  # deal, collect, turn: the cursor on the pile whose click does it
            hand.cursor = move.src or self.game.stock_pile or None
            hand.cursor_count = None
            keys = "Enter does it"
        self.hinted = move
        text = self.named(move)
        if best is None:
            # "Fair hint" by the key line's rule (fair help, a card out of sight),
            # not by where the line came from: a line found while every card was
            # in sight is fair, and after Stjernen's collect the status line said
            # "Hint:" under the key line's "H Fair hint" (playtest39).
            kind = FAIR_HINT if self.fair_help and peeks(self.game) else "Hint"
            return Outcome(message=f"{kind}: {text} ({keys})", marks=True)
        return Outcome(message=f"Best line ({best} home): {text} ({keys})", marks=True)

    def way_back(self) -> Outcome:
        """A position proved lost: "no winning line from here", and the way back."""
        lost = self.advice.lost_note(self.game, "No winning line from here")
        steps = self.advice.way_back(self.game)
        if steps is None:
            new = self.words.action_key("new_game")
            if not self.game.history and new and not self.refusal("new_game"):
                # The deal itself has no win: said as the next step, not only
                # "from here" (which the verdict beside it already says).
                lost = self.advice.lost_note(self.game, "This deal has no winning line")
                lost += f"; {new} deals another"
            else:
                # Stjernen, lost with a stock to deal or collect: the board's
                # way on, named as in_vain names it (lead36 played deal 30 on
                # fair hints into a lost round 5: H said only this, 0 dealt).
                lost += self.stock_step()
            return Outcome(message=lost)
        back = len(self.game.history) - steps
        moves = f"{steps} move{'s' if steps > 1 else ''}"
        return Outcome(
            ask=Question(
                f"{lost}.\nA win was found {moves} ago.",
                lambda: self.undo_to(back),
                kind="way_back",
            )
        )

    def undo_to(self, length: int) -> Outcome:
        """Undo until the line is ``length`` moves long (or an undo barrier stops it)."""
        game = self.game
        try:
            while len(game.history) > length:
                game.undo()
        except IllegalMove as e:
            message = f"{e.reason}: stopped there"
        else:
            message = "Back at the last position a win was found from"
        self.hand = Hand(game, cursor=self.hand.cursor)
        return Outcome(message=message, moved=True)

    def solution(self, demo: bool = False) -> Outcome:
        """``S``: step through the winning line from here (``D``: as a demo)."""
        why = self.help_refusal("demo" if demo else "solution")
        if why:
            return refused(why)
        rest = self.advice.rest(self.game)
        if rest is not None:
            return Outcome(solution=Line(rest, demo=demo))
        if self.advice.lost_on_line(self.game):
            return self.way_back()  # no line to show, and no search will find one
        if self.advice.rough_here(self.game):
            return Outcome(search="demo" if demo else "solution")
        fair = self.fair_line(demo)
        if fair is not None:
            return fair
        if self.advice.best_trusted:
            best = self.best_line(demo)
            if best is not None:
                return best
        if self.advice.searched_in_vain(self.game):
            return self.in_vain()
        return Outcome(search="demo" if demo else "solution")

    def fair_answer(self) -> Outcome:
        """The fair search gives no move here: what it says, and the setting that
        would let the solver see every card (a match or a daily gives no hints, so
        this is a game where the player may change it). When no move helps and
        the board has End (Spider, where every move costs a point), its key."""
        message = self.advice.fair_word()
        end = self.words.action_key("end")
        if self.advice.fair_verdict == "none" and end and not self.refusal("end"):
            message += f"; {end} ends the game"
        return Outcome(message=message, note=FAIR_SETTING)

    def in_vain(self) -> Outcome:
        """A full search from this very position found no win, no loss and no line
        that gets a card further: it is said again at once, not searched for
        another ``seconds`` to much the same end (the note says where to look
        longer)."""
        seconds = self.advice.vain_seconds
        return Outcome(
            message=f"No winning line found here in {seconds:.0f} s (searched already)"
            + self.stock_step(),
            note=longer_search(self.game, seconds),
        )

    def stock_step(self) -> str:
        """The stock's action, as the next step where the full search found no line
        that gets a card further (Stjernen with a round's stock dealt): its key and
        what it does, when the rules allow it now; "" otherwise. Only named: Enter
        still plays nothing (a collect gives up the round's piles)."""
        for move, does in ((COLLECT, "collects"), (DEAL, "deals")):
            key = self.words.action_key(move.kind)
            if key and self.game.is_legal(move) and not self.refusal(move.kind):
                return f"; {key} {does}"
        return ""

    def fair_line(self, demo: bool) -> Outcome | None:
        """The fair plan from here as a line to step through (or play as a demo),
        or what the fair search said when it has none; None: no fair answer here."""
        rest = self.advice.fair_rest(self.game)
        if rest is not None:
            return Outcome(solution=Line(rest, FAIR_LINE, demo))
        if self.advice.fair_here(self.game):
            return self.fair_answer()
        return None

    def best_line(self, demo: bool) -> Outcome | None:
        rest = self.advice.best_rest(self.game)
        if not rest:
            return None
        heading = f"Best line ({self.advice.best_cards} home)"
        return Outcome(solution=Line(rest, heading, demo))

    def answered(self, then: str, seconds: float) -> Outcome:
        """The full search asked for by ``then`` (``hint``, ``solution``, ``demo``)
        has answered (its result is in :attr:`advice`): what to show now."""
        self.following = False
        outcome = self._answer(then, seconds)
        return self.no_move(outcome) if then == "hint" else outcome

    def _answer(self, then: str, seconds: float) -> Outcome:
        game, advice = self.game, self.advice
        if advice.fair_here(game):
            if then == "hint":
                move = advice.next_move(game)
                return self.show_hint(move) if move else self.fair_answer()
            return self.fair_line(then == "demo") or self.fair_answer()
        if then == "hint":
            move = advice.next_move(game)
            if move is not None:
                return self.show_hint(move)
        else:
            rest = advice.rest(game)
            if rest is not None:
                return Outcome(solution=Line(rest, demo=then == "demo"))
        if advice.is_proved_lost(game):
            return self.way_back()
        advice.best_trusted = advice.best_plan is not None
        outcome: Outcome | None = None
        if then == "hint":
            found = advice.best_hint(game)
            if isinstance(found, str):
                outcome = Outcome(message=found)
            elif found is not None:
                outcome = self.show_hint(found.move, found.best)
        else:
            outcome = self.best_line(then == "demo")
        if outcome is None:
            step = self.stock_step() or ": cannot tell yet"
            outcome = Outcome(message=f"No winning line found in {seconds:.0f} s{step}")
            advice.found_nothing(game, seconds)
        outcome.note = longer_search(game, seconds)
        return outcome


FAIR_SETTING = (
    "Fair hints see only the cards you see. With Fair hints off (Settings: o in the menu)"
    " the solver sees every card."
)
"""Said beside a fair search's "cannot tell" or "no move helps"."""

FAIR_LINE = "Fair plan"
"""The heading of the fair plan stepped through or played as a demo: it ends
where a card the player has not seen turns up (then H plans again)."""


def longer_search(game: Game, seconds: float) -> str | None:
    """Where to look further when the board's search found no win: the command
    line's ``solve`` with as many processes as the game's solver shares a search
    between (Stjernen's two); None for a solver that uses one whatever it is given.

    >>> from termsolitaire.rules import new_game
    >>> print(longer_search(new_game("stjernen", 7), 10))  # doctest: +NORMALIZE_WHITESPACE
    No win found in 10 s here;
    termsolitaire solve stjernen --deal 7 --jobs 2 (two processes) may find one
    >>> longer_search(new_game("penguin", 7), 10) is None
    True

    Once moves are played the command searches the deal from its start, not
    the position on the board, and says so:

    >>> game = new_game("stjernen", 7)
    >>> _ = game.play(game.legal_moves()[0])
    >>> print(longer_search(game, 10))  # doctest: +NORMALIZE_WHITESPACE
    No win found in 10 s here; from the deal's start,
    termsolitaire solve stjernen --deal 7 --jobs 2 (two processes) may find one
    """
    from ..solver.games import declaration

    found = declaration(game.name)
    jobs = max((run.per_deal for run in found.bench), default=1) if found else 1
    if jobs < 2:
        return None
    processes = {2: "two", 3: "three", 4: "four"}.get(jobs, str(jobs))
    start = "from the deal's start, " if game.moves else ""
    return (
        f"No win found in {seconds:.0f} s here; {start}termsolitaire solve {game.name} "
        f"--deal {game.deal} --jobs {jobs} ({processes} processes) may find one"
    )
