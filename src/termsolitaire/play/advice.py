"""What the solver has found about the game on a board, and the help it gives.

The searches run elsewhere (the screens ask the solver's worker process and
hand the answers here); :class:`Advice` keeps what they found so the help
never loops:

- a winning line (a :class:`~termsolitaire.solver.Plan`) is kept while the
  player follows it or undoes back along it: the verdict stays "winnable" and
  the next hint is the line's next move, without searching again. The
  verdict's own line is *rough* (not shortened: its search is cheaper, and
  most verdicts are never followed): it keeps the verdict, and the first hint
  or solution asked from it searches again for a shortened line;
- a position proved lost is remembered, with the last position a win was found
  from (the way back offered); it is kept with the saved game, and so is a
  winning line (:mod:`.proof`);
- with no win found and none ruled out, the best line found is kept, and
  replaced only by one that puts more cards home;
- with fair hints (:mod:`termsolitaire.solver.fair`: only the cards the player
  sees), the fair plan is kept the same way, up to the first card it turns or
  deals; the verdict is then "fair: a good move here", "fair: no move helps" or
  "fair: cannot tell", and "winnable" only when no card is hidden any more.

Plain Python: no Textual, no asyncio.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import Game, IllegalMove, Move

if TYPE_CHECKING:  # the solver's modules load with its first answer, not with the board
    from ..solver import Plan, Result

if TYPE_CHECKING:
    from ..solver.fair import FairResult


@dataclass
class Hint:
    """The next move to show (``best``: of the best line found, putting that many
    cards home; None: of a winning line)."""

    move: Move
    best: int | None = None


KNOWN = " with the cards known"


def solver_note(game: Game, text: str) -> str:
    """The solver sees face-down cards too (Spider's, a stock's order): when there
    are any, its answers say so."""
    return f"{text}{KNOWN}" if peeks(game) else text


def peeks(game: Game) -> bool:
    """Whether the solver, searching from ``game``, sees cards the player cannot."""
    return any(not up for n in game.pile_names for _, up in game.pile(n))


FAIR = "fair: "
"""The verdict's start when the help sees only what the player sees."""
FAIR_WORDS = {"good": "a good move here", "none": "no move helps", "unknown": "cannot tell"}
"""The fair verdicts, after :data:`FAIR`."""
STOCK_WORDS = {"deal": "deal next", "collect": "collect next"}
"""A fair "none" whose plan is a stock move says that move: a fresh Stjernen board
read "fair: no move helps" at move 0, which a new player took for a lost game
(playtest35)."""
FAIR_HINT = "Fair hint"
"""How a fair hint starts on the status line (a full-knowledge one: "Hint")."""
SHORT = {
    "winnable": "win",
    "not winnable": "lost",
    "no longer winnable": "lost",
    "cannot tell yet": "?",
    "fair: a good move here": "fair: good",
    "fair: no move helps": "fair: no move",
    "fair: deal next": "fair: deal",
    "fair: collect next": "fair: collect",
    "fair: cannot tell": "fair: ?",
}


def fair_words(fair: FairResult) -> str:
    """The words of a fair verdict, after :data:`FAIR`.

    >>> from termsolitaire.rules import Move
    >>> from termsolitaire.solver.fair import FairResult
    >>> fair_words(FairResult("none", (Move.parse("deal"),)))
    'deal next'
    >>> fair_words(FairResult("none"))
    'no move helps'
    """
    if fair.verdict == "none" and fair.moves and fair.moves[0].kind in STOCK_WORDS:
        return STOCK_WORDS[fair.moves[0].kind]
    return FAIR_WORDS.get(fair.verdict, FAIR_WORDS["unknown"])


def verdict_forms(text: str) -> list[str]:
    """The verdict ``text`` from its whole form to its shortest, then nothing: the
    status line shows the longest that leaves the message whole (a ``*`` stands
    for "with the cards known", as the help says).

    >>> verdict_forms("winnable with the cards known")
    ['winnable with the cards known', 'winnable*', 'win*', '']
    >>> verdict_forms("cannot tell yet")
    ['cannot tell yet', '?', '']
    >>> verdict_forms("fair: a good move here")
    ['fair: a good move here', 'fair: good', '']
    >>> verdict_forms("fair: no move helps")
    ['fair: no move helps', 'fair: no move', '']
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
        self.rough = False
        """The kept winning line is a verdict's, not shortened: it keeps the
        verdict, but hints and solutions are not taken from it."""
        self.won_from: tuple[Move, ...] | None = None
        """The line of play up to the last position a win was found from."""
        self.proved_lost: Hashable | None = None
        """The position a search proved lost, as its key (a hint there need not
        search again)."""
        self.lost_line: tuple[Move, ...] | None = None
        """The line of play up to the last position a search proved lost. Every
        position after it on this line is lost too (no move makes a lost game
        winnable): the verdict stays, with no search, as a winning line's does.
        Stjernen's collect turns the stock face down, and the fair search, which
        proves nothing with cards hidden, read "fair: deal next" right after "no
        longer winnable" (playtest36)."""
        self.lost_verdict = ""
        """The verdict the proof gave (its "with the cards known" as it saw them)."""
        self.lost_text: str | None = None
        """The position text of the last position proved lost, and how many actions
        of the game's log led there (:attr:`lost_at`): what the save keeps of the
        proof, and what it is checked against when the game is resumed
        (:mod:`.proof`)."""
        self.lost_at = 0
        self.best_plan: Plan | None = None
        """With no winning line known: the best line a search found."""
        self.best_cards = 0
        self.best_trusted = False
        """A hint's full search found no win on the way to the kept best line, so
        hints may follow it without searching."""
        self.plan_peeked = False
        """The winning line was found from a position with cards the player could
        not see: it is "winnable with the cards known" all along, and a line found
        with none hidden (Stjernen's first stock all dealt) stays plain "winnable"
        after the collect turns the stock face down."""
        self.plan_at = 0
        """How many actions of the game's log led to the position the winning line
        starts from: what the save keeps of the line with its moves (:mod:`.proof`)."""
        self.verdict = ""
        """What the status line's right end says now."""
        self.fair_plan: Plan | None = None
        """The fair search's plan (up to the first card it shows), while it passes here."""
        self.fair_verdict: str | None = None
        """The last fair search's verdict (``good``, ``none``, ``unknown``); None
        after a full-knowledge answer (or one with nothing hidden)."""
        self.fair_board: Hashable | None = None
        """The position the last fair search answered about, as its key."""
        self.vain: Hashable | None = None
        """The position a full search found nothing about (no win, no loss, no line
        that gets a card further), as its key; :attr:`vain_seconds` it searched."""
        self.vain_seconds = 0.0

    # ------------------------------------------------------------ the verdict

    def keeps_line(self, game: Game) -> bool:
        """After a change: whether the winning line still passes here, or the line
        of play passed a position proved lost (no search needed; the verdict
        stays). Otherwise the line is dropped."""
        if self.lost_on_line(game):
            self.verdict = self.lost_verdict
            return True
        if self.plan is not None and self.plan.remaining(game) is not None:
            self.won_from = game.history
            self.verdict = "winnable" + (KNOWN if self.plan_peeked else "")
            return True
        self.plan = None
        rest = self.fair_plan.remaining(game) if self.fair_plan is not None else None
        if rest:
            # Its good moves played, a plan that ends in a deal says so, as the
            # hint does: "Fair hint: deal" beside "fair: a good move here" (playtest37).
            stock = STOCK_WORDS.get(rest[0].kind) if len(rest) == 1 else None
            self.verdict = FAIR + (stock or FAIR_WORDS["good"])
            return True
        self.fair_plan = None
        return False

    def take_fair(self, game: Game, fair: FairResult, history: tuple[Move, ...]) -> None:
        """Keep what a fair search found about ``game`` (after ``history``)."""
        from ..solver.base import Result, position_key
        from ..solver.plan import Plan

        if self.lost_on_line(game):
            return  # a fair search cannot undo a proof (one asked before it came)
        if fair.verdict in ("won", "lost"):  # nothing hidden: the solver's own verdict
            self.fair_plan, self.fair_verdict = None, None
            self.take(game, Result(fair.verdict, fair.moves), history)
            return
        self.plan, self.proved_lost = None, None
        self.best_plan, self.best_trusted = None, False
        try:
            self.fair_plan = Plan.of(game, fair.moves) if fair.moves else None
        except IllegalMove:
            self.fair_plan = None
        self.fair_verdict = fair.verdict
        self.fair_board = position_key(game)
        self.verdict = FAIR + fair_words(fair)

    def fair_here(self, game: Game) -> str | None:
        """The fair verdict, when the last fair search answered about this board."""
        from ..solver.base import position_key

        if self.fair_verdict and self.fair_board == position_key(game):
            return self.fair_verdict
        return None

    def fair_rest(self, game: Game) -> tuple[Move, ...] | None:
        """The fair plan's moves from here (None: none, or off it, or played out)."""
        rest = self.fair_plan.remaining(game) if self.fair_plan is not None else None
        return rest or None

    def fair_word(self) -> str:
        """What to say when the fair search gives no move."""
        if self.fair_verdict == "none":
            return "No move helps here, by the cards you can see"
        return "Cannot tell from the cards you can see"

    def take(
        self, game: Game, result: Result, history: tuple[Move, ...], rough: bool = False
    ) -> None:
        """Keep what a search found about ``game`` (after ``history``); ``rough``: its
        winning line was not shortened (a verdict's)."""
        from ..solver.base import position_key
        from ..solver.plan import Plan

        self.fair_plan, self.fair_verdict = None, None
        if result.verdict == "won":
            # A verdict's rough line never replaces a shortened one through here (a
            # hint's, answered while the verdict's search ran).
            kept = self.plan if not self.rough else None
            if not (rough and kept is not None and kept.remaining(game) is not None):
                self.plan = Plan.of(game, result.moves)
                self.rough = rough
                self.plan_peeked = peeks(game)
                self.plan_at = len(game.log)
            self.won_from = history
            self.proved_lost, self.lost_line, self.lost_text = None, None, None
            self.verdict = solver_note(game, "winnable")
        elif result.verdict == "lost":
            self.plan = None
            self.proved_lost = position_key(game)
            self.verdict = solver_note(
                game, "not winnable" if not history else "no longer winnable"
            )
            self.lost_line, self.lost_verdict = history, self.verdict
            self.lost_text, self.lost_at = game.to_text(), len(game.log)
        else:
            self.verdict = "cannot tell yet"
            self.keep_best_line(game, result)

    def found_nothing(self, game: Game, seconds: float) -> None:
        """A full search of ``seconds`` from ``game`` found no win, no loss and no
        line that gets a card further."""
        from ..solver.base import position_key

        self.vain, self.vain_seconds = position_key(game), seconds

    def searched_in_vain(self, game: Game) -> bool:
        """A full search found nothing from this very position: the same search
        again would find the same, or next to it."""
        from ..solver.base import position_key

        return self.vain is not None and self.vain == position_key(game)

    def is_proved_lost(self, game: Game) -> bool:
        """Whether a search proved this position lost, or one the line of play
        passed on its way here."""
        from ..solver.base import position_key

        return self.proved_lost == position_key(game) or self.lost_on_line(game)

    def lost_on_line(self, game: Game) -> bool:
        """Whether the line of play passed the last position proved lost (undo back
        before it, and it no longer does)."""
        line = self.lost_line
        return line is not None and game.history[: len(line)] == line

    def lost_note(self, game: Game, text: str) -> str:
        """``text`` (a loss) with "with the cards known" as the proof saw the cards:
        a loss proved with none hidden stays plain after a collect hides some."""
        if self.lost_on_line(game):
            return f"{text}{KNOWN}" if self.lost_verdict.endswith(KNOWN) else text
        return solver_note(game, text)

    # ------------------------------------------------------------ hints

    def next_move(self, game: Game) -> Move | None:
        """The winning line's next move from here, if one is known (or the fair
        plan's)."""
        if self.plan is not None:
            return None if self.rough else self.plan.next(game)
        rest = self.fair_rest(game)
        return rest[0] if rest else None

    def rough_here(self, game: Game) -> bool:
        """A win is known from here, but only the verdict's rough line: a hint or a
        solution searches again for a shortened one."""
        return self.rough and self.plan is not None and self.plan.remaining(game) is not None

    def rest(self, game: Game) -> tuple[Move, ...] | None:
        """The winning line's moves from here, if one is known (and not rough)."""
        if self.plan is None or self.rough:
            return None
        return self.plan.remaining(game)

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
