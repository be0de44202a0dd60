"""The machinery every game shares: piles, play/undo/redo, position keys, stuck detection.

A game module subclasses :class:`Game` and supplies data and a few small methods:

- ``info``, its declaration (:class:`~termsolitaire.rules.info.GameInfo`: name,
  title, variants, clock; ``name`` and ``title`` are read from it), and
  ``pile_names``, ``game_keys``, ``foundations`` (class attributes);
- ``_dealt(deal, **variant)``: the position of a deal number;
- ``_legal()``: every distinct legal action (the only judge of legality);
  ``_allows(move)`` may answer for one move without the whole list, exactly
  as ``move in _legal()`` would (a fast path, checked against it);
- ``_refusal(move)``: the reason shown when a move is not legal;
- ``_execute(move)``: carry out a legal action; ``_touched(move)`` names the
  piles it may change, so the machinery can restore them exactly on undo;
- ``is_won`` and ``score`` where a win is not every card on the ``foundations``
  and the score not the cards there; optional hooks for game state, undo barriers and
  position text (see :mod:`termsolitaire.rules.text`).

The UI asks the game every rule question it has (python-chess's ``find_move``
is the model): :meth:`Game.foundation_move`, :meth:`Game.click_action`,
:meth:`Game.pick_refusal`, :meth:`Game.movable`, :meth:`Game.sequence_links`,
:meth:`Game.starts_with`, :meth:`Game.figures` and ``moves``. No screen keeps a
second copy of a rule.

The machinery never decides a rule: it asks ``_legal()``. Undo is exact because
it restores the touched piles and the game's own state from a record taken
before the action, rather than running the action backwards.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Self

from .cards import SUITS, Card, format_face, parse_face
from .deal import MAX_RANDOM_DEAL
from .info import GameInfo
from .moves import IllegalMove, Move, UndoForbidden

PositionKey = tuple[Any, ...]
DownRule = Literal["none", "prefix", "all"]
Record = tuple[tuple[tuple[str, list[Card], int], ...], tuple[Any, ...]]

JSON_FORMAT = "termsolitaire-game"
JSON_VERSION = 1
"""The JSON form of a game (:meth:`Game.to_json`; :mod:`termsolitaire.rules.text`)."""


class Game:
    """One game in progress: the one mutable object of the rules core."""

    info: ClassVar[GameInfo]
    """The game's declaration; ``name``, ``title`` and ``variant_keys`` come from it."""
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    pile_names: ClassVar[tuple[str, ...]] = ()
    game_keys: ClassVar[tuple[str, ...]] = ()
    variant_keys: ClassVar[tuple[str, ...]] = ()
    foundations: ClassVar[tuple[str, ...]] = ()
    """The foundation piles: cards go there to stay (empty: the game has none)."""
    stock_pile: ClassVar[str] = ""
    """The pile the player deals from (empty: the game has no stock)."""

    deal: int | None
    variant: dict[str, int]
    elapsed: float
    """Seconds of play so far; kept by the app and saved with the game."""

    # ------------------------------------------------------------------ setup

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "info" in cls.__dict__:
            cls.name = cls.info.name
            cls.title = cls.info.title
            cls.variant_keys = tuple(c.key for c in cls.info.variants)

    def __init__(self, **variant: int) -> None:
        self.deal = None
        if hasattr(self, "info"):
            variant = {**self.info.default_variant(), **variant}
        self.variant = dict(variant)
        self.elapsed = 0.0
        self._piles: dict[str, list[Card]] = {n: [] for n in self.pile_names}
        self._down: dict[str, int] = dict.fromkeys(self.pile_names, 0)
        self._history: list[Move] = []
        self._records: list[Record] = []
        self._redo: list[Move] = []
        self._line: list[PositionKey] = []
        self._log: list[str] = []
        self._start_text = ""
        self._bind()

    @classmethod
    def new(cls, deal: int | None = None, **variant: int) -> Self:
        """A new game from a deal number (``None`` draws a random one)."""
        if deal is None:
            deal = random.SystemRandom().randint(0, MAX_RANDOM_DEAL)
        game = cls._dealt(deal, **variant)
        game.deal = deal
        game._start()
        return game

    @classmethod
    def _dealt(cls, deal: int, **variant: int) -> Self:
        raise NotImplementedError

    def _start(self) -> None:
        """Make the current position the start position (empty history)."""
        self._history.clear()
        self._records.clear()
        self._redo.clear()
        self._log.clear()
        self._line = [self._key()]
        self._start_text = self.to_text()

    def _bind(self) -> None:
        """Hook: refresh any cached references to pile lists (after load and copy)."""

    # --------------------------------------------------------------- reading

    def pile(self, name: str) -> tuple[tuple[Card, bool], ...]:
        """The cards of pile ``name``, bottom to top, each with ``face_up``."""
        if name not in self._piles:
            raise KeyError(f"no pile {name!r} in {self.title}")
        down = self._down[name]
        return tuple((c, i >= down) for i, c in enumerate(self._piles[name]))

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves of the current line, from the start position."""
        return tuple(self._history)

    @property
    def redo_list(self) -> tuple[Move, ...]:
        """Moves that :meth:`redo` would play, next one last."""
        return tuple(self._redo)

    @property
    def log(self) -> tuple[str, ...]:
        """Every action in order, undos and redos included (what JSON saves)."""
        return tuple(self._log)

    @property
    def can_undo(self) -> bool:
        return bool(self._history) and self._undo_barrier(self._history[-1]) is None

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def is_won(self) -> bool:
        """Every card on the foundations (a game won otherwise says so itself)."""
        return self.score == sum(len(p) for p in self._piles.values())

    @property
    def score(self) -> int:
        """The cards on the foundations (a game scored otherwise says so itself)."""
        return sum(len(self._piles[f]) for f in self.foundations)

    def legal_moves(self) -> list[Move]:
        """Every distinct legal action in this position.

        An empty list means no action at all is possible.
        """
        return self._legal()

    def _legal(self) -> list[Move]:
        raise NotImplementedError

    def _allows(self, m: Move) -> bool:
        """Whether ``m`` is legal here: exactly ``m in self._legal()``, which
        stays the only judge. Hook: a game may answer for the one move without
        building the whole list, as long as it answers the same for every move
        in every position (tests/rules/test_allows.py checks each game's on
        random positions, against the list)."""
        return m in self._legal()

    def is_legal(self, move: Move | str) -> bool:
        try:
            m = Move.parse(move) if isinstance(move, str) else move
        except IllegalMove:
            return False
        return self._allows(m)

    def why_illegal(self, move: Move | str) -> str | None:
        """``None`` when ``move`` is legal, else the reason shown to the player."""
        try:
            m = Move.parse(move) if isinstance(move, str) else move
        except IllegalMove as e:
            return e.reason
        if self._allows(m):
            return None
        return self._name_check(m) or self._refusal(m) or f"{m} is not allowed here"

    def _name_check(self, m: Move) -> str | None:
        for name in (m.src, m.dst):
            if name and name not in self._piles:
                return f"There is no pile {name!r} in {self.title}"
        if m.kind == "move" and m.src == m.dst:
            return "A card cannot move onto its own pile"
        return None

    def _refusal(self, move: Move) -> str | None:
        raise NotImplementedError

    @property
    def is_stuck(self) -> bool:
        """True when no legal action exists, or every one leads back to a position on
        the current line of play (the start position or one reached since and not
        undone). A won game is not stuck."""
        if self.is_won:
            return False
        line = set(self._line)
        for m in self._legal():
            record = self._apply(m)
            key = self._key()
            self._revert(record)
            if key not in line:
                return False
        return True

    # ------------------------------------------------- questions the UI asks

    @property
    def moves(self) -> int:
        """The moves figure shown to the player: the moves on the current line
        (Spider counts every move played, undone ones included)."""
        return len(self._history)

    def figures(self) -> list[tuple[str, str]]:
        """The figures a header shows, in order: ``[("score", "4"), ("moves", "2")]``."""
        return [("score", str(self.score)), ("moves", str(self.moves))]

    def foundation_suit(self, pile: str) -> str | None:
        """The suit foundation ``pile`` takes, or None while any suit may start it.

        Hook; the default is the fixed order of API.md: ``f1``-``f4`` hold ♠ ♥ ♦ ♣.
        """
        if pile in self.foundations:
            return SUITS[self.foundations.index(pile)]
        return None

    def foundation_move(self, src: str, dst: str | None = None) -> Move:
        """The move that sends the top card of ``src`` to a foundation.

        A legal one when there is one (``dst`` first, when it takes the card);
        else the move the player means (to ``dst``, or to the foundation of the
        card's suit, or an empty one), which :meth:`play` refuses with its reason.

        >>> from termsolitaire.rules import new_game
        >>> g = new_game("penguin", deal=5)
        >>> str(g.foundation_move("t4")), g.why_illegal(g.foundation_move("t1"))
        ('t4-f2', 'Next on the ♥ foundation is the 2♥')
        """
        if not self.foundations:
            return Move.transfer(src, dst or src)
        found = self.foundations
        fits = [m for m in self._legal() if m.kind == "move" and m.src == src and m.dst in found]
        if dst is not None:
            return next((m for m in fits if m.dst == dst), Move.transfer(src, dst))
        if fits:
            return fits[0]
        cards = self._piles.get(src, [])
        suit = cards[-1].suit if cards else None
        empty = [f for f in self.foundations if not self._piles[f]]
        for f in self.foundations:
            if self.foundation_suit(f) == suit and suit is not None:
                return Move.transfer(src, f)
        return Move.transfer(src, (empty or self.foundations)[0])

    def click_action(self, pile: str) -> Move | None:
        """What a click (or a pick) on ``pile`` does when it is not picking cards up:
        deal from a stock, turn a face-down top card; None: pick the cards up."""
        return None

    def pick_refusal(self, pile: str) -> str | None:
        """Why no card of ``pile`` can be picked up at all, or None."""
        if pile in self.foundations and self._piles[pile]:
            return "Cards on the foundations never move"
        if not self._piles[pile]:
            return f"{pile} is empty"
        return None

    def movable(self, pile: str) -> int:
        """How many cards from the top of ``pile`` could move together as one unit
        under the build rule (0 when none: empty, face down or a foundation)."""
        cards = self._piles[pile]
        if pile in self.foundations or len(cards) <= self._down[pile]:
            return 0
        return top_run(cards, self._down[pile], self._in_sequence)

    def sequence_links(self, pile: str) -> tuple[bool, ...]:
        """For each card of ``pile``, bottom to top: whether it continues a built
        sequence on the card below it (both face up). Drawing folds such runs."""
        cards, down = self._piles[pile], self._down[pile]
        return tuple(i > down and self._in_sequence(cards[i - 1], c) for i, c in enumerate(cards))

    def _in_sequence(self, lower: Card, upper: Card) -> bool:
        """Hook: ``upper`` lying on ``lower`` is part of a sequence that moves as one."""
        return False

    def starts_with(self, pile: str) -> int | None:
        """The rank an empty ``pile`` takes first (shown on the empty place), or None
        when any card or none may start it."""
        return None

    # --------------------------------------------------------------- playing

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or its text) and return it.

        An illegal move raises :class:`IllegalMove` with the reason and changes nothing.
        """
        m = Move.parse(move) if isinstance(move, str) else move
        if not self._allows(m):
            raise IllegalMove(self.why_illegal(m) or f"{m} is not allowed here")
        self._do(m)
        self._redo.clear()
        self._log.append(str(m))
        return m

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._history:
            raise IllegalMove("Nothing to undo")
        reason = self._undo_barrier(self._history[-1])
        if reason:
            raise UndoForbidden(reason)
        m = self._history.pop()
        self._revert(self._records.pop())
        self._line.pop()
        self._redo.append(m)
        self._log.append("undo")
        return m

    def redo(self) -> Move:
        """Play again the last move that undo took back and return it."""
        if not self._redo:
            raise IllegalMove("Nothing to redo")
        m = self._redo.pop()
        self._do(m)
        self._log.append("redo")
        return m

    def _do(self, m: Move) -> None:
        self._records.append(self._apply(m))
        self._history.append(m)
        self._line.append(self._key())
        self._on_played(m)

    def _apply(self, m: Move) -> Record:
        piles, down = self._piles, self._down
        record = (
            tuple((n, list(piles[n]), down[n]) for n in self._touched(m)),
            self._state(),
        )
        self._execute(m)
        return record

    def _revert(self, record: Record) -> None:
        saved, state = record
        for name, cards, down in saved:
            self._piles[name][:] = cards
            self._down[name] = down
        self._set_state(state)

    def _execute(self, m: Move) -> None:
        raise NotImplementedError

    def _touched(self, m: Move) -> Sequence[str]:
        return (m.src, m.dst)

    def _transfer(self, m: Move) -> None:
        """Move the top ``m.count`` cards of ``m.src`` onto ``m.dst``, faces kept up."""
        src = self._piles[m.src]
        moving = src[-m.count :]
        del src[-m.count :]
        self._piles[m.dst].extend(moving)
        if self._down[m.src] > len(src):
            self._down[m.src] = len(src)

    # ------------------------------------------------------------- hooks

    def _state(self) -> tuple[Any, ...]:
        """The game's own values besides the piles (score, round ...), for exact undo."""
        return ()

    def _set_state(self, state: tuple[Any, ...]) -> None:
        pass

    def _undo_barrier(self, m: Move) -> str | None:
        """The reason ``m`` cannot be undone, or ``None``."""
        return None

    def _on_played(self, m: Move) -> None:
        """Called after the player's move or redo (not during stuck detection)."""

    def _key_extra(self) -> tuple[Any, ...]:
        return ()

    def _key(self) -> PositionKey:
        """A hashable key of the position: the cards and their places."""
        down = self._down
        # a list, not a generator resumed once per pile: a key is made after every
        # move, and the solvers' shortening pass plays many
        piles = [bytes([down[n], *[c.code for c in p]]) for n, p in self._piles.items()]
        extra = self._key_extra()
        return (*piles, *extra) if extra else tuple(piles)

    # ------------------------------------------------------------- text

    def _variant_text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.variant.items())

    def _key_values(self) -> list[tuple[str, str]]:
        """Hook: the game's own ``key: value`` lines, in ``game_keys`` order."""
        return []

    def to_text(self) -> str:
        """The position text of API.md (one ``key: value`` line each)."""
        lines = [f"game: {self.name}"]
        if self.variant_keys:
            lines.append(f"variant: {self._variant_text()}")
        if self.deal is not None:
            lines.append(f"deal: {self.deal}")
        lines.extend(f"{k}: {v}" for k, v in self._key_values())
        lines.extend(f"{name}: {self._pile_text(name)}" for name in self.pile_names)
        return "\n".join(lines) + "\n"

    def _pile_text(self, name: str) -> str:
        """Hook: the value of a pile's line (cards bottom to top, ``-`` when empty)."""
        cards, down = self._piles[name], self._down[name]
        return " ".join(format_face(c, i >= down) for i, c in enumerate(cards)) or "-"

    def _read_pile_text(self, name: str, line: int, value: str) -> bool:
        """Hook: read a pile line written in a game's own form (Spider's ``done``).

        Return True when handled; False lets the standard card reader read it.
        """
        return False

    def __str__(self) -> str:
        """A readable board: one pile a line, cards as a player reads them."""
        head = f"{self.title}" + (f" #{self.deal}" if self.deal is not None else "")
        if self.variant:
            head += f" ({self._variant_text()})"
        rows = [head, *(f"{k}: {v}" for k, v in self._key_values())]
        width = max(len(n) for n in self.pile_names)
        for name in self.pile_names:
            down = self._down[name]
            cards = self._piles[name]
            shown = " ".join(c.label if i >= down else "##" for i, c in enumerate(cards))
            rows.append(f"{name:>{width}}  {shown or '.'}")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} deal={self.deal} moves={len(self._history)}>"

    @property
    def start_text(self) -> str:
        """The position text of the start position (what JSON saves as ``start``)."""
        return self._start_text

    def to_json(self) -> str:
        """The whole game as JSON (see :mod:`termsolitaire.rules.text`)."""
        data = {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "game": self.name,
            "start": self._start_text,
            "log": list(self._log),
            "elapsed": self.elapsed,
        }
        return json.dumps(data, ensure_ascii=False)

    def set_up(self, values: dict[str, tuple[int, str]]) -> None:
        """Fill this new, empty game from position text (``values[key] = (line,
        text)``: its game keys and piles; the variant and deal are already set),
        check it completely and make it the start position. ValueError("line N:
        ...") names the first thing wrong (:func:`~termsolitaire.rules.text.from_text`
        reads the text into ``values``)."""
        for key in self.game_keys:
            if key not in values:
                raise ValueError(f"line 0: missing {key!r}")
        self._read_keys({k: values[k] for k in self.game_keys})
        lines: dict[str, int] = {}
        for name in self.pile_names:
            if name not in values:
                raise ValueError(f"line 0: missing pile {name!r}")
            n, value = values[name]
            lines[name] = n
            if not self._read_pile_text(name, n, value):
                _read_pile(self, name, n, value)
        _check_cards(self, lines)
        self._check_position(lines)
        self._start()

    # --------------------------------------------------------- validation

    def _deck(self) -> list[Card]:
        """The cards of this game and variant, each as often as the game has it."""
        raise NotImplementedError

    def _down_rule(self, pile: str) -> DownRule:
        """Where face-down cards may lie: nowhere, a bottom prefix, or the whole pile."""
        return "none"

    def check_variant(self) -> None:
        """Raise ValueError when ``self.variant`` is not one the declaration offers."""
        choices = {c.key: c for c in self.info.variants}
        if not choices:
            if self.variant:
                raise ValueError(f"{self.title} has no variants")
            return
        offer = ", ".join(f"{c.key}={or_list(c.values)}" for c in choices.values())
        for key, value in self.variant.items():
            choice = choices.get(key)
            if choice is None:
                raise ValueError(f"{self.title} has no variant {key!r}; it has {offer}")
            if isinstance(value, bool) or not isinstance(value, int) or value not in choice.values:
                raise ValueError(f"{self.title} is played with {offer}, not {value!r}")

    def _read_keys(self, values: dict[str, tuple[int, str]]) -> None:
        """Hook: read the game's own keys (``values[key] = (line, text)``)."""

    def _check_position(self, lines: dict[str, int]) -> None:
        """Hook: check the shape of a position read from text; raise ValueError('line N: ...')."""

    # ------------------------------------------------------------- copying

    def copy(self) -> Self:
        """An independent copy: position, history, redo list, log and all."""
        new = object.__new__(type(self))
        own = new.__dict__
        for k, v in self.__dict__.items():
            # isinstance with a tuple, four times faster than with a union type: the
            # solvers' shortening pass copies a game for each move it tries
            if isinstance(v, _MUTABLE):
                v = v.copy()
            elif isinstance(v, dict):
                v = {a: (b.copy() if isinstance(b, _MUTABLE) else b) for a, b in v.items()}
            own[k] = v
        new._bind()
        return new


_MUTABLE = (list, set)
"""What :meth:`Game.copy` copies inside a dict attribute (the piles' lists)."""


def or_list(values: tuple[int, ...]) -> str:
    """``1, 2 or 4`` (the rules core's words, and the command line's)."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def top_run(cards: Sequence[Card], down: int, follows: Any) -> int:
    """Length of the run at the top of ``cards`` above the ``down`` face-down ones,
    where ``follows(lower, upper)`` says ``upper`` may lie on ``lower`` in a run."""
    n = len(cards)
    if n <= down:
        return 0
    k = 1
    while n - k - 1 >= down and follows(cards[n - k - 1], cards[n - k]):
        k += 1
    return k


def names(prefix: str, count: int) -> tuple[str, ...]:
    """``names("t", 3) == ("t1", "t2", "t3")``."""
    return tuple(f"{prefix}{i}" for i in range(1, count + 1))


def _read_pile(game: Game, name: str, n: int, value: str) -> None:
    words = value.split()
    if words == ["-"]:
        return
    if not words:
        raise ValueError(f"line {n}: pile {name!r} has no cards; write '-' for an empty pile")
    cards = []
    down = 0
    seen_up = False
    rule = game._down_rule(name)
    for w in words:
        try:
            card, up = parse_face(w)
        except ValueError:
            raise ValueError(f"line {n}: {w!r} is not a card") from None
        if not up:
            if rule == "none":
                raise ValueError(f"line {n}: face-down card {w!r} where {game.title} has none")
            if seen_up:
                raise ValueError(f"line {n}: face-down card {w!r} above a face-up card")
            down += 1
        else:
            if rule == "all":
                raise ValueError(
                    f"line {n}: face-up card {w!r} in {name!r}, whose cards lie face down"
                )
            seen_up = True
        cards.append(card)
    game._piles[name][:] = cards
    game._down[name] = down


def _check_cards(game: Game, lines: dict[str, int]) -> None:
    want = Counter(game._deck())
    have: Counter[Any] = Counter()
    for name in game.pile_names:
        for card in game._piles[name]:
            have[card] += 1
            if have[card] > want[card]:
                times = want[card]
                raise ValueError(
                    f"line {lines[name]}: {card} once too often "
                    f"({game.title} has it {times} time{'s' if times != 1 else ''})"
                )
    missing = want - have
    if missing:
        listed = " ".join(str(c) for c in sorted(missing, key=lambda c: c.code))
        raise ValueError(f"line 0: cards missing: {listed}")
