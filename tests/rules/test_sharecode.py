"""Self-contained share codes (issue 31, acceptance 4): random finished games of
all four games go through a code and come back the same (history, the whole
log with its undos and redos, the final position); any single changed
character, and any other mistake, is one clear sentence (BadCode), never a
traceback and never another game.

Small samples by default; ``TERMSOLITAIRE_FULL=1`` runs many more examples and
longer games.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import GAMES, Game, info, new_game
from termsolitaire.rules.sharecode import (
    METHODS,
    RADIX,
    BadCode,
    decode,
    encode,
    is_host_code,
    normal,
)

FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))
PROPS = settings(
    max_examples=200 if FULL else 12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def random_game(name: str, deal: int, variant: dict[str, int], seed: int, length: int) -> Game:
    """A game played at random up to ``length`` actions (one in eight an undo or a
    redo where allowed), or until won or stuck: a game that ended (End may
    end it at any moment)."""
    rnd = random.Random(seed)
    g = new_game(name, deal, **variant)
    for _ in range(length):
        if g.is_won:
            break
        r = rnd.random()
        if r < 0.08 and g.can_undo:
            g.undo()
        elif r < 0.12 and g.can_redo:
            g.redo()
        else:
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))
    return g


@st.composite
def games(draw: st.DrawFn) -> Game:
    name = draw(st.sampled_from(GAMES))
    variant = {c.key: draw(st.sampled_from(c.values)) for c in info(name).variants}
    deal = draw(st.integers(0, 2**40))
    length = draw(st.integers(0, 300 if FULL else 60))
    return random_game(name, deal, variant, draw(st.integers(0, 2**31)), length)


def same(a: Game, b: Game) -> None:
    assert (a.name, a.deal, dict(a.variant)) == (b.name, b.deal, dict(b.variant))
    assert a.history == b.history and a.log == b.log
    assert a.to_text() == b.to_text() and a.score == b.score and a.is_won == b.is_won


@PROPS
@given(games())
def test_a_code_gives_back_the_same_game(game: Game) -> None:
    code = encode(game)
    assert re_b32(code) and not is_host_code(code)
    same(decode(code), game)
    same(decode("-".join(code[i : i + 5] for i in range(0, len(code), 5)).lower()), game)


def re_b32(code: str) -> bool:
    return all(c in B32 for c in code)


@PROPS
@given(games(), st.data())
def test_any_single_changed_character_is_caught(game: Game, data: st.DataObject) -> None:
    code = encode(game)
    at = data.draw(st.integers(0, len(code) - 1))
    other = data.draw(st.sampled_from([c for c in B32 if c != code[at]]))
    with pytest.raises(BadCode):
        decode(code[:at] + other + code[at + 1 :])


@PROPS
@given(games(), st.data())
def test_a_lost_or_extra_character_is_caught(game: Game, data: st.DataObject) -> None:
    code = encode(game)
    at = data.draw(st.integers(0, len(code) - 1))
    with pytest.raises(BadCode):
        decode(code[:at] + code[at + 1 :])
    extra = data.draw(st.sampled_from(B32))
    with pytest.raises(BadCode):
        decode(code[:at] + extra + code[at:])


def test_every_character_of_one_code_is_checked() -> None:
    """Exhaustively, on one Spider game: every position, every other letter."""
    game = random_game("spider", 77, {"suits": 2}, seed=3, length=40)
    code = encode(game)
    for at in range(len(code)):
        for other in B32:
            if other != code[at]:
                with pytest.raises(BadCode):
                    decode(code[:at] + other + code[at + 1 :])


@settings(max_examples=200 if FULL else 50, deadline=None)
@given(st.text(max_size=80))
def test_garbage_is_one_sentence(text: str) -> None:
    try:
        decode(text)
    except BadCode as e:
        assert str(e) and "\n" not in str(e)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_body_method_decodes(method: int) -> None:
    game = random_game("napoleon", 5, {}, seed=1, length=50)
    same(decode(encode(game, method)), game)


def test_the_mixed_radix_body_is_the_shortest_on_a_long_game() -> None:
    """What docs/share.md measured on won games holds here too (bench/share.py)."""
    game = random_game("penguin", 9, {}, seed=2, length=120)
    lengths = {m: len(encode(game, m)) for m in METHODS}
    assert min(lengths, key=lambda m: lengths[m]) == RADIX


def test_a_game_without_a_deal_number_is_refused() -> None:
    from termsolitaire.rules import from_text

    game = from_text(new_game("penguin", 3).to_text().replace("deal: 3\n", ""))
    with pytest.raises(BadCode, match="no deal number"):
        encode(game)


def test_normal_ignores_case_spaces_and_dashes() -> None:
    assert normal(" abc-de fg ") == "ABCDEFG"
    assert is_host_code("bp7d-3za") and not is_host_code("")
