"""The play controller on its own: no Textual, no screen. Each test is something a
player would notice: a refusal says why and changes nothing, the hand survives a
refused cursor drop, a match clock never stops, a finished game holds nothing."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from termsolitaire.match.replay import apply
from termsolitaire.play.controller import Controller
from termsolitaire.play.modes import MATCH, REPLAY, WATCH, Mode
from termsolitaire.play.session import GameSession
from termsolitaire.play.tables import ViewTable
from termsolitaire.play.words import PlainWords
from termsolitaire.rules import Game, Move, from_text, new_game


def solo(deal: int = 5) -> Controller:
    return Controller(GameSession(None, new_game("penguin", deal)))


def test_the_controller_imports_no_textual() -> None:
    code = "import sys, termsolitaire.play.controller; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_chord_plays_and_says_what_it_played() -> None:
    c = solo()
    assert c.pile("t7").message.startswith("t7 in hand")
    outcome = c.pile("t3")
    assert outcome.moved and outcome.message == "Played 9D t7→t3"
    assert c.game.log == ("t7-t3",)
    assert c.hand.src is None


def test_a_refused_chord_drops_the_hand_but_a_refused_cursor_drop_keeps_it() -> None:
    c = solo()
    c.pile("t7")
    outcome = c.pile("t1")  # 9D on 7H: no
    assert outcome.refused and c.hand.src is None and c.game.log == ()
    c.pile("t7")
    outcome = c.drop_on("t1")  # the cursor's or the mouse's drop
    assert outcome.refused and c.hand.src == "t7" and c.game.log == ()


def test_a_cursor_drop_on_another_foundation_goes_to_the_cards_own() -> None:
    c = solo()  # t4's top card is 2H; AH is on f2
    c.pile("t4")
    outcome = c.drop_on("f1")
    assert outcome.moved and c.game.log == ("t4-f2",)


def test_a_chord_naming_the_wrong_foundation_says_why() -> None:
    c = solo()
    c.pile("t4")
    outcome = c.pile("f1")
    assert outcome.refused and c.game.log == ()


def test_pause_hides_the_game_from_every_key() -> None:
    c = solo()
    assert c.pause().message == "Paused"
    assert c.mode is Mode.PAUSED
    for outcome in (c.pile("t7"), c.undo(), c.deal(), c.foundation(), c.hint(), c.restart()):
        assert outcome.refused and outcome.message == "Paused: P plays on"
    assert c.game.log == ()
    assert c.pause().message == "Playing on"


def test_the_solo_clock_stands_still_while_paused_or_hidden() -> None:
    now = [0.0]
    c = solo()
    c.session._now = lambda: now[0]  # type: ignore[method-assign]
    c.session.restart_clock()
    now[0] = 5.0
    c.tick()
    assert c.game.elapsed == 5.0
    c.pause()
    now[0] = 50.0
    c.tick()
    assert c.game.elapsed == 5.0
    c.pause()
    c.hidden = True
    now[0] = 90.0
    c.tick()
    assert c.game.elapsed == 5.0


def test_a_match_refuses_pause_hints_and_new_deals_with_its_reasons() -> None:
    c = Controller(GameSession(None, new_game("spider", 5, suits=1)), policy=MATCH)
    assert c.mode is Mode.MATCH
    assert c.pause().message == "The match clock never stops: P is for solo games"
    assert c.hint().message.startswith("No hints in a match")
    assert c.restart().message.startswith("A match game is played to its end")
    assert c.game.log == ()
    assert c.clock_active  # paused or hidden, a match clock runs
    c.hidden = True
    assert c.clock_active
    assert c.never("pause") and c.never("hint") and c.never("restart")


def test_a_watched_game_plays_nothing() -> None:
    game = new_game("spider", 5, suits=1)
    c = Controller(GameSession(None, game), policy=WATCH, table=ViewTable(lambda: game))
    before = game.to_text()
    for outcome in (c.pile("1"), c.deal(), c.undo(), c.end(), c.turn(), c.hint()):
        assert outcome.refused
        assert outcome.message == "You are watching: nothing can be played here (Q goes back)"
    assert game.to_text() == before and game.log == ()


def test_after_the_end_nothing_is_in_hand() -> None:
    c = solo()
    c.pile("t7")
    outcome = c.finish("You ended the game")
    assert outcome.finished == "You ended the game"
    assert c.hand.src is None and c.mode is Mode.FINISHED
    assert c.pile("t4").message == "This game is over: N deals a new one"


def test_undo_and_redo_are_dimmed_with_a_reason_when_there_is_nothing() -> None:
    c = solo()
    assert c.why_not("undo") == "Nothing to undo"
    assert c.why_not("redo") == "Nothing to play again"
    c.pile("t7")
    c.pile("t3")
    assert c.why_not("undo") is None
    assert c.undo().message.startswith("Took back")
    assert c.why_not("redo") is None


ACTIONS = ["pile", "drop", "undo", "redo", "deal", "foundation", "cursor", "grab", "end"]
PILES = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "c1", "c2", "f1", "f2", "f3", "f4"]


def act(c: Controller, action: str, pile: str) -> None:
    if action == "pile":
        c.pile(pile)
    elif action == "drop" and c.hand.src is not None:
        c.drop_on(pile)
    elif action == "undo":
        c.undo()
    elif action == "redo":
        c.redo()
    elif action == "deal":
        c.deal()
    elif action == "foundation":
        c.foundation()
    elif action == "grab":
        c.grab()
    elif action == "end":
        outcome = c.end()
        if outcome.ask is not None:
            outcome.ask.then()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(ACTIONS), st.sampled_from(PILES)), max_size=30),
    st.sampled_from(["paused", "hidden", "replay"]),
)
def test_no_action_changes_a_hidden_or_read_only_game(actions: list, setup: str) -> None:
    game = new_game("penguin", 5)
    apply(game, "t4-f2")
    if setup == "replay":
        c = Controller(GameSession(None, game), policy=REPLAY, table=ViewTable(lambda: game))
    else:
        c = Controller(GameSession(None, game))
        if setup == "paused":
            c.pause()
        else:
            c.hidden = True
    before = (game.to_text(), game.log, game.elapsed)
    for action, pile in actions:
        act(c, action, pile)
    assert (game.to_text(), game.log, game.elapsed) == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ACTIONS), st.sampled_from(PILES)), max_size=30))
def test_whatever_is_played_undo_takes_it_all_back(actions: list) -> None:
    c = solo()
    start = c.game.to_text()
    for action, pile in actions:
        if action != "end":
            act(c, action, pile)
    while c.game.can_undo:
        assert not c.undo().refused
    assert c.game.to_text() == start


def test_a_key_that_cannot_take_a_hints_cards_starts_the_players_own_chord() -> None:
    """After "Hint: 2H 4->f" the hint's card is in hand; ``1`` (column 1, which
    cannot take it) picks up column 1's card, as it does with nothing in hand,
    rather than refusing "2H goes only on the 3H"; ``3`` then plays 1->3. The
    hint's own key, or another place that takes its card, still plays it; the
    mouse alike."""
    from termsolitaire.rules import Move

    c = solo()  # deal 5: t4's top card is 2H, AH on f2; t7's 9D goes on t3's 10D
    c.show_hint(Move.parse("t4-f2"))
    assert c.hand.src == "t4"
    outcome = c.pile("t7")
    assert not outcome.refused and c.hand.src == "t7" and c.game.log == ()
    assert c.pile("t3").moved and c.game.log == ("t7-t3",)
    c.show_hint(Move.parse("t4-f2"))
    assert c.pile("f2").moved and c.game.log[-1] == "t4-f2"
    c.show_hint(Move.parse("t6-c1"))
    assert c.pile("c2").moved and c.game.log[-1] == "t6-c2"  # a cell takes any card
    c.show_hint(Move.parse("t4-f1"))  # 2S now on t4
    outcome = c.click("t5", 1)
    assert not outcome.refused and c.hand.src == "t5"
    c.hand.drop()
    c.pile("t7")  # the player's own pick: a refused key puts it back, as before
    assert c.pile("t1").refused and c.hand.src is None


def test_the_hints_chord_typed_or_clicked_in_full_plays_the_hint() -> None:
    """After "Hint: 9D t7->t3" a player who types the chord the hint names, ``7``
    then ``3``, plays it, as does a click on the 9D then on column 3: the first
    key or click used to put the hint's card back ("Put back"), and the second
    then picked up column 3. A second press of the source puts it back."""
    from termsolitaire.rules import Move

    for gesture in ("keys", "mouse"):
        c = solo()  # deal 5: t7's 9D goes on t3's 10D
        c.show_hint(Move.parse("t7-t3"))
        first = c.pile("t7") if gesture == "keys" else c.click("t7", 1)
        assert first.message.startswith("t7 in hand") and c.hand.src == "t7", gesture
        second = c.pile("t3") if gesture == "keys" else c.click("t3", 1)
        assert second.moved and c.game.log == ("t7-t3",), gesture
        assert "next hint" in second.message, gesture  # still following the hints
    c = solo()
    c.show_hint(Move.parse("t7-t3"))
    c.pile("t7")
    assert c.pile("t7").message == "Put back the 9D" and c.hand.src is None


def test_a_click_on_a_card_that_cannot_move_with_the_cards_on_it_says_so() -> None:
    """A click on a card takes the cards above it along; where they are no run, it
    took the top card(s) instead without a word ("Column 1 in hand"), so the next
    click could move a card the player never chose. It says why now and takes
    nothing; a click on the top card, or on a run, still takes it."""
    c = solo()  # deal 5: column 1 ends 8D 7H; 9D of column 7 goes on 10D of column 3
    outcome = c.click("t1", 2)
    assert outcome.refused and outcome.message == "8D cannot move: only the 7H on top moves"
    assert c.hand.src is None and c.game.log == ()
    assert c.click("t1", 1).message.startswith("t1 in hand") and c.hand.src == "t1"
    c.cancel()
    c.pile("t7")
    c.pile("t3")  # t3 ends 10D 9D, a run of two
    assert c.click("t3", 2).message.startswith("t3 in hand") and c.hand.shown_count() == 2
    c.cancel()
    outcome = c.click("t3", 3)
    assert outcome.refused and outcome.message.endswith("only the top 2 move together")


def test_f_with_nothing_in_hand_names_the_games_own_word_for_a_pile() -> None:
    """Napoleon's cards sit in positions of a circle; the others' in piles."""
    for name, word in (("napoleon", "position"), ("penguin", "pile")):
        c = Controller(GameSession(None, new_game(name, 5)))
        c.hand.cursor = None
        c.hand.src = None
        assert f"its {word}'s key" in c.foundation().message


def test_a_verdict_s_rough_line_keeps_the_verdict_but_a_hint_searches_again() -> None:
    """The board's verdict searches without shortening its line (cheaper; most
    verdicts are never followed): "winnable" stays while the player is on that
    line, but ``H``, ``S`` and ``D`` ask for a search, whose shortened line then
    gives the hint, never the rough line's detours."""
    from termsolitaire.solver import Budget, solve

    c = solo(11)
    c.solver = True
    game = c.game
    rough = solve(game, Budget(seconds=10, cpu=True), shorten=False)
    c.advice.take(game, rough, game.history, rough=True)
    assert c.advice.verdict == "winnable"
    assert c.hint().search == "hint"
    assert c.solution().search == "solution"
    assert c.solution(demo=True).search == "demo"
    game.play(rough.moves[0])  # along the rough line: the verdict holds, no search
    assert c.advice.keeps_line(game) and c.advice.verdict == "winnable"
    assert c.hint().search == "hint"
    short = solve(game, Budget(seconds=10, cpu=True))
    c.advice.take(game, short, game.history)  # the hint's own search answered
    outcome = c.answered("hint", 10)
    assert outcome.search is None and outcome.message.startswith("Hint: ")
    assert c.hinted == short.moves[0]


def test_a_verdict_s_rough_line_never_replaces_a_hint_s_line_through_here() -> None:
    """A verdict's search that answers after a hint's (both from here): the hint's
    shortened line stays, so the next hint comes at once, not after a search."""
    from termsolitaire.solver import Budget, solve

    c = solo(11)
    c.solver = True
    game = c.game
    short = solve(game, Budget(seconds=10, cpu=True))
    c.advice.take(game, short, game.history)  # the hint's search
    rough = solve(game, Budget(seconds=10, cpu=True), shorten=False)
    c.advice.take(game, rough, game.history, rough=True)  # the verdict's, later
    assert c.advice.verdict == "winnable"
    outcome = c.hint()
    assert outcome.search is None and c.hinted == short.moves[0]


def face_down_t1() -> Game:
    """Spider deal 123 (2 suits) with t1's top card turned down: t1 shows only
    face-down cards, every other pile a face-up card (the board's tests use it too)."""
    lines = new_game("spider", 123, suits=2).to_text().splitlines()
    lines = [line.lower() if line.startswith("t1:") else line for line in lines]
    return from_text("\n".join(lines) + "\n")


def _spider_with_t1_face_down() -> Controller:
    return Controller(GameSession(None, face_down_t1()))


def test_t_turns_the_cursors_pile_when_it_can_be_turned() -> None:
    c = _spider_with_t1_face_down()
    c.hand.cursor = "t1"
    assert c.turn().moved
    assert [str(m) for m in c.game.history] == ["turn t1"]


def test_t_on_a_face_up_pile_asks_which_pile_so_the_next_key_turns_it() -> None:
    # The footer says "t+pile turn": with the cursor left on a face-up pile, t then
    # 1 must turn pile 1, not refuse and then pick pile 1 up.
    c = _spider_with_t1_face_down()
    c.hand.cursor = "t5"
    assert c.turn().message.startswith("Turn which pile")
    assert c.pile("t1").moved
    assert [str(m) for m in c.game.history] == ["turn t1"]
    assert c.hand.src is None


def test_a_search_that_found_nothing_is_not_run_again_from_the_same_position() -> None:
    """Stjernen, hints followed to where the full search finds no win, no loss and
    no line that gets a card further: ``H`` said "No winning line found in 10 s"
    and a second ``H`` searched another 10 s for the same words (seen by
    playtest24). Now the second ``H`` (and ``S``, ``D``) says so at once and
    where to search longer; after a move the next ``H`` searches again."""
    from termsolitaire.solver.base import Result

    c = Controller(GameSession(None, new_game("stjernen", 7)))
    c.solver = True
    game = c.game
    assert c.hint().search == "hint"
    c.advice.take(game, Result("unknown", (), best=0), game.history)
    first = c.answered("hint", 10)
    assert first.message == "No winning line found in 10 s: cannot tell yet"
    for again in (c.hint(), c.solution(), c.solution(demo=True)):
        assert again.search is None
        assert again.message == "No winning line found here in 10 s (searched already)"
        assert again.note is not None and "--jobs 2" in again.note
    c.play(Move.parse("deal"))
    assert c.hint().search == "hint"


def test_a_fair_cannot_tell_names_the_setting_that_sees_every_card() -> None:
    """With fair hints on, "Cannot tell from the cards you can see" came again and
    again with no word of the setting that lets the solver see every card."""
    from termsolitaire.solver.fair import FairResult

    c = Controller(GameSession(None, new_game("stjernen", 7)))
    c.solver = True
    game = c.game
    c.advice.take_fair(game, FairResult("unknown"), game.history)
    outcome = c.hint()
    assert outcome.message == "Cannot tell from the cards you can see"
    assert outcome.note is not None and "Fair hints off" in outcome.note


def test_a_fair_no_move_helps_on_spider_names_the_key_that_ends_the_game() -> None:
    """Spider with the stock dealt: "No move helps here" said nothing more, while
    every further move only costs a point; the board's End key is named with it
    (Spider's board has End on ``e``; a board without End adds nothing)."""
    from termsolitaire.screens.boards.bindings import screen_bindings
    from termsolitaire.screens.boards.spider import SpiderScreen
    from termsolitaire.screens.boards.words import BoardWords
    from termsolitaire.solver.fair import FairResult
    from termsolitaire.widgets.cards import CardLook

    spider_words = BoardWords(SpiderScreen.PLACES, screen_bindings(SpiderScreen), CardLook)
    assert spider_words.action_key("end") == "e"
    for words, said in (
        (spider_words, "No move helps here, by the cards you can see; e ends the game"),
        (PlainWords(), "No move helps here, by the cards you can see"),
    ):
        c = Controller(GameSession(None, new_game("spider", 5, suits=2)), words)
        c.solver = True
        game = c.game
        c.advice.take_fair(game, FairResult("none"), game.history)
        outcome = c.hint()
        assert outcome.message == said
        assert outcome.note is not None and "Fair hints off" in outcome.note


def test_a_hint_says_fair_hint_whenever_the_key_line_does() -> None:
    """Stjernen on fair hints, a win found while every card was in sight (the
    stock dealt out): after the collect the stock is face down, the key line
    reads "H Fair hint", and the next hint said "Hint:" (playtest39). A line found
    with nothing hidden is fair; the hint says so as the key line does."""
    from termsolitaire.play.advice import peeks
    from termsolitaire.solver.base import Result

    c = Controller(GameSession(None, new_game("stjernen", 2)))
    c.solver = True
    game = c.game
    deal, collect = Move.parse("deal"), Move.parse("collect")
    while game.pile(game.stock_pile):
        game.play(deal)
    assert c.fair_help and not peeks(game)
    c.advice.take(game, Result("won", (collect, deal, deal)), game.history)
    assert c.hint().message == "Hint: collect (Enter does it)"  # nothing hidden
    c.deal()  # the collect: the stock face down again
    assert peeks(game)
    assert c.hint().message == "Fair hint: deal (Enter does it)"


def test_the_enter_after_a_hint_with_no_move_says_it_again_and_acts_on_nothing() -> None:
    """A player following the hints with Enter got "No move helps here", and the
    next Enter acted on the cursor: on Stjernen's empty stock it gathered the
    cards into the next round, on Spider's it dealt. It says the hint's answer
    again; an arrow key gives Enter back to the cursor."""
    from termsolitaire.solver.fair import FairResult

    c = Controller(GameSession(None, new_game("spider", 5, suits=2)), PlainWords())
    c.solver = True
    game = c.game
    c.advice.take_fair(game, FairResult("none"), game.history)
    said = c.hint().message
    assert said.startswith("No move helps here")
    c.hand.cursor = "stock"
    for _ in range(3):
        assert c.grab().message == said
    assert game.log == ()
    c.cursor(0, 1)
    c.hand.cursor = "stock"
    assert c.grab().moved and game.log == ("deal",)  # the player's own deal


NEAR_THE_END = """game: stjernen
round: 4
c: AC 2C
i1: -
i2: -
i3: -
i4: -
o1: -
o2: 3C 4C 5C
o3: -
o4: AS 2S 3S
f1: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
f2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC KC QC JC TC 9C 8C
f3: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
f4: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KS QS JS TS 9S 8S 7S 6S 5S
u1: -
u2: 6C
u3: -
u4: -
u5: -
u6: -
stock: 7c 4s
"""
"""Stjernen deal 12 after 228 moves of fair hints: the last deal leaves only
foundation moves, and the cursor is on the stock, which is then empty."""


def test_enter_while_the_board_finishes_plays_the_rest_not_the_cursor_s_pile() -> None:
    """A player following hints pressed Enter once more as the board finished by
    itself: at the cursor, on the emptied stock, it gathered the piles into a new
    round (found playing Stjernen deal 12 at 80x24). It now sends the rest home."""
    c = Controller(GameSession(None, from_text(NEAR_THE_END)))
    c.hand.cursor = "stock"
    started = c.play("deal")
    assert started.finish and c.finishing
    outcome = c.grab()
    assert outcome.finished == "Won!" and c.game.is_won
    assert "collect" not in c.game.log and not c.finishing


def test_an_action_of_the_player_s_stops_the_finish() -> None:
    c = Controller(GameSession(None, from_text(NEAR_THE_END)))
    c.play("deal")
    assert c.finish_step() is not None and c.finishing  # one card home
    c.undo()
    assert not c.finishing and c.finish_step() is None
    assert c.game.log == ("deal", "u1-f4", "undo")


def test_a_search_that_found_no_line_names_the_stock_s_next_step() -> None:
    """Stjernen with a round's stock dealt, hints with the full solver: where its
    best line was empty, ``H`` said "No winning line found in 10 s: cannot tell
    yet" (and again "searched already") and named no next step, while the board's
    only way on is the collect (lead27 left it). Both now name the stock's key; a
    round with stock left names the deal. Enter still plays nothing."""
    from termsolitaire.screens.boards.bindings import screen_bindings
    from termsolitaire.screens.boards.stjernen import StjernenScreen
    from termsolitaire.screens.boards.words import BoardWords
    from termsolitaire.solver.base import Result
    from termsolitaire.widgets.cards import CardLook

    words = BoardWords(StjernenScreen.PLACES, screen_bindings(StjernenScreen), CardLook)
    c = Controller(GameSession(None, new_game("stjernen", 5)), words)
    c.solver = True
    game = c.game
    assert c.hint().search == "hint"
    c.advice.take(game, Result("unknown", (), best=0), game.history)
    assert c.answered("hint", 10).message == "No winning line found in 10 s; 0 deals"
    while not game.can_collect:
        c.play(Move.parse("deal"))
    assert c.hint().search == "hint"
    c.advice.take(game, Result("unknown", (), best=0), game.history)
    assert c.answered("hint", 10).message == "No winning line found in 10 s; o collects"
    again = c.hint()
    assert again.message == "No winning line found here in 10 s (searched already); o collects"
    c.hand.cursor = "stock"
    assert c.grab().message == again.message
    assert game.can_collect and game.round == 1


def test_the_deal_key_on_an_empty_stock_collects_and_says_how_to_take_it_back() -> None:
    """Stjernen's ``0`` deals a row, and on the empty stock collects (RULES.md: a
    player's action, as a click on the stock): a player dealing through the stock
    with ``0`` collects with one press too many, the round's piles gone from the
    board. It says that ``z`` takes it back, and ``z`` does; ``o`` is said as before."""
    from termsolitaire.screens.boards.bindings import screen_bindings
    from termsolitaire.screens.boards.stjernen import StjernenScreen
    from termsolitaire.screens.boards.words import BoardWords
    from termsolitaire.widgets.cards import CardLook

    words = BoardWords(StjernenScreen.PLACES, screen_bindings(StjernenScreen), CardLook)
    c = Controller(GameSession(None, new_game("stjernen", 5)), words)
    game = c.game
    while not game.can_collect:
        assert c.deal().message == "Dealt a row"
    said = c.deal().message
    assert said == "Collected the piles into a new stock; z takes it back"
    assert game.round == 2
    assert c.undo().moved and game.round == 1 and game.can_collect
    c.hand.cursor = "stock"
    assert c.grab().message == said  # Enter on the stock (a click picks it the same way)
    assert c.undo().moved and game.round == 1
    assert c.collect().message == "Collected the piles into a new stock"


def test_a_hint_on_a_deal_with_no_win_says_how_to_get_another() -> None:
    """Napoleon, a fresh deal the solver proved lost: ``H`` said "No winning line
    from here" (the verdict beside it says "not winnable") and nothing of what to
    do; at the deal itself the next step is another deal, and it says so. Once a
    move is played, "from here" as before."""
    from termsolitaire.screens.boards.bindings import screen_bindings
    from termsolitaire.screens.boards.napoleon import NapoleonScreen
    from termsolitaire.screens.boards.words import BoardWords
    from termsolitaire.solver.base import Result
    from termsolitaire.widgets.cards import CardLook

    words = BoardWords(NapoleonScreen.PLACES, screen_bindings(NapoleonScreen), CardLook)
    c = Controller(GameSession(None, new_game("napoleon", 5)), words)
    c.solver = True
    game = c.game
    c.advice.take(game, Result("lost"), game.history)
    assert c.hint().message == "This deal has no winning line; N deals another"
    c.play(game.legal_moves()[0])
    c.advice.take(game, Result("lost"), game.history)
    assert c.hint().message == "No winning line from here"


def test_a_hint_where_a_stjernen_round_is_lost_names_the_stock_s_step() -> None:
    """Stjernen proved lost part-way with no win found earlier on the line: ``H``
    said only "No winning line from here", while the board's way on is a deal
    (or, with the stock dealt, a collect); a player following the hints was left
    to find it. It names the stock's key as the unproved search does; Enter
    still plays nothing."""
    from termsolitaire.screens.boards.bindings import screen_bindings
    from termsolitaire.screens.boards.stjernen import StjernenScreen
    from termsolitaire.screens.boards.words import BoardWords
    from termsolitaire.solver.base import Result
    from termsolitaire.widgets.cards import CardLook

    words = BoardWords(StjernenScreen.PLACES, screen_bindings(StjernenScreen), CardLook)
    c = Controller(GameSession(None, new_game("stjernen", 5)), words)
    c.solver = True
    game = c.game
    c.play(Move.parse("deal"))
    c.advice.take(game, Result("lost"), game.history)
    assert c.hint().message == "No winning line from here with the cards known; 0 deals"
    while not game.can_collect:
        c.play(Move.parse("deal"))
    c.advice.take(game, Result("lost"), game.history)
    assert c.hint().message == "No winning line from here; o collects"
    before = game.log
    c.hand.cursor = "stock"
    c.grab()
    assert game.log == before


def test_escape_says_what_it_put_back_or_stopped() -> None:
    """Escape after a pick-up, after Spider's ``t`` or with the cursor shown left the
    status line blank: a player could not tell whether it had done anything. It
    names the cards put back (as a second press of their pile does), the turn not
    made, the cursor gone; with nothing to undo it leaves the line as it is."""
    c = solo()  # deal 5: t7's 9D goes on t3's 10D
    c.pile("t7")
    assert c.cancel().message == "Put back the 9D" and c.hand.src is None
    c.hand.cursor = "t1"
    assert c.cancel().message == "Cursor off" and c.hand.cursor is None
    assert c.cancel().message is None  # nothing in hand, no cursor: the line stays
    spider = Controller(GameSession(None, new_game("spider", 5, suits=1)))
    spider.play(Move.parse("t1-t7"))  # t7 ends JS 10S, a run of two
    spider.pile("t7")
    assert spider.cancel().message == "Put back the JS and the card on it"
    spider.pile("t7")
    assert spider.pile("t7").message == "Put back the JS and the card on it"
    assert spider.turn().message.startswith("Turn which pile")
    assert spider.cancel().message == "No card turned" and not spider.turning


def test_a_winning_line_that_saw_every_card_survives_a_change_of_the_fair_setting() -> None:
    """Switching fair hints forgot a winning line found with no card hidden (every
    Penguin line): the next hint searched again for the same line. Such a line is
    kept, as a proof of loss that saw every card is."""
    from termsolitaire.solver import Budget, solve

    c = solo(11)
    c.solver = True
    game = c.game
    won = solve(game, Budget(seconds=10, cpu=True))
    assert won.verdict == "won"
    c.advice.take(game, won, game.history)
    c.help_changed()
    outcome = c.hint()
    assert outcome.search is None and outcome.message.startswith("Hint: ")
    assert c.hinted == won.moves[0]
