"""Shared by the solver tests: drive a compact state beside the rules core."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from termsolitaire.rules import Game, Move, new_game


def compact(move: Move, names: tuple[str, ...], with_count: bool) -> tuple[int, ...]:
    """A rules-core move as a solver's move tuple."""
    head = (names.index(move.src), names.index(move.dst))
    return (*head, move.count) if with_count else head


def side_by_side(data: Any, name: str, module: Any, state_cls: Any, steps: int) -> None:
    """Random play (legal moves, and undo now and then) on a random deal, in the
    rules core and in the solver's state alike; after every step both must
    offer the same legal moves and hold the same cards in the same places."""
    deal = data.draw(st.integers(min_value=0, max_value=2**32), label="deal")
    game = new_game(name, deal)
    state = state_cls.from_game(game)
    with_count = name == "penguin"
    played: list[tuple[int, ...]] = []
    check_same(game, state, module)
    for _ in range(steps):
        moves = game.legal_moves()
        if played and (not moves or data.draw(st.integers(0, 5), label="undo?") == 0):
            game.undo()
            state.revert(played.pop())
        elif moves:
            move = data.draw(st.sampled_from(moves), label="move")
            game.play(move)
            played.append(compact(move, module.NAMES, with_count))
            state.apply(played[-1])
        else:
            break
        check_same(game, state, module)


def check_same(game: Game, state: Any, module: Any) -> None:
    ours = {module.to_move(m) for m in state.legal_moves()}
    assert len(ours) == len(state.legal_moves()), "a move listed twice"
    assert ours == set(game.legal_moves()), game.to_text()
    fresh = type(state).from_game(game)
    assert state.snapshot() == fresh.snapshot(), game.to_text()
    assert state.key() == fresh.key()
    assert state.won() == game.is_won
    assert state.progress() == game.score


def autoplay_matches(game: Game, state: Any, module: Any) -> None:
    """What ``play`` adds on its own is legal in the rules core and leads to the
    same position; ``unplay`` puts everything back."""
    before = (state.key(), state.snapshot())
    for m in state.search_moves():
        played = state.play(m)
        g = game.copy()
        for step in played:
            g.play(module.to_move(step))
        assert type(state).from_game(g).key() == state.key()
        state.unplay(played)
        assert (state.key(), state.snapshot()) == before


def brute_force(game: Game, cap: int) -> str | None:
    """``won`` or ``lost`` by exhausting the positions reachable in the rules
    core itself (no pruning, no symmetry), or ``None`` past ``cap`` positions:
    an answer independent of the solver's game knowledge."""
    g = game.copy()
    seen = {g.to_text()}
    stack = [g.legal_moves()]
    while stack:
        if g.is_won:
            return "won"
        if not stack[-1]:
            stack.pop()
            if len(stack):
                g.undo()
            continue
        g.play(stack[-1].pop())
        text = g.to_text()
        if text in seen:
            g.undo()
            continue
        seen.add(text)
        if len(seen) > cap:
            return None
        stack.append(g.legal_moves())
    return "lost"


def plain_search(state: Any, cap: int) -> str | None:
    """``won`` or ``lost`` by a depth-first search of the solver's own compact
    state over *every* legal move (no automatic moves, no pruning, no dead-end
    test; only the canonical key), or ``None`` past ``cap`` positions: checks
    that the solver's game knowledge never throws a win away, on positions
    larger than :func:`brute_force` can take."""
    seen = {state.key()}
    stack = [state.legal_moves()]
    path: list[Any] = []
    while stack:
        if state.won():
            for m in reversed(path):
                state.revert(m)
            return "won"
        if not stack[-1]:
            stack.pop()
            if path:
                state.revert(path.pop())
            continue
        m = stack[-1].pop()
        state.apply(m)
        k = state.key()
        if k in seen:
            state.revert(m)
            continue
        seen.add(k)
        if len(seen) > cap:
            for p in reversed([*path, m]):
                state.revert(p)
            return None
        path.append(m)
        stack.append(state.legal_moves())
    return "lost"


def played(name: str, deal: int, seed: int, steps: int, home: float) -> Game:
    """Deal ``deal`` after ``steps`` random moves, sending a card home with
    probability ``home`` when one can go."""
    g = new_game(name, deal)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        homes = [m for m in moves if m.dst.startswith("f")]
        g.play(rng.choice(homes) if homes and rng.random() < home else rng.choice(moves))
    return g
