"""Each game's ``_allows(move)``, the one-move legality check ``play`` uses,
answers exactly as ``move in _legal()`` (the only judge) does: for every move
one can write down (each pile to each, every count up to past the pile's
size, turns, deal, collect, unknown piles, odd fields) in random positions of
every game and variant, reached by random play that favours moves home, and
in every position of winning lines (won_lines.txt, as the solvers found them),
where what random play seldom reaches comes up: empty columns and positions,
full foundations, Spider's emptied piles, Stjernen's later rounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termsolitaire.rules import Game, Move, from_text, new_game
from termsolitaire.rules.moves import COLLECT, DEAL

from .test_properties import CONFIGS, DEALS, PROPS

HOME = {"deal", "collect", "turn"}


def _every_move(game: Game) -> list[Move]:
    """Every move one could write in ``game``, legal or not."""
    names = [*game.pile_names, "x1", ""]
    moves = [DEAL, COLLECT, Move("deal", "t1"), Move("collect", count=2), Move("turn", "t1", "t2")]
    for a in names:
        moves.append(Move.turn(a))
        size = len(game.pile(a)) if a in game.pile_names else 1
        for b in names:
            moves.extend(Move("move", a, b, k) for k in range(min(size, 14) + 2))
    return moves


def _agrees(game: Game) -> None:
    legal = set(game._legal())
    for m in _every_move(game):
        assert game._allows(m) == (m in legal), f"{m!r} in\n{game.to_text()}"


def _step(data: st.DataObject, game: Game) -> bool:
    """One random legal move, a move home (or deal, turn, collect) more
    likely; False when there is none."""
    moves = game.legal_moves()
    if not moves:
        return False
    home = [m for m in moves if m.kind in HOME or m.dst in game.foundations]
    pool = home if home and data.draw(st.integers(0, 2)) else moves
    game.play(data.draw(st.sampled_from(pool)))
    return True


@PROPS
@given(st.sampled_from(CONFIGS), DEALS, st.integers(0, 400), st.data())
def test_allows_is_the_legal_list(config, deal, steps, data) -> None:
    name, variant = config
    game = new_game(name, deal, **variant)
    _agrees(game)
    for _ in range(steps):
        if not _step(data, game):
            break
    _agrees(game)
    for _ in range(5):  # and a few neighbours of that position
        if not _step(data, game):
            break
        _agrees(game)


def _won_lines() -> list[tuple[str, dict[str, int], int, list[Move]]]:
    lines = []
    for row in (Path(__file__).parent / "won_lines.txt").read_text().splitlines():
        if row and not row.startswith("#"):
            name, suits, deal, *moves = row.split()
            variant = {"suits": int(suits)} if int(suits) else {}
            lines.append(
                (name, variant, int(deal), [Move.parse(m.replace("_", " ")) for m in moves])
            )
    return lines


@pytest.mark.parametrize(
    ("name", "variant", "deal", "moves"),
    [
        pytest.param(*line, id=f"{line[0]}{line[1].get('suits', '')}-{line[2]}")
        for line in _won_lines()
    ],
)
def test_allows_along_a_win(name, variant, deal, moves) -> None:
    game = new_game(name, deal, **variant)
    for m in moves:
        _agrees(game)
        game.play(m)
    assert game.is_won
    _agrees(game)


@pytest.mark.parametrize("round_", [5, 6])
def test_allows_collect_only_while_a_round_remains(round_) -> None:
    """Stjernen's last round with the stock gone (seldom on a winning line):
    no collect there, and one a round earlier."""
    rows = new_game("stjernen", 1).to_text().splitlines()
    stock = next(r for r in rows if r.startswith("stock:")).split()[1:]
    changed = {
        "round": f"round: {round_}",
        "stock": "stock: -",
        "u1": "u1: " + " ".join(stock).upper(),
    }
    game = from_text("\n".join(changed.get(r.split(":")[0], r) for r in rows))
    assert (COLLECT in game.legal_moves()) == (round_ == 5)
    _agrees(game)
