"""The Spider match through Pilot: the lobby, the match board and its side panel,
End, time up, the results both players see, Watch, hot-seat and the computer.

The store's clock is moved by hand (``WallClock``); waits are for visible
effects, polled with a timeout. The other player acts through their own store,
as a second terminal would.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from termsolitaire.match import MatchStore, Player
from termsolitaire.rules import Game, Move, new_game
from termsolitaire.screens.dialogs.ask import AskScreen
from termsolitaire.screens.dialogs.confirm_end import ConfirmEndScreen
from termsolitaire.screens.match.handover import HandOverScreen
from termsolitaire.screens.match.lobby import LobbyScreen
from termsolitaire.screens.match.match import MatchScreen
from termsolitaire.screens.match.match_results import MatchResultsScreen
from termsolitaire.screens.match.newgame import NewGameScreen
from termsolitaire.screens.match.watch import WatchScreen
from termsolitaire.widgets.keyline import KeyLine

from .conftest import SPIDER_KEYS, answer, chord
from .matchkit import (
    WallClock,
    key_line,
    lobby_app,
    screen_text,
    shown_screen,
    until,
    watched_after_ending,
)


def first_action(game: Game) -> Move:
    """A transfer that can be made in ``game`` now (the first legal one); on the
    rare deal (a match's is random) with none, the first legal action (a deal)."""
    moves = game.legal_moves()
    return next((m for m in moves if m.kind == "move"), moves[0])


def transfer(screen: MatchScreen) -> Move:
    """:func:`first_action` on the player's board."""
    return first_action(screen.game)


def panel(screen: MatchScreen) -> str:
    return str(screen.panel_shown)


async def test_table_joined_played_ended_results_both_sides(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ann opens a public table from the lobby and starts; bob joins from his store
    after she started; the side panel follows bob's score and clock; End ends
    ann's game early; the results wait for bob, then name the winner."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await shown_screen(pilot, NewGameScreen)
        await pilot.press("enter")  # a public table, 1 suit, 10 minutes
        lobby = await shown_screen(pilot, LobbyScreen)
        assert "yours: not started" in str(lobby.query_one("#tables").get_row_at(0))
        await pilot.press("enter")  # start playing
        screen = await shown_screen(pilot, MatchScreen)
        assert "nobody yet" in panel(screen)
        assert screen.query_one("#clock").text == "10:00"  # type: ignore[attr-defined]

        bob = MatchStore(Player.make("bob"), shared, now=clock)
        clock.advance(30)
        bseat = bob.join(screen.seat.table_id)
        bseat.start()
        move = first_action(bseat.game)
        bseat.play(move)
        await until(pilot, lambda: "bob" in panel(screen), "bob in the side panel")
        await until(pilot, lambda: f"moves{1:>6}" in panel(screen), "bob's move in the panel")
        assert "left  10:00" in panel(screen)  # bob's full clock of his own
        assert screen.query_one("#clock").text == "9:30"  # type: ignore[attr-defined]

        mine = transfer(screen)
        await pilot.press(*chord(mine, SPIDER_KEYS))
        assert screen.seat.log == [str(mine)]
        assert bob.table(screen.seat.table_id).seat_of("ann").moves == 1  # in the store

        await pilot.press("e")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        await shown_screen(pilot, MatchResultsScreen)
        results = await shown_screen(pilot, MatchResultsScreen)
        assert screen.seat.reason == "end"
        assert "Waiting for bob to finish" in str(results.query_one("#verdict").render())
        assert bob.table(screen.seat.table_id).seat_of("bob").playing  # bob plays on

        clock.advance(60)
        bseat.end()
        await until(pilot, lambda: results.results is not None and results.results.final, "final")
        mine_f, bobs = results.results.seats
        assert (mine_f.player.id, mine_f.moves, mine_f.reason) == ("ann", 1, "end")
        assert (bobs.player.id, bobs.moves, bobs.reason) == ("bob", 1, "end")
        assert bob.results(screen.seat.table_id) == results.results  # the same on both sides
        verdict = str(results.query_one("#verdict").render())
        assert verdict.endswith(" · s shares your game")  # once the match is over (issue 31)
        if mine_f.score == bobs.score:
            assert verdict.startswith("A draw: equal scores")
        else:
            assert ("You win" in verdict) == (mine_f.score > bobs.score)
        record = match.store.record()
        assert record.overall.played == 1 and record.opponents[0][0].id == "bob"
        await pilot.press("q")
        await shown_screen(pilot, LobbyScreen)
        bob.close()


async def test_new_game_by_the_mouse_chooses_then_starts(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """In the New dialog a click on Suits' "2" opened a 1-suit table at once (the
    list's click started the game with what was chosen so far). A click on a
    choice chooses it now, on a label it only highlights the row, and the Start
    button (or Enter) starts."""
    from textual.widgets import OptionList

    from termsolitaire.screens.match.newgame import ROWS

    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await shown_screen(pilot, NewGameScreen)
        suits = [name for name, _, _ in ROWS].index("suits")
        row = dialog.row("suits", "Suits").plain
        await pilot.click("#rows", offset=(2 + row.index(" 2 ") + 1, 1 + suits))
        await pilot.click("#rows", offset=(3, 1 + suits))  # on "Suits"
        await pilot.pause()
        assert app.screen is dialog and dialog.choice.suits == 2
        assert dialog.query_one("#rows", OptionList).highlighted == suits
        await pilot.click("#new-start")
        await shown_screen(pilot, LobbyScreen)
        assert "2 suits" in str(lobby.query_one("#tables").get_row_at(0))


async def test_the_match_board_names_the_card_moved(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """As on a solo board: "Played 2♠ 5→4", "Took back 2♠ 5→4", "... again"."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    match.store.open_table(suits=1, minutes=5, deal=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        move = transfer(screen)
        card = screen.game.pile(move.src)[-move.count][0]
        said = f"{screen.look.label(card)} {screen.move_text(move)}"
        await pilot.press(*chord(move, SPIDER_KEYS))
        assert screen.query_one("#status").text == f"Played {said}"  # type: ignore[attr-defined]
        await pilot.press("z")
        assert screen.query_one("#status").text == f"Took back {said}"  # type: ignore[attr-defined]
        await pilot.press("Z")
        assert screen.query_one("#status").text == f"Played {said} again"  # type: ignore[attr-defined]


async def test_the_match_board_s_help_lists_only_the_keys_a_match_has(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The help on a match board lists no hint, restart, new deal or pause, nor M (its
    felt has the side panel, no room for a move list): each of those keys only says
    the match has none."""
    from termsolitaire.screens.dialogs.help import HelpScreen

    app, match = lobby_app(shared, clock, tmp_path / "home")
    match.store.open_table(suits=4, minutes=10, deal=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        listed = dict((k, what) for k, what in screen.help_keys())
        for key in ("H", "S", "D", "R", "N", "#", "P", "M"):
            assert key not in listed, (key, listed.get(key))
        for key in ("z", "d", "e", "w"):
            assert key in listed
        await pilot.press("question_mark")
        await shown_screen(pilot, HelpScreen)
        assert "winning line" not in screen_text(app)


async def test_time_up_ends_the_game_by_the_clock(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The countdown never pauses: a player who leaves the board keeps losing time,
    and at 0:00 the game ends with reason time and the results show."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    seat = match.store.open_table(suits=1, minutes=5, deal=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        await pilot.press("Q")  # back to the lobby: the clock keeps running
        await shown_screen(pilot, LobbyScreen)
        clock.advance(200)
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        assert screen.query_one("#clock").text == "1:40"  # type: ignore[attr-defined]
        assert len(screen.seat.log) == 1  # the game as it was
        clock.advance(100)
        await shown_screen(pilot, MatchResultsScreen)
        assert app.screen.headline == "Time is up"  # type: ignore[attr-defined]
        assert match.store.table(seat.table_id).seat_of("ann").reason == "time"


async def test_new_game_from_the_results_of_a_game_out_of_time_opens_a_table(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ "Time is up", then n (New game) and Enter in the New dialog: no table was
    opened, and nothing said why. The dialog was pushed while the popped match
    board's code ran, and Textual hands a dialog's answer to the screen that
    asked for it: gone, it never read the answer. Now the lobby asks."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    seat = match.store.open_table(suits=1, minutes=5, deal=5)
    bob.join(seat.table_id).start()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await shown_screen(pilot, MatchScreen)
        clock.advance(301)
        results = await shown_screen(pilot, MatchResultsScreen)
        assert results.headline == "Time is up"
        await pilot.press("n")
        await shown_screen(pilot, NewGameScreen)
        await pilot.press("enter")
        lobby = await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: "is open (code" in lobby.query_one("#status").text, "opened")  # type: ignore[attr-defined]
        assert [t.state for t in match.store.tables()] == ["waiting"]
    bob.close()


@pytest.mark.parametrize("width", [80, 60])
async def test_every_results_button_shows_on_a_narrow_terminal(
    shared: Path, clock: WallClock, tmp_path: Path, width: int
) -> None:
    """The match board needs 80 columns, but its results stay on a terminal made
    narrower after the game: the panel, 78 wide, then puts its five buttons in
    two rows, so Leave does not fall off the edge."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    bseat = bob.join(match.store.open_table(suits=1, minutes=5, deal=5).table_id)
    bseat.start()
    bseat.play(first_action(bseat.game))  # both have a game to replay: all five buttons
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        await pilot.resize_terminal(width, 20)
        results = app.screen
        buttons = list(results.query("#buttons Button"))
        await until(pilot, lambda: all(b.display for b in buttons), "all five buttons")
        await pilot.pause()
        assert [str(b.label) for b in buttons][-1] == "Leave (q)"
        for b in buttons:  # each drawn whole, inside the panel
            assert b.region.width == len(str(b.label)) + 2, str(b.label)
            assert results.query_one("#panel").region.contains_region(b.region), str(b.label)
        assert len({b.region.y for b in buttons}) == (1 if width == 80 else 2)
        foot, _ = results.get_widget_at(1, 19)  # the panel's keys, not the board's
        assert isinstance(foot, KeyLine) and foot.shown() == ["Look at the board"], foot
    bob.close()


async def test_watch_shows_the_opponents_board_live(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = match.store.open_table(suits=2, minutes=10, deal=123).table_id
    bseat = bob.join(table)
    bseat.start()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await shown_screen(pilot, MatchScreen)
        await pilot.press("w")  # not while playing
        assert not isinstance(app.screen, WatchScreen)
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        await pilot.press("w")
        await shown_screen(pilot, WatchScreen)
        watch = await shown_screen(pilot, WatchScreen)
        assert "Watching bob" in watch.query_one("#title").text  # type: ignore[attr-defined]
        assert watch.game.to_text() == bseat.game.to_text()
        for _ in range(3):
            bseat.play(first_action(bseat.game))
        await until(pilot, lambda: watch.game.to_text() == bseat.game.to_text(), "bob's moves")
        await pilot.press("1", "2")  # nothing plays on a watched board
        assert watch.game.to_text() == bseat.game.to_text()
        await pilot.press("Q")
        await shown_screen(pilot, MatchResultsScreen)
    bob.close()


async def test_watch_is_dimmed_until_the_players_own_game_has_ended(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Against the computer at 80x24, the key line lit "w Watch" all game as a key
    that works, and w said "You can watch your opponent once your own game has
    ended (e ends it)". Dimmed until then (the sentence kept); lit after End."""

    def watch_lit() -> bool:
        return any(
            a.binding.action == "watch" and a.enabled
            for a in app.screen.active_bindings.values()
            if a.binding.show
        )

    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = match.store.open_table(suits=2, minutes=10, deal=123).table_id
    bob.join(table).start()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        assert "Watch" in key_line(app) and not watch_lit()
        await pilot.press("w")
        assert screen.query_one("#status").text == (  # type: ignore[attr-defined]
            "You can watch your opponent once your own game has ended (e ends it)"
        )
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the board again")
        assert watch_lit()
        await pilot.press("w")
        await shown_screen(pilot, WatchScreen)
    bob.close()


async def test_watching_a_game_that_has_ended_says_so_in_words(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Watch on an opponent who has already pressed End: the status line said
    "You are watching: nothing can be played here" and never how their game
    stood; one that ended while watched read "bob's game has ended (ended)"."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = match.store.open_table(suits=1, minutes=10, deal=123).table_id
    bseat = bob.join(table)
    bseat.start()
    bseat.end()
    async with app.run_test(size=(80, 24)) as pilot:
        await watched_after_ending(pilot)
        said = "bob's game has ended (End pressed): Q goes back"
        await until(pilot, lambda: said in screen_text(app), "the end said")
        await pilot.pause(0.3)
        assert said in screen_text(app)
    bob.close()


async def hot_seat_handed_over(pilot: Pilot[object]) -> None:
    """A hot-seat table with Bob opened from the lobby, its host's game ended at
    once: the hand-over shows."""
    await pilot.press("n", "right", "right", "enter")  # hot-seat here
    await shown_screen(pilot, NewGameScreen)
    await pilot.press(*"Bob", "enter")
    await shown_screen(pilot, MatchScreen)
    await answer(pilot, ["e"], "y")
    await shown_screen(pilot, HandOverScreen)


async def test_down_from_the_last_row_goes_to_the_hot_seat_name(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Hot-seat chosen, ↓ down the rows to the name field under them: ↓ on the
    last row went round to the first, and the name typed then went nowhere.
    It goes on to the field; ↑ comes back to the rows."""
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        dialog = await shown_screen(pilot, NewGameScreen)
        await pilot.press("right", "right")  # against: hot-seat here
        await until(pilot, lambda: dialog.query_one("#guest").display, "the name field")
        await pilot.press("down", "down", "down", "down", "down")
        assert dialog.focused is dialog.query_one("#guest")
        await pilot.press("up")
        assert dialog.focused is dialog.query_one("#rows")
        await pilot.press("down", *"Bob", "enter")
        first = await shown_screen(pilot, MatchScreen)
        assert first.next_player is not None and first.next_player.name == "Bob"


async def test_hot_seat_hides_the_first_result_until_the_second_is_done(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "right", "right")  # against: hot-seat here
        await pilot.press("enter")  # asks for the second player's name first
        await shown_screen(pilot, NewGameScreen)
        await pilot.press(*"Bob", "enter")
        first = await shown_screen(pilot, MatchScreen)
        assert first.next_player is not None and first.next_player.name == "Bob"
        assert "plays after" in panel(first)
        await pilot.press(*chord(transfer(first), SPIDER_KEYS))
        score = first.game.score
        clock.advance(45)
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, HandOverScreen)
        shown = screen_text(app)  # the whole screen: the first board is covered too
        assert "result stays hidden until Bob has played" in shown
        assert "score" not in shown.lower() and "moves" not in shown.lower()
        await pilot.press("enter")
        second = await shown_screen(pilot, MatchScreen)
        assert second.seat.store.me.name == "Bob"
        assert second.game.deal == first.game.deal and not second.game.log
        assert second.query_one("#clock").text == "10:00"  # type: ignore[attr-defined]
        await until(pilot, lambda: "hidden" in panel(second), "the hidden panel")
        assert str(score) not in panel(second).replace("10:00", "")
        await pilot.press(*chord(transfer(second), SPIDER_KEYS))
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: results.results is not None and results.results.final, "final")
        assert [f.player.name for f in results.results.seats] == ["ann", "Bob"]
        shown = screen_text(app)  # both read it: nobody is "you"
        assert "(you)" not in shown and "You win" not in shown
        # nor "Your replay" / "Their replay" / "s shares your game": whose, by name
        assert "Bob's replay (y)" in shown and "ann's replay (o)" in shown
        assert "s shares Bob's game" in shown and "Your replay" not in shown
        await pilot.press("s")  # the codes' panel names the player too, not "your"
        await until(pilot, lambda: "Share Bob's game: Spider" in screen_text(app), "Bob's")
        await pilot.press("escape")
        await shown_screen(pilot, MatchResultsScreen)
        headline = results.query_one("#headline", Static).render()
        assert str(headline) == "Bob ended their game"  # not "You ended your game"
        assert " wins, by " in shown or "A draw" in shown
        assert results.results.seats[0].score == score
        record = match.store.record()
        assert record.opponents[0][0].name == "Bob" and record.overall.played == 1


async def test_the_hand_over_shows_its_own_keys_over_the_board_s(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The hot-seat hand-over covers the board and had no key line at all, the
    one screen of the match without one (its two keys only in the panel's
    grey line). Its own line now names them as every other screen does:
    Enter starts, Escape later."""
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await hot_seat_handed_over(pilot)
        await pilot.pause()
        assert key_line(app) == ["Start", "Later"]


async def test_a_hot_seat_table_left_at_the_hand_over_names_the_second_player(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Escape at the hand-over ("later") back to the lobby: the table read
    "ann vs (free)", "yours: done, seat free", "Enter: the results, Watch and the
    replays", as if anyone could take Bob's seat and nobody were to play. It names
    Bob, says he plays, and that Enter gives him the keyboard (as it does)."""
    app, _match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await hot_seat_handed_over(pilot)
        await pilot.press("escape")
        lobby = await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: lobby.tables, "the table's row")
        row = [str(c) for c in lobby.query_one("#tables").get_row_at(0)]  # type: ignore[attr-defined]
        assert row[3:] == ["ann vs Bob", "yours: done; Bob plays"]
        detail = str(lobby.query_one("#detail").render())
        assert "Enter: Bob takes the keyboard" in detail
        assert "code" not in detail  # it would only be refused: the seat is Bob's
        await pilot.press("i")  # nor an invitation
        status = lobby.query_one("#status")
        await until(pilot, lambda: "Bob's" in status.text, "the refusal")  # type: ignore[attr-defined]
        assert not isinstance(app.screen, AskScreen)
        await pilot.press("enter")
        await shown_screen(pilot, HandOverScreen)


async def test_a_hot_seat_table_left_during_the_second_game_offers_it_back(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Bob playing his half of a hot-seat match, Q back to the lobby (or the
    connection lost): the table's detail said "Enter: the results, Watch and the
    replays" while Enter brought Bob's board back, his clock running."""
    app, _match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await hot_seat_handed_over(pilot)
        await pilot.press("enter")
        board = await shown_screen(pilot, MatchScreen)
        assert board.seat.store.me.name == "Bob"
        await pilot.press("Q")
        lobby = await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: lobby.tables, "the table's row")
        detail = str(lobby.query_one("#detail").render())
        assert "Enter: back to Bob's game (their clock is running)" in detail
        assert "results" not in detail
        await pilot.press("enter")
        board = await shown_screen(pilot, MatchScreen)
        assert board.seat.store.me.name == "Bob"


async def test_a_share_code_opens_from_the_lobby(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Over SSH the lobby is all a player has: the share panel told them "On this
    host: termsolitaire replay BP7D3ZA", a command they have no shell to type,
    and nothing in the app opened a code. The lobby's c takes a share code (the
    host's or a self-contained one) as well as a table's, and shows its replay."""
    from termsolitaire.match.shares import share
    from termsolitaire.rules.sharecode import encode
    from termsolitaire.screens.boards.replay import ReplayMixin

    game = new_game("penguin", deal=5)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    long = new_game("penguin", deal=5)  # a whole game's code: longer than a name
    while len(encode(long)) <= 80 and long.legal_moves():
        long.play(long.legal_moves()[-1])
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    host_code = share(bob, game)
    bob.close()
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        fresh = encode(new_game("penguin", deal=5))
        for code in (host_code.lower(), encode(game), fresh, encode(long)):
            await shown_screen(pilot, LobbyScreen)
            await pilot.press("c")
            await shown_screen(pilot, AskScreen)
            await pilot.press(*code, "enter")
            replay = await until_replay(pilot, app)
            assert isinstance(replay, ReplayMixin)
            assert "deal 5" in screen_text(app) and replay.game.name == "penguin"
            await pilot.press("Q")
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("c")
        await shown_screen(pilot, AskScreen)
        await pilot.press(*"ZZZZ777", "enter")
        why = str(app.screen.query_one("#why").render())
        assert why.startswith("No shared game has the code ZZZZ777")
        await pilot.press("ctrl+u", "enter")  # nothing typed: the table's code is asked for
        assert "Type the table's code" in str(app.screen.query_one("#why").render())


async def test_a_host_code_opened_from_the_lobby_names_who_shared_it(
    shared: Path, clock: WallClock, tmp_path: Path, backend: str
) -> None:
    """The lobby's c opened a host share code as "Replay · Penguin" where
    ``termsolitaire replay CODE`` reads "Replay shared by Bob · Penguin": it
    names the sharer too; a self-contained code holds no name ("Replay")."""
    from termsolitaire.match.shares import share_game

    game = new_game("penguin", deal=5)
    game.play(game.legal_moves()[0])
    bob = MatchStore(Player.make("bob", "Bob"), shared, now=clock)
    codes = share_game(game, bob)
    bob.close()
    assert codes.host is not None
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        for code, heading in (
            (codes.host, "Replay shared by Bob · Penguin"),
            (codes.code, "Replay · Penguin"),
        ):
            await shown_screen(pilot, LobbyScreen)
            await pilot.press("c")
            await shown_screen(pilot, AskScreen)
            await pilot.press(*code, "enter")
            await until_replay(pilot, app)
            await until(pilot, lambda: "Penguin" in screen_text(app), "the replay's header")
            first = screen_text(app).strip().splitlines()[0]
            assert first.startswith(heading), first
            await pilot.press("Q")
    match.close()


async def test_the_code_dialog_shows_its_own_keys_over_the_lobby_s(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Over SSH at 80x24, the lobby's c: under "Join a table by its code" the
    lobby's key line showed through ("n New  i Invite  c Code  w Watch …"), keys
    that type into the answer there. Its own line: Enter goes, Escape never minds."""
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("c")
        await shown_screen(pilot, AskScreen)
        await pilot.pause()
        assert key_line(app) == ["Go", "Never mind"]
        await pilot.press("n", "enter")  # typed into the answer: refused, still asking
        assert isinstance(app.screen, AskScreen)
        await pilot.press("escape")
        await shown_screen(pilot, LobbyScreen)


async def test_the_match_dialogs_stay_inside_a_narrow_window(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The lobby at 60x20 (it plays there): its c dialog, 64 columns wide, ran off
    the right edge, its frame and the end of the answer's field cut. The End
    question (54 wide) opened at 80x24 and the window shrunk to 40x12 lost the
    end of every line ("n / Escape / Enter: play"), and so did the hot-seat
    hand-over (60). Each panel now keeps within the window and wraps its words."""
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(60, 20)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("c")
        ask = await shown_screen(pilot, AskScreen)
        await pilot.pause()
        assert ask.query_one("#panel").region.right <= 60
        await pilot.press("escape")
        await shown_screen(pilot, LobbyScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.press("n", "right", "right", "enter")  # hot-seat here
        await shown_screen(pilot, NewGameScreen)
        await pilot.press(*"Bob", "enter")
        await shown_screen(pilot, MatchScreen)
        await pilot.press("e")
        end = await shown_screen(pilot, ConfirmEndScreen)
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert end.query_one("#panel").region.right <= 40
        assert "play on" in screen_text(app)
        await pilot.press("y")
        over = await shown_screen(pilot, HandOverScreen)
        await pilot.pause()
        assert over.query_one("#panel").region.right <= 40
        assert "press Enter" in " ".join(screen_text(app).split())


async def test_the_new_game_dialog_shows_its_own_keys_over_the_lobby_s(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Over SSH at 80x24, the lobby's n: under "New game" the lobby's key line
    showed through ("n New  i Invite  c Code …"), keys that do nothing there.
    Its own line: ← → change the choice, Escape never minds; with hot-seat's
    name field shown too, the panel stays whole at 80x24."""
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("n")
        dialog = await shown_screen(pilot, NewGameScreen)
        await pilot.pause()
        assert key_line(app) == ["Previous choice", "Next choice", "Never mind"]
        await pilot.press("right", "right")  # hot-seat: its name field shows
        await until(pilot, lambda: dialog.query_one("#guest").display, "the name field")
        await pilot.pause()
        panel = dialog.query_one("#panel").region
        assert panel.y >= 0 and panel.bottom <= 23, panel
        await pilot.press("escape")
        await shown_screen(pilot, LobbyScreen)


async def test_a_paste_too_long_for_the_code_dialog_is_refused_in_words(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """A 10 kB paste into c's dialog was refused whole and silently (the input's
    length limit rings a bell an SSH player may never hear): the player pasted
    and nothing happened. Now the line under it says why; the code pasted alone
    still goes in."""
    from textual import events
    from textual.widgets import Input

    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("c")
        ask = await shown_screen(pilot, AskScreen)
        field = ask.query_one(Input)
        field.post_message(events.Paste("x" * 10240))
        await until(
            pilot,
            lambda: "Too long" in str(ask.query_one("#why").render()),
            "the refusal in words",
        )
        why = str(ask.query_one("#why").render())
        assert why == "Too long (at most 8192 characters): nothing was put in"
        assert field.value == ""
        field.post_message(events.Paste("ZZZZ-ZZZZ"))
        await until(pilot, lambda: field.value == "ZZZZ-ZZZZ", "the code pasted")
        await until(
            pilot, lambda: "Enter: go" in str(ask.query_one("#why").render()), "the refusal gone"
        )


async def test_a_share_code_pasted_over_two_lines_opens_from_the_lobby(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """A whole game's code is shown over two rows at 80 columns, and a terminal
    copies the rows with a newline between: pasted into the lobby's c, the input
    kept the first line only ("This code has a wrong length"). It takes the
    lines whole."""
    from textual import events
    from textual.widgets import Input

    from termsolitaire.rules.sharecode import encode

    long = new_game("penguin", deal=5)
    while len(encode(long)) <= 100 and long.legal_moves():
        long.play(long.legal_moves()[-1])
    code = encode(long)
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("c")
        ask = await shown_screen(pilot, AskScreen)
        ask.query_one(Input).post_message(events.Paste(f"{code[:80]}\n{code[80:]}\n"))
        await until(pilot, lambda: ask.query_one(Input).value.replace(" ", "") == code, "paste")
        await pilot.press("enter")
        replay = await until_replay(pilot, app)
        assert list(replay.replay.moves) == list(long.history)


async def until_replay(pilot, app):  # type: ignore[no-untyped-def]
    from termsolitaire.screens.boards.replay import ReplayMixin

    await until(pilot, lambda: isinstance(app.screen, ReplayMixin), "the replay")
    return app.screen


async def test_refusals_show_in_one_line(shared: Path, clock: WallClock, tmp_path: Path) -> None:
    """A wrong code, a full table: the store's reason, one line, nothing changed.
    A full table's also says that w watches it (playtest35: over ssh a second
    click on a game in progress, to see it, said only that it was full)."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    cat = MatchStore(Player.make("cat"), shared, now=clock)
    full = bob.open_table(deal=1).table_id
    cat.join(full)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        await pilot.press("c")
        await shown_screen(pilot, AskScreen)
        await pilot.press(*"ZZZZ-ZZZZ", "enter")
        why = str(app.screen.query_one("#why").render())
        assert why.startswith("No table has the code ZZZZ-ZZZZ") and "\n" not in why
        await pilot.press("escape")
        await pilot.press("enter")  # the full table
        status = lobby.query_one("#status").text  # type: ignore[attr-defined]
        assert status == f"Table {full} is full: both seats are taken; w watches both players live"
        assert len(match.store.table(full).seats) == 2
    bob.close()
    cat.close()


async def test_private_table_by_invitation(shared: Path, clock: WallClock, tmp_path: Path) -> None:
    """bob's private table is not in ann's lobby until he invites her; then it is,
    marked, and Enter takes the seat."""
    app, _match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    table = bob.open_table(suits=1, minutes=5, public=False, deal=9).table_id
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        assert lobby.tables == []
        bob.invite(table, "ann")
        await until(pilot, lambda: lobby.tables, "the invitation")
        invites = str(lobby.query_one("#invites").render())
        # Enter and x act on the highlighted row ("Enter joins" read as any row's)
        assert f"bob invites you to table {table} (1 suit, 5 min): Enter there joins" in invites
        assert "invited by bob" in str(lobby.query_one("#tables").get_row_at(0))
        await pilot.press("enter")
        await shown_screen(pilot, MatchScreen)
        assert app.screen.seat.number == 2
    bob.close()


async def test_against_the_computer_ends_by_the_clock_with_both_results(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """A match against the beginner on a 5-minute limit: the computer plays in its own
    process at its pace (the test moves the clock), its side panel follows, and
    time up ends both games; both results show, and the computer is watchable."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "right")  # against: the computer
        await pilot.press("down", "left")  # level: beginner
        await pilot.press("down", "down", "left")  # limit: 5 minutes
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        await until(pilot, lambda: "computer (beginner)" in panel(screen), "the computer")
        driver = match.drivers[screen.seat.table_id]
        for n in range(1, 4):
            clock.advance(15)
            await until(pilot, lambda n=n: len(driver.seat.log) >= n, f"computer action {n}")

        def shown_live() -> bool:
            game = driver.seat.game  # a new object after each of its actions
            return f"moves{game.moves:>6}" in panel(screen) and f"score{game.score:>6}" in panel(
                screen
            )

        await until(pilot, shown_live, "its score and moves in the panel")
        assert driver.running
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        clock.advance(300)
        await shown_screen(pilot, MatchResultsScreen)
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: results.results is not None and results.results.final, "final")
        me, cpu = results.results.seats
        assert (me.reason, cpu.reason) == ("time", "time")
        assert cpu.player.id == "computer:beginner" and len(driver.seat.log) >= 3
        # Its process ends at the driver's next pump after time up (not in the same tick).
        await until(pilot, lambda: not driver.running, "the computer's process to end")
        shown = screen_text(app)
        assert "computer (beginner)" in shown and "ann (you)" in shown
        assert "time ran out" in shown
        await pilot.press("w")
        await shown_screen(pilot, WatchScreen)
        assert app.screen.game.to_text() == driver.seat.game.to_text()  # type: ignore[attr-defined]


async def test_computer_match_resumes_after_a_restart(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The app closes mid-match; started again, Enter on the table brings back the
    player's game and clock as the store kept them, and the computer picks up
    from its stored actions in a new process. After the match either game
    replays move by move."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n", "right", "enter")  # the computer, casual, 10 minutes
        screen = await shown_screen(pilot, MatchScreen)
        driver = match.drivers[screen.seat.table_id]
        for n in (1, 2):
            clock.advance(15)
            await until(pilot, lambda n=n: len(driver.seat.log) >= n, f"computer action {n}")
        await pilot.press(*chord(transfer(screen), SPIDER_KEYS))
        mine, table = list(screen.seat.log), screen.seat.table_id
    match.close()
    assert not driver.running
    cpu_log = list(driver.seat.log)

    clock.advance(60)  # away for a minute: both clocks run on
    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        assert "yours: playing" in str(app.screen.query_one("#tables").get_row_at(0))
        await pilot.press("enter")
        screen = await shown_screen(pilot, MatchScreen)
        assert screen.seat.log == mine
        assert screen.query_one("#clock").text == "8:30"  # type: ignore[attr-defined]
        driver = match.drivers[table]
        assert driver.seat.log == cpu_log
        clock.advance(15)
        await until(pilot, lambda: len(driver.seat.log) > len(cpu_log), "the computer again")
        assert driver.seat.log[: len(cpu_log)] == cpu_log
        await answer(pilot, ["e"], "y")
        await shown_screen(pilot, MatchResultsScreen)
        clock.advance(600)  # the computer's time runs out
        results = await shown_screen(pilot, MatchResultsScreen)
        await until(pilot, lambda: results.results is not None and results.results.final, "final")
        await pilot.press("o")  # the computer's game, move by move
        await until(pilot, lambda: "Replay" in str(app.screen.query_one("#title").text), "replay")
        replay = app.screen.replay  # type: ignore[attr-defined]
        assert [str(m) for m in replay.moves] == [
            str(m) for m in match.store.watch(table, 2).game.history
        ]
        await pilot.press("right")
        assert replay.index == 1
        await pilot.press("Q")
        await shown_screen(pilot, MatchResultsScreen)
        await pilot.press("y")  # the player's own
        await until(pilot, lambda: "Replay" in str(app.screen.query_one("#title").text), "mine")
        assert [str(m) for m in app.screen.replay.moves] == mine  # type: ignore[attr-defined]
    match.close()


async def test_invite_from_the_lobby_and_decline(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """ann invites from the lobby: an unknown name is refused in one line and the
    dialog stays; bob's name sends it. bob's invitation to cat is declined by cat."""
    app, match = lobby_app(shared, clock, tmp_path / "home")
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    match.store.open_table(suits=1, minutes=10, public=False, deal=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await shown_screen(pilot, AskScreen)
        await pilot.press(*"zed", "enter")
        assert "No player called 'zed'" in str(app.screen.query_one("#why").render())
        await pilot.press("ctrl+u", *"bob", "enter")
        await shown_screen(pilot, LobbyScreen)
        assert "Invited bob to table 1" in app.screen.query_one("#status").text  # type: ignore[attr-defined]
        assert [i.table_id for i in bob.invitations()] == [1]

    cat = MatchStore(Player.make("cat"), shared, now=clock)
    bob.invite(bob.open_table(deal=4, public=False).table_id, "cat")
    app, _ = lobby_app(shared, clock, tmp_path / "home-cat", player="cat")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await shown_screen(pilot, LobbyScreen)
        assert [t.id for t in lobby.tables] == [2]
        await pilot.press("x")
        assert "Declined bob's invitation to table 2" in lobby.query_one("#status").text  # type: ignore[attr-defined]
        assert lobby.tables == [] and cat.invitations() == []
    bob.close()
    cat.close()


async def test_the_solo_games_are_one_key_from_the_lobby_and_escape_comes_back(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """Over SSH the lobby is the home screen: the four games must be reachable from it,
    a game played from there must come back to the menu, and the menu back to the lobby."""
    from termsolitaire.screens.boards.board import BoardScreen
    from termsolitaire.screens.menu import MenuScreen

    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        assert "g Games" in screen_text(app)
        await pilot.press("g")
        await shown_screen(pilot, MenuScreen)
        await pilot.press("enter")  # the first game on the list
        board = await shown_screen(pilot, BoardScreen)
        board.game.play(board.game.legal_moves()[0])
        await pilot.press("Q")  # leave the board: the game stays saved
        await shown_screen(pilot, MenuScreen)
        await pilot.press("escape")
        await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: "Saved: " in screen_text(app), "the saved game's line")
        assert f"deal {board.game.deal}, 1 move" in screen_text(app)
        assert app.is_running
    match.close()


async def test_the_lobby_names_no_saved_game_for_a_deal_left_without_a_move(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """The lobby's "Saved: Penguin — deal N, 0 moves · g to resume" named a deal
    opened and left at once, which the menu no longer offers to resume."""
    from termsolitaire.screens.boards.board import BoardScreen
    from termsolitaire.screens.menu import MenuScreen

    app, match = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await pilot.press("g")
        await shown_screen(pilot, MenuScreen)
        await pilot.press("enter")  # the first game on the list
        board = await shown_screen(pilot, BoardScreen)
        await pilot.press("Q")  # left without a move
        await shown_screen(pilot, MenuScreen)
        await pilot.press("escape")
        lobby = await shown_screen(pilot, LobbyScreen)
        saves = app.services.saves.all()[0]
        assert [s.game.deal for s in saves] == [board.game.deal]  # saved, but unplayed
        assert lobby.saved_games_line() == "" and "Saved: " not in screen_text(app)
    match.close()


async def test_the_menu_opens_the_lobby_and_each_goes_back_to_the_other(
    shared: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A local player finds the match from the menu (m); the lobby's g and q go back
    to that menu instead of stacking another or leaving the program."""
    from termsolitaire.app import SolitaireApp
    from termsolitaire.screens.menu import MenuScreen

    monkeypatch.setenv("TERMSOLITAIRE_MATCH_DIR", str(shared))
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER", "ann")
    app = SolitaireApp(clock=False, data_dir=str(tmp_path / "home"))
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, MenuScreen)
        await pilot.press("m")
        await shown_screen(pilot, LobbyScreen)
        assert "you are ann" in screen_text(app)
        depth = len(app.screen_stack)
        await pilot.press("g")
        await shown_screen(pilot, MenuScreen)
        await pilot.press("m")
        await shown_screen(pilot, LobbyScreen)
        assert len(app.screen_stack) == depth  # the same lobby, not another
        await pilot.press("q")
        await shown_screen(pilot, MenuScreen)
        assert app.is_running


async def test_the_deal_number_shows_only_once_the_match_is_over(
    shared: Path, clock: WallClock, tmp_path: Path
) -> None:
    """bob opens a table. ann, seated nowhere, saw its deal number in the lobby and
    could deal it as a solo game (the menu's deal number, ``#``) with the hints
    before joining; the board's header showed it too. Hidden now until every game
    at the table has ended; then the lobby's finished tables name it."""
    bob = MatchStore(Player.make("bob"), shared, now=clock)
    bseat = bob.open_table(suits=1, minutes=10, public=True)
    deal = f"deal {bseat.game.deal}"
    app, _ = lobby_app(shared, clock, tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown_screen(pilot, LobbyScreen)
        await until(pilot, lambda: "take the free seat" in screen_text(app), "bob's table")
        assert deal not in screen_text(app)
        await pilot.press("enter")  # ann joins
        screen = await shown_screen(pilot, MatchScreen)
        assert deal not in screen_text(app) and "Table 1 · 1 suit · 10 min" in screen_text(app)
        await pilot.press("e")
        await shown_screen(pilot, ConfirmEndScreen)
        await pilot.press("y")
        results = await shown_screen(pilot, MatchResultsScreen)
        bseat.start()
        bseat.end()
        await until(pilot, lambda: results.results is not None and results.results.final, "final")
        await pilot.press("q")
        await shown_screen(pilot, LobbyScreen)
        # The match over, its table left the open list: the empty lobby said only
        # "No table is open on this host", not where the results are.
        await until(pilot, lambda: "a: finished tables too" in screen_text(app), "the way")
        await pilot.press("a")  # finished tables too
        await until(pilot, lambda: deal in screen_text(app), "the deal once the match is over")
        assert screen.seat.table_id == bseat.table_id
    bob.close()


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The app's notifications shown (toasts are not in the screenshot's text)."""
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("kind", ["computer", "hotseat"])
def test_the_new_dialog_shows_a_game_without_a_table_to_list_as_private(kind: str) -> None:
    """Against the computer or hot-seat the table is private (match/services.py);
    the dimmed Table row said "(public)" (playtest35)."""
    from termsolitaire.match.services import NewGame

    row = NewGameScreen(NewGame(kind=kind)).row("public", "Table").plain
    assert "(private)" in row and "(public)" not in row, row
    assert "[public]" in NewGameScreen(NewGame(kind="table")).row("public", "Table").plain
