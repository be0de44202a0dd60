"""SVG snapshots of the boards: fixed deals, fixed sizes, one scenario each.

Each docstring says what to look for. Update a snapshot only after looking at it
(``pytest tests/snapshots --snapshot-update``, then open the SVG).
"""

from __future__ import annotations

from typing import Any

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.widgets.cards import CardLook

PENGUIN_MID = ["7", "3", "4", "f", "6", "q", "4", "f", "2"]  # ends with t2 in hand
SPIDER_MID = ["1", "0", "4", "0", "d", "right", "right"]  # a deal; cursor on t2


def penguin(**kw: Any) -> SolitaireApp:
    return SolitaireApp("penguin", 5, {}, clock=False, **kw)


def spider(**kw: Any) -> SolitaireApp:
    return SolitaireApp("spider", 123, {"suits": 2}, clock=False, **kw)


def test_penguin_fresh_80x24(snap_compare: Any) -> None:
    """Seven empty cells (keys q-u), foundations ♠♥♣ with the beak A and an empty
    ♦ foundation showing A♦, seven columns of seven with every rank and suit; the
    header says Penguin, deal 5, beak A."""
    assert snap_compare(penguin(), terminal_size=(80, 24))


def test_penguin_fresh_120x40(snap_compare: Any) -> None:
    """The same deal on a big window: wider cards, more space between piles."""
    assert snap_compare(penguin(), terminal_size=(120, 40))


def test_penguin_mid_game_80x24(snap_compare: Any) -> None:
    """After four moves (9♦ onto 10♦ in t3, 2♥ and 2♠ up to the foundations, K♠
    into cell q): J♥ of t2 in hand, reversed; the empty cells it may go to have
    their keys marked ▼w▼ … ▼u▼ (only the labels: the cells' outlines stay grey);
    the status line lists them."""
    assert snap_compare(penguin(), terminal_size=(80, 24), press=PENGUIN_MID)


def test_penguin_mid_game_120x40(snap_compare: Any) -> None:
    """The mid-game position and selection of the 80x24 snapshot, on a big window."""
    assert snap_compare(penguin(), terminal_size=(120, 40), press=PENGUIN_MID)


def test_spider_fresh_80x24(snap_compare: Any) -> None:
    """Ten piles, face-down cards as backs, one card up on each; the stock (key d)
    shows 5 packets; done is empty; header: Spider, 2 suits, deal 123, score 0."""
    assert snap_compare(spider(), terminal_size=(80, 24))


def test_spider_fresh_120x40(snap_compare: Any) -> None:
    """The same deal on a big window: wider cards and gaps."""
    assert snap_compare(spider(), terminal_size=(120, 40))


def test_spider_mid_game_80x24(snap_compare: Any) -> None:
    """Two moves onto t10 then a deal: the stock shows 4 packets, score 0, moves 2;
    the cursor [2] on t2 with its top card marked >."""
    assert snap_compare(spider(), terminal_size=(80, 24), press=SPIDER_MID)


def test_spider_mid_game_120x40(snap_compare: Any) -> None:
    """The mid-game position of the 80x24 snapshot on a big window."""
    assert snap_compare(spider(), terminal_size=(120, 40), press=SPIDER_MID)


def test_too_small(snap_compare: Any) -> None:
    """A 60x16 window: only the message asking to enlarge the window to 67x18."""
    assert snap_compare(penguin(), terminal_size=(60, 16))


def test_help_screen(snap_compare: Any) -> None:
    """The Penguin help: a table with every key of the board, then how to play."""
    assert snap_compare(penguin(), terminal_size=(80, 24), press=["question_mark"])


def test_won_panel(snap_compare: Any) -> None:
    """The results panel over a won Penguin deal: Won!, score 52, the moves, time
    0:00, New deal and Quit buttons."""
    from termsolitaire.rules import new_game
    from tests.screens.test_penguin import winning_line

    line = winning_line(new_game("penguin", 5))

    async def win(pilot: Any) -> None:
        screen = pilot.app.screen
        for move in line:
            screen.play(move)
        await pilot.pause()

    assert snap_compare(penguin(), terminal_size=(80, 24), run_before=win)


def test_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR=1: no colours; the suits still differ by glyph, the cards in hand
    are reversed and the targets' labels marked ▼w▼ in bold."""
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(penguin(), terminal_size=(80, 24), press=PENGUIN_MID)


def test_ascii_cards(snap_compare: Any) -> None:
    """--ascii: suits as S H D C, outlines of + - |, backs of #."""
    app = spider(look=CardLook(ascii=True))
    assert snap_compare(app, terminal_size=(80, 24), press=SPIDER_MID)


def test_four_colour_deck(snap_compare: Any) -> None:
    """The four-colour deck: ♠ black, ♥ red, ♦ blue, ♣ green."""
    app = penguin(look=CardLook(four_colour=True))
    assert snap_compare(app, terminal_size=(80, 24))


def test_menu(snap_compare: Any) -> None:
    """The main menu: four games (Stjernen and Napoleon coming soon), Spider's suits
    and time limit, the deal number field, Play / Help / Statistics / Settings / Quit;
    the footer offers s Statistics and o Settings."""
    assert snap_compare(SolitaireApp(clock=False), terminal_size=(80, 24))
