"""The board screen shared by the games: it renders the play controller.

Everything the player does (a key, a click, a drag) becomes one call on the
:class:`~termsolitaire.play.controller.Controller`, which plays it through the
rules core, or refuses it with its reason when the mode does not allow it (a
hidden, paused, finished or read-only board), and returns an
:class:`~termsolitaire.play.controller.Outcome`. :meth:`BoardScreen.do` is the
one place an outcome becomes what the player sees: the status line, the piles
(which redraw only the rows that changed), a save, a dialog, the results.
``check_action`` asks the controller too: the footer dims what cannot be done
now, and a dimmed key pressed anyway says why.

Each game's screen (:mod:`.penguin`, :mod:`.spider`, :mod:`.napoleon`,
:mod:`.stjernen`) names its ``GAME``, its piles' places and keys, and draws
what only it shows; naming ``GAME`` puts it in :data:`BOARDS`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.screen import Screen
from textual.widgets import Static

from termsolitaire.play.advice import FAIR_HINT
from termsolitaire.play.controller import HIDDEN, TOO_SMALL, Controller
from termsolitaire.play.modes import SOLO, Mode, Policy
from termsolitaire.play.session import GameSession, clock_text
from termsolitaire.play.tables import Table
from termsolitaire.rules import Card, Game, Move, info
from termsolitaire.rules.cards import rank_text
from termsolitaire.screens.boards.actions import BoardActions
from termsolitaire.screens.boards.bindings import FAIR_TOOLTIPS, key_actions, screen_bindings
from termsolitaire.screens.boards.movelist import NARROWEST_LIST, MoveList
from termsolitaire.screens.boards.registry import BOARDS, board_css
from termsolitaire.screens.boards.solving import SolverRunner
from termsolitaire.screens.boards.words import BoardWords
from termsolitaire.screens.notices import tell
from termsolitaire.screens.styled import StyledOnce
from termsolitaire.screens.typeahead import TYPED_ON
from termsolitaire.widgets.board import Board, Place, min_width
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.keyline import KeyLine
from termsolitaire.widgets.line import TextLine

if TYPE_CHECKING:
    pass

PALETTE_IN_FOOTER = 100
"""The narrowest window whose board footer shows ``^p palette`` too."""
NEVER_DIMMED = frozenset({"undo"})
"""Footer keys lit whenever the mode allows them, whatever the position: Undo
with nothing to take back says so when pressed. Dimming it at a game's start
cost every first move some 35 bytes to light it again (issue 33), and it told
nothing the header's "moves 0" does not."""


class BoardScreen(StyledOnce, BoardActions, Screen[None]):
    """One game on the felt. Subclasses give ``GAME``, ``PLACES``, ``NAV`` and keys."""

    CSS_PATH = board_css("board")
    GAME: ClassVar[str] = ""
    """The name of the game this board plays (its rules declaration's ``name``)."""
    PLACES: ClassVar[dict[str, Place]] = {}
    NAV: ClassVar[list[list[str]]] = []
    SLOTS: ClassVar[int] = 11
    SPLIT: ClassVar[int] = 7
    MIN_HEIGHT: ClassVar[int] = 18
    POLICY: ClassVar[Policy] = SOLO
    """What kind of board this is (a match's, a replay's: :mod:`termsolitaire.play.modes`)."""
    MOVES_WIDTH: ClassVar[int] = 21
    """The move list's width (``M``): beside the board when the window has room for
    both, over the board's right side when not."""
    ALONG_PILES: ClassVar[bool] = True
    """Up and down go along a pile before the next row (the circle and the star go
    pile to pile by geometry: :meth:`navigate` there finds the nearest)."""
    _pattern: ClassVar[re.Pattern[str] | None]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if cls.__dict__.get("GAME"):
            BOARDS[cls.GAME] = cls

    def __init__(
        self,
        session: GameSession,
        look: CardLook | None = None,
        *,
        notice: str | None = None,
        policy: Policy | None = None,
        table: Table | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.look = look or CardLook()
        self.notice = notice
        """A message to show instead of the hint when the board opens (a broken save)."""
        self.words = BoardWords(self.PLACES, screen_bindings(type(self)), lambda: self.look)
        self.controller = Controller(
            session,
            self.words,
            policy or self.POLICY,
            table,
            self.navigate,
            along_piles=self.ALONG_PILES,
        )
        self.too_small = False
        self._unseen_said: str | None = None
        """The status line as it was before a key typed on the hidden board was
        refused ("Enlarge the window to play"): what it says again once the
        board is seen (:meth:`seen_again`)."""
        self._footer: tuple[Any, ...] = ()
        self._marks: dict[str, dict[str, Any]] = {}
        self._marks_key: tuple[Any, ...] | None = None
        # The move list is mounted the first time M shows it: most games never do.
        self.move_list = MoveList(id="moves")
        self.move_list.styles.width = self.MOVES_WIDTH
        self.move_list.display = False
        self.board = self.make_board()
        self.solving = SolverRunner(self)
        self.controller.solver = self.solving.available

    def make_board(self) -> Board:
        """The widget that lays out the piles (the circle and the star have their own)."""
        return Board(self.PLACES, self.SLOTS, self.SPLIT, self.look, id="board")

    # What the controller holds, as the screens and the tests read it.
    session = property(lambda self: self.controller.session)
    hand = property(lambda self: self.controller.hand)
    over = property(lambda self: self.controller.over)

    @property
    def game(self) -> Game:
        return self.controller.game

    @property
    def time_limit(self) -> int:
        return int(self.controller.session.time_limit)

    @property
    def min_size(self) -> tuple[int, int]:
        return min_width(self.SLOTS), self.MIN_HEIGHT

    def compose(self) -> ComposeResult:
        self.prepare_first_frame()
        with Horizontal(id="header"):
            yield TextLine(self.title_text(), drop=self.sep, id="title")
            yield TextLine(self.stats_text(), align="right", id="stats")
            yield TextLine(clock_text(self.session.seconds_shown), align="right", id="clock")
        yield from self.felt()
        yield Static("", id="enlarge")
        with Horizontal(id="statusbar"):
            yield TextLine(
                self.words.status_text(self.notice or self.hint()), fit=True, id="status"
            )
            yield TextLine("", align="right", id="verdict")
        yield KeyLine(show_command_palette=self.app.size.width >= PALETTE_IN_FOOTER)

    def felt(self) -> ComposeResult:
        """What lies between the header and the status line: the board (and, once
        ``M`` asks for it, the move list docked on its right: :meth:`show_moves`)."""
        with Container(id="middle"):
            yield self.board

    def has_move_list(self) -> bool:
        """Whether ``M`` can show a move list here (a match's board, whose felt has a
        panel of its own, has no room for one)."""
        return self.move_list.is_attached or bool(self.query("#middle"))

    def show_moves(self, show: bool) -> bool:
        """Show or hide the move list; False when this board has no room for one
        (a match's board, whose felt has a panel of its own)."""
        moves = self.move_list
        if not moves.is_attached:
            if not show:
                return True
            if not self.has_move_list():
                return False
            self.query_one("#middle").mount(moves)
        moves.display = show
        return True

    def prepare_first_frame(self) -> None:
        """Place the piles for the size the board is going to have and hand them their
        cards, so that the first frame is the whole board, not an empty felt."""
        width, height = self.app.size
        self.board.place_piles((width, height - 3))
        self.show_board()

    def on_mount(self) -> None:
        if not self.app.is_running:
            # The app is ending (a player quit, or the link dropped) while this
            # screen was being built: its widgets may never have been composed,
            # and there is nothing to show or start.
            return
        if self.session.clock_running and not self.controller.policy.read_only:
            self.set_interval(1.0, self.tick)
        self.session.restart_clock()  # the clock counts from the first frame
        self.redraw()
        self.say(self.notice or self.hint())
        if self.notice:  # the status line cuts a long message: a toast shows it whole
            self.app.notify(self.notice, severity="warning", timeout=10)
        self.save_soon()
        self.solving.position_changed()
        self.call_after_refresh(self.finish_left)  # (after the first frame: issue 33)

    def finish_left(self) -> None:
        """A game left while the board finished it: the finish goes on."""
        left = self.controller.finish_left() if self.is_mounted else None
        if left is not None:
            self.do(left)

    def on_unmount(self) -> None:
        """The board is gone: another copy of the program may open this game now."""
        self.session.release()

    def on_resize(self) -> None:
        if not self.app.is_running:  # as in on_mount: the app ended while building
            return
        width, height = self.app.size
        need_w, need_h = self.min_size
        self.too_small = width < need_w or height < need_h
        # Beside the board, narrower if need be (Penguin's and Spider's 13 columns
        # at 80: its card counts then read "×3"); over the board's right side when
        # the window has no room even for that (a class of the list's, not the
        # screen's: the screen's would restyle every widget).
        room = width - need_w
        beside = room >= NARROWEST_LIST
        self.move_list.styles.width = min(self.MOVES_WIDTH, room) if beside else self.MOVES_WIDTH
        self.move_list.set_class(not beside, "-over")
        self.query_one(KeyLine).show_command_palette = width >= PALETTE_IN_FOOTER
        self.solving.fit()
        self.cover()

    @property
    def hidden_now(self) -> bool:
        """The board is not seen: the window is too small, or a dialog covers it."""
        return self.too_small or self.app.screen is not self

    def answered(self) -> None:
        """A dialog of this board's was answered (it is gone): the board is seen again."""
        self.controller.hidden = self.too_small

    def on_screen_suspend(self) -> None:
        self.controller.advance_clock()  # up to the dialog; covered, a solo clock stops
        self.controller.hidden = True

    def on_screen_resume(self) -> None:
        self.controller.advance_clock()
        self.controller.hidden = self.too_small
        self.update_footer()
        self.seen_again()

    def seen_again(self) -> None:
        """Once the board is seen, a "nothing plays while hidden" line no longer holds.
        (Nothing to do on a board the app took down as it ended: no status line.)"""
        if self.hidden_now:
            return
        for status in self.query("#status").results(TextLine):
            now = self.controller.seen_again(status.text)
            if now is not None:
                # what it said before the refusal: "Played K♥ a→d. Next: 3♣ a→f,
                # Enter plays it" came back as "Position a in hand", the last
                # move's line as a blank one (playtest37)
                self.say(self._unseen_said if self._unseen_said is not None else now)

    # What the tests and the other screens ask of a board.
    dragging = property(lambda self: self.controller.dragging)

    def start(self, game: Game) -> None:
        """Put ``game`` on this board (the one there counts as lost if it had a move)."""
        self.do(self.controller.start(game, None))

    def cover(self) -> None:
        """Show the board, or in its place why it is hidden."""
        c = self.controller
        c.advance_clock()
        c.hidden, c.too_small = self.hidden_now, self.too_small
        hidden = self.too_small or c.mode is Mode.PAUSED
        enlarge = self.query_one("#enlarge", Static)
        if self.too_small:
            width, height = self.app.size
            need_w, need_h = self.min_size
            x = self.look.words("×")
            enlarge.update(
                f"Enlarge the window to {need_w}{x}{need_h} to play\n(it is {width}{x}{height} now)"
            )
        elif hidden:
            enlarge.update("Paused: the clock stands still.\nP plays on.")
        if enlarge.display != hidden:
            enlarge.display = hidden
        if self.board.display == hidden:
            self.board.display = not hidden
        for middle in self.query("#middle"):
            if middle.display == hidden:  # set only to change it: each set lays out again
                middle.display = not hidden
        self.update_footer()
        self.seen_again()

    @property
    def sep(self) -> str:
        """The separator of header fields (ASCII terminals get a plain one)."""
        return self.look.sep

    def title_text(self) -> str:
        """``Spider · 2 suits · deal 7 · 10 min``: the game, its variant, the deal
        and the time limit, each when there is one (a position text need not
        name its deal: ``replay`` of ``solve --position``'s line read "deal None")."""
        g = self.game
        deal = f"deal {g.deal}" if g.deal is not None else ""
        parts = [g.title, info(g.name).variant_text(g.variant), deal]
        if self.time_limit:
            parts.append(f"{self.time_limit // 60} min")
        return self.sep.join(p for p in parts if p)

    def stats_text(self) -> str:
        return "  ".join(f"{name} {value}" for name, value in self.game.figures())

    def pile_marks(self, pile: str) -> dict[str, Any]:
        """What a pile shows besides its cards: ``placeholder``, ``badge``, other
        ``cards``, ``links`` (which cards continue a sequence, for folding)."""
        marks: dict[str, Any] = {}
        rank = self.game.starts_with(pile)
        if rank is not None and not self.game.pile(pile):
            suit = self.game.foundation_suit(pile)
            look = self.board.piles[pile].look if pile in self.board.piles else self.look
            marks["placeholder"] = look.label(Card(rank, suit)) if suit else rank_text(rank)
        return marks

    def hint(self) -> str:
        return "Press a pile's key, then where it goes; arrows move the cursor; ? for help"

    def set_look(self, look: CardLook) -> None:
        self.look = look
        self.board.set_look(look)
        self.redraw()

    def redraw(self) -> None:
        """Show the position: the piles, the header's figures and the clock."""
        self.show_board()
        self.query_one("#stats", TextLine).set(self.stats_text())
        self.show_clock()

    def show_board(self) -> None:
        """Hand each pile its cards and marks; the piles redraw only what changed."""
        hand = self.hand
        c = self.controller
        targets = c.marked_targets()[0] if hand.src is not None and c.target_marks else set()
        shown = hand.shown_count()
        all_marks = self.position_marks()
        for name, view in self.board.piles.items():
            view.show(
                selected=shown if name == hand.src else 0,
                target=name in targets,
                cursor=(hand.cursor_count or 1) if name == hand.cursor else None,
                **all_marks[name],
            )
        self.move_list.set_moves([self.move_text(m) for m in self.game.history])

    def position_marks(self) -> dict[str, dict[str, Any]]:
        """Each pile's cards, links and :meth:`pile_marks`, worked out again only when
        the position (or the look) changed: a cursor key moves marks, not cards."""
        game = self.game
        key = (game, len(game.log), self.look, self.board.geometry)
        if self._marks_key != key:
            marks: dict[str, dict[str, Any]] = {}
            for name in self.board.piles:
                marks[name] = {"cards": game.pile(name), "links": game.sequence_links(name)}
                marks[name].update(self.pile_marks(name))
            self._marks, self._marks_key = marks, key
        return self._marks

    def say(self, text: str) -> None:
        """Put ``text`` on the status line; piles are named as the board labels them."""
        status = self.query_one("#status", TextLine)
        shown = self.words.status_text(text)
        if shown not in (HIDDEN, TOO_SMALL):
            self._unseen_said = None
        elif status.text not in (HIDDEN, TOO_SMALL):
            self._unseen_said = status.text
        status.set(shown)
        self.solving.fit()  # the verdict gives way to a long message

    def show_clock(self) -> None:
        self.query_one("#clock", TextLine).set(clock_text(self.session.seconds_shown))

    def move_text(self, move: Move) -> str:
        """A move as the player plays it: ``7→3``, ``2→5 (3 cards)``, ``deal``."""
        return self.controller.move_text(move)

    def named_move_text(self, move: Move) -> str:
        """A move with the card it moves named first: ``2♥ e→f``."""
        return self.controller.named(move)

    def navigate(self, cursor: str | None, dx: int, dy: int) -> str | None:
        """Where the cursor goes from ``cursor`` (None: where it first shows): along
        the rows of ``NAV`` (the circle and the star go by geometry instead)."""
        rows = self.NAV
        r, c = next(
            ((r, row.index(cursor)) for r, row in enumerate(rows) if cursor in row),
            (len(rows) - 1, 0),
        )
        if cursor is None:
            return rows[r][c]
        if dx:
            return rows[r][(c + dx) % len(rows[r])]
        if 0 <= r + dy < len(rows):
            row = rows[r + dy]
            return row[min(c, len(row) - 1)]
        return cursor

    def update_footer(self) -> None:
        """Refresh the footer's keys when what they offer changed."""
        state = tuple(
            (self.check_action(name, ()), self.key_left_off(name), self.key_words(name))
            for b in screen_bindings(type(self))
            if b.show
            for name in [b.action.partition("(")[0]]
        )
        if state != self._footer:
            self._footer = state
            self.refresh_bindings()

    def key_left_off(self, action: str) -> bool:
        """Whether the key line leaves ``action``'s key off for now, the key still
        working (:data:`~termsolitaire.widgets.keyline.LEFT_OFF`): none here."""
        return False

    def key_words(self, action: str) -> str | None:
        """The words of ``action``'s key on the key line now, where they are not its
        binding's (:data:`~termsolitaire.widgets.keyline.WORDS`): ``H`` is "Fair
        hint" while the help sees only the cards the player sees, as the status
        line names what it gives. At 80 columns Stjernen's key hint leaves its
        verdict ("fair: …") no room, and nothing said which help was on."""
        if action == "hint" and self.solving.fair_now:
            return FAIR_HINT
        return None

    def key_tooltip(self, action: str) -> str | None:
        """What ``action``'s key does now, where it is not its binding's tooltip (the
        help's rows, the palette): the fair help's ``H``, ``S`` and ``D`` promise no
        winning line (:data:`~.bindings.FAIR_TOOLTIPS`)."""
        if action in FAIR_TOOLTIPS and self.solving.fair_now:
            return FAIR_TOOLTIPS[action]
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer hides what a hidden board cannot do and dims what cannot be
        done now (undo with nothing to take back, hints in a match)."""
        c = self.controller
        if c.never(action):
            return False
        # Behind a dialog the footer stays as it was; too small or paused, it hides.
        if c.refusal(action, hidden=self.too_small) is not None:
            return False if self.too_small or c.mode in (Mode.PAUSED, Mode.FINISHED) else None
        if action in NEVER_DIMMED:
            return True
        return True if c.why_not(action, hidden=self.too_small) is None else None

    def on_key(self, event: events.Key) -> None:
        """A key typed here stays with this screen (:mod:`..typeahead`); a key whose
        action cannot be done now says why instead of doing nothing."""
        setattr(event, TYPED_ON, self)
        action = key_actions(type(self)).get(event.key)
        if action is None or not self.is_current:
            return
        name = action.partition("(")[0]
        why = self.controller.why_not(name)
        if why is not None and (name in NEVER_DIMMED or self.check_action(name, ()) is not True):
            event.stop()
            event.prevent_default()
            self.say(why)

    def tick(self) -> None:
        c = self.controller
        c.hidden = self.hidden_now
        outcome = c.tick()
        if outcome.finished:
            self.show_clock()
            self.do(outcome)
        elif not self.over and self.is_current:
            self.show_clock()
        if outcome.save:
            self.autosave()

    def tell(self, messages: list[str] | str | None) -> None:
        """Storage messages for the player, as toasts (play goes on)."""
        tell(self, [messages] if isinstance(messages, str) else messages or [])

    def autosave(self) -> None:
        """Write this game's save (after every action, and on leaving)."""
        problem = self.controller.autosave()
        if problem:
            self.say(problem)
            self.tell(problem)

    def save_soon(self) -> None:
        """Autosave once the screen is repainted: the player sees a move without
        waiting for the disk."""
        self.call_after_refresh(self.autosave)
