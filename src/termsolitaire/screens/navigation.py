"""Where the player goes: opening a game (as :mod:`termsolitaire.play.opening`
decides), leaving a board, quitting. Mixed into the app
(:class:`~termsolitaire.app.SolitaireApp`), which stays a thin shell."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from termsolitaire.messages import MenuChoice
from termsolitaire.play.opening import (
    Opening,
    Request,
    dealt,
    latest_variant,
    open_game,
    resumed,
)
from termsolitaire.play.session import Services, describe
from termsolitaire.rules import info

if TYPE_CHECKING:
    from termsolitaire.replay import Replay
    from termsolitaire.screens.boards.board import BoardScreen
    from termsolitaire.storage.locks import SaveLock
    from termsolitaire.storage.saves import Saved
    from termsolitaire.widgets.cards import CardLook


class Navigation:
    """Opening games, leaving boards, quitting."""

    if TYPE_CHECKING:  # given by the app
        services: Services
        look: CardLook
        start_game: str | None
        start_deal: int | None
        start_variant: dict[str, int]
        time_limit: int
        resume: bool
        variant_given: bool
        match_services: Any
        start_replay: Replay | None
        screen_stack: list[Screen[Any]]

        @property
        def screen(self) -> Screen[Any]: ...

        push_screen: Any  # App's (overloaded) methods
        pop_screen: Any
        switch_screen: Any

        def notify(self, message: str, **kw: Any) -> None: ...
        def exit(
            self, result: int | None = None, return_code: int = 0, message: Any = None
        ) -> None: ...

    def start_board(self) -> None:
        """The game the command line asked for (the same questions as the menu)."""
        assert self.start_game is not None
        variant = self.start_variant
        problems: list[str] = []
        if self.resume and self.start_deal is None and not self.variant_given:
            latest, problems = latest_variant(self.services.saves, self.start_game)
            variant = latest or variant
        request = Request(
            self.start_game,
            self.start_deal,
            variant,
            self.time_limit,
            resume=self.resume and self.start_deal is None,
            or_new=True,
        )
        self.open_game(request, "; ".join(problems) or None)

    def on_menu_choice(self, message: MenuChoice) -> None:
        self.open_game(
            Request(
                message.game,
                message.deal,
                message.variant,
                message.time_limit,
                message.resume,
                message.or_new,
            )
        )

    def open_game(self, request: Request, notice: str | None = None) -> None:
        """Open the game the player asked for, as :mod:`termsolitaire.play.opening`
        decides: read only, resumed, asked about first, or a new deal."""
        opening = open_game(self.services, request, notice)
        if opening.kind == "here":  # asked for twice (a double click): it is opening
            return
        if opening.kind == "read_only":
            self.offer_read_only(request, opening.holder)
        elif opening.kind == "resume":
            assert opening.saved is not None
            self.push_screen(self.resumed(opening.saved, opening.lock, opening.notice))
        elif opening.kind == "ask":
            self.ask_in_progress(opening)
        else:
            self.deal_new_board(request, opening.saved, opening.lock, opening.notice)

    def ask_in_progress(self, opening: Opening) -> None:
        """A game with a move is in progress: resume it, abandon it, or keep it."""
        from termsolitaire.screens.dialogs.choice import ChoiceScreen

        saved, lock = opening.saved, opening.lock
        assert saved is not None

        def answered(answer: str | None) -> None:
            if answer == "resume":
                self.push_screen(self.resumed(saved, lock))
            elif answer == "abandon":
                self.deal_new_board(opening.request, saved, lock)
            else:
                if lock is not None:
                    lock.release()
                self.home("Kept: " + describe(saved))

        headline, lines = opening.question
        again = opening.request.deal is not None and opening.request.deal == saved.game.deal
        self.push_screen(
            ChoiceScreen(
                headline,
                lines,
                [
                    ("r", "Resume it", "resume"),
                    ("a", "Start it again" if again else "Abandon it", "abandon"),
                    ("k", "Keep it, go back", "keep"),
                ],
            ),
            answered,
        )

    def deal_new_board(
        self,
        request: Request,
        saved: Saved | None,
        lock: SaveLock | None,
        notice: str | None = None,
    ) -> None:
        """Push the board of a new game as ``request`` asks; a random deal is first
        proved winnable when the player asked for winnable deals only."""
        wanted = self.services.winnable_only and request.deal is None
        if wanted:
            from termsolitaire.solver import has_solver

            wanted = has_solver(request.game)
        if not wanted:
            self.push_screen(self.new_board(request, saved, lock, notice))
            return

        def found(deal: int | None) -> None:
            chosen = replace(request, deal=deal)
            self.push_screen(self.new_board(chosen, saved, lock, notice))

        from termsolitaire.screens.dialogs.finding import FindDealScreen

        variant = dict(request.variant)
        self.push_screen(FindDealScreen(self.services, request.game, variant), found)

    def offer_read_only(self, choice: Request, holder: str) -> None:
        """The game is open in another copy: look at its save read only, or go back."""
        from termsolitaire.screens.dialogs.choice import ChoiceScreen

        title = info(choice.game).title

        def answered(answer: str | None) -> None:
            if answer == "look":
                from termsolitaire.play.modes import VIEW
                from termsolitaire.replay import replay_of
                from termsolitaire.screens.boards.replay import replay_screen

                saved, problem = self.services.saves.load(choice.game, dict(choice.variant))
                if saved is None:
                    self.home(f"The other copy's save cannot be read: {problem or 'none yet'}")
                    return
                replay = replay_of(saved.game)
                replay.end()
                self.push_screen(replay_screen(replay, self.look, "Read only", policy=VIEW))
            else:
                self.home()

        self.push_screen(
            ChoiceScreen(
                f"{title} is open in another window ({holder}).",
                ["Only one copy of a game can be played at a time, or moves would be lost."],
                [("v", "View it read only", "look"), ("o", "Pick another game", "other")],
            ),
            answered,
        )

    def home(self, note: str | None = None) -> None:
        """Back to the menu (opening it when the app was started on a board)."""
        from termsolitaire.screens.menu import MenuScreen

        if not any(isinstance(s, MenuScreen) for s in self.screen_stack):
            self.push_screen(MenuScreen(self.services))
        if note:
            self.notify(note, timeout=6)

    def leave_board(self, board: Screen[Any]) -> None:
        """``Q`` on a board, or on its results: back to where it was opened from
        (the menu, the lobby); a board the command line opened gives way to the
        menu. Only the menu's and the lobby's own Quit ends the program."""
        from termsolitaire.screens.menu import MenuScreen

        stack = self.screen_stack
        if board not in stack:
            return
        below = stack[stack.index(board) - 1]
        game = getattr(board, "game", None)
        if isinstance(below, MenuScreen) and game is not None:
            below.came_back(game.name, dict(game.variant))
        while self.screen is not board:
            self.pop_screen()
        if below is stack[0]:  # opened from the command line: the menu takes its place
            menu = MenuScreen(self.services)
            if game is not None:
                menu.came_back(game.name, dict(game.variant))
            self.switch_screen(menu)
        else:
            self.pop_screen()

    def quit_app(self) -> None:
        """The menu's or the lobby's Quit: leave, after a question when a match game
        of this player's is running (its clock runs on while they are away, and a
        computer opponent stops playing until they are back)."""
        from termsolitaire.screens.dialogs.choice import ChoiceScreen

        running = self.running_match_games()
        if not running:
            self.exit(0)
            return
        tables = ", ".join(str(t) for t in running)
        which = f"table{'s' if len(running) > 1 else ''} {tables}"

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.exit(0)

        self.push_screen(
            ChoiceScreen(
                f"Your match game at {which} is running.",
                [
                    "Its clock keeps running while you are away, and a computer opponent "
                    "stops playing until you come back."
                ],
                [("q", "Quit anyway", True), ("s", "Stay", False)],
            ),
            answered,
        )

    def running_match_games(self) -> list[int]:
        """The tables where this player's match game is going on (none when the
        match was never opened in this program)."""
        services = self.match_services or next(
            (getattr(s, "match", None) for s in self.screen_stack if hasattr(s, "match")), None
        )
        if services is None:
            return []
        from termsolitaire.match import MatchError

        try:
            tables = services.store.tables()
        except MatchError:
            return []
        me = services.store.me.id
        return [t.id for t in tables if (seat := t.seat_of(me)) is not None and seat.playing]

    def resumed(
        self, saved: Saved, lock: SaveLock | None = None, notice: str | None = None
    ) -> BoardScreen:
        """The board of a saved game, continued exactly (its id, clock and limit)."""
        from termsolitaire.screens.boards import board_screen

        return board_screen(resumed(self.services, saved, lock), self.look, notice=notice)

    def new_board(
        self,
        request: Request,
        saved: Saved | None,
        lock: SaveLock | None = None,
        notice: str | None = None,
    ) -> BoardScreen:
        """A new game as ``request`` asks; the ``saved`` game it replaces, if any,
        counts as lost when it had a move."""
        session, messages = dealt(self.services, request, saved, lock)
        from termsolitaire.screens.boards import board_screen

        said = "; ".join([*([notice] if notice else []), *messages]) or None
        return board_screen(session, self.look, notice=said)
