"""The command line: show, --version, --help and bad arguments (API.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from termsolitaire import __version__
from termsolitaire.rules import from_text, new_game
from termsolitaire.solver import solver_kind


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
    version = run("--version").stdout.splitlines()
    assert version[0] == f"termsolitaire {__version__}"
    # README, "Faster solver": whether the solver runs compiled (pure Python unless asked).
    assert re.fullmatch(r"solver: (pure Python|compiled \(mypyc, \d+ modules?\))", version[1])
    assert version[1] == f"solver: {solver_kind()}"
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


@pytest.mark.parametrize("args", [("napoleon", "616"), ("show", "spider", "12", "--suits", "2")])
def test_a_deal_number_without_deal_says_how_to_write_it(args):
    """The line a player most often writes instead of ``--deal N`` gets its fix."""
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    number = next(a for a in args if a.isdigit() and a != "2")
    assert f"(a deal number goes after --deal: --deal {number})" in out.stderr


@pytest.mark.parametrize(
    ("args", "hint"),
    [(("serve", "--prot", "2302"), "--port"), (("stats", "--recnet", "3"), "--recent")],
)
def test_a_mistyped_option_of_a_command_that_deals_nothing_names_the_one_meant(args, hint):
    """``serve --prot 2302`` was told "(a deal number goes after --deal: --deal 2302)",
    an option serve does not have."""
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1].endswith(f"(did you mean {hint}?)")
    assert "--deal" not in out.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("penguin", "--suits", "2"),
            "termsolitaire penguin: error: unrecognized arguments: --suits 2",
        ),
        (("show", "spider", "--suits", "3"), "termsolitaire show: error: Spider is played with"),
        (("stats", "extra"), "termsolitaire stats: error: unrecognized arguments: extra"),
    ],
)
def test_a_command_s_wrong_argument_is_that_command_s_error(args, said):
    """``penguin --suits 2`` was told "(a deal number goes after --deal: --deal 2)"
    (the 2 is the value of --suits, an option Penguin lacks), and under the
    program's usage, as were ``show spider --suits 3`` and ``stats extra``: the
    command's own usage and name now, and no deal hint for an option's value."""
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.startswith(f"usage: termsolitaire {args[0]} ")
    assert out.stderr.splitlines()[-1].startswith(said)
    assert "--deal 2" not in out.stderr


@pytest.mark.parametrize(
    "args", [("new", "stjernen"), ("--data-dir", "penguin", "play", "penguin")]
)
def test_a_command_that_does_not_exist_is_the_program_s_error(args, tmp_path):
    """``new stjernen`` was told "termsolitaire stjernen: error: argument COMMAND:
    invalid choice: 'new'" under Stjernen's usage: the error was laid on the first
    word that names a command wherever it stood, an option's value too."""
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("usage: termsolitaire [-h]"), out.stderr
    wrong = args[-2]
    assert out.stderr.splitlines()[-1].startswith(
        f"termsolitaire: error: argument COMMAND: invalid choice: '{wrong}'"
    )


@pytest.mark.parametrize("what", ["/nonexistent/moves.txt", "BADCODE123"])
def test_replay_names_itself_in_its_error_as_the_other_commands_do(what):
    """``replay`` said "termsolitaire: cannot read …" where ``share`` says
    "termsolitaire share: cannot read …" for the same missing file."""
    out = run("replay", what)
    assert out.returncode == 2 and out.stdout == ""  # a bad argument (API.md)
    assert out.stderr.startswith("termsolitaire replay: "), out.stderr
    assert len(out.stderr.splitlines()) == 1


@pytest.mark.parametrize("moves", [None, "t4-f2 t1-t1\n", "t4-f2 nonsense\n"])
def test_replay_of_a_bad_file_is_a_bad_argument_with_status_2(moves, tmp_path):
    """API.md: "A bad argument prints a clear error on stderr ... and exits with
    status 2". ``replay FILE`` said so for a missing file or an illegal move list
    but exited 1, where ``solve --position`` exits 2 for the same file."""
    path = tmp_path / "moves.txt"
    if moves is not None:
        path.write_text("game: penguin\ndeal: 5\n" + moves)
    out = run("replay", str(path))
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr.startswith("termsolitaire replay: ") and out.stderr.count("\n") == 1


def test_a_suits_value_spider_does_not_offer_is_refused_in_words():
    """``show spider --suits 3`` said "suits=(1, 2, 4)", a Python tuple, where the
    rules core and ``new_game`` say "suits=1, 2 or 4" (API.md: a clear error)."""
    out = run("show", "spider", "--deal", "1", "--suits", "3")
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr.splitlines()[-1] == (
        "termsolitaire show: error: Spider is played with suits=1, 2 or 4, not 3"
    )


def test_stats_prints_the_table_from_the_data_dir(tmp_path):
    from termsolitaire.storage.stats import Stats

    out = run("stats", "--data-dir", str(tmp_path)).stdout
    assert out.startswith("No solo game finished yet.\n") and "termsolitaire board" in out
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
        "Spider",
        "2",  # the variant in words: "2 suits", never "suits=2"
        "suits",
        "2",
        "1",
        "50",
        "640",
        "12:34",
        "150",
        "0",
        "1",
    ]
    assert any(line.split()[5:8] == ["123", "won", "640"] for line in lines)
    assert "suits=" not in out.stdout


def test_stats_on_an_80_column_terminal_cuts_no_column(tmp_path):
    """On a terminal the tables had a rule under their heads and three spaces
    between columns, and heads as long as "fewest moves": at 80 columns Rich cut
    every column ("vari…", "pla…", the deal "6705598…"). The screen's short heads,
    two spaces and the end to the minute (as the screen) make both tables fit,
    for every game, a ten-digit deal and an hour's game."""
    from rich.console import Console

    from termsolitaire.stats_table import stats_tables
    from termsolitaire.storage.stats import Stats

    stats = Stats(tmp_path / "stats.sqlite3")
    stats.record("a", "stjernen", {}, 4294967295, True, 104, 1234, 3754.9)
    stats.record("b", "spider", {"suits": 4}, 670559875, False, 1090, 150, 600.0)
    stats.record("c", "napoleon", {}, 5, False, 20, 60, 200.0)
    console = Console(width=80, record=True, force_terminal=True)
    for table in stats_tables(stats.summaries(), stats.finished(limit=20), plain=False):
        console.print(table)
    stats.close()
    text = console.export_text()
    assert "…" not in text, text
    assert "4 suits" in text and "4294967295" in text and "1:02:34" in text


def test_stats_recent_below_zero_is_refused_in_one_line(tmp_path):
    """Issue 30: ``stats --recent -1`` is a usage error, not an empty list."""
    out = run("stats", "--recent", "-1", "--data-dir", str(tmp_path))
    assert out.returncode == 2 and out.stdout == ""
    errors = [line for line in out.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "--recent" in errors[0], out.stderr


@pytest.mark.parametrize("deal", ["18446744073709551616", "-3", "x"])
def test_a_bad_deal_number_names_the_range_in_digits(deal):
    """Issue 30: the range reads 0 to 18446744073709551615, never ``2**64 - 1``."""
    out = run("show", "napoleon", "--deal", deal)
    assert out.returncode == 2
    assert "a whole number from 0 to 18446744073709551615" in out.stderr
    assert "**" not in out.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["show", "napoleon"],
        ["solve", "napoleon", "--budget", "1"],
        ["opponent", "--level", "casual", "--suits", "1", "--moves", "1"],
    ],
)
@pytest.mark.parametrize("deal", ["٣", "²"])
def test_every_command_reads_a_deal_number_alike(command, deal):
    """Digits other than 0-9 are no deal number on any command: solve and
    opponent took "٣" (an Arabic-Indic 3) for deal 3 and answered "²" with
    "invalid _deal value", where show names the range."""
    out = run(*command, "--deal", deal)
    assert out.returncode == 2 and out.stdout == ""
    errors = [line for line in out.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1, out.stderr
    assert f"deal must be a whole number from 0 to 18446744073709551615, not {deal!r}" in errors[0]


@pytest.mark.parametrize(
    "command",
    [["solve", "spider"], ["opponent", "--level", "casual", "--suits", "1", "--moves", "1"]],
)
def test_solve_and_opponent_say_alike_what_is_wrong_with_a_position_file(command, tmp_path):
    """Both read ``--position`` alike: opponent called a binary file "cannot
    read X: 'utf-8' codec can't decode …" where solve said it is no text file."""
    binary = tmp_path / "deal.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    broken = tmp_path / "broken.txt"
    broken.write_text("game: spider\nnot a position\n")
    for path, said in [
        (binary, f"{binary} is not a text file"),
        (tmp_path / "absent.txt", f"cannot read {tmp_path / 'absent.txt'}: No such file"),
        (broken, f"{broken}: "),
    ]:
        out = run(*command, "--position", str(path))
        assert out.returncode == 2 and out.stdout == ""
        errors = [line for line in out.stderr.splitlines() if "error:" in line]
        assert len(errors) == 1 and said in errors[0], out.stderr


@pytest.mark.parametrize(
    "argv", [["--winnable", "penguin"], ["penguin", "--winnable"], ["--winnable"]]
)
def test_winnable_goes_before_or_after_the_game(argv):
    """Issue 30: ``termsolitaire --winnable penguin`` asks for winnable deals too."""
    from termsolitaire.cli import build_parser

    assert build_parser().parse_args(argv).winnable is True
    assert build_parser().parse_args(["penguin"]).winnable is False


@pytest.mark.parametrize("argv", [["penguin", "--deal", "5"], [], ["match"]])
def test_playing_without_a_terminal_says_so_in_one_line(argv, tmp_path):
    """``termsolitaire penguin </dev/null`` (a cron job, a pipe) read an end of
    file as the board was built and ended in a traceback; ``| less`` drew the
    board into the pipe. Either way one line now says what is missing, and
    nothing is written or saved."""
    home = tmp_path / "home"
    env = dict(os.environ, TERMSOLITAIRE_HOME=str(home))
    env.pop("TEXTUAL_DRIVER", None)
    out = subprocess.run(
        [sys.executable, "-m", "termsolitaire", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr == (
        "termsolitaire: playing needs a terminal, and standard input is not one"
        " (show, solve and stats work without)\n"
    )
    assert not home.exists() or not any(home.rglob("*.json"))


def napoleon_on_a_pty(
    home: Path, stdout: int | None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``termsolitaire napoleon`` with a pty for its standard input (and for its
    standard output too, with ``stdout`` None); its output and status."""
    primary, secondary = os.openpty()
    try:
        return subprocess.run(
            [sys.executable, "-m", "termsolitaire", "napoleon"],
            stdin=secondary,
            stdout=secondary if stdout is None else stdout,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, TERMSOLITAIRE_HOME=str(home), **env),
            timeout=60,
        )
    finally:
        os.close(primary)
        os.close(secondary)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_playing_into_a_pipe_names_standard_output(tmp_path):
    out = napoleon_on_a_pty(tmp_path, subprocess.PIPE)
    assert out.returncode == 1
    assert out.stdout == ""
    assert "standard output is not one" in out.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
def test_a_dumb_terminal_is_told_in_one_line(tmp_path):
    """TERM=dumb (Emacs' shell) cannot move its cursor: the app drew its escape codes
    there as garbage (playtest25); one line now says why."""
    out = napoleon_on_a_pty(tmp_path, None, TERM="dumb")
    assert out.returncode == 1
    assert out.stderr == (
        "termsolitaire: playing needs a terminal, and TERM=dumb is not one"
        " (show, solve and stats work without)\n"
    )
    assert not any(tmp_path.rglob("*.json"))


@pytest.mark.parametrize(
    ("term", "argv", "told"),
    [
        ("linux", ["napoleon"], True),
        ("vt100", ["napoleon"], True),
        ("linux", ["napoleon", "--ascii"], False),
        ("xterm-256color", ["napoleon"], False),
    ],
)
def test_a_terminal_whose_font_may_lack_the_glyphs_is_told_of_ascii(
    term: str, argv: list[str], told: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Linux console's font and the DEC terminals' lack most of the cards'
    glyphs, and nothing said that ASCII draws them (playtest25)."""
    from termsolitaire.app import SolitaireApp
    from termsolitaire.cli import build_parser
    from termsolitaire.commands.play import apply_display_options

    monkeypatch.setenv("TERM", term)
    app = SolitaireApp("napoleon", 1, {}, clock=False)
    apply_display_options(app, build_parser().parse_args(argv))
    said = [m for m in app.services.messages if m.startswith(f"TERM={term}:")]
    if not told:
        assert said == []
    else:
        assert len(said) == 1 and said[0].endswith("set Card style to ASCII in Settings")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "spider", "--jobs", "²"],
        ["opponent", "--level", "casual", "--suits", "1", "--moves", "²"],
        ["serve", "--max-sessions", "²"],
        ["serve", "--port", "²"],
        ["web", "--port", "٣"],
        ["stats", "--recent", "²"],
        ["spider", "--suits", "٢"],
    ],
)
def test_every_whole_number_option_names_what_it_takes(argv, capsys):
    """A superscript or non-Latin digit passes ``str.isdigit``: "²" then reached
    ``int`` and argparse said "invalid _count value" (the reader's own name),
    and "٣" was taken for 3. Each option says what it takes, as ``--deal`` does."""
    from termsolitaire.cli import build_parser

    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(argv)
    assert exited.value.code == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and repr(argv[-1]) in errors[0], errors
    assert "invalid" not in errors[0], errors


@pytest.mark.parametrize("command", [["stats"], ["penguin"]])
def test_a_data_dir_that_is_a_file_is_named_as_such(command, tmp_path):
    """``--data-dir /etc/passwd`` said "cannot create /etc/passwd: File exists"."""
    afile = tmp_path / "notes.txt"
    afile.write_text("mine\n")
    out = run(*command, "--data-dir", str(afile))
    assert out.returncode == 2 and out.stdout == ""
    assert f"--data-dir {afile} is not a directory" in out.stderr
    assert afile.read_text() == "mine\n"
