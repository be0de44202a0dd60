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
