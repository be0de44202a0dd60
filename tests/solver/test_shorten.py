"""Shorter winning lines (solver/shorten.py): a line that still wins, never
longer, the same for the same line in; each rewrite on a small Penguin
position made for it; Penguin deal 11, whose hints moved the same cards
between the same piles, as ``solve`` now shows it."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import Game, Move, from_text, new_game, parse_move_list
from termsolitaire.solver import Budget, solve, verify
from termsolitaire.solver.games import declaration
from termsolitaire.solver.shorten import plays_for, shorten_line

FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))
PROPS = settings(
    suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=60 if FULL else 8
)
RANKS = "A23456789TJQK"


def penguin(**layout: str) -> Game:
    """A Penguin position with beak A: the columns and cells given, every other
    card on its foundation (so the layout holds the top ranks of each suit)."""
    used = {card for cards in layout.values() for card in cards.split()}
    lines = ["game: penguin", "beak: A"]
    lines += [f"{p}: {layout.get(p, '-')}" for p in [f"t{n}" for n in range(1, 8)]]
    lines += [f"{p}: {layout.get(p, '-')}" for p in [f"c{n}" for n in range(1, 8)]]
    for n, suit in enumerate("SHDC", 1):
        home = [r + suit for r in RANKS if r + suit not in used]
        lines.append(f"f{n}: {' '.join(home) or '-'}")
    return from_text("\n".join(lines) + "\n")


def shortened(game: Game, line: str) -> str:
    moves = parse_move_list(line)
    assert verify(game, moves), "the test's line must win"
    return " ".join(map(str, shorten_line(game, moves)))


def test_a_card_parked_and_put_back_where_it_was_goes_both_ways_at_once():
    """Undone: Q♥ goes into a cell and back onto K♥ while K♠ goes home, and
    then moves on with K♥ as a run, not alone: both moves go."""
    g = penguin(t1="KH QH", t2="KS")
    line = "t1-c1 t2-f1 c1-t1 t1-t3:2 t3-f2 t3-f2"
    assert shortened(g, line) == "t2-f1 t1-t3:2 t3-f2 t3-f2"


def test_a_card_parked_on_its_way_home_goes_home_when_its_foundation_is_ready():
    """Postponed: Q♥ waits in a cell for J♥ to go home; it can wait on its column."""
    g = penguin(t1="KH QH", t2="KS JH")
    line = "t1-c1 t2-f2 c1-f2 t1-f2 t2-f1"
    assert shortened(g, line) == "t2-f2 t1-f2 t1-f2 t2-f1"


def test_a_card_parked_on_its_way_to_a_column_goes_there_at_once():
    """Brought forward: Q♥ goes from K♠ into a cell, Q♠ onto K♠ (K♦ under it
    goes home), Q♥ onto K♥. Q♥ cannot wait on K♠ (Q♠ needs the place) nor go
    home early (J♥ is not home yet): it goes onto K♥ at once, without the cell."""
    g = penguin(t1="KS QH", t2="KD QS", t3="KH", t4="JS JH")
    line = "t1-c1 t2-t1 c1-t3 t2-f3 t4-f2 t4-f1 t3-f2 t3-f2 t1-f1 t1-f1"
    assert shortened(g, line) == "t1-t3 t2-t1 t2-f3 t4-f2 t4-f1 t3-f2 t3-f2 t1-f1 t1-f1"


def test_rewrites_follow_one_another_to_the_end():
    """Q♥ through a cell onto K♥, Q♠ onto K♠ until it can go home: brought
    forward, then postponed twice, the line loses a third of its moves."""
    g = penguin(t1="KS QH", t2="QS", t3="KH", t4="JH KD")
    line = "t1-c1 t2-t1 c1-t3 t4-f3 t4-f2 t3-f2 t3-f2 t1-f1 t1-f1"
    assert shortened(g, line) == "t4-f3 t4-f2 t1-f2 t3-f2 t2-f1 t1-f1"


def test_a_line_that_comes_back_to_a_position_goes_on_from_its_last_passage():
    """Round trip: K♥ and Q♥ go through the cells to t3 and back to t1 as a run:
    no pair of moves undoes another, but the position is the start's again."""
    g = penguin(t1="KH QH")
    line = "t1-c1 t1-c2 c2-t3 c1-t3 t3-t1:2 t1-f2 t1-f2"
    assert shortened(g, line) == "t1-f2 t1-f2"


def test_a_parked_card_that_something_needs_stays_parked():
    """J♥ must leave t1 for 10♥ to go home, and cannot go home before it: the
    line has nothing to spare and comes back as it went in."""
    g = penguin(t1="KS QS TH JH", t2="KH QH")
    line = "t1-c1 t1-f2 c1-f2 t1-f1 t1-f1 t2-f2 t2-f2"
    assert shortened(g, line) == line


def test_a_line_that_does_not_win_comes_back_as_it_went_in():
    g = penguin(t1="KH QH", t2="KS")
    for line in ("t1-c1 c1-t1", "t1-c1 t2-t1"):  # not to the end; not legal
        moves = tuple(parse_move_list(line))
        assert shorten_line(g, moves) == moves


def test_the_effort_is_counted_in_moves_and_bounds_the_pass():
    """With no effort left nothing is tried; the budget sets the effort, never
    below the least."""
    g = penguin(t1="KH QH", t2="KS")
    moves = tuple(parse_move_list("t1-c1 t2-f1 c1-t1 t1-f2 t1-f2"))
    assert shorten_line(g, moves, plays=len(moves)) == moves
    assert plays_for(Budget(seconds=10)) == 5000
    assert plays_for(Budget(seconds=0.1)) == plays_for(Budget(seconds=1))


def raw_line(game: Game) -> tuple[Move, ...] | None:
    """The game's own search's winning line, before ``solve`` shortens it."""
    found = declaration(game.name)
    assert found is not None
    r = found.solve(game, Budget(seconds=2, cpu=True))
    return r.moves if r.verdict == "won" else None


@PROPS
@given(
    name=st.sampled_from(["penguin", "napoleon"]),
    deal=st.integers(1, 10_000),
    seed=st.integers(0, 1000),
    steps=st.integers(0, 30),
)
def test_a_wandering_winning_line_still_wins_never_longer_and_always_alike(name, deal, seed, steps):
    """Random moves, then the search's line from where they lead: a line that
    wins and wanders. Shortened, it still wins, is never longer, and comes out
    the same twice."""
    game = new_game(name, deal)
    g, rng = game.copy(), random.Random(seed)
    for _ in range(steps):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(rng.choice(moves))
    rest = raw_line(g)
    assume(rest is not None)
    assert rest is not None
    line = (*g.history, *rest)
    out = shorten_line(game, line)
    assert verify(game, out) and len(out) <= len(line)
    assert shorten_line(game, line) == out


def back_and_forth(game: Game, line: tuple[Move, ...]) -> list[tuple[int, int]]:
    """The pairs of moves (i, j) of ``line`` where move j takes the cards move
    i brought back where they came from, nothing else having touched the pile
    between, and the line without both still wins (replayed from the start)."""
    found = []
    for i, m in enumerate(line):
        if m.kind != "move":
            continue
        for j in range(i + 1, len(line)):
            n = line[j]
            if n == Move.transfer(m.dst, m.src, m.count):
                rest = line[:i] + line[i + 1 : j] + line[j + 1 :]
                if verify(game, rest):
                    found.append((i, j))
            if m.dst in (n.src, n.dst):
                break
    return found


def test_penguin_deal_11_hints_no_longer_move_cards_back_and_forth():
    """Issue 34's report: following the hints of Penguin deal 11 (H, then Enter),
    hints 102-111 moved the same cards between the same piles. The search's line
    still does (the pairs found below in it), the line ``solve`` gives, which the
    hints, the solution and the demo follow, has no such pair, no position twice,
    and wins."""
    game = new_game("penguin", 11)
    raw = raw_line(game)
    assert raw is not None
    assert back_and_forth(game, raw), "the search's own line is expected to wander"
    line = solve(game, Budget(seconds=10)).moves
    assert verify(game, line) and len(line) < len(raw)
    assert back_and_forth(game, line) == []
    g, seen = game.copy(), {game.to_text()}
    for m in line:
        g.play(m)
        assert g.to_text() not in seen
        seen.add(g.to_text())


def test_every_solver_passes_its_won_lines_through_the_pass():
    """Napoleon and Spider lines from ``solve`` are fixed points of the pass
    (it ran on them already), and win."""
    for game in (new_game("napoleon", 5), new_game("spider", 2, suits=2)):
        line = solve(game, Budget(seconds=10, cpu=True)).moves
        assert verify(game, line)
        assert shorten_line(game, line) == line


def test_a_shorter_spider_line_never_scores_less():
    """Spider pays +2 a card put on its suit only the first time a position is
    reached: taking out a move and its undoing can cost more points than the two
    moves' -1s. On these 1-suit deals every shortening the pass could find
    would cost points, so the lines stay as they are, score and all."""
    for deal in (2, 3):
        game = new_game("spider", deal, suits=1)
        raw = raw_line(game)
        assert raw is not None
        out = shorten_line(game, raw)
        assert verify(game, out)
        assert final_score(game, out) >= final_score(game, raw)


def final_score(game: Game, line: tuple[Move, ...]) -> int:
    g = game.copy()
    for m in line:
        g.play(m)
    return g.score
