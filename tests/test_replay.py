"""Replay files: saved games and move lists, stepped both ways."""

from __future__ import annotations

import pytest

from termsolitaire.replay import load_replay, parse_replay
from termsolitaire.rules import new_game
from termsolitaire.storage.saves import encode


def _game():
    g = new_game("spider", deal=9, suits=2)
    for _ in range(6):
        g.play(next(m for m in g.legal_moves() if m.kind == "move"))
    g.undo()
    g.play("deal")
    return g


def test_saved_game_replays_its_line_of_play(tmp_path):
    g = _game()
    for raw in (g.to_json().encode(), encode(g, "id").encode()):
        r = parse_replay(raw)
        assert len(r) == len(g.history) and r.moves == list(g.history)
        assert r.game.to_text() == new_game("spider", deal=9, suits=2).to_text()
        assert r.end().to_text().split("t1:")[1] == g.to_text().split("t1:")[1]
        r.go(2)
        assert r.index == 2 and r.last_move == g.history[1]
        r.previous()
        assert r.index == 1
        r.previous()
        r.previous()
        assert r.index == 0 and r.last_move is None


def test_move_list_with_a_deal_header(tmp_path):
    g = _game()
    path = tmp_path / "game.txt"
    moves = " ".join(str(m) for m in g.history)
    path.write_text(f"# my game\ngame: spider\nvariant: suits=2\ndeal: 9\n\n{moves}\n")
    r = load_replay(path)
    assert r.moves == list(g.history)
    assert r.end().to_text().split("t1:")[1] == g.to_text().split("t1:")[1]


def test_move_list_after_a_position_text():
    start = new_game("napoleon", deal=3)
    g = start.copy()
    g.play(g.legal_moves()[0])
    r = parse_replay((start.to_text() + str(g.history[0]) + "\n").encode())
    assert r.end().to_text() == g.to_text()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"t1-t2 t3-t4\n", "must begin with 'game: NAME'"),
        (b"game: penguin\nt1-t2\n", "must name its deal"),
        (b"game: penguin\ndeal: 5\nt9-t1\n", r"move 1 \(t9-t1\)"),
        (b"game: penguin\ndeal: 5\nbanana\n", "Cannot read move"),
        (b"game: chess\ndeal: 5\n", "unknown game"),
        (b'{"a": 1}', "not a saved game"),
        (b"\xff\xfe", "not a text file"),
    ],
)
def test_bad_replay_files_give_a_reason(raw, message):
    with pytest.raises(ValueError, match=message):
        parse_replay(raw)


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        load_replay(tmp_path / "nope.json")
