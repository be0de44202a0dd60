"""The computer opponent of a Spider match, at four levels, playing fair.

The opponent is a step function the match runs wherever it likes (the UI runs
it in a separate process)::

    opponent = Opponent("expert", suits=2, seed=7)
    while True:
        move = opponent.choose(view_of(game))   # None: it presses End
        if move is None:
            break
        game.play(move)                         # one action every opponent.pace seconds

It receives only a :class:`~.view.View`, which holds no face-down or
stock card, so it cannot read one. It plans on what it sees
(:func:`~.plan.plan`): moves, and turns whose card it does not know;
it plays the plan up to its first turn, then looks again. In 1-suit games it
keeps a pile of face-down cards bare, as room to work, rather than bury it
under a run (:data:`~.plan.FW_ONE_SUIT`; the expert also counts the runs that
cover face-down cards as work, :data:`~.plan.FW_ONE_SUIT_EXPERT`); in 4-suit games it builds in suit
where it can (:data:`~.plan.FW_FOUR`). When no plan gains
anything it deals, and when the stock is empty too it presses End.

The planner's search is the free undo of the match rules, used as lookahead:
undo may take back any move since the last turn or deal, and nothing else,
so a line of moves tried and undone at the table shows no card the planner
does not already see, and costs the moves' points (undo keeps each move's
-1). The planner tries those lines in its head instead, for nothing.

The expert also guesses, in 1-suit games (:meth:`Opponent._guess`): it deals the
cards it has not seen at random into the face-down places and the stock
(:func:`~.view.sample`, a guess, never a read), lets the solver find
the best line on each guess, and keeps each line's start up to its first turn
as another plan. It then tries every plan on fresh guesses and plays the one
that does best on average: by the solver's trial on each guess, and by the
cards a fair player would still have face down after it, when its plans,
seeing only what they turn, find nothing more to gain
(:attr:`Level.trial_playout`). (Deals stay its last resort: a line that deals
before it turns is left out.) In 2- and 4-suit games guessing did not pay in
our trials (docs/journal/match.md), so there it plans on what it sees, further than a
good player; :attr:`Level.guess_suits` switches it on to try again.
Once every card is in view (none face down, the stock dealt) nothing is
left to guess, and the 1-suit expert asks the solver for its line directly.

In 2- and 4-suit games the expert looks for other ways in hindsight
(:meth:`Opponent._hindsight`): the solver finds wins on a couple of guesses,
and each win's start up to its first turn or deal is another way; every way,
its own plan included, is then played out on the same fresh guesses by a
player who sees only what a player would, and the way that ends best is
played. The solver proposes, a fair playout judges: judged by the solver, who
sees the guessed cards, every way looks as if nothing were unknown, and that
played worse (docs/journal/match.md).

The levels differ in how far they look (positions searched per plan), whether
they guess, how often they slip (a beginner now and then plays the first
useful move it sees) and their pace, the seconds each action takes at the
table. In a match of 10 minutes the pace decides how many actions a level can
make.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from termsolitaire.rules import Move
from termsolitaire.rules.spider import Spider

from ..search import luby
from ..spider import BASE, NOISE, PORTFOLIO
from ..spider.search import DEPTH, BestFirst, search_moves
from ..spider.state import DEAL_MOVE, TURN, SpiderMove, SpiderState, to_move
from .plan import FW_ONE_SUIT_EXPERT, counted_plan, evaluate, up_to_turn, weights
from .view import BLANK, View, known_state, sample, view_of


@dataclass(frozen=True, slots=True)
class Level:
    """How one level of the opponent plays."""

    name: str
    pace: float
    """Seconds of "thinking" per action at the table."""
    positions: int
    """Positions searched per plan: how far it looks ahead."""
    slip: float
    """The chance, per plan, of settling for the first move that gains anything."""
    guesses: int = 0
    """Guesses of the unseen cards solved for more plans (0: none)."""
    trials: int = 3
    """Fresh guesses each plan is tried on, to choose among the plans."""
    guess_positions: int = 3000
    """Positions the solver searches on a guess to find a line."""
    trial_positions: int = 1500
    """Positions the solver searches to judge a plan on a guess. 4000 for the
    expert: a trial cut off at 1500 positions mostly says how far 1500 positions
    got; at 4000 the expert wins 58 of the fresh 1-suit deals 201-260 against 52
    (losing none of main's wins), 72 of 1-80 as before, at about a fifth more CPU
    (docs/journal/2026-12-05-expert6.md)."""
    guess_suits: tuple[int, ...] = (1,)
    """The suit counts at which it guesses (with ``guesses``)."""
    hindsight: int = 0
    """Guesses each other way is played out on (0: none), at :attr:`hindsight_suits`
    (:meth:`Opponent._hindsight`)."""
    hindsight_lines: int = 2
    """Guesses the solver looks for a win on, for other ways."""
    hindsight_positions: int = 10000
    """Positions the solver may search on one of those guesses."""
    playout_plans: int = 6
    """Plans a playout makes after a way (each up to its first turn or deal)."""
    playout_positions: int = 500
    """Positions each of those plans searches (the good level's)."""
    hindsight_suits: tuple[int, ...] = (2, 4)
    """The suit counts at which it looks for other ways (with ``hindsight``)."""
    second_round: int = 0
    """More guesses the best two ways are then played out on, to choose between
    them on all the guesses (0: none; :meth:`Opponent._hindsight`)."""
    think: int = 0
    """Positions one plan may search in all, the planner's, the solver's on the
    guesses and the playouts' together (0: no cap). Once they are spent, no more
    guesses are solved and no more ways played out (a way begun is played out
    on every guess) and the best judged so far is played: a cap on the thinking
    before one action, counted in positions, so the same on any machine
    (:meth:`Opponent._hindsight`). Off for every level: at 4 suits a cap of 54000
    lost games and one of 64000 won the same, without holding the pace on a loaded
    machine (docs/journal/match.md)."""
    in_view_suits: tuple[int, ...] = (1,)
    """The suit counts at which, with every card in view (none face down, the stock
    dealt), it asks the full-knowledge solver for its line (with ``guesses``):
    nothing is unseen, so the solver sees no more than the player."""
    one_suit_cover: int = 0
    """In 1-suit games, the planner's ``cover`` weight (:data:`~.plan.FW_ONE_SUIT_EXPERT`):
    2 for the expert, 0 (:data:`~.plan.FW_ONE_SUIT`) for the others."""
    one_suit_positions: int = 0
    """Positions searched per plan in 1-suit games (0: :attr:`positions`). 0 for
    every level: the expert with 5000 won 54 of 1-suit deals 1-60 against 55 and
    18 of 61-80 against 17 (72 of 1-80 each), at two thirds of the CPU, its
    longest action 0.72-1.08 s rather than 1.03-1.82 s (docs/journal/match.md, expert13).
    One deal fewer on the brief's sample, so it is left off: the switch to hold
    the pace if the lead prefers it."""
    trial_playout: int = 0
    """Plans a fair player makes after a plan on each trial guess of
    :meth:`Opponent._guess`, each up to its first turn, until none gains (no deal;
    0: none): the face-down cards still down then, :attr:`trial_down` points each,
    are added to the plan's cost (:func:`_stuck`). The solver's trial sees the
    guessed cards, so it finds a way through almost any 1-suit guess; the playout,
    which sees only what it turns, tells a plan that leaves the next cards in
    reach from one that leaves a fair player stuck. 4 for the expert: on 1-suit
    deals 141-200 it wins 57 against 53 without, 184 of 1-200 against 181 (a small
    gain: level on 1-140), at a quarter more CPU (docs/journal/2026-12-05-expert16.md)."""
    trial_playout_positions: int = 500
    """Positions each plan of :attr:`trial_playout` searches."""
    trial_down: int = 16
    """The cost of a face-down card left after :attr:`trial_playout`'s plans."""
    four_room: int = 0
    """In 4-suit games, once the stock is dealt, the planner's ``room`` weight
    (:func:`~.plan.evaluate`): what the board loses when its last empty or bare
    pile (face-down cards only, which takes any card) is gone. After the last
    deal no card comes to fill a pile, so that pile is the only place to park a
    card out of the way; without the weight the planner turns a bare pile's card
    whenever that is the cheapest turn (one action), and stands stuck with cards
    face down (docs/journal/2026-12-07-expert19.md: the three games of deals 1-8
    it lost end right after turning the last bare pile). 30 for the expert:
    more than a face-down card (25) and the move, so the planner spends its last
    room only when no plan that keeps it gains anything; then it plans once more
    without the weight (:meth:`Opponent._plan`), so it never presses End for it.
    On 1-200 it won the same 62 as before it (31.0%, lead33): its +3 on the
    fresh 356-394 was within the noise; it stays, as it loses nothing."""
    two_stuck: int = 0
    """In 2-suit games, the plans each of hindsight's playouts may make
    (:meth:`Opponent._hindsight`), none a deal: the playout stops where a fair
    player is stuck before the next deal (or after that many plans) and is
    judged there, by what that player sees (0: none; the playout makes
    :attr:`playout_plans` plans and deals when stuck). Lost 2-suit games turn
    about 2 cards a packet against won games' 4-6 (docs/journal/2026-12-07-two17.md):
    judged at the next deal, a way is worth the cards a fair player turns before
    it, not the luck of the ten cards a guess deals next. 0 for every level: at 6
    (as many plans as :attr:`playout_plans`) the expert won 74 of the fresh 2-suit
    deals 503-622 against main's 70 beside it (+17, -13), at 102 ms of CPU an
    action against 114, short of the 5 of 120 a change must gain to be kept
    (docs/journal/2026-12-07-two18.md)."""
    best_lines: bool = False
    """Whether a guess the solver does not win still gives a way: the start of its
    best line, up to its first turn or deal. Off for every level: at 4 suits it
    won 3 of deals 1-15 against 9 (docs/journal/match.md)."""


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", pace=4.0, positions=1, slip=0.3),
        Level("casual", pace=3.0, positions=60, slip=0.1),
        Level("good", pace=2.0, positions=500, slip=0.0),
        Level(
            "expert",
            pace=1.2,
            positions=10000,
            slip=0.0,
            guesses=2,
            hindsight=6,
            one_suit_cover=FW_ONE_SUIT_EXPERT["cover"],
            trial_playout=4,
            trial_positions=4000,
            four_room=30,
        ),
    )
}
"""The levels, weakest first."""


def _signature(view: View) -> tuple[object, ...]:
    return (view.piles, view.down, view.stock, view.done)


def _state_signature(state: SpiderState) -> tuple[object, ...]:
    piles = tuple(tuple(p[d:]) for p, d in zip(state.piles, state.down, strict=True))
    return (piles, tuple(state.down), len(state.stock), tuple(state.done))


class Opponent:
    """A computer player of one level; see the module docstring.

    ``choose`` is deterministic for a given ``seed`` and sequence of views.
    """

    def __init__(self, level: str, suits: int, seed: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
        if suits not in (1, 2, 4):
            raise ValueError(f"Spider is played with 1, 2 or 4 suits, not {suits!r}")
        self.level = LEVELS[level]
        self.suits = suits
        self.weights = weights(suits)
        if suits == 1 and self.level.one_suit_cover:
            self.weights = {**self.weights, "cover": self.level.one_suit_cover}
        self._room = (
            {**self.weights, "room": self.level.four_room}
            if suits == 4 and self.level.four_room
            else None
        )
        self.rng = random.Random(seed)
        one_suit = suits == 1 and self.level.one_suit_positions
        self._positions = self.level.one_suit_positions if one_suit else self.level.positions
        self._queue: list[SpiderMove] = []
        self._expect: tuple[object, ...] | None = None

    @property
    def pace(self) -> float:
        """Seconds per action at the table."""
        return self.level.pace

    def choose(self, view: View) -> Move | None:
        """The next action for the position in ``view``, or None to press End."""
        if len(view.done) == 8:
            return None
        if not self._queue or _signature(view) != self._expect:
            self._queue = self._plan(view)
        if not self._queue:
            self._expect = None
            return to_move(DEAL_MOVE) if view.stock else None
        m = self._queue.pop(0)
        if m[0] < 0 or m[1] == TURN:
            self._queue, self._expect = [], None
        else:
            state = known_state(view)
            state.make(m)
            self._expect = _state_signature(state)
        return to_move(m)

    def advise(self, view: View) -> list[Move]:
        """What this level would play from ``view``: its plan up to and including
        the first card it turns; empty when no move gains anything (it would deal,
        or press End). The fair hint (:mod:`termsolitaire.solver.fair`)."""
        if len(view.done) == 8:
            return []
        return [to_move(m) for m in self._plan(view)]

    def _plan(self, view: View) -> list[SpiderMove]:
        level = self.level
        state = known_state(view)
        if level.positions <= 1 or self.rng.random() < level.slip:
            return _first_gain(state, self.rng, self.weights)
        guessing = level.guesses and self.suits in level.guess_suits
        if level.guesses and self.suits in level.in_view_suits and not view.unseen:
            # Every card is in view (none face down, the stock dealt): the solver
            # sees no more than the player, so it is asked directly, without the
            # planner's search, whose line it would only replace.
            return _solve(state, level.guess_positions * 4)[0]
        # After the last deal the 4-suit expert keeps its last room (``four_room``).
        w = self._room if self._room is not None and not view.stock else self.weights
        line, gain, spent = counted_plan(state, self._positions, w)
        if gain <= 0 and w is not self.weights:
            # Nothing that keeps the last room gains: spend it (the weights without
            # ``room``) rather than press End with a move left.
            line, gain, more = counted_plan(known_state(view), self._positions, self.weights)
            spent += more
        mine = up_to_turn(line) if gain > 0 else []
        if guessing:
            return self._guess(view, mine)
        if level.hindsight and self.suits in level.hindsight_suits:
            return self._hindsight(view, mine, spent, w)
        return mine

    def _hindsight(
        self, view: View, mine: list[SpiderMove], spent: int, w: dict[str, int]
    ) -> list[SpiderMove]:
        """``mine`` (or a deal, or End) or another way, whichever plays out best.

        The other ways come from hindsight: on a few guesses (the unseen cards
        dealt at random into their places, never read) the solver, which sees
        the guessed cards, looks for a win; each win's start, up to its first
        turn or deal, is a way (when it reaches another position than ``mine``).
        Each way is then played out on the same fresh guesses by a player who
        sees only what a player would (:func:`_playout`), and the way whose
        playouts end best on the whole is played; ``mine`` keeps ties. The
        playouts, not the solver, judge: the solver sees the guessed cards, so
        it would judge every way as if no card were unknown. With
        :attr:`Level.second_round` the best two are played out on more fresh
        guesses and chosen between on all of them (off: it did not pay).
        ``spent`` is the positions the planner searched for ``mine``, counted
        against :attr:`Level.think`; with :attr:`Level.best_lines` a guess the
        solver does not win gives a way too. ``w``: the weights the playouts plan
        by (the planner's for ``mine``).
        """
        level, rng = self.level, self.rng
        default: tuple[SpiderMove, ...] = (
            tuple(mine) if mine else (DEAL_MOVE,) if view.stock else ()
        )
        start_of_mine = _way_signature(view, default) if default else None
        ways: dict[tuple[object, ...], tuple[SpiderMove, ...]] = {}

        def thought() -> bool:
            return 0 < level.think <= spent

        for _ in range(level.hindsight_lines):
            if thought():
                break
            won, line, used = _win(sample(view, rng), level.hindsight_positions)
            spent += used
            start = tuple(up_to_turn(line))
            if (won or level.best_lines) and start and start != default:
                signature = _way_signature(view, start)
                if signature != start_of_mine:
                    ways.setdefault(signature, start)
        if not ways or thought():
            return list(default)
        guesses = [sample(view, rng) for _ in range(level.hindsight)]
        stuck = self.suits == 2 and level.two_stuck > 0
        plans = level.two_stuck if stuck else level.playout_plans

        def playouts(moves: tuple[SpiderMove, ...], on: list[SpiderState]) -> int:
            nonlocal spent
            total = 0
            for g in on:
                value, used = _playout(g, moves, plans, level.playout_positions, w, not stuck)
                total, spent = total + value, spent + used
            return total

        # (total, order, way): the plan is first, so it keeps ties, then the ways
        # in the order found, as long as the thinking allowed lasts.
        values = [(playouts(default, guesses), 0, default)]
        for i, m in enumerate(ways.values(), 1):
            if thought():
                break
            values.append((playouts(m, guesses), i, m))
        values.sort()
        if level.second_round:
            # The best two, close or not, on more guesses, chosen between on all
            # of them: a few guesses tell apart ways whose playouts differ by a few
            # points mostly by chance (docs/journal/match.md).
            more = [sample(view, rng) for _ in range(level.second_round)]
            values = sorted((v + playouts(m, more), i, m) for v, i, m in values[:2])
        return list(values[0][2])

    def _guess(self, view: View, mine: list[SpiderMove]) -> list[SpiderMove]:
        """The best of ``mine`` and the solver's plans on guesses; see the module docstring."""
        level, rng = self.level, self.rng
        plans: dict[tuple[SpiderMove, ...], None] = {}
        if mine:
            plans[tuple(mine)] = None
        for _ in range(level.guesses):
            line, _ = _solve(sample(view, rng), level.guess_positions)
            start = up_to_turn(line)
            if start and start[-1][0] >= 0:
                plans[tuple(start)] = None
        if len(plans) <= 1:
            return list(next(iter(plans), ()))
        guesses = [sample(view, rng) for _ in range(level.trials)]
        w, plays = self.weights, level.trial_playout

        def cost(moves: tuple[SpiderMove, ...]) -> float:
            total = 0.0
            for guess in guesses:
                state = guess.copy()
                for m in moves:
                    state.make(m)
                if plays:
                    left = _stuck(state.copy(), plays, level.trial_playout_positions, w)
                    total += level.trial_down * left
                total += _solve(state, level.trial_positions)[1]
            transfers = sum(1 for m in moves if m[1] != TURN)
            return total / len(guesses) + transfers / DEPTH

        best = min(plans, key=cost)
        return list(best)


WIN = 1000
"""What a win found is worth to :func:`_solve`, beyond any position's value."""


def _solve(state: SpiderState, positions: int) -> tuple[list[SpiderMove], float]:
    """The solver's line from a full-knowledge ``state`` (changed) within ``positions``,
    and how good its end is (:func:`~termsolitaire.solver.spider.search.evaluate`;
    a win: less than any)."""
    search = BestFirst(state, math.inf, positions)
    outcome, line = search.run()
    if outcome == "won":
        return line, len(line) / DEPTH - WIN
    return search.best_line, search.best_value


def _hidden(state: SpiderState) -> SpiderState:
    """``state`` as its player sees it: the face-down and stock cards blanks."""
    piles = [[BLANK] * d + list(p[d:]) for p, d in zip(state.piles, state.down, strict=True)]
    return SpiderState(piles, list(state.down), [BLANK] * len(state.stock), list(state.done))


def _fair_plans(
    state: SpiderState, plans: int, positions: int, w: dict[str, int], deal: bool
) -> tuple[int, int]:
    """Play on ``state`` (changed) at most ``plans`` plans of a player who sees only
    what a player would (:func:`~.plan.plan` on :func:`_hidden`), each up to its
    first turn; where none gains, a deal if ``deal`` and the stock has one, else
    stop. The moves played and the positions the plans searched."""
    played = searched = 0
    for _ in range(plans):
        if state.won:
            break
        line, gain, used = counted_plan(_hidden(state), positions, w)
        searched += used
        start = up_to_turn(line) if gain > 0 else []
        if not start:
            if not deal or not state.stock:
                break
            start = [DEAL_MOVE]
        for m in start:
            state.make(m)
        played += len(start)
    return played, searched


def _playout(
    guess: SpiderState,
    moves: tuple[SpiderMove, ...],
    plans: int,
    positions: int,
    w: dict[str, int],
    deal: bool = True,
) -> tuple[int, int]:
    """How far from a win ``guess`` is after ``moves`` and ``plans`` plans (each up to
    its first turn, or a deal when none gains and ``deal``; else they stop there)
    of a player who sees only what a player would (:func:`_fair_plans`), by what
    that player then sees (:func:`~.plan.evaluate`, each move played costing
    ``w["move"]``; a win: less than any); and the positions those plans searched."""
    state = guess.copy()
    for m in moves:
        state.make(m)
    played, searched = _fair_plans(state, plans, positions, w, deal)
    played += len(moves)
    if state.won:
        return played - 10 * WIN, searched
    return evaluate(_hidden(state), w) + played * w["move"], searched


def _stuck(state: SpiderState, plans: int, positions: int, w: dict[str, int]) -> int:
    """The face-down cards left in ``state`` (changed) after at most ``plans`` plans of
    a player who sees only what a player would (:func:`_fair_plans`), stopping
    when none gains: where a fair player would be stuck before the next deal."""
    _fair_plans(state, plans, positions, w, deal=False)
    return sum(state.down)


def _way_signature(view: View, moves: tuple[SpiderMove, ...]) -> tuple[object, ...]:
    """What a way commits to: the position its transfers reach, and its last move."""
    state = known_state(view)
    for m in moves[:-1]:
        state.make(m)
    return (_state_signature(state), moves[-1])


def _win(state: SpiderState, positions: int) -> tuple[bool, list[SpiderMove], int]:
    """Whether the solver's finders win from the full-knowledge ``state`` within
    ``positions`` (restarts as in :func:`~termsolitaire.solver.spider.solve`, but
    counted in positions, not seconds, so the answer is the same on any machine),
    the winning line (or, without a win, the first finder's best line: the plain
    order's) and the positions searched."""
    seed = state.seed
    best: list[SpiderMove] = []
    used = k = 0
    while used < positions:
        k += 1
        weights = PORTFOLIO[(k - 1) % len(PORTFOLIO)]
        rng = None if k <= len(PORTFOLIO) else seed + k
        if rng is not None:
            weights = weights._replace(noise=NOISE)
        allowance = min(BASE * luby(k), positions - used)
        finder = BestFirst(state.copy(), math.inf, allowance, time.process_time, weights, rng)
        if finder.advance(allowance) == "won":
            return True, finder.line, used + max(1, finder.positions)
        used += max(1, finder.positions)
        finder.release()
        if k == 1:
            best = finder.best_line
    return False, best, used


def _first_gain(state: SpiderState, rng: random.Random, w: dict[str, int]) -> list[SpiderMove]:
    """One move that gains anything, the biggest gain most often (a hasty player)."""
    before = evaluate(state, w)
    gains = []
    for m in search_moves(state):
        if m[0] < 0:
            continue
        token = state.make(m)
        gains.append((before - evaluate(state, w) - 1, m))
        state.unmake(m, token)
    good = [g for g in gains if g[0] > 0]
    if not good:
        return []
    good.sort(reverse=True)
    return [good[0][1] if rng.random() < 0.7 else rng.choice(good)[1]]


def play(game: Spider, opponent: Opponent, seconds: float | None = 600.0) -> Iterator[Move]:
    """Referee ``opponent`` on ``game`` (changed in place) and yield each action it
    plays, until it presses End, the game is won or the clock, counted at the
    opponent's pace, runs out (``None``: no limit)."""
    used = 0.0
    while not game.is_won:
        used += opponent.pace
        if seconds is not None and used > seconds:
            return
        move = opponent.choose(view_of(game))
        if move is None:
            return
        game.play(move)
        yield move
