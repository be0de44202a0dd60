"""The command line: show, --version, --help and bad arguments (API.md)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from termsolitaire import __version__
from termsolitaire.rules import from_text, new_game


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONHASHSEED="7")
    return subprocess.run(
        [sys.executable, "-m", "termsolitaire", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_show_prints_the_position_text_of_a_deal():
    out = run("show", "napoleon", "--deal", "7")
    assert out.returncode == 0, out.stderr
    assert out.stdout == new_game("napoleon", deal=7).to_text()


def test_show_random_deal_names_its_deal():
    out = run("show", "penguin")
    assert out.returncode == 0
    g = from_text(out.stdout)
    assert g.deal is not None and new_game("penguin", deal=g.deal).to_text() == out.stdout


def test_version_and_help():
    assert run("--version").stdout.strip() == f"termsolitaire {__version__}"
    out = run("--help")
    assert out.returncode == 0 and "show" in out.stdout and "penguin" in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("show",),
        ("show", "klondike"),
        ("show", "napoleon", "--deal", "x"),
        ("show", "napoleon", "--deal", "-3"),
        ("show", "napoleon", "--suits", "2"),
        ("show", "spider", "--suits", "3"),
        ("frobnicate",),
        ("penguin", "--deal"),
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(args):
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    errors = [line for line in out.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1, out.stderr


def test_stats_prints_the_table_from_the_data_dir(tmp_path):
    from termsolitaire.storage.stats import Stats

    assert run("stats", "--data-dir", str(tmp_path)).stdout == "No finished games yet.\n"
    stats = Stats(tmp_path / "stats.sqlite3")
    # 754.9 s: the board's clock and the results showed 12:34 (cut, not rounded)
    stats.record("a", "spider", {"suits": 2}, 123, True, 640, 150, 754.9)
    stats.record("b", "spider", {"suits": 2}, 124, False, 90, 60, 200.0)
    stats.close()
    out = run("stats", "--data-dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "\x1b" not in out.stdout  # piped: plain text, no colour codes
    assert lines[0].split()[:4] == ["game", "variant", "played", "won"]
    assert lines[1].split() == [
        "spider",
        "suits=2",
        "2",
        "1",
        "50",
        "640",
        "12:34",
        "150",
        "0",
        "1",
    ]
    assert any(line.split()[4:7] == ["123", "won", "640"] for line in lines)


def test_printing_stops_quietly_when_the_reader_goes_away(tmp_path):
    """Issue 9.7: ``termsolitaire stats | head -1`` ends with status 0 and no
    traceback, however much there was left to print."""
    from termsolitaire.storage.stats import Stats

    stats = Stats(tmp_path / "stats.sqlite3")
    for n in range(3000):
        stats.record(f"g{n}", "penguin", {}, n, n % 2 == 0, 52, 100 + n, 60.0 + n)
    stats.close()
    for args in (["stats", "--recent", "3000"], ["show", "spider", "--deal", "1"]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "termsolitaire", *args, "--data-dir", str(tmp_path)]
            if args[0] == "stats"
            else [sys.executable, "-m", "termsolitaire", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline()  # like head -1: one line, then the pipe closes
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0, err
        assert "Traceback" not in err and "Error" not in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["--four-colour", "penguin"],
        ["penguin", "--four-colour"],
        ["--four-colour"],
        ["--ascii", "--four-colour", "spider", "--suits", "2"],
    ],
)
def test_display_options_go_before_or_after_the_game(argv):
    """Issue 9.12: display options are global, like --ascii."""
    from termsolitaire.cli import build_parser

    args = build_parser().parse_args(argv)
    assert args.four_colour is True


def test_a_games_help_lists_only_its_own_options():
    """Issue 9.17: ``penguin --help`` does not offer --suits; spider's does."""
    penguin = run("penguin", "--help").stdout
    spider = run("spider", "--help").stdout
    assert "--suits" not in penguin and "--time-limit" not in penguin
    assert "--suits" in spider and "--time-limit" in spider
