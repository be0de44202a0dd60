"""Every sentence a board's status line can say, gathered by driving the play
controller over many positions of each game (issue 30, acceptance 1).

The status line's messages are built from templates in the play controller
(:mod:`termsolitaire.play`) and the rules' reasons for refusing a move; this
module feeds them systematically: at each position of a fixed playout, every
pile picked up and put on every other pile, every key action, every hint of
every legal move (and what a followed hint says), the undo and redo texts, and
every refusal of every board mode. Each sentence is taken as the board shows
it (:meth:`BoardWords.status_text`), under plain and ASCII cards.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from termsolitaire.play.controller import Controller
from termsolitaire.play.modes import HAND, HELP, MATCH, NEW, PLAY, REPLAY, SOLO, VIEW, WATCH, Policy
from termsolitaire.play.outcome import Outcome
from termsolitaire.play.session import GameSession
from termsolitaire.rules import Game, IllegalMove, Move, games, new_game
from termsolitaire.screens.boards.registry import board_class
from termsolitaire.screens.boards.words import BoardWords
from termsolitaire.solver import Plan, solve
from termsolitaire.widgets.cards import CardLook

NOTATION = re.compile(r"\b[tcpiouf]\d+\b|suits=")
"""A notation pile name (``t1``, ``c2``, ``p15``, ``i1``, ``o2``, ``u3``, ``f1``)
or the variant as the notation writes it: never in what a player reads."""

GAMES = [(g.name, g.default_variant()) for g in games()]
DEALS = (7,)
"""The deals whose playouts are walked."""
PLAYOUT = 20
"""Positions visited per deal (a fixed playout: the first legal move not seen)."""
ACTIONS = sorted(PLAY | NEW | HELP | HAND | {"pause", "help", "quit"})
"""Every board action a mode may refuse."""


@dataclass
class Said:
    """The sentences one game's board can say, by what kind they are."""

    refusals: set[str] = field(default_factory=set)
    """A move or an action refused while playing (with the solver's verdict beside it)."""
    hints: set[str] = field(default_factory=set)
    """A hint, a best line's hint, a played hint's follow-on."""
    others: set[str] = field(default_factory=set)
    """Everything else: done texts, what is in hand, the modes' refusals, questions."""

    def every(self) -> set[str]:
        return self.refusals | self.hints | self.others


def words_of(name: str, ascii: bool) -> BoardWords:
    cls = board_class(name)
    look = CardLook(ascii=ascii)
    return BoardWords(cls.PLACES, cls.BINDINGS, lambda: look)


def controller(game: Game, words: BoardWords, policy: Policy = SOLO) -> Controller:
    c = Controller(GameSession(None, game), words, policy)
    c.solver = policy.hints
    return c


def playout(game: Game, length: int = PLAYOUT) -> Iterator[Game]:
    """``game`` at the start and after each move of a fixed playout (moves first,
    then deals, turns and collects; never a position twice)."""
    seen = {game.to_text()}
    yield game
    for step in range(length):
        moves = sorted(game.legal_moves(), key=lambda m: (m.kind != "move", str(m)))
        fresh = []
        for m in moves:
            g = game.copy()
            g.play(m)
            if g.to_text() not in seen:
                fresh.append((m, g))
        if not fresh:
            return
        m, game = fresh[step % len(fresh)] if step % 3 else fresh[0]
        seen.add(game.to_text())
        yield game


def every_move(game: Game) -> Iterator[Move]:
    """Every transfer the notation can write between two piles of ``game`` (most
    illegal), then every deal, turn and collect."""
    names = game.pile_names
    for src in names:
        for dst in names:
            if src != dst:
                for count in sorted({1, 2, max(1, len(game.pile(src)))}):
                    yield Move(src, dst, count)
        yield Move.turn(src)
    yield from (Move.parse(t) for t in ("deal", "collect"))


def outcome_text(outcome: Outcome) -> str | None:
    return outcome.message or (outcome.ask.text if outcome.ask else None)


def gather(said: Said, game: Game, words: BoardWords) -> None:
    """What a board says at ``game``'s position, into ``said``."""
    show = words.status_text

    def take(outcome: Outcome, kind: set[str] | None = None) -> None:
        text = outcome_text(outcome)
        if text:
            (kind if kind is not None else said.refusals if outcome.refused else said.others).add(
                show(text)
            )

    c = controller(game.copy(), words)
    start = c.game.to_text()
    for m in every_move(c.game):  # the rules' reasons, as the board words them
        try:
            why = c.game.why_illegal(m)
        except (IllegalMove, ValueError) as e:
            why = str(e)
        if why:
            said.refusals.add(show(why))
    for src in c.game.pile_names:  # a pile picked up, then put on each pile
        take(c.pile(src))
        take(c.cancel())
        for dst in c.game.pile_names:
            c.cancel()
            take(c.pile(src))
            if c.hand.src is None:
                continue
            take(c.to_foundation(dst) if dst in c.game.foundations else c.pile(dst))
            if c.game.to_text() != start:
                take(c.undo())
                take(c.redo())
                take(c.undo())
                if c.game.to_text() != start:  # an undo barrier (Spider's deal)
                    c = controller(game.copy(), words)
            c.cancel()
    for action in (c.foundation, c.deal, c.collect, c.turn, c.end, c.undo, c.redo):
        c.cancel()
        take(action())
        c.turning = False
        if c.game.to_text() != start:
            c = controller(game.copy(), words)
    c.cancel()
    take(c.resize(1))
    for src in c.game.pile_names[:3]:
        c.pile(src)
        take(c.resize(1))
        take(c.resize(-1))
        c.cancel()
    for m in game.legal_moves():  # every hint, and what a followed one says
        c = controller(game.copy(), words)
        take(c.show_hint(m), said.hints)
        take(c.show_hint(m, best=52), said.hints)
        follow = game.copy()
        follow.play(m)
        after = [n for n in follow.legal_moves() if n.kind == "move"][:1] or follow.legal_moves()[
            :1
        ]
        c.advice.plan = Plan.of(c.game, [m, *after])
        c.hinted = m
        outcome = c.play(m)
        take(outcome, said.hints if ". Next: " in (outcome.message or "") else said.others)
        take(c.undo())
    for action in ACTIONS:  # the modes' refusals
        for policy in (SOLO, MATCH, REPLAY, WATCH, VIEW):
            m = controller(game.copy(), words, policy)
            for paused, hidden in ((False, False), (True, False), (False, True)):
                m.paused, m.hidden = paused, hidden
                for why in (m.refusal(action), m.why_not(action)):
                    if why:
                        said.others.add(show(why))
            m.paused = m.hidden = False
            m.session.over = True
            for why in (m.refusal(action), m.why_not(action)):
                if why:
                    said.others.add(show(why))


@functools.cache
def sentences(name: str, ascii: bool = False) -> Said:
    """Every sentence the board of game ``name`` says along the playouts."""
    variant = dict(GAMES)[name]
    words = words_of(name, ascii)
    said = Said()
    for deal in DEALS:
        for game in playout(new_game(name, deal, **variant)):
            gather(said, game, words)
        for game in endgame(new_game(name, deal, **variant)):
            gather(said, game, words)
    return said


def endgame(game: Game, positions: int = 8) -> Iterator[Game]:
    """The last ``positions`` positions of a win the solver finds in a few seconds
    (where the board finishes by itself); none when it finds none."""
    result = solve(game, 3.0)
    if result.verdict != "won":
        return
    line = list(result.moves)
    for move in line[: max(0, len(line) - positions)]:
        game.play(move)
    for move in line[max(0, len(line) - positions) :]:
        yield game.copy()
        game.play(move)
