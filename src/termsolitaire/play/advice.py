"""What the solver has found about the game on a board, and the help it gives.

The searches run elsewhere (the screens ask the solver's worker process and
hand the answers here); :class:`Advice` keeps what they found so the help
never loops:

- a winning line (a :class:`~termsolitaire.solver.Plan`) is kept while the
  player follows it or undoes back along it: the verdict stays "winnable" and
  the next hint is the line's next move, without searching again;
- a position proved lost is remembered, with the last position a win was found
  from (the way back offered);
- with no win found and none ruled out, the best line found is kept, and
  replaced only by one that puts more cards home.

Plain Python: no Textual, no asyncio.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import Game, IllegalMove, Move

if TYPE_CHECKING:  # the solver's modules load with its first answer, not with the board
    from ..solver import Plan, Result


@dataclass
class Hint:
    """The next move to show (``best``: of the best line found, putting that many
    cards home; None: of a winning line)."""

    move: Move
    best: int | None = None


def solver_note(game: Game, text: str) -> str:
    """The solver sees face-down cards too (Spider's, a stock's order): when there
    are any, its answers say so."""
    if any(not up for n in game.pile_names for _, up in game.pile(n)):
        return f"{text} with the cards known"
    return text


KNOWN = " with the cards known"
SHORT = {
    "winnable": "win",
    "not winnable": "lost",
    "no longer winnable": "lost",
    "cannot tell yet": "?",
}


def verdict_forms(text: str) -> list[str]:
    """The verdict ``text`` from its whole form to its shortest, then nothing: the
    status line shows the longest that leaves the message whole (a ``*`` stands
    for "with the cards known", as the help says).

    >>> verdict_forms("winnable with the cards known")
    ['winnable with the cards known', 'winnable*', 'win*', '']
    >>> verdict_forms("cannot tell yet")
    ['cannot tell yet', '?', '']
    """
    if not text:
        return [""]
    base, star = (text[: -len(KNOWN)], "*") if text.endswith(KNOWN) else (text, "")
    forms = [text, f"{base}{star}"]
    if base in SHORT:
        forms.append(f"{SHORT[base]}{star}")
    return [*dict.fromkeys(forms), ""]


class Advice:
    """The solver's findings about one game on one board."""

    def __init__(self) -> None:
        self.plan: Plan | None = None
        self.won_from: tuple[Move, ...] | None = None
        """The line of play up to the last position a win was found from."""
        self.proved_lost: str | None = None
        """The board a search proved lost (a hint there need not search again)."""
        self.best_plan: Plan | None = None
        """With no winning line known: the best line a search found."""
        self.best_cards = 0
        self.best_trusted = False
        """A hint's full search found no win on the way to the kept best line, so
        hints may follow it without searching."""
        self.verdict = ""
        """What the status line's right end says now."""

    # ------------------------------------------------------------ the verdict

    def keeps_line(self, game: Game) -> bool:
        """After a change: whether the winning line still passes here (no search
        needed; the verdict stays). Otherwise the line is dropped."""
        if self.plan is not None and self.plan.remaining(game) is not None:
            self.won_from = game.history
            self.verdict = solver_note(game, "winnable")
            return True
        self.plan = None
        return False

    def take(self, game: Game, result: Result, history: tuple[Move, ...]) -> None:
        """Keep what a search found about ``game`` (after ``history``)."""
        from ..solver.plan import Plan, board

        if result.verdict == "won":
            self.plan = Plan.of(game, result.moves)
            self.won_from = history
            self.proved_lost = None
            self.verdict = solver_note(game, "winnable")
        elif result.verdict == "lost":
            self.plan = None
            self.proved_lost = board(game)
            self.verdict = solver_note(
                game, "not winnable" if not history else "no longer winnable"
            )
        else:
            self.verdict = "cannot tell yet"
            self.keep_best_line(game, result)

    def is_proved_lost(self, game: Game) -> bool:
        from ..solver.plan import board

        return self.proved_lost == board(game)

    # ------------------------------------------------------------ hints

    def next_move(self, game: Game) -> Move | None:
        """The winning line's next move from here, if one is known."""
        return self.plan.next(game) if self.plan is not None else None

    def rest(self, game: Game) -> tuple[Move, ...] | None:
        """The winning line's moves from here, if one is known."""
        return self.plan.remaining(game) if self.plan is not None else None

    def best_rest(self, game: Game) -> tuple[Move, ...] | None:
        """The rest of the kept best line from here (None: none, or off it)."""
        return self.best_plan.remaining(game) if self.best_plan is not None else None

    def keep_best_line(self, game: Game, result: Result) -> None:
        """Keep an unknown search's best line, unless the one kept already passes
        here and puts at least as many cards home."""
        kept = self.best_rest(game) is not None
        if not kept:
            self.best_plan, self.best_trusted = None, False
        if not result.moves or (kept and result.best <= self.best_cards):
            return
        from ..solver.plan import Plan, cards_home

        if result.best <= cards_home(game):
            return  # it gets no card further than the board already has
        try:
            self.best_plan = Plan.of(game, result.moves)
        except IllegalMove:
            return
        self.best_cards = result.best

    def best_hint(self, game: Game) -> Hint | str | None:
        """The best line's next move from here; a sentence when the line ends
        here (and is dropped); None when the board is off it."""
        rest = self.best_rest(game)
        if rest is None:
            return None
        if not rest:
            self.best_plan, self.best_trusted = None, False
            return f"The best line found ends here ({self.best_cards} cards home); H searches again"
        return Hint(rest[0], best=self.best_cards)

    def way_back(self, game: Game) -> int | None:
        """How many moves back a win was found from (None: nowhere to go back to)."""
        back = self.won_from
        history = game.history
        if back is None or history[: len(back)] != back or len(back) >= len(history):
            return None
        return len(history) - len(back)
