"""Cards and move text (API.md: "Cards", "Moves")."""

from __future__ import annotations

import subprocess
import sys

import pytest

from termsolitaire.rules import Card, IllegalMove, Move, format_move_list, parse_move_list
from termsolitaire.rules.cards import ALL_CARDS, parse_face


def test_every_card_round_trips_and_ten_is_accepted():
    for c in ALL_CARDS:
        assert Card.parse(str(c)) is c and parse_face(str(c)) == (c, True)
        assert parse_face(str(c).lower()) == (c, False)
        assert eval(repr(c)) == c
    assert Card.parse("10h") == Card(10, "H") and Card(10, "H").label == "10♥"
    for bad in ("1S", "11H", "ZZ", "", "A", "AS "):
        with pytest.raises(ValueError):
            Card.parse(bad)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("t3-t7", "t3-t7"),
        ("T3-T7:1", "t3-t7"),
        ("t3-t7:4", "t3-t7:4"),
        (" p16-f2 ", "p16-f2"),
        ("DEAL", "deal"),
        ("collect", "collect"),
        ("turn  T5", "turn t5"),
        ("c-f1", "c-f1"),
        ("stock-t1", "stock-t1"),
    ],
)
def test_move_text_is_canonical(text, canonical):
    m = Move.parse(text)
    assert str(m) == canonical and Move.parse(str(m)) == m
    assert eval(repr(m), {"Move": Move}) == m


@pytest.mark.parametrize("bad", ["", "t3", "t3-", "-t7", "t3-t7:0", "t3-t7:x", "deal t1", "turn"])
def test_bad_move_text_is_refused(bad):
    with pytest.raises(IllegalMove, match="Cannot read move"):
        Move.parse(bad)


def test_move_lists_round_trip_with_comments():
    text = "# a game\nt1-t2 deal turn t3  # a comment\nt4-t5:3\ncollect\n"
    moves = parse_move_list(text)
    assert [str(m) for m in moves] == ["t1-t2", "deal", "turn t3", "t4-t5:3", "collect"]
    assert parse_move_list(format_move_list(moves)) == moves


def test_rules_core_imports_neither_textual_nor_rich():
    code = (
        "import sys, termsolitaire.rules as r\n"
        "for g in r.GAMES:\n"
        "    r.new_game(g, deal=1)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
