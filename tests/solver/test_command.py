"""``termsolitaire solve``: output that replays to a win, verdicts as exit statuses."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from termsolitaire.cli import main
from termsolitaire.commands import solve as command
from termsolitaire.replay import load_replay
from termsolitaire.rules import Move, from_text, new_game

from .test_napoleon import LOST


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "termsolitaire", "solve", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONHASHSEED="7"),
        timeout=120,
    )


@pytest.mark.parametrize(("game", "deal"), [("napoleon", 6), ("penguin", 5)])
def test_a_deal_solved_prints_a_move_list_that_replay_reads_and_wins(tmp_path, game, deal):
    out = run(game, "--deal", str(deal), "--budget", "30")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("#")
    assert f"\n# game: {game}\n# deal: {deal}\n" in out.stdout  # the start, for replay
    # A move list as API.md defines one: every line not a comment a canonical action
    # (the start's lines were printed bare, "game: napoleon", which no move list has).
    body = [ln for ln in out.stdout.splitlines() if ln and not ln.startswith("#")]
    played = new_game(game, deal)
    for line in body:
        assert str(Move.parse(line)) == line  # one action a line, canonical
        played.play(line)
    assert played.is_won
    path = tmp_path / "solution.txt"
    path.write_text(out.stdout)
    replay = load_replay(path)
    assert replay.game.to_text() == new_game(game, deal).to_text()
    assert len(replay) == len(body) and replay.end().is_won


def test_a_position_file_is_solved_from_that_position(tmp_path):
    g = new_game("napoleon", 13)
    for m in g.legal_moves()[:1]:
        g.play(m)
    path = tmp_path / "pos.txt"
    path.write_text(g.to_text())
    out = run("napoleon", "--position", str(path))
    assert out.returncode == 0, out.stderr
    saved = tmp_path / "solution.txt"
    saved.write_text(out.stdout)
    replay = load_replay(saved)
    assert replay.game.to_text() == g.to_text() and replay.end().is_won


def test_lost_is_printed_with_status_1(tmp_path):
    path = tmp_path / "lost.txt"
    path.write_text(LOST)
    out = run("napoleon", "--position", str(path))
    assert (out.returncode, out.stdout, out.stderr) == (1, "lost\n", "")


def test_unknown_when_the_budget_runs_out_with_status_3():
    out = run("napoleon", "--deal", "25", "--budget", "0.2")
    assert out.returncode == 3 and out.stdout == ""
    # the form, not the time: a loaded machine stretched the 0.2 s to 1.0 s once
    assert re.fullmatch(r"unknown after \d+\.\d s\n", out.stderr), out.stderr


def test_best_prints_the_best_line_of_an_unknown_search_replayable(tmp_path):
    """``--best``: with no win, the best line found, which ``replay`` reads; the
    cards it puts home are as its comment says; the status stays 3."""
    out = run("stjernen", "--deal", "1003", "--budget", "1", "--best")
    assert out.returncode == 3 and out.stderr.startswith("unknown after ")
    first, *body = out.stdout.splitlines()
    home = re.fullmatch(r"# Stjernen: no win \(unknown after [\d.]+ s\); the best line found, "
                        r"(\d+) moves, puts (\d+) of 104 cards home", first)  # fmt: skip
    assert home, first
    assert body[:2] == ["# game: stjernen", "# deal: 1003"] and len(body) - 2 == int(home[1])
    path = tmp_path / "best.txt"
    path.write_text(out.stdout)
    end = load_replay(path).end()
    assert end.score == int(home[2]) > new_game("stjernen", 1003).score
    assert not end.is_won


def test_two_jobs_give_a_stjernen_line_that_replays(tmp_path):
    out = run("stjernen", "--deal", "1005", "--budget", "20", "--jobs", "2")
    assert out.returncode == 0, out.stderr
    path = tmp_path / "solution.txt"
    path.write_text(out.stdout)
    assert load_replay(path).end().is_won


def test_best_with_a_proof_of_loss_still_exits_1(tmp_path):
    path = tmp_path / "lost.txt"
    path.write_text(LOST)
    out = run("napoleon", "--position", str(path), "--best")
    assert out.returncode == 1 and out.stderr == ""
    assert out.stdout.startswith("# Napoleon: no win (proved lost); the best line found, ")
    saved = tmp_path / "best.txt"
    saved.write_text(out.stdout)
    assert load_replay(saved).game.to_text() == from_text(LOST).to_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("napoleon",), "one of the arguments --deal --position is required"),
        (("napoleon", "--deal", "3", "--position", "x"), "not allowed with"),
        (("napoleon", "--deal", "x"), "deal must be a whole number"),
        (("napoleon", "--deal", str(1 << 64)), "from 0 to 18446744073709551615, not"),
        (("napoleon", "--deal", "3", "--budget", "0"), "budget must be"),
        (("napoleon", "--deal", "3", "--budget", "soon"), "budget must be"),
        (("napoleon", "--deal", "3", "--jobs", "0"), "jobs must be"),
        (("napoleon", "--deal", "3", "--suits", "2"), "--suits is not an option of Napoleon"),
        (("klondike", "--deal", "3"), "invalid choice"),
        (("napoleon", "--position", "/no/such/file"), "cannot read /no/such/file"),
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(args, message):
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    errors = [ln for ln in out.stderr.splitlines() if "error:" in ln]
    assert len(errors) == 1 and message in errors[0], out.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("game: napoleon\np1: AS\n", "line"),
        ("\xff\xfe", "not a text file"),
        (new_game("penguin", 3).to_text(), "holds a penguin position, not napoleon"),
    ],
)
def test_an_invalid_position_file_exits_2(tmp_path, capsys, text, message):
    path = tmp_path / "pos.txt"
    path.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode())
    assert main(["solve", "napoleon", "--position", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err and message in err, err


def test_a_game_without_its_solver_says_so(monkeypatch, capsys):
    """Spider's and Stjernen's solvers come from other branches: until then the
    command says there is none, in one line, with status 2."""
    monkeypatch.setattr("termsolitaire.solver.has_solver", lambda name: name != "spider")
    assert main(["solve", "spider", "--deal", "3"]) == 2
    assert capsys.readouterr().err == f"{command.PROG}: there is no solver for spider yet\n"


def test_the_solver_imports_neither_textual_nor_rich():
    code = (
        "import sys\n"
        "import termsolitaire.solver, termsolitaire.solver.worker\n"
        "import termsolitaire.solver.napoleon, termsolitaire.solver.penguin\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
