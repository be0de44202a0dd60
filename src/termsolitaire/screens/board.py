"""The board screen shared by the games: it owns the game, the piles draw it.

Everything the player does arrives here (a key binding, a click, a drop),
becomes a :class:`~termsolitaire.rules.Move` and goes to ``game.play``; a
refusal shows the rules' reason on the status line and changes nothing.
Every rule question (where a card goes to its foundation, what a click on
the stock means, how many cards move together) is asked of the game. After
any change the screen hands each pile its new cards and marks; the piles
redraw only the rows that changed. Saving, the clock and the statistics go
through the :class:`~termsolitaire.session.GameSession`.

Each game's screen (:mod:`.penguin`, :mod:`.spider`, :mod:`.napoleon`,
:mod:`.stjernen`) names its ``GAME``, its piles' places and keys, and draws
what only it shows; naming ``GAME`` puts it in :data:`BOARDS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, ItemsView, Iterator, KeysView, ValuesView
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from termsolitaire.rules import Card, Game, IllegalMove, Move, info, new_game
from termsolitaire.rules.cards import rank_text
from termsolitaire.session import GameSession, clock_text
from termsolitaire.widgets.board import Board, Place, min_width
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.line import TextLine

from .cursor import CursorMixin
from .mouse import MouseMixin
from .selection import Hand
from .solving import SolverHelp
from .typeahead import KeysFollowTheScreen

if TYPE_CHECKING:
    from .results import ResultsScreen

ASCII_SUITS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "·": "|"})
PALETTE_IN_FOOTER = 100
"""The narrowest window whose board footer shows ``^p palette`` too."""


class BoardMap(dict[str, "type[BoardScreen]"]):
    """Each game's board screen class, by game name, filled as the classes are defined.

    A game's board module (``screens/<game>.py``) is imported when it is first
    asked for: ``BOARDS[name]`` and ``name in BOARDS`` import that game's board
    only, and reading the map whole (iterating, ``len``, ``keys``, ``items``,
    ``values``) imports every registered game's board first (:mod:`.boards`). So
    ``termsolitaire penguin`` starts without importing the other boards.
    """

    def _one(self, name: object) -> None:
        if isinstance(name, str) and not dict.__contains__(self, name):
            from .boards import load_board

            load_board(name)

    def _all(self) -> None:
        from .boards import load_boards

        load_boards()

    def __getitem__(self, name: str) -> type[BoardScreen]:
        self._one(name)
        return dict.__getitem__(self, name)

    def __contains__(self, name: object) -> bool:
        self._one(name)
        return dict.__contains__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        self._one(name)
        return dict.get(self, name, default)

    def __iter__(self) -> Iterator[str]:
        self._all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._all()
        return dict.__len__(self)

    def keys(self) -> KeysView[str]:
        self._all()
        return dict.keys(self)

    def items(self) -> ItemsView[str, type[BoardScreen]]:
        self._all()
        return dict.items(self)

    def values(self) -> ValuesView[type[BoardScreen]]:
        self._all()
        return dict.values(self)


BOARDS = BoardMap()
"""Each game's board screen class, by game name (see :class:`BoardMap`)."""


class BoardScreen(KeysFollowTheScreen, SolverHelp, CursorMixin, MouseMixin, Screen[None]):
    """One game on the felt. Subclasses give ``GAME``, ``PLACES``, ``NAV`` and keys."""

    CSS_PATH: ClassVar[list[str]] = [str(Path(__file__).with_name("board.tcss"))]
    """Absolute, so a board defined elsewhere (a program's own game) finds it too."""
    GAME: ClassVar[str] = ""
    """The name of the game this board plays (its rules declaration's ``name``)."""
    PLACES: ClassVar[dict[str, Place]] = {}
    NAV: ClassVar[list[list[str]]] = []
    SLOTS: ClassVar[int] = 11
    SPLIT: ClassVar[int] = 7
    MIN_HEIGHT: ClassVar[int] = 18
    PILE_WORD: ClassVar[str] = "pile"
    """What the game calls a pile, for messages ("position" in Napoleon)."""
    CLOCK_PAUSES: ClassVar[bool] = True
    """Solo play: the clock stops while the board is covered or paused. A match's
    clock never does (its screen sets this False)."""
    _pattern: ClassVar[re.Pattern[str] | None]
    WHEN_HIDDEN: ClassVar[frozenset[str]] = frozenset({"help", "rules", "quit", "pause"})
    """The only actions while the board is hidden (too small a window, paused)."""

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
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.session = session
        self.notice = notice
        """A message to show instead of the hint when the board opens (a broken save)."""
        self.look = look or CardLook()
        self.hand = Hand(session.game)
        self.dragging = False
        self.paused = False
        self.too_small = False
        self._covered = False  # the footer's keys were last dimmed for a hidden board
        self._marks: dict[str, dict[str, Any]] = {}
        self._marks_key: tuple[Any, ...] | None = None
        self.board = self.make_board()

    def make_board(self) -> Board:
        """The widget that lays out the piles (the circle and the star have their own)."""
        return Board(self.PLACES, self.SLOTS, self.SPLIT, self.look, id="board")

    @property
    def game(self) -> Game:
        return self.session.game

    @game.setter
    def game(self, game: Game) -> None:
        self.session.game = game

    @property
    def over(self) -> bool:
        return self.session.over

    @over.setter
    def over(self, value: bool) -> None:
        self.session.over = value

    @property
    def time_limit(self) -> int:
        """Seconds on the clock (0: it counts up)."""
        return self.session.time_limit

    @property
    def min_size(self) -> tuple[int, int]:
        return min_width(self.SLOTS), self.MIN_HEIGHT

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        self.prepare_first_frame()
        with Horizontal(id="header"):
            yield TextLine(self.title_text(), drop=self.sep, id="title")
            yield TextLine(self.stats_text(), align="right", id="stats")
            yield TextLine(clock_text(self.session.seconds_shown), align="right", id="clock")
        yield from self.felt()
        yield Static("", id="enlarge")
        with Horizontal(id="statusbar"):
            yield TextLine(self.status_text(self.notice or self.hint()), fit=True, id="status")
            yield TextLine("", align="right", id="verdict")
        yield Footer(show_command_palette=self.app.size.width >= PALETTE_IN_FOOTER)

    def felt(self) -> ComposeResult:
        """What lies between the header and the status line: the board."""
        yield self.board

    def prepare_first_frame(self) -> None:
        """Place the piles for the size the board is going to have (the window less
        the header, the status line and the footer) and hand them their cards, so
        that the first frame is the whole board, not an empty felt filled in by
        the next frames. A board of another size is placed again when it is laid
        out."""
        width, height = self.app.size
        self.board.place_piles((width, height - 3))
        self.show_board()

    def on_mount(self) -> None:
        if self.session.clock_running:
            self.set_interval(1.0, self.tick)
        self.session.restart_clock()  # the clock counts from the first frame
        self.redraw()
        self.say(self.notice or self.hint())
        if self.notice:  # the status line cuts a long message: a toast shows it whole
            self.app.notify(self.notice, severity="warning", timeout=10)
        self.save_soon()
        self.position_changed()

    def on_unmount(self) -> None:
        """The board is gone (back to the menu, the app closing): another copy of the
        program may open this game now."""
        self.session.release()

    def on_resize(self) -> None:
        width, height = self.app.size
        need_w, need_h = self.min_size
        self.too_small = width < need_w or height < need_h
        # ctrl+p still opens the palette; below this width its footer entry
        # would push the board's own keys (Quit first) off the line.
        footer, wanted = self.query_one(Footer), width >= PALETTE_IN_FOOTER
        if footer.show_command_palette != wanted:
            footer.show_command_palette = wanted
            footer.refresh(recompose=True)
        self.cover()

    @property
    def board_hidden(self) -> bool:
        """The board is not on screen (the window is too small, or the game is paused):
        its keys do nothing and a solo game's clock stands still."""
        return self.too_small or self.paused

    def cover(self) -> None:
        """Show the board, or in its place why it is hidden."""
        width, height = self.app.size
        need_w, need_h = self.min_size
        x = "x" if self.look.ascii else "×"
        enlarge = self.query_one("#enlarge", Static)
        hidden = self.board_hidden
        # Only what changes is touched: a resize of a window the board fits in
        # costs no new layout, and the footer is recomposed only when the keys'
        # dimming changes.
        if self.too_small:
            enlarge.update(
                f"Enlarge the window to {need_w}{x}{need_h} to play\n(it is {width}{x}{height} now)"
            )
        elif hidden:
            enlarge.update("Paused: the clock stands still.\nP plays on.")
        if enlarge.display != hidden:
            enlarge.display = hidden
        if self.board.display == hidden:
            self.board.display = not hidden
        if hidden != self._covered:
            self._covered = hidden
            self.refresh_bindings()

    # ------------------------------------------------------- what it shows

    @property
    def sep(self) -> str:
        """The separator of header fields (ASCII terminals get a plain one)."""
        return " | " if self.look.ascii else " · "

    def title_text(self) -> str:
        """``Spider · 2 suits · deal 7 · 10 min``: the game, its variant, the deal
        and the time limit, each when there is one."""
        g = self.game
        parts = [g.title, info(g.name).variant_text(g.variant), f"deal {g.deal}"]
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

    # ------------------------------------------------------------ drawing

    def redraw(self) -> None:
        """Show the position: the piles, the header's figures and the clock."""
        self.show_board()
        self.query_one("#stats", TextLine).set(self.stats_text())
        self.show_clock()

    def show_board(self) -> None:
        """Hand each pile its cards and marks; the piles redraw only the rows that
        changed. Boards with more to show (a move list, a few lines of text) add it."""
        hand = self.hand
        targets = hand.targets()
        shown = hand.shown_count()
        all_marks = self.position_marks()
        for name, view in self.board.piles.items():
            marks = all_marks[name]
            view.show(
                selected=shown if name == hand.src else 0,
                target=name in targets,
                cursor=(hand.cursor_count or 1) if name == hand.cursor else None,
                **marks,
            )

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
        self.query_one("#status", TextLine).set(self.status_text(text))

    def status_text(self, text: str) -> str:
        """``text`` as the status line shows it: piles named by their labels, and
        the suits as letters on an ASCII terminal."""
        text = self.named(text)
        return text.translate(ASCII_SUITS) if self.look.ascii else text

    def pile_key(self, pile: str) -> str:
        """The label the board shows on a pile (its key)."""
        place = self.PLACES.get(pile)
        return place.key if place is not None else pile

    def pile_title(self, pile: str) -> str:
        """A pile named for a sentence: its kind and its key (``Column 7``, ``Cell w``)."""
        for b in self.BINDINGS:
            if isinstance(b, Binding) and b.id == f"pile-{pile}":
                return f"{b.description.partition(' ')[0]} {self.pile_key(pile)}"
        return self.pile_key(pile)

    def named(self, text: str) -> str:
        """``text`` with the rules' pile names (``t3``, ``o1``) as the board labels
        them (``3``, ``8``; ``Pile 3`` when it begins the sentence)."""
        pattern = type(self)._pile_pattern()
        if pattern is None:
            return text

        def label(m: re.Match[str]) -> str:  # a sentence's subject gets its kind too
            name = m.group(0)
            return self.pile_title(name) if m.start() == 0 else self.pile_key(name)

        return pattern.sub(label, text)

    @classmethod
    def _pile_pattern(cls) -> re.Pattern[str] | None:
        """The rules' names of this board's keyed piles, as one pattern (cached)."""
        if "_pattern" not in cls.__dict__:
            names = [
                n
                for n, p in cls.PLACES.items()
                if n != p.key and len(p.key) == 1 and n.isalnum() and not n.isalpha()
            ]
            names.sort(key=len, reverse=True)  # t10 before t1
            cls._pattern = re.compile(r"\b(" + "|".join(names) + r")\b") if names else None
        return cls._pattern

    def move_text(self, move: Move) -> str:
        """A move as the player plays it: ``7→3``, ``2→5 (3 cards)``, ``deal``, ``turn 4``."""
        arrow = "->" if self.look.ascii else "→"
        if move.kind == "turn":
            return f"turn {self.pile_key(move.src)}"
        if move.kind != "move":
            return move.kind
        text = f"{self.pile_key(move.src)}{arrow}{self.pile_key(move.dst)}"
        return text + (f" ({move.count} cards)" if move.count > 1 else "")

    def named_move_text(self, move: Move) -> str:
        """A move not yet played, with the card it moves named first: ``2♥ e→f``,
        ``9♠ 2→5 (3 cards)`` (the card that lands), so a hint reads in words."""
        text = self.move_text(move)
        if move.kind != "move":
            return text
        cards = self.game.pile(move.src)
        if len(cards) < move.count or not cards[-move.count][1]:
            return text
        return f"{self.look.label(cards[-move.count][0])} {text}"

    def show_clock(self) -> None:
        self.query_one("#clock", TextLine).set(clock_text(self.session.seconds_shown))

    def tick(self) -> None:
        self.advance_clock()
        if self.over or not self.is_current:
            return
        self.show_clock()
        if self.session.time_is_up:
            self.finish("Time is up")

    def advance_clock(self) -> None:
        """Add the time since the last tick to the game's clock. A solo game's clock
        stands still while a dialog covers the board, the board is hidden, or the
        game is paused; a match clock (``CLOCK_PAUSES`` false) never stops."""
        on_screen = self.app.screen is self and not self.board_hidden
        self.session.advance(active=on_screen or not self.CLOCK_PAUSES)

    def action_pause(self) -> None:
        """``P``: hide the board and stop the clock, or play on."""
        if not self.CLOCK_PAUSES:
            self.say("A match clock never stops")
            return
        self.advance_clock()
        self.paused = not self.paused
        self.cover()
        self.say("Paused" if self.paused else "Playing on")

    # ------------------------------------------------------- saving, statistics

    def tell(self, messages: list[str] | str | None) -> None:
        """Storage messages for the player, as toasts (play goes on)."""
        for message in [messages] if isinstance(messages, str) else messages or []:
            self.app.notify(message, severity="warning", timeout=10)

    def autosave(self) -> None:
        """Write this game's save (after every action, and on leaving). A failure is
        told once on the status line and play goes on without saving."""
        if self.over:
            return
        self.advance_clock()
        problem = self.session.autosave()
        if problem:
            self.say(problem)
            self.tell(problem)

    def save_soon(self) -> None:
        """Autosave once the screen is repainted: the player sees a move without
        waiting for the disk (an fsync can take tens of milliseconds), and the save
        follows within the same turn of the event loop."""
        self.call_after_refresh(self.autosave)

    def abandon(self) -> None:
        """The game on the board gives way to another deal: lost, when it had a move."""
        self.advance_clock()
        self.tell(self.session.abandon())

    # -------------------------------------------------------------- playing

    def play(self, move: Move) -> bool:
        """Play ``move``; on refusal say why. Either way the selection is dropped."""
        self.hand.drop()
        text = self.named_move_text(move)
        try:
            self.game.play(move)
        except IllegalMove as e:
            self.say(e.reason)
            self.redraw()
            return False
        self.say(f"Played {text}")
        self.after_change()
        return True

    def after_change(self) -> None:
        self.redraw()
        self.save_soon()
        self.position_changed()
        if self.game.is_won:
            self.finish("Won!")
        elif self.game.is_stuck:
            from .stuck import StuckScreen  # dialogs are imported when first opened

            self.app.push_screen(StuckScreen(), self.on_stuck_choice)

    def finish(self, headline: str) -> None:
        if self.over:
            return
        self.advance_clock()
        self.tell(self.session.finish())
        self.show_verdict("")  # nothing left to win: no "winnable" beside the results
        self.app.push_screen(self.results_screen(headline), self.on_results_choice)

    def results_screen(self, headline: str) -> ResultsScreen:
        """The results panel of the game just over (a game may show more figures)."""
        g = self.game
        from .results import ResultsScreen

        return ResultsScreen(headline, g.score, g.moves, int(g.elapsed))

    def on_results_choice(self, choice: str | None) -> None:
        if choice == "new":
            self.new_deal()
        elif choice == "quit":
            self.app.exit(0)

    def on_stuck_choice(self, choice: str | None) -> None:
        if choice == "undo":
            self.action_undo()
        elif choice == "restart":
            self.restart()  # the stuck offer is already the question
        elif choice == "new":
            self.new_deal()

    def start(self, game: Game) -> None:
        """Put a new game on this board (restart, new deal, deal by number): the one
        there counts as lost if it had a move; the new one has a fresh id."""
        self.abandon()
        self.session = self.session.follow(game)
        self.hand = Hand(game)
        self.dragging = False
        self.plan = self.won_from = self.proved_lost = None
        self.query_one("#title", TextLine).set(self.title_text())
        self.redraw()
        self.save_soon()
        self.position_changed()

    # -------------------------------------------------------------- actions

    def action_pile(self, name: str) -> None:
        """A pile's key: pick it up, or put the cards in hand on it."""
        hand = self.hand
        if hand.src is None:
            self.pick(name, None)
        elif hand.src == name:
            hand.drop()
            self.say("Put back")
            self.redraw()
        elif name in self.game.foundations:
            self.play(self.game.foundation_move(hand.src, name))
        else:
            self.play(hand.move_to(name))

    def pick(self, name: str, count: int | None) -> None:
        """Take cards from ``name`` in hand, or do what the rules say a pick there
        means (deal from the stock, turn a face-down card)."""
        action = self.game.click_action(name)
        if action is not None:
            self.play(action)
            return
        refusal = self.game.pick_refusal(name)
        if refusal:
            self.say(refusal)
            self.hand.drop()
            self.redraw()
            return
        if count:  # no more than the rules let move together
            count = max(1, min(count, self.game.movable(name)))
        self.hand.pick(name, count)
        targets = self.hand.targets()
        keys = dict.fromkeys(self.pile_key(t) for t in sorted(targets, key=self._order))
        where = ", ".join(keys)
        held = self.pile_title(name)
        if where:
            self.say(f"{held} in hand: it may go to {where} (Escape puts it back)")
        else:
            self.say(f"{held} in hand: no place takes it now (Escape puts it back)")
        self.redraw()

    def _order(self, name: str) -> int:
        return list(self.PLACES).index(name)

    def action_cancel(self) -> None:
        if self.hand.src is None and self.hand.cursor is None:
            return
        if self.hand.src is None:
            self.hand.cursor = None
        self.hand.drop()
        self.say("")
        self.redraw()

    def action_undo(self) -> None:
        self.hand.drop()
        try:
            move = self.game.undo()
        except IllegalMove as e:
            self.say(e.reason)
            self.redraw()
            return
        self.say(f"Took back {self.named_move_text(move)}")  # its cards are back
        self.redraw()
        self.save_soon()
        self.position_changed()

    def action_redo(self) -> None:
        self.hand.drop()
        redo = self.game.redo_list
        text = self.named_move_text(redo[-1]) if redo else ""
        try:
            self.game.redo()
        except IllegalMove as e:
            self.say(e.reason)
            self.redraw()
            return
        self.say(f"Played {text} again")
        self.after_change()

    def action_deal(self) -> None:
        """The stock's action (deal, or collect where that is what the stock does now)."""
        stock = self.game.stock_pile
        action = self.game.click_action(stock) if stock else None
        if action is None:
            self.say(f"{self.game.title} has no stock to deal from")
            return
        self.play(action)

    def confirm_abandon(self, what: str, then: Callable[[], None]) -> None:
        """Run ``then`` at once, or after a yes when the player asked to be asked
        (the setting) and the game on the board is in progress."""
        if not self.session.confirm_abandon():
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()
            else:
                self.say("Playing on")

        from .confirm import ConfirmAbandonScreen

        self.app.push_screen(ConfirmAbandonScreen(what), answered)

    def action_restart(self) -> None:
        self.confirm_abandon(f"Restart deal {self.game.deal}", self.restart)

    def restart(self) -> None:
        g = self.game
        self.start(new_game(g.name, g.deal, **g.variant))
        self.say(f"Deal {g.deal} from the start")

    def action_new_game(self) -> None:
        self.confirm_abandon("Start a new deal", self.new_deal)

    def new_deal(self) -> None:
        """A new random deal (one the solver proves winnable, when the player asked
        for those only)."""
        g = self.game
        name, variant = g.name, dict(g.variant)

        def deal(number: int | None) -> None:
            self.start(new_game(name, number, **variant))
            self.say(f"New deal: {self.game.deal}")

        if self.winnable_only:
            services = self.session.services
            assert services is not None
            from .finding import FindDealScreen

            self.app.push_screen(FindDealScreen(services, name, variant), deal)
        else:
            deal(None)

    @property
    def winnable_only(self) -> bool:
        """Whether new random deals must be proved winnable first (a setting)."""
        services = self.session.services
        # Not solver_help: that ends with the game, and "New deal" on the
        # results must still find a winnable one.
        return bool(services is not None and services.winnable_only and self.solver_here)

    def action_deal_number(self) -> None:
        from .dealnumber import DealNumberScreen

        self.app.push_screen(DealNumberScreen(self.game.title), self.on_deal_number)

    def on_deal_number(self, deal: int | None) -> None:
        if deal is None:
            return
        g = self.game

        def go() -> None:
            self.start(new_game(g.name, deal, **g.variant))
            self.say(f"Deal {deal}")

        self.confirm_abandon(f"Play deal {deal}", go)

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.help_keys(), self.game.title, self.game.name))

    def action_rules(self) -> None:
        from .rulebook import RulesScreen

        self.app.push_screen(RulesScreen(self.game.name))

    def action_quit(self) -> None:
        """Back to the menu when there is one, else leave; the game stays saved."""
        self.autosave()
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit(0)

    def help_keys(self) -> list[tuple[str, str]]:
        """Every key of this screen with what it does; a game's pile keys on one row each."""
        rows: list[tuple[str, str]] = []
        groups: dict[str, list[tuple[str, str]]] = {}
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):
                continue
            keys = " ".join(
                self.app.get_key_display(Binding(k.strip(), binding.action))
                for k in binding.key.split(",")
            )
            if binding.id and binding.id.startswith("pile-"):
                kind, _, pile = binding.description.partition(" ")
                groups.setdefault(kind, []).append((keys, pile))
                continue
            rows.append((keys, binding.tooltip or binding.description))
        grouped = [
            (" ".join(k for k, _ in piles), f"{kind.lower()}s {piles[0][1]} to {piles[-1][1]}")
            for kind, piles in groups.items()
        ]
        return [*grouped, *rows, ("ctrl+p", "command palette: every action by name")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Nothing plays while the board is hidden; only games with foundations offer
        sending a card to one; only games with a stock offer dealing."""
        if self.board_hidden and action not in self.WHEN_HIDDEN:
            return False
        if action == "foundation":
            return bool(self.game.foundations)
        if action == "deal":
            return bool(self.game.stock_pile)
        if action in ("hint", "solution", "demo"):
            return self.solver_help
        return True

    def action_foundation(self) -> None:
        """``f``: the cards in hand, or under the cursor, to their foundation."""
        src = self.hand.src or self.hand.cursor
        if src is None:
            self.say(
                f"Pick a card first (its {self.PILE_WORD}'s key), then f sends it to its foundation"
            )
            return
        self.to_foundation(src)

    def to_foundation(self, src: str) -> None:
        """Send the top card of ``src`` to its foundation (a double click, ``f``).

        On a foundation itself: the card in hand goes there, if any; else the
        rules say why a foundation's cards stay (or what the pile's click does).
        """
        game = self.game
        if src in game.foundations:
            held = self.hand.src
            if held is not None and held not in game.foundations:
                self.play(game.foundation_move(held, src))
                return
            self.hand.drop()
            self.pick(src, None)
            return
        action = game.click_action(src)
        if action is not None:  # a double click on the stock deals again
            self.play(action)
            return
        self.play(game.foundation_move(src))
