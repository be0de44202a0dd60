"""The shortening pass made cheap (issue 33) gives the lines it gave: positions
compared by the rules core's key exactly as by their boards; the effort spent
as before, so the same line comes out at every effort; and ``solve`` still
refuses a search's line that does not win, now that the pass's own replay is
the check (and without the pass, for a verdict, its own replay)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import Game, Move, new_game, parse_move_list
from termsolitaire.solver import Budget, Result, solve
from termsolitaire.solver import games as solver_games
from termsolitaire.solver.base import SolverInfo, board, position_key
from termsolitaire.solver.shorten import shorten_line, shortened

CONFIGS = [("penguin", {}), ("napoleon", {}), ("stjernen", {})]
CONFIGS += [("spider", {"suits": s}) for s in (1, 2, 4)]
WON_LINES = Path(__file__).parent.parent / "rules" / "won_lines.txt"


def won_line(name: str, deal: int) -> tuple[Game, tuple[Move, ...]]:
    """A search's winning line of won_lines.txt, from its deal."""
    for row in WON_LINES.read_text().splitlines():
        game, suits, number, *moves = row.split()
        if game == name and number == str(deal):
            variant = {"suits": int(suits)} if int(suits) else {}
            line = tuple(Move.parse(m.replace("_", " ")) for m in moves)
            return new_game(name, deal, **variant), line
    raise LookupError(f"{name} {deal} not in {WON_LINES.name}")


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=30)
@given(st.sampled_from(CONFIGS), st.integers(0, 10_000), st.data())
def test_positions_have_the_same_key_exactly_when_they_have_the_same_board(config, deal, data):
    """Random play that often takes a move straight back (the same board again,
    by another way: Spider's score differs, its board does not): any two
    positions of the line have equal keys exactly when their boards are equal."""
    name, variant = config
    g = new_game(name, deal, **variant)
    seen = [(position_key(g), board(g))]
    for _ in range(data.draw(st.integers(0, 60))):
        moves = g.legal_moves()
        if not moves:
            break
        m = data.draw(st.sampled_from(moves))
        g.play(m)
        seen.append((position_key(g), board(g)))
        back = Move.transfer(m.dst, m.src, m.count)
        if m.kind == "move" and g.is_legal(back) and data.draw(st.booleans()):
            g.play(back)
            seen.append((position_key(g), board(g)))
    for (key_a, board_a), (key_b, board_b) in combinations(seen, 2):
        assert (key_a == key_b) == (board_a == board_b), f"{board_a}\n\n{board_b}"


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=30)
@given(st.sampled_from(CONFIGS), st.integers(0, 10_000), st.data())
def test_the_kept_key_is_the_position_s_own_after_play_undo_redo_copy_and_text(config, deal, data):
    """``position_key`` reads the key the rules core keeps for the position after
    each move instead of making it again: after any mix of moves, undos, redos,
    copies and a round trip through position text it is the key made afresh."""
    from termsolitaire.rules import from_text

    name, variant = config
    g = new_game(name, deal, **variant)
    for _ in range(data.draw(st.integers(0, 40))):
        step = data.draw(st.sampled_from(["play", "play", "undo", "redo", "copy", "text"]))
        moves = g.legal_moves()
        if step == "play" and moves:
            g.play(data.draw(st.sampled_from(moves)))
        elif step == "undo" and g.can_undo:
            g.undo()
        elif step == "redo" and g.can_redo:
            g.redo()
        elif step == "copy":
            g = g.copy()
        elif step == "text":
            g = from_text(g.to_text())
        assert position_key(g) == g._key()


@pytest.mark.parametrize(
    ("name", "deal"), [("penguin", 11), ("napoleon", 3), ("stjernen", 601051017)]
)
def test_a_move_taken_straight_back_gives_the_same_key(name, deal):
    """Along a winning line, each move that a transfer straight back undoes:
    the board is the one before, and so is the key (and a different board a
    different key)."""
    game, line = won_line(name, deal)
    undone = 0
    for m in line:
        key, text = position_key(game), board(game)
        g = game.copy()
        for step in g.legal_moves():
            back = Move.transfer(step.dst, step.src, step.count)
            h = g.copy()
            h.play(step)
            assert position_key(h) != key and board(h) != text
            if step.kind == "move" and h.is_legal(back):
                h.play(back)
                assert (position_key(h) == key) == (board(h) == text)
                undone += board(h) == text
        game.play(m)
    assert undone > 10


@pytest.mark.parametrize(
    ("name", "deal", "lengths"),
    [
        ("penguin", 11, {203: 152, 300: 149, 600: 116, 1000: 116}),
        ("napoleon", 3, {139: 86, 300: 84, 600: 82}),
        ("spider", 1, {273: 223, 300: 221, 600: 220}),  # the 4-suit line
        ("stjernen", 601051017, {294: 243, 600: 240, 1000: 237, 5000: 234}),
    ],
)
def test_each_effort_gives_the_line_it_gave_before(name, deal, lengths):
    """The effort is counted as before the pass was made cheap (every move a
    candidate tries, legal or not, and the moves that keep a candidate's
    positions), so where it runs out mid-pass the same line comes out: these
    lengths are what the pass gave before (the line of the 4-suit Spider is the
    one won_lines.txt has for deal 1 with 4 suits)."""
    if name == "spider":
        rows = [r for r in WON_LINES.read_text().splitlines() if r.startswith("spider 4 ")]
        game = new_game("spider", 1, suits=4)
        line = tuple(Move.parse(m.replace("_", " ")) for m in rows[0].split()[3:])
    else:
        game, line = won_line(name, deal)
    for plays, length in lengths.items():
        assert len(shorten_line(game, line, plays)) == length, plays


def test_a_line_that_does_not_win_is_no_line_to_shorten():
    """``shortened`` answers None for a line that is illegal or stops short of
    the win (``shorten_line`` hands such a line back as it came)."""
    g = new_game("penguin", 5)
    _, line = won_line("penguin", 5)
    assert shortened(g, line) is not None
    assert shortened(g, line[:-1]) is None
    assert shortened(g, (*line[:3], *parse_move_list("t1-t1"), *line[3:])) is None


def test_solve_refuses_a_search_line_that_does_not_win(monkeypatch):
    """``solve`` no longer replays a search's line before the pass (the pass
    replays it first): a line that does not win still never reaches a player."""
    g = new_game("penguin", 5)
    _, line = won_line("penguin", 5)
    for bad in (line[:-1], (Move.transfer("t1", "t2"), *line)):
        fake = SolverInfo(solve=lambda game, budget, bad=bad: Result("won", bad))
        monkeypatch.setattr(solver_games, "declaration", lambda name, fake=fake: fake)
        with pytest.raises(AssertionError, match="does not win"):
            solve(g, Budget(seconds=1))
        with pytest.raises(AssertionError, match="does not win"):  # the verdict's way too
            solve(g, Budget(seconds=1), shorten=False)
    good = SolverInfo(solve=lambda game, budget: Result("won", line))
    monkeypatch.setattr(solver_games, "declaration", lambda name: good)
    assert solve(g, Budget(seconds=1)).moves == shorten_line(g, line, 2000)
    assert solve(g, Budget(seconds=1), shorten=False).moves == line


def test_a_verdict_s_line_is_the_search_s_own_and_wins():
    """``shorten=False`` (the board's verdict, whose line nobody sees): the
    search's line as it came, replayed to a win; the hint's search, shortened,
    goes without its detours (Penguin deal 11's line moved the same cards back
    and forth)."""
    from termsolitaire.solver.base import verify

    g = new_game("penguin", 11)
    rough = solve(g, Budget(seconds=10, cpu=True), shorten=False)
    short = solve(g, Budget(seconds=10, cpu=True))
    assert rough.verdict == short.verdict == "won"
    assert verify(g, rough.moves) and verify(g, short.moves)
    assert len(rough.moves) > len(short.moves)
