"""The controller's hand: pile keys, the cursor and the mouse.

A pile's key picks its cards up or puts the cards in hand on it; the cursor
(arrows, Space, ``+`` ``-``) and the mouse (a click, a drag, a double click)
do the same through other gestures. Mixed into
:class:`~termsolitaire.play.controller.Controller`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import Game, Move
from ..rules.cards import glyph
from .hand import Hand
from .outcome import CURSOR_ON, Navigator, Outcome, refused
from .words import Words

if TYPE_CHECKING:
    from .session import GameSession


GROUP = 3
"""Empty piles of one kind that all take the cards in hand are named by the
status line, not marked, from this many on."""


class Pointer:
    """What the player holds and points at."""

    if TYPE_CHECKING:  # given by the controller
        hand: Hand
        words: Words
        session: GameSession
        turning: bool
        dragging: bool
        along_piles: bool
        navigate: Navigator | None

        @property
        def game(self) -> Game: ...

        def refusal(self, action: str, hidden: bool | None = None) -> str | None: ...
        def play(self, move: Move | str) -> Outcome: ...
        def stock_play(self, action: Move) -> Outcome: ...
        def to_foundation(self, src: str) -> Outcome: ...
        def hint(self) -> Outcome: ...

        following: bool

        @property
        def finishing(self) -> bool: ...
        def finish_now(self) -> Outcome: ...

        hinted: Move | None

    def pile(self, name: str) -> Outcome:
        """A pile's key: pick it up, or put the cards in hand on it (Spider after
        ``t``: turn its top card). A refused chord puts the cards back (the cursor's
        and the mouse's drops keep them in hand, to try another place)."""
        if self.turning:
            return self.play(Move.turn(name))
        hand = self.hand
        if hand.src is None:
            return self.pick(name, None)
        if hand.src == name:
            if self.hint_in_hand():  # the hint's own chord, typed: its first key keeps it
                hand.by_hint = False
                return Outcome(message=self.in_hand_text(), marks=True)
            return self.put_back()
        from_hint = self.hint_in_hand()
        outcome = self.drop_on(name, strict=True)
        if outcome.refused:  # a chord is one gesture: the next key starts a new one
            hand.drop()
            if from_hint:
                return self.pick(name, None)
        return outcome

    def hint_in_hand(self) -> bool:
        """The cards in hand are the ones a hint picked up, not the player's: a pile
        that cannot take them is where the player starts a move of their own (after
        "Next: 2♠ 4→f", ``1`` takes column 1's card, rather than "2♠ goes only on the
        3♠"). The hint's own source (``4``, or a click on the 2♠) is where a player who
        types or clicks the hint's chord starts it: it keeps the cards in hand, which
        are the player's from then on (a second press puts them back)."""
        hinted, hand = self.hinted, self.hand
        return (
            hand.by_hint and hinted is not None and hinted.kind == "move" and hinted.src == hand.src
        )

    def held_down(self, name: str, count: int) -> str | None:
        """Why the ``count`` cards from the top of ``name`` (a click or a drag from
        a face-up card) cannot move together, or None. Taking the top ones instead,
        without a word, let the next click or the drop move cards not chosen."""
        game = self.game
        movable, cards = game.movable(name), game.pile(name)
        if not (count > movable >= 1 and count <= len(cards) and cards[-count][1]):
            return None
        w = self.words
        only = (
            f"only the {w.card(cards[-1][0])} on top moves"
            if movable == 1
            else f"only the top {movable} move together"
        )
        return f"{w.card(cards[-count][0])} cannot move: {only}"

    def pick(self, name: str, count: int | None) -> Outcome:
        """Take cards from ``name`` in hand, or do what the rules say a pick there
        means (deal from the stock, turn a face-down card)."""
        why = self.refusal("pile")
        if why:
            return refused(why)
        game = self.game
        action = game.click_action(name)
        if action is not None:
            return self.stock_play(action)
        refusal = game.pick_refusal(name)
        title = self.words.pile_title(name)
        if refusal and not game.pile(name) and title != self.words.pile_key(name):
            # The rules name the pile as the notation does, and the board rewrites
            # names it can tell from words (``t3``, ``f1``) but not a name that is
            # one: Stjernen's centre read "c is empty", beside its upturned pile c.
            # (A pile with no key of its own, as Spider's runs done, keeps its words.)
            refusal = f"{title} is empty"
        elif refusal and not game.pile(name) and name in game.foundations:
            # Penguin's four share the key f: a click on an empty one read "f is
            # empty". Named by the suit it takes, as the rules' own words name it.
            suit = game.foundation_suit(name)
            if suit is not None:
                refusal = f"The {glyph(suit)} foundation is empty"
        if refusal:
            self.hand.drop()
            return Outcome(message=refusal, refused=True, marks=True)
        if count:  # no more than the rules let move together
            why = self.held_down(name, count)
            if why is not None:
                self.hand.drop()
                return Outcome(message=why, refused=True, marks=True)
            count = max(1, min(count, game.movable(name)))
        self.hand.pick(name, count)
        return Outcome(message=self.in_hand_text(), marks=True)

    def in_hand_text(self) -> str:
        """What the status line says of a pick-up: what is in hand, no more. The
        board marks each place that takes it (one cell by its key), so the line
        does not list them again: a pick-up writes a few dozen bytes, not a
        sentence; it names only what :meth:`marked_targets` leaves to it (every
        empty cell), and with the marks off (a setting) every place. With no
        place to go, it says so, and how to put it back."""
        hand = self.hand
        assert hand.src is not None
        held = self.words.pile_title(hand.src)
        if not hand.targets():
            return f"{held} in hand: no place takes it now (Escape puts it back)"
        marked, kind = self.marked_targets()
        empty = f"an empty {kind.lower()}" if kind else ""
        if not self.target_marks:
            w = self.words
            places = [w.pile_key(p) for p in sorted(marked, key=w.pile_order)]
            places += [empty] if empty else []
            last = places.pop()
            return f"{held} in hand: to {', '.join(places)}{' or ' if places else ''}{last}"
        if kind:
            where = f"a marked pile or {empty}" if marked else empty
            return f"{held} in hand: to {where}"
        return f"{held} in hand"

    @property
    def target_marks(self) -> bool:
        """The board marks each place the cards in hand may go (the setting)."""
        services = self.session.services
        return services is None or services.settings.target_marks

    def marked_targets(self) -> tuple[set[str], str | None]:
        """The places the board marks (the marks on), one cell each, and the kind of pile
        (``Cell``) that the status line names instead: when at least
        :data:`GROUP` empty piles of one kind all take the cards in hand (Penguin's
        empty cells take any card), the line says "or to an empty cell" once
        rather than a mark on each (marking and unmarking seven cells was a fifth
        of a move's bytes, and told a player who knows the rules nothing). With
        the marks off (a setting), the line names them all."""
        targets = self.hand.targets()
        game, words = self.game, self.words
        kinds: dict[str, set[str]] = {}
        for name in game.pile_names:
            if not game.pile(name):
                kinds.setdefault(words.pile_title(name).partition(" ")[0], set()).add(name)
        for kind, empty in kinds.items():
            if len(empty) >= GROUP and empty <= targets:
                return targets - empty, kind
        return targets, None

    def put_back(self) -> Outcome:
        """The cards in hand go back where they were; the status line names them."""
        said = self.put_back_text()
        self.hand.drop()
        return Outcome(message=said, marks=True)

    def put_back_text(self) -> str:
        """What the status line says as the cards in hand go back: "Put back the
        9♦", "Put back the J♠ and the 2 cards on it" (what
        a pick-up's "Column 5 in hand" took)."""
        hand = self.hand
        assert hand.src is not None
        cards, count = self.game.pile(hand.src), hand.shown_count()
        if not cards or count < 1:
            return "Put back"
        card = self.words.card(cards[-min(count, len(cards))][0])
        on_it = {1: "", 2: " and the card on it"}.get(count, f" and the {count - 1} cards on it")
        return f"Put back the {card}{on_it}"

    def drop_on(self, dst: str, *, strict: bool = False) -> Outcome:
        """The cards in hand onto ``dst``; on a foundation, the card's own one (the
        one that takes it) whichever foundation the cursor or the pointer is on,
        as ``f`` does; a chord that names a foundation by its own key (``strict``)
        goes there or says why. A refused drop keeps the hand, so another
        destination can be tried."""
        hand = self.hand
        assert hand.src is not None
        game = self.game
        if dst in game.foundations:
            move = game.foundation_move(hand.src, dst)
            if not strict and not game.is_legal(move):
                move = game.foundation_move(hand.src)
        else:
            move = hand.move_to(dst)
        return self.play(move)

    def cancel(self) -> Outcome:
        """Escape: put the cards back, hide the cursor, forget a half-typed chord.
        The status line says which (it went blank: a player who had picked up a
        card by mistake could not tell whether Escape had done anything)."""
        hand = self.hand
        if self.turning:
            self.turning = False
            return Outcome(message="No card turned", marks=True)
        if hand.src is None and hand.cursor is None:
            return Outcome()
        if hand.src is None:
            hand.cursor = None
            return Outcome(message="Cursor off", marks=True)
        return self.put_back()

    def cursor(self, dx: int, dy: int) -> Outcome:
        """An arrow key: the cursor to the next pile that way, or along the pile."""
        why = self.refusal("cursor")
        if why:
            return refused(why)
        self.following = False  # Enter is the cursor's again (after a hint)
        hand = self.hand
        if self.navigate is None:
            return Outcome()
        if hand.cursor is None or (dx, dy) == (0, 0):
            hand.cursor = hand.cursor or hand.src or self.navigate(None, 0, 0)
            hand.cursor_count = None
            # Boards in rows show it silently (the status line keeps the last move).
            return Outcome(message=None if self.along_piles else CURSOR_ON, marks=True)
        along = self.along_piles and not dx
        if along and dy < 0 and (hand.cursor_count or 1) < hand.movable(hand.cursor):
            hand.cursor_count = (hand.cursor_count or 1) + 1
        elif along and dy > 0 and (hand.cursor_count or 1) > 1:
            hand.cursor_count = (hand.cursor_count or 1) - 1
        else:
            hand.cursor = self.navigate(hand.cursor, dx, dy) or hand.cursor
            hand.cursor_count = None
        return Outcome(marks=True)

    def grab(self) -> Outcome:
        """Space / Enter: pick up the cards under the cursor, or drop the hand there."""
        hand = self.hand
        if self.finishing:
            return self.finish_now()
        if self.following and hand.src is None:
            return self.hint()
        if hand.cursor is None:
            outcome = self.cursor(0, 0)
            if not outcome.refused:
                outcome.message = CURSOR_ON
            return outcome
        if hand.src is None:
            return self.pick(hand.cursor, hand.cursor_count)
        if hand.src == hand.cursor:
            return self.put_back()
        return self.drop_on(hand.cursor)

    def resize(self, step: int) -> Outcome:
        """``+`` / ``-``: one card more or fewer in hand (or under the cursor)."""
        why = self.refusal("more")
        if why:
            return refused(why)
        hand = self.hand
        if hand.src is not None:
            hand.resize(step)
            hand.cursor_count = hand.count if hand.cursor == hand.src else hand.cursor_count
            n = hand.shown_count()
            return Outcome(message=f"{n} card{'s' if n > 1 else ''} in hand", marks=True)
        if hand.cursor is not None:
            top = max(1, hand.movable(hand.cursor))
            hand.cursor_count = min(top, max(1, (hand.cursor_count or 1) + step))
            return Outcome(marks=True)
        return Outcome(message="Pick up cards first, then + or - changes how many")

    def click(self, pile: str, count: int, chain: int = 1) -> Outcome:
        """A click on a pile (``count`` cards from the top under the pointer; a
        double click has ``chain`` 2)."""
        why = self.refusal("click")
        if why:
            return refused(why)
        hand = self.hand
        if chain >= 2:
            return self.to_foundation(pile)
        if hand.src is None:
            return self.pick(pile, count or None)
        if hand.src == pile:
            if count and count != hand.shown_count():
                hand.pick(pile, count)
                return Outcome(marks=True)
            return self.pile(pile)
        from_hint = self.hint_in_hand()
        outcome = self.drop_on(pile)
        if outcome.refused and from_hint:  # the player's own pick, as a key's (:meth:`pile`)
            return self.pick(pile, count or None)
        return outcome

    def drag(self, pile: str, count: int) -> bool:
        """Cards of ``pile`` are dragged: pick them up (once); whether they move."""
        if self.refusal("drag") is not None:
            return False
        if not self.dragging:
            cards = self.game.pile(pile)
            if not cards or not cards[-1][1] or self.held_down(pile, count) is not None:
                return False
            self.dragging = True
            self.hand.pick(pile, min(count, self.hand.movable(pile)))
        return True

    def drop_dragged(self, dst: str | None) -> Outcome:
        """The dragged cards let go over ``dst`` (None: nowhere)."""
        if not self.dragging:
            return Outcome()
        self.dragging = False
        if dst is None or dst == self.hand.src:
            self.hand.drop()
            return Outcome(marks=True)
        return self.drop_on(dst)
