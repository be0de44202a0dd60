"""Position text and JSON: what from_text refuses, and fuzzing both readers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termsolitaire.rules import from_json, from_text, new_game

NAP = new_game("napoleon", deal=0).to_text()
PEN = new_game("penguin", deal=123456789).to_text()  # beak 9, f1 empty, t1 starts 9S


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


BROKEN = {
    "no game line": (NAP.replace("game: napoleon\n", ""), "line 0: missing 'game'"),
    "unknown game": (_edit(NAP, "game: napoleon", "game: klondike"), "line 1: unknown game"),
    "missing pile": (_edit(NAP, "p7: 5C 2H 6H\n", ""), "line 0: missing pile 'p7'"),
    "repeated pile": (NAP + "p7: -\n", "line 23: 'p7' given twice (first on line 9)"),
    "card missing": (_edit(NAP, "p7: 5C 2H 6H", "p7: 5C 2H"), "line 0: cards missing: 6H"),
    "card doubled": (_edit(NAP, "p7: 5C 2H 6H", "p7: 5C 2H 6H 6H"), "line 9: 6H once too often"),
    "card replaced": (_edit(NAP, "p7: 5C 2H 6H", "p7: 5C 2H 9H"), "line 9: 9H once too often"),
    "unknown key": (_edit(NAP, "p7:", "score: 3\np7:"), "line 9: unknown key 'score'"),
    "bad card text": (_edit(NAP, "p7: 5C", "p7: 5X"), "line 9: '5X' is not a card"),
    "mixed case card": (_edit(NAP, "p7: 5C", "p7: 5c2"), "line 9: '5c2' is not a card"),
    "face-down card in an open game": (
        _edit(NAP, "p7: 5C", "p7: 5c"),
        "line 9: face-down card '5c' where Napoleon has none",
    ),
    "no key separator": (_edit(NAP, "p7: 5C", "p7 5C"), "line 9: expected 'key: value'"),
    "empty pile without dash": (
        _edit(NAP, "p7: 5C 2H 6H", "p7:"),
        "line 9: pile 'p7' has no cards",
    ),
    "bad deal": (_edit(NAP, "deal: 0", "deal: -4"), "line 2: deal must be a whole number"),
    "variant in a game without": (
        _edit(NAP, "deal: 0", "deal: 0\nvariant: suits=2"),
        "line 3: Napoleon has no variants",
    ),
    "foundation without its ace": (
        _edit(_edit(NAP, "f1: AS", "f1: -"), "p7: 5C 2H 6H", "p7: 5C 2H 6H AS"),
        "line 19: foundation f1 must hold A♠",
    ),
    "foundation of another suit": (
        _edit(_edit(NAP, "f1: AS", "f1: AS 2D"), "p10: QD 2D", "p10: QD"),
        "line 19: foundation f1 must hold A♠ and up in suit",
    ),
    "beak inconsistent with the foundations": (
        _edit(PEN, "beak: 9", "beak: 8"),
        "line 19: foundation f2 must go up in ♥ from the beak 8",
    ),
    "bad beak": (_edit(PEN, "beak: 9", "beak: 14"), "line 3: beak must be a rank"),
    "missing beak": (PEN.replace("beak: 9\n", ""), "line 0: missing 'beak'"),
    "two cards in a cell": (
        _edit(_edit(PEN, "c1: -", "c1: 8C 6C"), "t7: KD JD 5C JC 3H 6C 8C", "t7: KD JD 5C JC 3H"),
        "line 11: cell c1 holds 2 cards",
    ),
    "foundation card out of order": (
        _edit(_edit(PEN, "f4: 9C", "f4: 9C JC"), "t7: KD JD 5C JC", "t7: KD JD 5C"),
        "line 21: foundation f4 must go up in ♣ from the beak 9, found JC",
    ),
}


@pytest.mark.parametrize("kind", list(BROKEN))
def test_from_text_refuses(kind):
    text, message = BROKEN[kind]
    with pytest.raises(ValueError) as exc:
        from_text(text)
    assert str(exc.value).startswith(message), str(exc.value)


def test_at_least_twelve_kinds_refused():
    assert len(BROKEN) >= 12


def test_comments_blank_lines_and_ten_spelt_out_are_read():
    text = "# a saved position\n\n" + _edit(NAP, "p4: 8H 7S", "p4: 8H 7S   # two cards")
    assert from_text(text).to_text() == NAP
    assert from_text(_edit(NAP, "p1: 9H 4C 3H 4D TH", "p1: 9H 4C 3H 4D 10H")).to_text() == NAP


def test_position_from_text_has_empty_history():
    g = new_game("napoleon", deal=0)
    g.play(g.legal_moves()[0])
    h = from_text(g.to_text())
    assert h.history == () and not h.can_undo and h.to_text() == g.to_text()


def test_from_json_refuses_broken_saves():
    good = json.loads(new_game("penguin", deal=1).to_json())
    cases = {
        "not json": "{",
        "not a save": json.dumps({"hello": 1}),
        "future version": json.dumps({**good, "version": 99}),
        "bad log": json.dumps({**good, "log": ["t1-t9"]}),
        "log not strings": json.dumps({**good, "log": [3]}),
        "bad elapsed": json.dumps({**good, "elapsed": -1}),
        "bad start": json.dumps({**good, "start": "game: penguin\n"}),
        "name mismatch": json.dumps({**good, "game": "napoleon"}),
    }
    for kind, text in cases.items():
        with pytest.raises(ValueError):
            from_json(text)
        assert kind


def _mutations():
    texts = st.sampled_from([NAP, PEN])

    @st.composite
    def mutate(draw):
        text = draw(texts)
        for _ in range(draw(st.integers(1, 4))):
            lines = text.splitlines(keepends=True)
            op = draw(st.sampled_from(["del", "ins", "dup", "swap", "drop", "token", "case"]))
            if op in ("del", "ins") and text:
                i = draw(st.integers(0, len(text) - 1))
                ch = draw(st.sampled_from(list("-: #\nAKQT0123456789shdcSHDCptfcb")))
                text = text[:i] + text[i + 1 :] if op == "del" else text[:i] + ch + text[i:]
            elif op == "dup" and lines:
                i = draw(st.integers(0, len(lines) - 1))
                text = "".join([*lines[: i + 1], lines[i], *lines[i + 1 :]])
            elif op == "swap" and len(lines) > 1:
                i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                text = "".join(lines)
            elif op == "drop" and lines:
                del lines[draw(st.integers(0, len(lines) - 1))]
                text = "".join(lines)
            elif op in ("token", "case"):
                words = text.split(" ")
                i = draw(st.integers(0, len(words) - 1))
                if op == "case":
                    words[i] = words[i].swapcase()
                else:
                    words[i] = draw(st.sampled_from(["AS", "KH", "10D", "-", "x", "", "2c"]))
                text = " ".join(words)
        return text

    return mutate()


@settings(deadline=None)
@given(text=_mutations())
def test_fuzz_from_text_gives_a_game_or_a_value_error(text):
    try:
        game = from_text(text)
    except ValueError as e:
        assert str(e).startswith("line "), str(e)
    else:
        assert from_text(game.to_text()).to_text() == game.to_text()


@settings(deadline=None)
@given(data=st.data())
def test_fuzz_from_json_gives_a_game_or_a_value_error(data):
    g = new_game("penguin", deal=2)
    for m in g.legal_moves()[:3]:
        g.play(m)
        g.undo()
        g.redo()
    raw = bytearray(g.to_json().encode())
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(raw) - 1))
        if data.draw(st.booleans()):
            raw[i] = data.draw(st.integers(0, 255))
        else:
            del raw[i:]
            break
    try:
        game = from_json(bytes(raw))
    except ValueError:
        return
    assert from_json(game.to_json()).to_json() == game.to_json()
