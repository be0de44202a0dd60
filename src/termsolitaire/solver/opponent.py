"""The computer opponent of a Spider match, at four levels, playing fair.

The opponent is a step function the match runs wherever it likes (the UI runs
it in a separate process)::

    opponent = Opponent("expert", suits=2, seed=7)
    while True:
        move = opponent.choose(view_of(game))   # None: it presses End
        if move is None:
            break
        game.play(move)                         # one action every opponent.pace seconds

It receives only a :class:`~.opponent_view.View`, which holds no face-down or
stock card, so it cannot read one. It plans on what it sees
(:func:`~.opponent_plan.plan`): moves, and turns whose card it does not know;
it plays the plan up to its first turn, then looks again. When no plan gains
anything it deals, and when the stock is empty too it presses End.

The levels differ in how far they look (positions searched per plan), how
often they slip (a beginner now and then plays the first useful move it sees)
and their pace, the seconds each action takes at the table. In a match of 10
minutes the pace decides how many actions a level can make.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from termsolitaire.rules import Move
from termsolitaire.rules.spider import Spider

from .opponent_plan import evaluate, plan, up_to_turn
from .opponent_view import View, known_state, view_of
from .spider_state import DEAL_MOVE, TURN, SpiderMove, SpiderState, to_move


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


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", pace=4.0, positions=1, slip=0.3),
        Level("casual", pace=3.0, positions=60, slip=0.1),
        Level("good", pace=2.0, positions=500, slip=0.0),
        Level("expert", pace=1.2, positions=3000, slip=0.0),
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
        self.rng = random.Random(seed)
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

    def _plan(self, view: View) -> list[SpiderMove]:
        level = self.level
        state = known_state(view)
        if level.positions <= 1 or self.rng.random() < level.slip:
            return _first_gain(state, self.rng)
        line, gain = plan(state, level.positions)
        return up_to_turn(line) if gain > 0 else []


def _first_gain(state: SpiderState, rng: random.Random) -> list[SpiderMove]:
    """One move that gains anything, the biggest gain most often (a hasty player)."""
    from .spider_search import search_moves

    before = evaluate(state)
    gains = []
    for m in search_moves(state):
        if m[0] < 0:
            continue
        token = state.make(m)
        gains.append((before - evaluate(state) - 1, m))
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
