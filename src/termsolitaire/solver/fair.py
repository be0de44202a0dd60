"""Fair help: hints, verdict, solution and demo that use only what the player sees.

The full-knowledge solver (:func:`~termsolitaire.solver.solve`) reads Spider's
face-down cards and the order of Spider's and Stjernen's stock: a hint from it
is a peek. :func:`fair_search` answers from the player's view instead:

- **Spider**: the computer opponent's expert (:mod:`.opponent`) plans on
  :func:`~.opponent.view.view_of` the game, which holds no hidden card; the
  answer is its plan up to the first card it turns (or a deal, when no move
  gains anything).
- **Stjernen**: the stock's order is unknown (its cards are known as a set:
  the two packs less those in view). The stock is dealt at random a few times
  (*guesses*), the solver searches each guess, and the line kept is the start,
  up to its first deal, of the guesses' lines that do best together (a win
  counts above any number of cards home), so the answer is a move that wins or
  scores best across the guesses, never one that needs the real stock. Where
  no line gets another card home on any guess, the answer is to deal (or
  collect) on: nothing gains.
- **No card hidden** (Spider with every card turned and the stock dealt,
  Stjernen's last round with the stock empty, and Penguin and Napoleon, which
  show every card): nothing is hidden, so the full solver is fair and its
  verdict stands ("winnable", "not winnable").

Every search starts from :func:`masked`, the position text with the deal
number gone and each face-down card replaced by ``??``; guesses are dealt with
a random generator seeded by that text. So two games that differ only in
their hidden cards get the same answer (the fairness test:
tests/solver/test_fair.py).

Verdicts (:attr:`FairResult.verdict`): ``good`` (a good move here: the plan
gains something), ``none`` (no move helps: the plan is a deal, or nothing at
all), ``unknown`` (cannot tell: the searches found nothing to go by), and the
full solver's ``won`` and ``lost`` when nothing is hidden.
"""

from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass
from typing import Literal

from termsolitaire.rules import Game, Move, from_text

from .base import Budget, Result
from .games import solve

FairVerdict = Literal["good", "none", "unknown", "won", "lost"]

FACE_DOWN = re.compile(r"(?<![^\s])[a-z0-9][shdc](?![^\s])")
"""A face-down card in position text (face-up cards are written in capitals)."""

GUESSES = 3
"""Stjernen: the stock's order guessed this many times per search (each guess
searched by the solver's first beam, 1-3 s of CPU from a fresh deal)."""
CAP = 20.0
"""Stjernen: seconds after which a guess's search is cut (never reached in our
trials; a cut search may differ from run to run)."""


@dataclass(frozen=True, slots=True)
class FairResult:
    """The answer of a fair search from one position."""

    verdict: FairVerdict
    moves: tuple[Move, ...] = ()
    """The plan: moves up to and including the first that shows a card not yet
    seen (a turn, a deal); a winning line when ``won``; empty when none helps."""
    note: str = ""
    """How the answer was found, for the curious (``won on 2 of 3 guesses``)."""


def _pile_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines(True) if not ln.startswith("deal:")]


def masked(game: Game) -> str:
    """What the player sees of ``game``: its position text without the deal number,
    every face-down card written ``??``."""
    out = []
    for ln in _pile_lines(game.to_text()):
        key, sep, value = ln.partition(":")
        out.append(key + sep + FACE_DOWN.sub("??", value) if sep else ln)
    return "".join(out)


def hidden_cards(game: Game) -> int:
    """How many cards of ``game`` the player cannot see."""
    return sum(1 for name in game.pile_names for _, up in game.pile(name) if not up)


def seed_of(game: Game) -> int:
    """A seed for the guesses that depends only on what the player sees."""
    return zlib.crc32(masked(game).encode())


def guess(game: Game, rng: random.Random) -> Game:
    """A full-knowledge game like ``game`` with its face-down cards dealt at random
    among their places (one guess; the real order is never read: the cards are
    sorted before they are shuffled)."""
    lines = _pile_lines(game.to_text())
    places = []
    cards: list[str] = []
    for i, ln in enumerate(lines):
        key, sep, value = ln.partition(":")
        found = FACE_DOWN.findall(value) if sep else []
        if found:
            places.append(i)
            cards.extend(found)
    cards.sort()
    rng.shuffle(cards)
    it = iter(cards)
    for i in places:
        key, _, value = lines[i].partition(":")
        lines[i] = key + ":" + FACE_DOWN.sub(lambda _: next(it), value)
    return from_text("".join(lines))


def fair_search(game: Game, budget: Budget) -> FairResult:
    """The fair answer for ``game``'s position (left unchanged); see the module notes."""
    if game.is_won:
        return FairResult("won")
    if not hidden_cards(game):
        return _open(game, budget)
    if game.name == "spider":
        return _spider(game)
    if game.name == "stjernen":
        return _stjernen(game, budget)
    return FairResult("unknown", note=f"no fair search for {game.title}")


def _open(game: Game, budget: Budget) -> FairResult:
    """Nothing hidden: the full solver is fair."""
    r: Result = solve(game, budget)
    if r.verdict == "won":
        return FairResult("won", r.moves)
    if r.verdict == "lost":
        return FairResult("lost")
    if r.moves:
        return FairResult("good", r.moves, note="the best line found")
    return FairResult("unknown")


def _spider(game: Game) -> FairResult:
    from termsolitaire.rules.spider import Spider

    from .opponent import Opponent
    from .opponent.view import view_of

    assert isinstance(game, Spider)
    view = view_of(game)  # from here on, no hidden card is in reach
    plan = Opponent("expert", game.suits, seed=seed_of(game)).advise(view)
    if plan:
        return FairResult("good", tuple(plan), note="the expert's plan")
    if view.stock:
        return FairResult("none", (Move.parse("deal"),), note="nothing gains: deal")
    return FairResult("none")


def _reveals(move: Move) -> bool:
    return move.kind in ("deal", "turn")


def _stjernen_line(game: Game, budget: Budget) -> tuple[bool, int, list[Move]]:
    """The Stjernen solver's first beam on a full-knowledge ``game``: whether its
    line wins, the cards it puts home, the line. The first beam has a fixed
    width, so it finds the same line on any machine and under any load (the
    fairness test needs that); ``budget`` only caps a runaway search."""
    from .stjernen import FIRST_BEAM, WON, Pace, beam
    from .stjernen.state import State, to_move

    deadline = budget.clock() + max(budget.seconds, CAP)
    score, line, _ = beam(State.from_game(game), FIRST_BEAM, deadline, budget.clock, Pace(), None)
    return score == WON, min(score, 104), [to_move(m) for m in line]


def _stjernen(game: Game, budget: Budget) -> FairResult:
    rng = random.Random(seed_of(game))
    votes: dict[Move, float] = {}
    starts: dict[Move, tuple[float, tuple[Move, ...]]] = {}
    wins = 0
    for _ in range(GUESSES):
        won, best, line = _stjernen_line(guess(game, rng), budget)
        if not line:
            continue
        worth = 1000.0 if won else float(best)
        wins += won
        start: list[Move] = []
        for m in line:
            start.append(m)
            if _reveals(m):
                break
        first = start[0]
        votes[first] = votes.get(first, 0.0) + worth
        if first not in starts or worth > starts[first][0]:
            starts[first] = (worth, tuple(start))
    if not votes:  # on every guess no line gets a card home beyond those home now
        onward = [m for m in game.legal_moves() if m.kind in ("deal", "collect")]
        return FairResult("none", tuple(onward[:1]), note=f"nothing gains on {GUESSES} guesses")
    first = max(votes, key=lambda m: votes[m])
    plan = starts[first][1]
    note = f"won on {wins} of {GUESSES} guesses of the stock"
    if first.kind == "deal":
        return FairResult("none", plan[:1], note=note)
    return FairResult("good", plan, note=note)


def follow(game: Game, budget: Budget, limit: int = 3000) -> int:
    """Play every fair hint on ``game`` (changed in place), as a player who presses
    Enter on each, until it is won, no hint is left, or ``limit`` actions were
    played; the number of actions played."""
    played = 0
    while not game.is_won and played < limit:
        hint = fair_search(game, budget)
        if not hint.moves:
            break
        for m in hint.moves:
            game.play(m)
            played += 1
    return played
