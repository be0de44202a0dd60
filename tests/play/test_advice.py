"""The board's record of what the solver found (``play.advice``), without a board."""

from __future__ import annotations

from termsolitaire.play.advice import Advice
from termsolitaire.rules import Move, new_game
from termsolitaire.solver.base import Result
from termsolitaire.solver.fair import FairResult, hidden_cards

DEAL, COLLECT = Move.parse("deal"), Move.parse("collect")


def test_a_line_found_with_nothing_hidden_is_not_called_a_peek_once_cards_are_hidden() -> None:
    """Stjernen with round 1's stock all dealt shows every card, so the solver's
    win from there saw nothing the player has not: after the collect turns the
    stock face down, following that line still says "winnable", never "with the
    cards known" (seen at 80x24 with fair hints on, following hints on deal 2)."""
    game = new_game("stjernen", 2)
    while game.is_legal(DEAL):
        game.play(DEAL)
    assert hidden_cards(game) == 0
    advice = Advice()
    advice.take_fair(game, FairResult("won", (COLLECT, DEAL)), game.history)
    assert advice.verdict == "winnable"
    game.play(COLLECT)
    assert hidden_cards(game) == 60
    assert advice.keeps_line(game)
    assert advice.verdict == "winnable"
    assert advice.next_move(game) == DEAL


def test_a_line_found_with_cards_hidden_says_so_while_it_is_followed() -> None:
    game = new_game("stjernen", 2)
    advice = Advice()
    advice.take(game, Result("won", (DEAL, DEAL)), ())  # the full solver, fair hints off
    assert advice.verdict == "winnable with the cards known"
    game.play(DEAL)
    assert advice.keeps_line(game)
    assert advice.verdict == "winnable with the cards known"


LOST_ROUND_5 = """game: stjernen
round: 5
c: AH
i1: 5D 4H 7C 3S 5C 3H 8C QH JH AD
i2: 4D QC QS 5H QD 2S KD 2C TD AH
i3: 2D JC 7S TH AC QH KH 5D AC
i4: 2D 6H 2H 4C 7D 5C 5H JD
o1: 9H TH
o2: 9H
o3: 8S 9S TS
o4: 5S 6S
f1: KD QD JD TD 9D 8D 7D 6D
f2: KC QC JC TC 9C 8C 7C 6C
f3: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KS
f4: KH
u1: 4S 2C 2H AD 9C 4H 8H 3D 6D 7H 6H 3D KC
u2: 3H 8H 7H 9D 8D 3C JS 4D AS 4C TC JH 3C 6C
u3: -
u4: -
u5: -
u6: -
stock: -
"""
"""Stjernen in round 5 with its stock dealt out (every card in sight) and no way to
win: found by random play from deal 4, proved lost by the solver at once."""


def test_a_loss_proved_with_nothing_hidden_stays_after_the_collect_hides_cards() -> None:
    """The loss was proved with every card in sight; the collect turns the stock
    face down, and the fair search, which cannot prove a loss with cards hidden,
    then said "fair: deal next" on a game already lost (playtest36). Every
    position after a lost one is lost: the verdict stays, plain, and a hint there
    says so without searching; undone back before it, it is forgotten."""
    from termsolitaire.rules import from_text

    game = from_text(LOST_ROUND_5)
    game.play(Move.parse("o1-o2"))  # 10♥ on 9♥: the loss proved after it
    advice = Advice()
    advice.take_fair(game, FairResult("lost", ()), game.history)
    assert advice.verdict == "no longer winnable"
    game.play(COLLECT)
    assert hidden_cards(game) > 0
    assert advice.keeps_line(game)
    assert advice.verdict == "no longer winnable"
    assert advice.is_proved_lost(game)
    assert advice.lost_note(game, "No winning line from here") == "No winning line from here"
    advice.take_fair(game, FairResult("none", (DEAL,)), game.history)  # asked before the proof
    assert advice.keeps_line(game) and advice.verdict == "no longer winnable"
    game.undo()
    game.undo()
    assert not advice.keeps_line(game) and not advice.is_proved_lost(game)


def test_a_fair_plan_played_up_to_its_deal_says_deal_next() -> None:
    """A fair plan of a good move then a deal: once the move is played the hint is
    "Fair hint: deal", and the verdict beside it went on saying "fair: a good move
    here" (Spider 2 suits and Stjernen, playtest37); it says "fair: deal next"."""
    game = new_game("spider", 5, suits=1)
    move = Move.parse("t1-t7")
    advice = Advice()
    advice.take_fair(game, FairResult("good", (move, DEAL)), game.history)
    assert advice.verdict == "fair: a good move here"
    game.play(move)
    assert advice.keeps_line(game)
    assert advice.verdict == "fair: deal next"
    assert advice.next_move(game) == DEAL
