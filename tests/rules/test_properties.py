"""Properties every game keeps, on random deals and random legal play (hypothesis).

Actions are drawn among the legal moves, undo and redo. After each action:
cards are conserved; undo restores the exact earlier position; redo re-applies;
text and JSON round-trip; replaying the history from the deal gives the same
position; every legal move's text parses back to it; ``is_stuck`` agrees with
a definition computed independently of the game's internals.
"""

from __future__ import annotations

import json
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import (
    IllegalMove,
    Move,
    UndoForbidden,
    from_json,
    from_text,
    games,
    new_game,
)

from .helpers import all_cards, board_text

CONFIGS = [
    (g.name, dict(zip([c.key for c in g.variants], values, strict=True)))
    for g in games()
    for values in product(*(c.values for c in g.variants))
]
"""Every registered game in every variant it declares."""

DECKS = {"napoleon": (52, 1), "penguin": (52, 1), "spider": (104, None), "stjernen": (104, 2)}
"""Each game's cards: how many, and how often each card (None: by the suits)."""


def _config_param(name: str, variant: dict[str, int]):
    label = name + "".join(f"-{k}{v}" for k, v in variant.items())
    return pytest.param(name, variant, id=label)


PARAMS = [_config_param(n, v) for n, v in CONFIGS]
DEALS = st.integers(min_value=0, max_value=2**32)
PROPS = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


def _random_line(data, game, steps: int, undo_weight: int = 3):
    """Play ``steps`` random actions (legal move, undo or redo); return the kinds played."""
    for _ in range(steps):
        moves = game.legal_moves()
        choices = ["move"] * 10 * bool(moves) + ["undo"] * undo_weight * game.can_undo
        choices += ["redo"] * game.can_redo
        if not choices:
            break
        kind = data.draw(st.sampled_from(choices))
        if kind == "move":
            game.play(data.draw(st.sampled_from(moves)))
        elif kind == "undo":
            game.undo()
        else:
            game.redo()


def _line_texts(game) -> set[str]:
    """Board texts of the positions on the current line, by replay from the start."""
    g = from_text(json.loads(game.to_json())["start"])
    texts = {board_text(g)}
    for m in game.history:
        g.play(m)
        texts.add(board_text(g))
    return texts


@pytest.mark.parametrize(("name", "variant"), PARAMS)
@PROPS
@given(data=st.data(), deal=DEALS)
def test_play_undo_redo_keep_every_promise(name, variant, data, deal):
    game = new_game(name, deal=deal, **variant)
    deck = all_cards(game)
    texts = [board_text(game)]  # texts[i]: the position after i moves of the line
    for _ in range(40):
        moves = game.legal_moves()
        # Notation: every legal move's text parses back to it, and each is distinct.
        assert len(set(moves)) == len(moves)
        for m in moves:
            assert Move.parse(str(m)) == m
        choices = ["move"] * 8 * bool(moves) + ["undo"] * 3 * bool(game.history)
        choices += ["redo"] * game.can_redo
        if not choices:
            break
        kind = data.draw(st.sampled_from(choices))
        if kind == "move":
            game.play(data.draw(st.sampled_from(moves)))
            texts[len(game.history) :] = [board_text(game)]
        elif kind == "undo":
            if not game.can_undo:
                before = game.to_text()
                with pytest.raises(UndoForbidden):
                    game.undo()
                assert game.to_text() == before
                continue
            game.undo()
            # Undo restores the exact earlier position.
            assert board_text(game) == texts[len(game.history)]
        else:
            game.redo()
            # Redo re-applies what undo took back.
            assert board_text(game) == texts[len(game.history)]
        assert all_cards(game) == deck

    # Text round-trips exactly.
    text = game.to_text()
    assert from_text(text).to_text() == text
    # JSON round-trips exactly: position, history, redo list, log.
    js = game.to_json()
    again = from_json(js)
    assert again.to_json() == js
    assert again.to_text() == text
    assert again.history == game.history and again.redo_list == game.redo_list
    # Replaying the history from the deal gives the same position.
    replay = new_game(name, deal=deal, **variant)
    for m in game.history:
        replay.play(m)
    assert board_text(replay) == board_text(game)
    # A copy is independent.
    twin = game.copy()
    if twin.legal_moves():
        twin.play(twin.legal_moves()[0])
        assert game.to_text() == text and game.to_json() == js


@pytest.mark.parametrize(("name", "variant"), PARAMS)
@PROPS
@given(data=st.data(), deal=DEALS)
def test_is_stuck_matches_its_definition(name, variant, data, deal):
    game = new_game(name, deal=deal, **variant)
    _random_line(data, game, data.draw(st.integers(0, 60)), undo_weight=1)
    line = _line_texts(game)
    leads_somewhere_new = False
    for m in game.legal_moves():
        g = game.copy()
        g.play(m)
        if board_text(g) not in line:
            leads_somewhere_new = True
            break
    assert game.is_stuck == (not game.is_won and not leads_somewhere_new)


@pytest.mark.parametrize(("name", "variant"), PARAMS)
@PROPS
@given(data=st.data(), deal=DEALS)
def test_only_legal_moves_play_and_refusals_change_nothing(name, variant, data, deal):
    game = new_game(name, deal=deal, **variant)
    _random_line(data, game, data.draw(st.integers(0, 30)))
    legal = set(game.legal_moves())
    piles = [p for p in game.pile_names if p != "stock"]
    for _ in range(25):
        src = data.draw(st.sampled_from(piles))
        dst = data.draw(st.sampled_from(piles))
        count = data.draw(st.integers(1, 4))
        m = Move.transfer(src, dst, count)
        reason = game.why_illegal(m)
        assert (reason is None) == (m in legal)
        if reason is not None:
            before = game.to_json()
            with pytest.raises(IllegalMove) as exc:
                game.play(m)
            assert exc.value.reason == reason and reason
            assert game.to_json() == before


@pytest.mark.parametrize(("name", "variant"), PARAMS)
def test_cards_of_a_new_deal(name, variant):
    game = new_game(name, deal=0, **variant)
    cards = all_cards(game)
    assert name in DECKS, f"say in DECKS how many cards {name} has"
    total, per_card = DECKS[name]
    if per_card is None:
        per_card = 8 // len(set(c[1] for c in cards))
    assert sum(cards.values()) == total
    assert set(cards.values()) == {per_card}


def _candidates(game) -> list[Move]:
    """A wide set of actions: every transfer between two piles with 1 to 4 cards, a
    deal, a collect and a turn of every pile (most of them illegal)."""
    out = [Move.parse("deal"), Move.parse("collect")]
    for src in game.pile_names:
        out.append(Move.turn(src))
        for dst in game.pile_names:
            if src != dst:
                out += [Move.transfer(src, dst, k) for k in range(1, 5)]
    return out


@pytest.mark.parametrize(("name", "variant"), PARAMS)
@PROPS
@given(data=st.data(), deal=DEALS)
def test_every_refusal_says_why_specifically(name, variant, data, deal):
    """For every illegal action from a wide candidate set, on positions reached by
    random play, the refusal is the rules' own reason, never the generic fallback."""
    game = new_game(name, deal=deal, **variant)
    _random_line(data, game, data.draw(st.integers(0, 40)))
    legal = set(game.legal_moves())
    for m in _candidates(game):
        reason = game.why_illegal(m)
        if m in legal:
            assert reason is None
        else:
            assert reason and not reason.endswith("is not allowed here"), (str(m), reason)
