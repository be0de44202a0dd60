"""The play controller: everything a board does between a key and the rules core.

One :class:`Controller` under every board (the four games, a match, a replay, a
watched game) owns the game session, the hand (the cards picked up, the
cursor), the clock, the solver's advice and one explicit mode
(:mod:`.modes`). Every action is a method that returns an :class:`Outcome`:
what changed and the sentence to show. An action the mode does not allow
returns its reason and changes nothing: no key ever acts on a hidden, paused,
finished or read-only board, and a match clock never stops.

Plain Python, no Textual: the screens render the controller's state and turn
an :class:`Outcome` into a redraw, a save, a dialog or the results panel.

>>> from termsolitaire.rules import new_game
>>> from termsolitaire.play.session import GameSession
>>> c = Controller(GameSession(None, new_game("penguin", 5)))
>>> c.pile("t7").message  # the board marks the eight places that take it
't7 in hand'
>>> c.pile("t3").message, c.game.log
('Played 9D t7→t3', ('t7-t3',))
>>> c.pause().message, c.pile("t1").message
('Paused', 'Paused: P plays on')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..rules import Game, IllegalMove, Move, new_game
from ..rules.moves import COLLECT
from . import proof
from .advice import Advice
from .finish import finishing_line
from .hand import Hand
from .helping import Helping, no_hints
from .modes import ALWAYS, HAND, HELP, NEW, PLAY, SOLO, Mode, Policy
from .outcome import Navigator, Outcome, Question, refused
from .pointer import Pointer
from .session import GameSession
from .tables import Ended, Refused, Replaced, SoloTable, Table
from .words import PlainWords, Words, done_text, move_text, named_move_text

HIDDEN = "Enlarge the window (or close the dialog) to play"
"""Why a key does nothing on a board the player cannot see."""

TOO_SMALL = "Enlarge the window to play"
"""Why a key does nothing on a board hidden by a window too small for it (the
middle of the screen says the size it needs): no dialog to close there."""


ENDED_YOURS = "You ended your game"
"""A table's game ended with End, as its player reads it (a hot-seat match's
results name the player instead: both read that screen)."""

CLOCK_SAVED_EVERY = 15.0
"""Seconds of a timed game's clock between two saves while nothing is played: a
game killed without a word comes back with no more than this given back."""


@dataclass
class Controller(Pointer, Helping):
    """The game on a board and what the player may do to it now."""

    session: GameSession
    words: Words = field(default_factory=PlainWords)
    policy: Policy = SOLO
    table: Table | None = None
    navigate: Navigator | None = None
    hand: Hand = field(init=False)
    advice: Advice = field(init=False)
    paused: bool = False
    hidden: bool = False
    """The board is not on screen (too small a window, a dialog over it): no key
    acts on it, and a solo clock stands still."""
    too_small: bool = False
    """The window is too small for the board (one reason it is hidden)."""
    turning: bool = False
    """Spider's ``t`` was pressed: the next pile key turns that pile's top card."""
    dragging: bool = False
    along_piles: bool = True
    """Up and down go along a pile (over one card more or fewer) before they go to
    the next row (boards in rows; the circle and the star go pile to pile)."""
    solver: bool = False
    """The solver stands behind this board (the setting, and a solver for the game)."""
    hinted: Move | None = None
    """The move the last hint showed (played next: the following hint comes at once)."""
    following: bool = False
    """The last move played was a hint's: Enter asks for the next hint."""
    finish_rest: tuple[Move, ...] = ()
    """The foundation moves that finish the game (:mod:`.finish`), which the board
    plays by itself one at a time (:meth:`finish_step`) while the game's line is
    ``finish_at``: any action of the player's stops them."""
    finish_at: tuple[Move, ...] = ()
    clock_saved: float = 0.0
    """The game's clock at its last save by :meth:`tick` (a timed game's)."""

    def __post_init__(self) -> None:
        if self.table is None:
            self.table = SoloTable(self.session)
        self.hand = Hand(self.game)
        self.advice = Advice()
        if self.policy.read_only:
            self.session.over = True  # no clock, no results, no save
        else:  # a resumed game: what the solver found, as far as it still holds
            if self.session.proof is not None:
                proof.restore(self.advice, self.game, self.session.proof, self.fair_help)
            if self.session.won_line is not None:
                proof.restore_line(self.advice, self.game, self.session.won_line, self.fair_help)

    # ------------------------------------------------------------ state

    @property
    def game(self) -> Game:
        assert self.table is not None
        return self.table.game

    @property
    def fair_help(self) -> bool:
        """Whether the solver's help sees only what the player sees: the board's
        policy (a match), or the setting "fair hints" (on where there is none)."""
        services = self.session.services
        return self.policy.fair or services is None or services.settings.fair_hints

    def help_changed(self) -> None:
        """The kind of help changed (the setting "fair hints"): what was found is
        forgotten, but for a proof of loss or a winning line the new help may use
        (one that saw no face-down card: a position lost or won is so whatever the
        help sees)."""
        kept, line = proof.kept(self.advice), proof.kept_line(self.advice)
        self.advice = Advice()
        if kept is not None:
            proof.restore(self.advice, self.game, kept, self.fair_help)
        if line is not None:  # kept as on a resume: only one the new help may use
            proof.restore_line(self.advice, self.game, line, self.fair_help)

    @property
    def over(self) -> bool:
        assert self.table is not None
        return self.session.over or self.table.finished

    @property
    def finishing(self) -> bool:
        """The board is playing the foundation moves that finish the game."""
        return bool(self.finish_rest) and not self.over and self.game.history == self.finish_at

    def finish_step(self) -> Outcome | None:
        """The next foundation move of the finish, played; None when the finish is
        over (done, or the player acted meanwhile)."""
        if not self.finishing:
            self.finish_rest = ()
            return None
        move, self.finish_rest = self.finish_rest[0], self.finish_rest[1:]
        self.finish_at = (*self.finish_at, move)
        return self.play(move)

    def finish_now(self) -> Outcome:
        """Enter or Space while the board finishes: the rest goes home at once. A
        player following hints presses Enter again and again; at the cursor it would
        act on whatever the cursor is on (on Stjernen's empty stock, gathering the
        cards into a round they did not need)."""
        outcome = Outcome()
        while (step := self.finish_step()) is not None:
            outcome = step
        return outcome

    @property
    def mode(self) -> Mode:
        if self.policy.read_only:
            return Mode.READ_ONLY
        if self.over:
            return Mode.FINISHED
        if not self.policy.clock_stops:
            return Mode.MATCH
        return Mode.PAUSED if self.paused else Mode.PLAYING

    def refusal(self, action: str, hidden: bool | None = None) -> str | None:
        """Why ``action`` (a board action's name) cannot be done now; None: it can.
        ``hidden`` asks as if the board were (not) hidden."""
        if action in ALWAYS:
            return None
        mode, policy = self.mode, self.policy
        hidden = self.hidden if hidden is None else hidden
        if mode is Mode.READ_ONLY:
            return policy.refusal or "Nothing can be played here"
        if action == "pause":
            if not policy.clock_stops:
                return policy.no_pause
            if mode is Mode.FINISHED:
                return "This game is over: its clock has stopped"
            return "The board is hidden: nothing to pause" if hidden else None
        if hidden:
            return TOO_SMALL if self.too_small else HIDDEN
        if mode is Mode.PAUSED and action != "quit":
            return "Paused: P plays on"
        if action in NEW:
            if not policy.new_deals:
                return policy.no_new
            return None
        if action in HELP:
            if not policy.hints:
                return policy.no_help
            if mode is Mode.FINISHED:
                return "This game is over: no hints left to give"
            return None
        if action in PLAY and mode is Mode.FINISHED:
            return (
                "This game is over: N deals a new one"
                if policy.new_deals
                else "Your game has ended"
            )
        if action in PLAY or action in HAND:
            return None
        return None

    def barred(self, action: str) -> bool:
        """Whether this board's mode forbids ``action`` for good (no restart, new
        deal or hints in a match or the daily; no pause where the clock never
        stops): the help leaves it out too."""
        policy = self.policy
        if action in NEW and not policy.new_deals and not policy.read_only:
            return True
        if action in HELP and not policy.hints and not policy.read_only:
            return True
        return action == "pause" and not policy.clock_stops

    def never(self, action: str) -> bool:
        """Whether this board has no such thing at all (no stock, no foundations, no
        solver; no restart or hints in a match): the footer and the palette leave
        ``action`` out (pressed anyway, its key says why)."""
        if self.barred(action):
            return True
        game = self.game
        if action == "deal":
            return not game.stock_pile
        if action == "foundation":
            return not game.foundations
        if action in ("hint", "solution", "demo"):
            return self.policy.hints and not self.solver
        return False

    def why_not(self, action: str, hidden: bool | None = None) -> str | None:
        """Why ``action`` cannot be done now, by the mode or by the position (nothing
        to take back, an empty stock); None when it can. The footer dims these."""
        why = self.refusal(action, hidden)
        if why is not None:
            return why
        game = self.game
        if action == "undo" and not game.can_undo:
            try:
                game.copy().undo()
            except IllegalMove as e:
                return e.reason
            return "Nothing to take back"
        if action == "redo" and not game.can_redo:
            return "Nothing to play again"
        if action == "deal":
            stock = game.stock_pile
            if not stock:
                return f"{game.title} has no stock to deal from"
            dealt = game.click_action(stock)
            if dealt is None:
                return "The stock is empty"
            if dealt.kind == "deal" and not game.pile(stock):
                # Spider's stock dealt out still answers a click with a deal, to
                # say why not: the key line lit "d Deal" (Stjernen's collects).
                return game.why_illegal(dealt) or "The stock is empty"
        if action == "foundation" and not game.foundations:
            return f"{game.title} has no foundations"
        if action == "collect" and COLLECT not in self.hand.legal():
            return game.why_illegal(COLLECT) or "Nothing to collect now"
        if action in HELP and not self.solver:
            return no_hints(game)
        return None

    # ------------------------------------------------------------ the clock

    @property
    def clock_active(self) -> bool:
        """Whether time counts now: a match clock always; a solo clock while the
        game goes on, on screen and not paused; never on a read-only board."""
        if self.policy.read_only or self.over:
            return False
        if not self.policy.clock_stops:
            return True
        return not (self.paused or self.hidden)

    def advance_clock(self) -> None:
        """Add the time since the last call to the game's clock, when it runs."""
        if not self.policy.read_only:
            self.session.advance(active=self.clock_active)

    def tick(self) -> Outcome:
        """Once a second: the clock; the game ends when a time limit runs out."""
        self.advance_clock()
        if self.policy.saves and not self.over and self.session.time_is_up:
            return self.finish("Time is up")
        # The clock is saved with each action, and on SIGHUP and SIGTERM; a timed
        # game killed (kill -9, a power cut) after long thought without a move came
        # back with that time given back, every time.
        elapsed = self.game.elapsed
        timed = self.policy.saves and self.session.time_limit and not self.over
        if timed and abs(elapsed - self.clock_saved) >= CLOCK_SAVED_EVERY:
            self.clock_saved = elapsed
            return Outcome(save=True)
        return Outcome()

    def pause(self) -> Outcome:
        """``P``: hide the board and stop the clock, or play on (solo games only)."""
        why = self.refusal("pause")
        if why and not (self.paused and self.mode is Mode.PAUSED):
            return refused(why)
        self.advance_clock()
        self.paused = not self.paused
        self.hand.drop()
        return Outcome(message="Paused" if self.paused else "Playing on", marks=True)

    # ------------------------------------------------------------ playing

    def play(self, move: Move | str) -> Outcome:
        """Play ``move`` through the table; a refusal says why and keeps the hand."""
        if isinstance(move, str):
            move = Move.parse(move)
        why = self.refusal("click")
        if why:
            return refused(why)
        text = self.played_text(move)
        was_hint = move == self.hinted
        self.hinted, self.following = None, False
        outcome = self._act(str(move), lambda m: text)
        if was_hint and outcome.moved and not (outcome.finished or outcome.stuck or outcome.finish):
            return self.follow_on(outcome)  # (not when the board finishes by itself)
        return outcome

    def _act(self, action: str, said: Callable[[Move | None], str]) -> Outcome:
        """Play ``action`` (API.md text) on the table and say ``said(move)``."""
        self.turning = False
        if action in ("undo", "redo"):
            self.hinted, self.following = None, False
        try:
            assert self.table is not None
            move = self.table.act(action)
        except IllegalMove as e:
            return Outcome(message=e.reason, refused=True, marks=True)
        except Ended as e:
            self.hand.drop()
            return self._finished(e.reason, self.end_headline())
        except Replaced as e:
            self.hand = Hand(self.game, cursor=self.hand.cursor)
            return Outcome(message=e.reason, moved=True)
        except Refused as e:
            return Outcome(message=e.reason, refused=True, marks=True)
        cursor = self.hand.cursor
        self.hand = Hand(self.game, cursor=cursor)
        message = said(move)
        problem = self.table.problem
        outcome = Outcome(message=problem or message, moved=True)
        # Never the finish after an undo: the player is going back on purpose (and
        # an undo is how they stop the finish).
        return self.after_change(outcome, finish=action != "undo")

    def after_change(self, outcome: Outcome, finish: bool = True) -> Outcome:
        """After a change: the game may be won, ended or stuck, or ready to finish
        by itself (when ``finish``)."""
        assert self.table is not None
        if self.table.finished:
            return self._finished(outcome.message, self.end_headline(), moved=True)
        if self.game.is_won:
            return self.finish("Won!", outcome)
        if self.game.is_stuck:
            if not self.policy.new_deals:  # a match: no restart offered
                outcome.message = "No move leads anywhere new: undo (z), or End (e)"
            else:
                outcome.stuck = True
        elif finish and self.policy.saves and not self.finishing and self.begin_finish():
            outcome.finish = True
            outcome.message = f"{outcome.message}; the rest goes home: finishing"
        return outcome

    def begin_finish(self) -> bool:
        """Hold the foundation moves that finish the game from here, for
        :meth:`finish_step`; False when the game is not one of only those."""
        line = finishing_line(self.game)
        if line:
            self.finish_rest, self.finish_at = line, self.game.history
        return bool(line)

    def finish_left(self) -> Outcome | None:
        """A game opened with only foundation moves left, as when the player quit
        while the board was finishing it: the board finishes it now, as it would
        have (it sat there waiting for six ``f``). None where there is no such finish."""
        if not self.policy.saves or self.over or self.finishing or not self.begin_finish():
            return None
        return Outcome(message="Only foundation moves are left: finishing", finish=True)

    def end_headline(self) -> str:
        """Why a table's game ended, in words."""
        told = getattr(self.table, "headline", None)
        if isinstance(told, str):
            return told
        seat = getattr(self.table, "seat", None)
        reason = getattr(seat, "reason", None)
        if reason == "time":
            return "Time is up"
        if reason == "cleared":
            return "All cards discarded!"
        return ENDED_YOURS if seat is not None else "You ended the game"

    def finish(self, headline: str, outcome: Outcome | None = None) -> Outcome:
        """The game is over: recorded, its save gone; the results come next."""
        outcome = outcome or Outcome()
        if self.session.over and self.policy.saves:
            return outcome
        self.advance_clock()
        messages = self.session.finish() if self.policy.saves else []
        self.session.over = True
        return self._finished("; ".join(messages) or outcome.message, headline, moved=outcome.moved)

    def ended(self, headline: str) -> Outcome:
        """The table's game ended by itself (a match clock ran out)."""
        self.advance_clock()
        return self._finished(None, headline)

    def _finished(self, message: str | None, headline: str, moved: bool = True) -> Outcome:
        """The game is over: nothing in hand (the board redrawn without it: the
        marks of cards held when End was pressed stayed on the ended board), and
        the status line says why."""
        message = message or headline
        self.session.over = True
        self.hand.drop()
        self.turning = False
        return Outcome(message=message, moved=moved, finished=headline, marks=True)

    def played_text(self, move: Move) -> str:
        """What the status line says after ``move``: "Played 9♦ 7→3", "Dealt a
        row", "Turned pile 2", "Collected the piles into a new stock"."""
        return done_text(self.words, move, f"Played {named_move_text(self.words, self.game, move)}")

    def undo(self) -> Outcome:
        why = self.refusal("undo")
        if why:
            return refused(why)
        self.hand.drop()
        # Named once it is taken back: its cards are then where it started.
        return self._act("undo", lambda m: self.took_back_text(m) if m else "")

    def took_back_text(self, move: Move) -> str:
        """What the status line says once ``move`` is taken back."""
        if move.kind == "move":
            return f"Took back {self.named(move)}"
        what = {"deal": "the row dealt", "collect": "the collect"}.get(move.kind)
        return f"Took back {what or self.move_text(move)}"

    def redo(self) -> Outcome:
        why = self.refusal("redo")
        if why:
            return refused(why)
        self.hand.drop()
        redo = self.game.redo_list
        text = self.played_text(redo[-1]) if redo else "Played"
        return self._act("redo", lambda m: f"{text} again")

    def named(self, move: Move) -> str:
        return named_move_text(self.words, self.game, move)

    def move_text(self, move: Move) -> str:
        return move_text(self.words, move)

    def deal(self) -> Outcome:
        """The stock's action (deal, or collect where that is what the stock does now)."""
        why = self.refusal("deal")
        if why:
            return refused(why)
        stock = self.game.stock_pile
        action = self.game.click_action(stock) if stock else None
        if action is None:
            return refused(f"{self.game.title} has no stock to deal from")
        return self.stock_play(action)

    def stock_play(self, action: Move) -> Outcome:
        """The stock's own action, by its key, a click, Enter or a double click on it.
        Where that collects (Stjernen's empty stock), the player who dealt on with
        one press or click too many has the round's piles gone from the board: the
        status line says how to take it back. Not after the collect a hint asked
        for (no slip): the hint's next step is said instead, and the note, added
        after it, cut it at 80 columns ("Next: deal, Enter does…; z takes it back")."""
        hinted = action == self.hinted
        outcome = self.play(action)
        undo = self.words.action_key("undo")
        # (Not where a finish begun says so: an undo stops the finish anyway.)
        said = outcome.moved and not hinted and not self.finishing and self.game.can_undo
        if action == COLLECT and said and undo and not self.refusal("undo"):
            outcome.message = f"{outcome.message}; {undo} takes it back"
        return outcome

    def collect(self) -> Outcome:
        return self.play(COLLECT)

    def seen_again(self, said: str) -> str | None:
        """The board is seen again, its status line saying ``said``: if that was
        the refusal of a key typed while it was hidden, what to say now instead
        (what is in hand, or nothing); else None."""
        if said not in (HIDDEN, TOO_SMALL):
            return None
        return self.in_hand_text() if self.hand.src is not None else ""

    def turn(self) -> Outcome:
        """Spider's ``t``: turn the top card of the pile in hand or under the cursor
        where it can be turned, else of the pile whose key comes next (so ``t``
        then a pile's key turns that pile wherever the cursor was left)."""
        why = self.refusal("turn")
        if why:
            return refused(why)
        pile = self.hand.src or self.hand.cursor
        if pile is not None and self.game.is_legal(Move.turn(pile)):
            return self.play(Move.turn(pile))
        self.turning = True
        return Outcome(message="Turn which pile's top card? Press its key (Escape: never mind)")

    def end(self) -> Outcome:
        """``e``: end the game now, after a yes."""
        why = self.refusal("end")
        if why:
            return refused(why)
        return Outcome(ask=Question(self.end_question(), self.end_now, kind="end"))

    def end_question(self) -> str:
        if not self.policy.saves and self.policy.ending:
            return self.policy.ending.format(score=self.game.score)
        if not self.policy.saves:
            return (
                f"Your game ends with score {self.game.score}; "
                "the opponent plays on until their own game ends."
            )
        return f"It is recorded as it stands: score {self.game.score}, not won."

    def end_now(self) -> Outcome:
        """The player said yes to End."""
        if self.policy.saves:  # solo: the game is over with its score
            return self.finish("You ended the game")
        return self._act("end", lambda m: ENDED_YOURS)

    def foundation(self) -> Outcome:
        """``f``: the cards in hand, or under the cursor, to their foundation.
        Refused, it puts the cards in hand back, as a refused chord does: ``1 f``
        is one gesture, and the hand it kept made the player's next key, meant to
        pick a pile, a destination ("A♠ goes only on the 2♠" for ``7``; playtest40b)."""
        held = self.hand.src
        src = held or self.hand.cursor
        if src is None:
            why = self.refusal("foundation")
            if why:
                return refused(why)
            what = self.game.info.pile_word
            return Outcome(
                message=f"Pick a card first (its {what}'s key), then f sends it to its foundation"
            )
        outcome = self.to_foundation(src)
        if outcome.refused and held is not None and self.hand.src == held:
            self.hand.drop()
        return outcome

    def to_foundation(self, src: str) -> Outcome:
        """Send the top card of ``src`` to its foundation (a double click, ``f``).
        On a foundation itself: the card in hand goes there, if any; else the
        rules say why a foundation's cards stay (or what the pile's click does)."""
        why = self.refusal("foundation")
        if why:
            return refused(why)
        game = self.game
        if src in game.foundations:
            held = self.hand.src
            if held is not None and held not in game.foundations:
                return self.drop_on(src)
            self.hand.drop()
            return self.pick(src, None)
        action = game.click_action(src)
        if action is not None:  # a double click on the stock deals again
            return self.stock_play(action)
        return self.play(game.foundation_move(src))

    # ------------------------------------------------------------ other deals

    def confirm_abandon(self, what: str, then: Callable[[], Outcome]) -> Outcome:
        """Run ``then`` at once, or after a yes when the player asked to be asked."""
        if self.session.confirm_abandon():
            return Outcome(ask=Question(what, then))
        return then()

    def restart(self) -> Outcome:
        why = self.refusal("restart")
        if why:
            return refused(why)
        g = self.game
        return self.confirm_abandon(
            f"Restart deal {g.deal}",
            lambda: self.start(
                new_game(g.name, g.deal, **g.variant), f"Deal {g.deal} from the start"
            ),
        )

    def new_deal(self, number: int | None = None, say: str | None = None) -> Outcome:
        """Another deal of this game (``number``, else a random one), now."""
        g = self.game
        game = new_game(g.name, number, **g.variant)
        return self.start(
            game, say or (f"Deal {number}" if number is not None else f"New deal: {game.deal}")
        )

    def start(self, game: Game, message: str | None) -> Outcome:
        """Put ``game`` on the board: the one there counts as lost if it had a move."""
        messages = self.abandon()
        self.session = self.session.follow(game)
        self.table = SoloTable(self.session)
        self.hand = Hand(game)
        self.paused = self.turning = self.dragging = False
        self.advice = Advice()
        said = "; ".join([*messages, *([message] if message else [])])
        return Outcome(message=said or None, moved=True, new_game=True)

    def abandon(self) -> list[str]:
        """The game on the board gives way to another deal: lost, when it had a move."""
        if not self.policy.saves:
            return []
        self.advance_clock()
        return self.session.abandon()

    # ------------------------------------------------------------ saving

    def autosave(self) -> str | None:
        """Write this game's save; a message when that failed (play goes on)."""
        if not self.policy.saves or self.session.over:
            return None
        self.advance_clock()
        self.session.proof = proof.kept(self.advice)
        self.session.won_line = proof.kept_line(self.advice)
        return self.session.autosave()


def figures(game: Game) -> Mapping[str, str]:
    """The header's figures of ``game``, by name."""
    return dict(game.figures())
