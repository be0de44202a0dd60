"""The board screen shared by the games: it owns the game, the piles draw it.

Everything the player does arrives here (a key binding, a click, a drop),
becomes a :class:`~termsolitaire.rules.Move` and goes to ``game.play``; a
refusal shows the rules' reason on the status line and changes nothing.
After any change the screen hands each pile its new cards and marks; the
piles redraw only the rows that changed. The games' screens
(:mod:`.penguin`, :mod:`.spider`) add their piles, keys and header.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Static

from termsolitaire.rules import Game, IllegalMove, Move, new_game
from termsolitaire.rules.moves import DEAL
from termsolitaire.session import moves_of, played, record
from termsolitaire.storage.files import StorageError
from termsolitaire.storage.saves import new_game_id
from termsolitaire.widgets.board import Board, Place, min_width
from termsolitaire.widgets.cards import CardLook
from termsolitaire.widgets.line import TextLine

from .confirm import ConfirmAbandonScreen
from .cursor import CursorMixin
from .dealnumber import DealNumberScreen
from .help import HelpScreen
from .mouse import MouseMixin
from .results import ResultsScreen
from .selection import Hand
from .stuck import StuckScreen

ASCII_SUITS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C", "·": "|"})

COMMON_BINDINGS: list[BindingType] = [
    Binding(
        "escape",
        "cancel",
        "Cancel",
        show=False,
        id="cancel",
        tooltip="put the cards in hand back; cancel a half-typed chord",
    ),
    Binding("z", "undo", "Undo", id="undo", tooltip="take back the last move"),
    Binding("Z", "redo", "Redo", id="redo", tooltip="play again what undo took back"),
    Binding("R", "restart", "Restart", id="restart", tooltip="this deal from the start"),
    Binding("N", "new_game", "New", id="new-game", tooltip="a new random deal"),
    Binding(
        "number_sign",
        "deal_number",
        "Deal #",
        show=False,
        id="deal-number",
        tooltip="type a deal number to play",
    ),
    Binding("question_mark,f1", "help", "Help", id="help", tooltip="this help"),
    Binding("Q", "quit", "Quit", id="quit", tooltip="back to the menu, or leave"),
    Binding(
        "left,h",
        "cursor(-1, 0)",
        "Left",
        show=False,
        id="cursor-left",
        tooltip="cursor to the pile on the left",
    ),
    Binding(
        "right,l",
        "cursor(1, 0)",
        "Right",
        show=False,
        id="cursor-right",
        tooltip="cursor to the pile on the right",
    ),
    Binding(
        "up,k",
        "cursor(0, -1)",
        "Up",
        show=False,
        id="cursor-up",
        tooltip="cursor up the pile over one more card, then to the row above",
    ),
    Binding(
        "down,j",
        "cursor(0, 1)",
        "Down",
        show=False,
        id="cursor-down",
        tooltip="cursor down the pile over one card fewer, then to the row below",
    ),
    Binding(
        "space,enter",
        "grab",
        "Pick up / drop",
        show=False,
        id="grab",
        tooltip="pick up the cards under the cursor, or put the cards in hand there",
    ),
    Binding(
        "plus,equals_sign",
        "more",
        "One card more",
        show=False,
        id="more",
        tooltip="one card more in hand (or under the cursor)",
    ),
    Binding(
        "minus",
        "fewer",
        "One card fewer",
        show=False,
        id="fewer",
        tooltip="one card fewer in hand (or under the cursor)",
    ),
]


class BoardScreen(CursorMixin, MouseMixin, Screen[None]):
    """One game on the felt. Subclasses give ``PLACES``, ``NAV`` and their keys."""

    CSS_PATH: ClassVar[list[str]] = ["board.tcss"]
    GAME: ClassVar[str] = ""
    PLACES: ClassVar[dict[str, Place]] = {}
    NAV: ClassVar[list[list[str]]] = []
    SLOTS: ClassVar[int] = 11
    SPLIT: ClassVar[int] = 7
    MIN_HEIGHT: ClassVar[int] = 18

    def __init__(
        self,
        game: Game,
        look: CardLook | None = None,
        time_limit: int = 0,
        *,
        game_id: str | None = None,
        notice: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.game = game
        self.game_id = game_id or new_game_id()
        """The id of this game in the save and the statistics (fresh per game played)."""
        self.notice = notice
        """A message to show instead of the hint when the board opens (a broken save)."""
        self.save_error: str | None = None
        """Why the last autosave failed (told once); None while saving works."""
        self.save_seconds: list[float] = []
        """How long each autosave took (the last few), to keep an eye on its cost."""
        self.look = look or CardLook()
        self.time_limit = time_limit * 60
        self.hand = Hand(game)
        self.dragging = False
        self.over = False
        self._tick_at = time.monotonic()
        self.board = Board(self.PLACES, self.SLOTS, self.SPLIT, self.look, id="board")

    @property
    def min_size(self) -> tuple[int, int]:
        return min_width(self.SLOTS), self.MIN_HEIGHT

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="header"):
            yield TextLine(self.title_text(), id="title")
            yield TextLine("", align="right", id="stats")
            yield TextLine("", align="right", id="clock")
        yield self.board
        yield Static("", id="enlarge")
        yield TextLine("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        if getattr(self.app, "clock", True):
            self.set_interval(1.0, self.tick)
        self._tick_at = time.monotonic()  # the clock counts from the first frame
        self.redraw()
        self.say(self.notice or self.hint())
        if self.notice:  # the status line cuts a long message: a toast shows it whole
            self.app.notify(self.notice, severity="warning", timeout=10)
        self.autosave()

    def on_resize(self) -> None:
        width, height = self.app.size
        need_w, need_h = self.min_size
        small = width < need_w or height < need_h
        enlarge = self.query_one("#enlarge", Static)
        x = "x" if self.look.ascii else "×"
        enlarge.update(
            f"Enlarge the window to {need_w}{x}{need_h} to play\n(it is {width}{x}{height} now)"
        )
        enlarge.display = small
        self.board.display = not small

    # ------------------------------------------------------- subclass hooks

    @property
    def sep(self) -> str:
        """The separator of header fields (ASCII terminals get a plain one)."""
        return " | " if self.look.ascii else " · "

    def title_text(self) -> str:
        return f"{self.game.title}{self.sep}deal {self.game.deal}"

    def stats_text(self) -> str:
        return f"score {self.game.score}  moves {len(self.game.history)}"

    def pile_marks(self, pile: str) -> dict[str, Any]:
        """What a pile shows besides its cards: ``placeholder``, ``badge``, other ``cards``."""
        return {}

    def hint(self) -> str:
        return "Press a pile's key, then where it goes; arrows move the cursor; ? for help"

    def set_look(self, look: CardLook) -> None:
        self.look = look
        self.board.set_look(look)
        self.redraw()

    # ------------------------------------------------------------ drawing

    def redraw(self) -> None:
        hand = self.hand
        targets = hand.targets()
        shown = hand.shown_count()
        for name, view in self.board.piles.items():
            marks: dict[str, Any] = {"cards": self.game.pile(name)}
            marks.update(self.pile_marks(name))
            view.show(
                selected=shown if name == hand.src else 0,
                target=name in targets,
                cursor=(hand.cursor_count or 1) if name == hand.cursor else None,
                **marks,
            )
        self.query_one("#stats", TextLine).set(self.stats_text())
        self.show_clock()

    def say(self, text: str) -> None:
        if self.look.ascii:
            text = text.translate(ASCII_SUITS)
        self.query_one("#status", TextLine).set(text)

    def show_clock(self) -> None:
        seconds = int(self.game.elapsed)
        if self.time_limit:
            seconds = max(0, self.time_limit - seconds)
        self.query_one("#clock", TextLine).set(f"{seconds // 60:d}:{seconds % 60:02d}")

    def tick(self) -> None:
        self.advance_clock()
        if self.over or not self.is_current:
            return
        self.show_clock()
        if self.time_limit and self.game.elapsed >= self.time_limit:
            self.finish("Time is up")

    def advance_clock(self) -> bool:
        """Add the time since the last tick to ``game.elapsed`` (when the clock runs)."""
        now = time.monotonic()
        step, self._tick_at = now - self._tick_at, now
        if self.over or not self.is_current or not getattr(self.app, "clock", True):
            return False
        self.game.elapsed += step
        return True

    # ------------------------------------------------------- saving, statistics

    def save_options(self) -> dict[str, Any]:
        """What the save needs besides the game to continue exactly."""
        return {"time_limit": self.time_limit // 60}

    def autosave(self) -> None:
        """Write this game's save (after every action, and on leaving). A failure is
        told once on the status line and play goes on without saving."""
        saves = getattr(self.app, "saves", None)
        if saves is None or self.over:
            return
        self.advance_clock()
        start = time.perf_counter()
        try:
            saves.save(self.game, self.game_id, self.save_options())
        except StorageError as e:
            if self.save_error is None:
                self.say(f"Not saving: {e}")
                self.app.notify(f"Not saving: {e}", severity="warning", timeout=10)
            self.save_error = str(e)
            return
        self.save_error = None
        self.save_seconds = [*self.save_seconds[-99:], time.perf_counter() - start]

    def record(self, won: bool) -> None:
        """This game into the statistics (once: its id makes it once)."""
        for message in record(getattr(self.app, "stats", None), self.game_id, self.game, won):
            self.app.notify(message, severity="warning", timeout=10)

    def forget_save(self) -> None:
        saves = getattr(self.app, "saves", None)
        if saves is None:
            return
        try:
            saves.delete(self.game.name)
        except StorageError as e:
            self.app.notify(str(e), severity="warning", timeout=10)

    def abandon(self) -> None:
        """The game on the board gives way to another deal: lost, when it had a move."""
        if not self.over and played(self.game):
            self.advance_clock()
            self.record(won=False)

    # -------------------------------------------------------------- playing

    def play(self, move: Move) -> bool:
        """Play ``move``; on refusal say why. Either way the selection is dropped."""
        self.hand.drop()
        try:
            self.game.play(move)
        except IllegalMove as e:
            self.say(e.reason)
            self.redraw()
            return False
        self.say(f"Played {move}")
        self.after_change()
        return True

    def after_change(self) -> None:
        self.redraw()
        self.autosave()
        if self.game.is_won:
            self.finish("Won!")
        elif self.game.is_stuck:
            self.app.push_screen(StuckScreen(), self.on_stuck_choice)

    def finish(self, headline: str) -> None:
        if self.over:
            return
        self.advance_clock()
        self.over = True
        g = self.game
        self.record(won=g.is_won)
        self.forget_save()
        moves = moves_of(g)
        self.app.push_screen(
            ResultsScreen(headline, g.score, moves, int(g.elapsed)), self.on_results_choice
        )

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
        self.game = game
        self.game_id = new_game_id()
        self.hand = Hand(game)
        self.over = False
        self.dragging = False
        self._tick_at = time.monotonic()
        self.query_one("#title", TextLine).set(self.title_text())
        self.redraw()
        self.autosave()

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
        else:
            self.play(hand.move_to(name))

    def pick(self, name: str, count: int | None) -> None:
        """Take cards from ``name`` in hand (or turn / deal where that is what it means)."""
        cards = self.game.pile(name)
        if name == "stock":
            self.play(DEAL)
            return
        if cards and not cards[-1][1]:
            self.play(Move.turn(name))
            return
        if not cards:
            self.say(f"{name} is empty")
            return
        self.hand.pick(name, count)
        targets = self.hand.targets()
        where = ", ".join(sorted(targets, key=self._order))
        if where:
            self.say(f"{name} in hand: it may go to {where} (Escape puts it back)")
        else:
            self.say(f"{name} in hand: no place takes these cards now (Escape puts them back)")
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
        self.say(f"Took back {move}")
        self.redraw()
        self.autosave()

    def action_redo(self) -> None:
        self.hand.drop()
        try:
            move = self.game.redo()
        except IllegalMove as e:
            self.say(e.reason)
            self.redraw()
            return
        self.say(f"Played {move} again")
        self.after_change()

    def confirm_abandon(self, what: str, then: Callable[[], None]) -> None:
        """Run ``then`` at once, or after a yes when the player asked to be asked
        (the setting) and the game on the board is in progress."""
        settings = getattr(self.app, "settings", None)
        if self.over or not played(self.game) or not getattr(settings, "confirm_abandon", False):
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()
            else:
                self.say("Playing on")

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
        g = self.game
        self.start(new_game(g.name, None, **g.variant))
        self.say(f"New deal: {self.game.deal}")

    def action_deal_number(self) -> None:
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
        self.app.push_screen(HelpScreen(self.help_keys(), self.game.title))

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
        """Only games with foundations offer sending a card to one."""
        if action == "foundation":
            return type(self).to_foundation is not BoardScreen.to_foundation
        return True

    PILE_WORD: ClassVar[str] = "pile"
    """What the game calls a pile, for messages ("position" in Napoleon)."""

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
        """Send the top card of ``src`` to its foundation (games that have them)."""
        self.say("This game has no foundation to send cards to")

    def to_suit_foundation(self, src: str) -> None:
        """For games whose ``f1``-``f4`` hold ♠ ♥ ♦ ♣: play the legal foundation move
        of ``src``, else try its suit's foundation so the rules say why not."""
        foundations = ("f1", "f2", "f3", "f4")
        fits = [m for m in self.hand.moves_from(src) if m.dst in foundations]
        if fits:
            self.play(fits[0])
            return
        cards = self.game.pile(src)
        suit = cards[-1][0].suit if cards else "S"
        self.play(Move.transfer(src, foundations["SHDC".index(suit)]))
