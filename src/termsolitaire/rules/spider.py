"""Spider, the two-player StarGames variant.

The rules as players read them: docs/rules.md (also on screen: ``r`` in the
menu). The contract this module follows: the project's RULES.md, section 3.

Piles: ``t1``-``t10`` the tableau, left to right; ``stock``, face down, whole
packets of ten; ``done``, the completed runs. ``done`` keeps the 13 cards of
each run (so every card is always somewhere), but its line in position text
lists one suit letter per run, in the order they were completed (``done: S H``).
Game keys: ``score`` and ``moves``. Variant: ``suits`` = 1, 2 (default 1) or 4.

The deal. The variant's 104 cards, in the order of
:func:`~termsolitaire.rules.cards.pack` (``suits=1``: eight packs of spades;
``suits=2``: four of spades, then four of hearts; ``suits=4``: ♠ ♥ ♦ ♣ twice,
each pack A to K), are shuffled (:mod:`termsolitaire.rules.deal`, Spider's
stream). Shuffled cards 0-53 are dealt round by round, one card to each pile
left to right: rounds 1-5 to ``t1``...``t10`` (cards 0-9, 10-19, ..., 40-49),
round 6 to ``t1``...``t4`` (cards 50-53). Only the top card of each pile is
face up. Cards 54-103 form the stock so that they come out in that order:
card 54 is the top of the stock, and the first ``deal`` gives it to ``t1``,
card 55 to ``t2``, ... card 63 to ``t10``; the fifth deal ends with card 103,
the bottom card, on ``t10``.

Scoring (RULES.md, with its "Decided" list): a turn +2; a run removed +26 (also
when a deal or a redo completes it); all 104 cards in ``done`` +100; each move
(a transfer; deal and turn are not moves) -1; and +2 per card when the player's
move puts cards on a face-up card of their suit one rank higher, only if the
position it reaches (cards and places after completed runs are removed) was
never reached before in this game. Undo restores the board and takes back what
the move earned, but not its -1; ``moves`` counts every -1.

>>> from termsolitaire.rules import new_game
>>> g = new_game("spider", deal=1, suits=2)
>>> [len(g.pile(t)) for t in ("t1", "t4", "t5", "t10", "stock", "done")]
[6, 6, 5, 5, 50, 0]
>>> g.pile("t1")[-1], g.pile("t1")[0]
((Card(rank=11, suit='H'), True), (Card(rank=13, suit='S'), False))
>>> g.play("deal")
Move(kind='deal', src='', dst='', count=1)
>>> g.undo()
Traceback (most recent call last):
...
termsolitaire.rules.moves.UndoForbidden: A deal cannot be taken back
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, Self

from .cards import GLYPHS, SUIT_NAMES, Card, pack, rank_word
from .deal import shuffled
from .game import DownRule, Game, PositionKey, names
from .info import Choice, GameInfo
from .moves import DEAL, Move
from .registry import register

TABLEAU = names("t", 10)
PILES = (*TABLEAU, "stock", "done")
ORDER = {n: i for i, n in enumerate(TABLEAU)}
TURNS = {n: Move.turn(n) for n in TABLEAU}
PACKS = {1: "S" * 8, 2: "S" * 4 + "H" * 4, 4: "SHDC" * 2}
"""The suit of each of the eight packs of 13, per ``suits`` variant."""
PACKET = 10
RUN = 13
FULL = 104


def is_run(cards: Sequence[Card]) -> bool:
    """``cards`` (bottom to top) are one suit, each one rank below the one under it.

    >>> is_run([Card.parse("8H"), Card.parse("7H")]), is_run([Card.parse("8H"), Card.parse("7S")])
    (True, False)
    """
    return all(a.suit == b.suit and a.rank == b.rank + 1 for a, b in pairwise(cards))


class Spider(Game):
    """A game of Spider; see the module docstring for the deal and the scoring.

    >>> from termsolitaire.rules import new_game
    >>> g = new_game("spider", deal=1)
    >>> g.variant, g.score, g.moves, g.packets, g.runs
    ({'suits': 1}, 0, 0, 5, 0)
    """

    info = GameInfo(
        name="spider",
        title="Spider",
        blurb="ten piles, build K to A in suit; against the clock",
        stream=3,
        order=3,
        variants=(Choice("suits", "suit", tuple(PACKS), 1, "1, 2 or 4 suits"),),
        time_limits=(0, 5, 10, 15, 20),
    )
    pile_names = PILES
    stock_pile = "stock"
    game_keys = ("score", "moves")

    def __init__(self, **variant: int) -> None:
        self._score = 0
        self._moves = 0
        self._bonus = 0
        self._reached: set[PositionKey] = set()
        super().__init__(**variant)

    @classmethod
    def _dealt(cls, deal: int, **variant: int) -> Self:
        game = cls(**variant)
        game.check_variant()
        cards = shuffled(game._deck(), cls.info.stream, deal)
        for i, card in enumerate(cards[:54]):
            game._piles[TABLEAU[i % 10]].append(card)
        for n in TABLEAU:
            game._down[n] = len(game._piles[n]) - 1
        game._stock[:] = reversed(cards[54:])
        game._down["stock"] = len(game._stock)
        return game

    def _bind(self) -> None:
        self._tab = [(n, self._piles[n]) for n in TABLEAU]
        self._stock = self._piles["stock"]
        self._done = self._piles["done"]

    def _start(self) -> None:
        super()._start()
        self._reached = {self._line[0]}

    # ---------------------------------------------------------- reading

    @property
    def suits(self) -> int:
        """The variant: 1, 2 or 4 suits."""
        return self.variant["suits"]

    @property
    def score(self) -> int:
        """The points so far (RULES.md's scoring table)."""
        return self._score

    @property
    def moves(self) -> int:
        """Moves played, undone ones included: the number of -1s in the score."""
        return self._moves

    @property
    def runs(self) -> int:
        """How many complete runs have gone to ``done``."""
        return len(self._done) // RUN

    @property
    def packets(self) -> int:
        """How many deals the stock still holds."""
        return len(self._stock) // PACKET

    @property
    def is_won(self) -> bool:
        return len(self._done) == FULL

    def click_action(self, pile: str) -> Move | None:
        """The stock deals; a pile showing only face-down cards turns its top card."""
        if pile == "stock":
            return DEAL
        if pile in ORDER and self._piles[pile] and len(self._piles[pile]) == self._down[pile]:
            return TURNS[pile]
        return None

    def pick_refusal(self, pile: str) -> str | None:
        if pile == "done":
            return "Completed runs never move"
        return super().pick_refusal(pile)

    def _in_sequence(self, lower: Card, upper: Card) -> bool:
        return lower.suit == upper.suit and lower.rank == upper.rank + 1

    # ------------------------------------------------------------ rules

    def _legal(self) -> list[Move]:
        down = self._down
        tops: dict[int, list[str]] = {}
        bare: list[str] = []  # piles showing no face-up card: they take anything
        for n, p in self._tab:
            if len(p) == down[n]:
                bare.append(n)
            else:
                tops.setdefault(p[-1].rank, []).append(n)
        moves: list[Move] = []
        transfer = Move.transfer
        for n, p in self._tab:
            low = down[n]
            size = len(p)
            if size == low:
                if low:
                    moves.append(TURNS[n])
                continue
            k = 1
            c = p[-1]
            while True:
                for d in tops.get(c.rank + 1, ()):
                    moves.append(transfer(n, d, k))
                for d in bare:
                    moves.append(transfer(n, d, k))
                if size - k <= low:
                    break
                under = p[-k - 1]
                if under.suit != c.suit or under.rank != c.rank + 1:
                    break
                k += 1
                c = under
        if self._stock:
            moves.append(DEAL)
        return moves

    def _allows(self, m: Move) -> bool:
        """``m in self._legal()``, for the one move: a face-up same-suit run
        onto a card one rank above its bottom card or a pile showing no face-up
        card; a turn where a pile shows none; a deal while the stock lasts."""
        piles, down = self._piles, self._down
        if m.kind != "move":
            if m == DEAL:
                return bool(self._stock)
            if m != TURNS.get(m.src):
                return False
            p = piles[m.src]
            return bool(p) and len(p) == down[m.src]
        if m.src not in ORDER or m.dst not in ORDER or m.src == m.dst:
            return False
        p, k = piles[m.src], m.count
        if not 1 <= k <= len(p) - down[m.src]:
            return False
        for j in range(1, k):
            under, upper = p[-j - 1], p[-j]
            if under.suit != upper.suit or under.rank != upper.rank + 1:
                return False
        q = piles[m.dst]
        return len(q) == down[m.dst] or q[-1].rank == p[-k].rank + 1

    def _refusal(self, m: Move) -> str | None:
        if m.kind == "collect":
            return "Spider has no collect: deal puts a card on every pile"
        if m.kind == "deal":
            return "The stock is empty: all five packets are dealt"
        if m.src in ("stock", "done"):
            if m.kind == "turn":
                return "Only the top card of a tableau pile can be turned"
            if m.src == "done":
                return "Completed runs never move"
            return "Stock cards are dealt (deal), not moved"
        src, low = self._piles[m.src], self._down[m.src]
        if m.kind == "turn":
            if not src:
                return f"{m.src} is empty: nothing to turn"
            return f"{m.src} shows a face-up card: nothing to turn"
        if m.dst == "done":
            return "Only a complete run K to A joins the completed runs, and by itself"
        if m.dst == "stock":
            return "Nothing goes back to the stock"
        shown = len(src) - low
        if not src:
            return f"{m.src} is empty"
        if not shown:
            return f"{m.src} shows no face-up card (turn it first)"
        if m.count > shown:
            return f"{m.src} shows only {shown} face-up card{'s' if shown > 1 else ''}"
        if not is_run(src[-m.count :]):
            return "Only a same-suit run moves together (each card one rank lower)"
        card = src[-m.count]
        top = self._piles[m.dst][-1]
        if card.rank == 13:
            return f"{card.label} goes only on a pile that shows no face-up card"
        higher = rank_word(card.rank + 1)
        return f"{card.label} goes on a card one rank higher ({higher}), not on {top.label}"

    def _execute(self, m: Move) -> None:
        if m.kind == "move":
            dst = self._piles[m.dst]
            self._bonus = 0
            if len(dst) > self._down[m.dst] and dst[-1].suit == self._piles[m.src][-m.count].suit:
                self._bonus = 2 * m.count
            self._transfer(m)
            self._score -= 1
            self._moves += 1
            self._clear(sorted((m.src, m.dst), key=ORDER.__getitem__))
        elif m.kind == "turn":
            self._down[m.src] -= 1
            self._score += 2
        else:
            stock = self._stock
            for _, p in self._tab:
                p.append(stock.pop())
            self._down["stock"] = len(stock)
            self._clear(TABLEAU)

    def _clear(self, piles: Sequence[str]) -> None:
        """Send every complete run at the top of ``piles`` to done, pile by pile."""
        for n in piles:
            p = self._piles[n]
            while len(p) - self._down[n] >= RUN and p[-1].rank == 1 and is_run(p[-RUN:]):
                self._done.extend(p[-RUN:])
                del p[-RUN:]
                self._score += 26
                if len(self._done) == FULL:
                    self._score += 100

    def _touched(self, m: Move) -> Sequence[str]:
        if m.kind == "move":
            return (m.src, m.dst, "done")
        if m.kind == "turn":
            return (m.src,)
        return PILES

    def _state(self) -> tuple[Any, ...]:
        return (self._score, self._moves)

    def _set_state(self, state: tuple[Any, ...]) -> None:
        self._score, self._moves = state

    def undo(self) -> Move:
        """Take back the last move: the board and what it earned, but never its -1.

        ``moves`` counts every move and redo ever played, so it never goes down,
        and the score keeps one -1 for each of them (RULES.md).
        """
        moves = self._moves
        m = super().undo()
        self._score -= moves - self._moves
        self._moves = moves
        return m

    def _undo_barrier(self, m: Move) -> str | None:
        if m.kind == "deal":
            return "A deal cannot be taken back"
        if m.kind == "turn":
            return "A turned card cannot be turned back"
        return None

    def _on_played(self, m: Move) -> None:
        key = self._line[-1]
        if key not in self._reached:
            self._reached.add(key)
            if m.kind == "move":
                self._score += self._bonus

    # ------------------------------------------------------------- text

    def _run_suits(self) -> list[str]:
        return [self._done[i].suit for i in range(0, len(self._done), RUN)]

    def _key_values(self) -> list[tuple[str, str]]:
        return [("score", str(self._score)), ("moves", str(self._moves))]

    def _read_keys(self, values: dict[str, tuple[int, str]]) -> None:
        n, text = values["score"]
        if not re.fullmatch(r"-?\d+", text):
            raise ValueError(f"line {n}: score must be a whole number, not {text!r}")
        self._score = int(text)
        n, text = values["moves"]
        if not text.isdigit():
            raise ValueError(f"line {n}: moves must be a whole number >= 0, not {text!r}")
        self._moves = int(text)

    def _pile_text(self, name: str) -> str:
        if name == "done":
            return " ".join(self._run_suits()) or "-"
        return super()._pile_text(name)

    def _read_pile_text(self, name: str, line: int, value: str) -> bool:
        if name != "done":
            return False
        words = value.split()
        if words == ["-"]:
            return True
        if not words:
            raise ValueError(f"line {line}: done lists no runs; write '-' when there are none")
        packs = PACKS[self.suits]
        cards: list[Card] = []
        for w in words:
            s = w.upper()
            if s not in GLYPHS:
                raise ValueError(f"line {line}: {w!r} is not a suit letter (S H D C)")
            if s not in packs:
                raise ValueError(f"line {line}: the {self.suits}-suit game has no {SUIT_NAMES[s]}")
            if cards.count(Card(1, s)) == packs.count(s):
                raise ValueError(
                    f"line {line}: more than {packs.count(s)} completed runs of {SUIT_NAMES[s]}"
                )
            cards.extend(Card(r, s) for r in range(13, 0, -1))
        self._done[:] = cards
        return True

    def __str__(self) -> str:
        rows = super().__str__().split("\n")
        rows[-1] = f"{'done':>5}  " + (" ".join(GLYPHS[s] for s in self._run_suits()) or ".")
        return "\n".join(rows)

    # --------------------------------------------------------- validation

    def _deck(self) -> list[Card]:
        return pack(PACKS[self.suits])

    def _down_rule(self, pile: str) -> DownRule:
        if pile == "stock":
            return "all"
        return "none" if pile == "done" else "prefix"

    def _check_position(self, lines: dict[str, int]) -> None:
        size = len(self._stock)
        if size % PACKET or size > 5 * PACKET:
            raise ValueError(
                f"line {lines['stock']}: the stock holds {size} cards; "
                "it holds whole packets of ten, at most five"
            )
        for n, p in self._tab:
            if len(p) - self._down[n] >= RUN and is_run(p[-RUN:]) and p[-1].rank == 1:
                raise ValueError(
                    f"line {lines[n]}: {n} ends with a complete run, which goes to done at once"
                )


register(Spider)
