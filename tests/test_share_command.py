"""``termsolitaire share`` and ``termsolitaire replay CODE`` (issue 31): both
codes printed for a file, a match table and the last finished game; a code
made by one player opened by another; a bad code is one line and exit 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from termsolitaire.cli import main
from termsolitaire.commands.share import opened
from termsolitaire.match import MatchStore, NotAllowed, Player
from termsolitaire.rules import new_game
from termsolitaire.storage import lastgame
from termsolitaire.storage.paths import paths


def codes_of(out: str) -> tuple[str, str]:
    lines = {ln.split(":", 1)[0]: ln.rsplit(" ", 1)[1] for ln in out.splitlines() if ":" in ln}
    return lines["on this host"], lines["anywhere"]


def test_share_a_move_list_and_open_both_codes_as_another_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game("stjernen", 21)
    for _ in range(12):
        game.play(game.legal_moves()[-1])
    moves = "\n".join(str(m) for m in game.history)
    f = tmp_path / "line.txt"
    f.write_text(f"game: stjernen\ndeal: 21\n{moves}\n")
    shared = str(tmp_path / "match")
    monkeypatch.setenv("LOGNAME", "ann")
    monkeypatch.setenv("USER", "ann")
    assert main(["share", str(f), "--match-dir", shared]) == 0
    host, code = codes_of(capsys.readouterr().out)
    assert len(host) <= 8 and len(code) > 8
    monkeypatch.setenv("LOGNAME", "bob")
    monkeypatch.setenv("USER", "bob")
    for text in (host, code):
        back = opened(text, shared)[0]
        assert back.history == game.history and back.to_text() == game.to_text()


def test_share_the_last_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path))
    assert main(["share", "--match-dir", str(tmp_path / "m")]) == 1
    assert "no finished game yet" in capsys.readouterr().err
    game = new_game("penguin", 4)
    game.play(game.legal_moves()[0])
    game.undo()
    game.play(game.legal_moves()[-1])
    assert lastgame.keep(paths(), game) is None
    assert main(["share", "--match-dir", str(tmp_path / "m")]) == 0
    _host, code = codes_of(capsys.readouterr().out)
    assert opened(code, None)[0].log == game.log  # undo included


def test_share_a_match_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the match is over: a code opened by the opponent while they still play
    would show them the deal's cards."""
    shared = tmp_path / "match"
    monkeypatch.setenv("LOGNAME", "ann")
    monkeypatch.setenv("USER", "ann")
    ann = MatchStore(None, shared, keep_dir=None)
    seat = ann.open_table(deal=31)
    bob = MatchStore(Player.make("bob"), shared, keep_dir=None)
    theirs = bob.join(seat.table_id)
    seat.start()
    seat.act(str(seat.game.legal_moves()[0]))
    seat.end()
    args = ["share", "--table", str(seat.table_id), "--match-dir", str(shared)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "once the match is over (bob still playing)" in err and err.count("\n") == 1
    theirs.start()
    theirs.end()
    assert main(args) == 0
    _host, code = codes_of(capsys.readouterr().out)
    assert opened(code, None)[0].to_text() == seat.game.to_text()
    # cat, seated nowhere, may share a seat of a finished public table
    monkeypatch.setenv("LOGNAME", "cat")
    monkeypatch.setenv("USER", "cat")
    assert main([*args, "--seat", "1"]) == 0
    assert codes_of(capsys.readouterr().out)[1] == code
    ann.close()
    bob.close()


def test_a_spectator_may_not_take_the_seat_of_a_deal_they_saw(tmp_path: Path) -> None:
    shared = tmp_path / "match"
    ann = MatchStore(Player.make("ann"), shared, keep_dir=None)
    cat = MatchStore(Player.make("cat"), shared, keep_dir=None)
    seat = ann.open_table(deal=31)
    seat.start()
    assert cat.watch(seat.table_id, 1).game.to_text() == seat.game.to_text()
    with pytest.raises(NotAllowed, match="seen its deal"):
        cat.join(seat.table_id)
    ann.close()
    cat.close()


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("ABCDEFGHIJKLMNOP", "This code has a mistake"),
        ("ABCDEFGHIJKLMNOP0", "is not one of its letters"),
        ("ZZZZZZZ", "No "),
    ],
)
def test_a_bad_code_is_one_line(
    code: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ann = MatchStore(Player.make("ann"), tmp_path / "m", keep_dir=None)
    ann.close()
    assert main(["replay", code, "--match-dir", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


async def test_a_replay_opened_from_a_host_code_names_who_shared_it(
    tmp_path: Path, backend: str
) -> None:
    """``termsolitaire replay CODE``'s header read "Replay · Penguin · deal 5" for
    any code: a host code's replay now says who shared it ("Replay shared by
    Ann": the sharer, who may have shared their opponent's seat); a
    self-contained code holds no name and reads "Replay" as before."""
    from termsolitaire.app import SolitaireApp
    from termsolitaire.commands.share import replay_of_code
    from termsolitaire.match.shares import share_game

    from .screens.matchkit import screen_text, until

    shared = tmp_path / "match"
    ann = MatchStore(Player.make("ann", "Ann"), shared, keep_dir=None)
    game = new_game("penguin", 5)
    game.play(game.legal_moves()[0])
    codes = share_game(game, ann)
    ann.close()
    assert codes.host is not None
    for code, heading in (
        (codes.host, "Replay shared by Ann · Penguin"),
        (codes.code, "Replay · Penguin"),
    ):
        app = SolitaireApp(clock=False, replay=replay_of_code(code, str(shared)))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda a=app: "Penguin" in screen_text(a), "the replay's header")
            first = screen_text(app).strip().splitlines()[0]
            assert first.startswith(heading), first


def test_a_daily_or_a_table_on_a_host_with_no_match_store_says_none_was_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new player's `share --daily penguin --day …` (or `--table 1`) read "The
    match database /…/match/match.sqlite3 is not there": a file they never made
    named as missing. It says none was played here yet, as `board` does; and
    nothing is created."""
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path))
    monkeypatch.delenv("TERMSOLITAIRE_MATCH_DIR", raising=False)
    assert main(["share", "--daily", "penguin", "--day", "2026-12-01"]) == 1
    assert capsys.readouterr().err == (
        "termsolitaire share: No daily has been played on this host yet\n"
    )
    assert main(["share", "--table", "1"]) == 1
    assert capsys.readouterr().err == (
        "termsolitaire share: There is no table 1: no match has been played on this host yet\n"
    )
    assert not (tmp_path / "match").exists()


def test_a_wrong_table_seat_or_daily_game_is_named_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`share --table x` said argparse's "invalid int value: 'x'", `--seat 3`
    "invalid choice: 3 (choose from 1, 2)", where the command line's other
    numbers name what they take; `--daily chess` on a host with no match store
    said no daily was played before it said there is no such game."""
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path))
    monkeypatch.delenv("TERMSOLITAIRE_MATCH_DIR", raising=False)
    for argv, said in (
        (["--table", "x"], "a table number is a whole number from 1 up, not 'x'"),
        (["--table", "1", "--seat", "3"], "--seat is one of 1, 2, not '3'"),
    ):
        with pytest.raises(SystemExit) as exit_:
            main(["share", *argv])
        assert exit_.value.code == 2 and said in capsys.readouterr().err
    assert main(["share", "--daily", "chess", "--day", "2026-12-01"]) == 1
    assert capsys.readouterr().err == "termsolitaire share: There is no game called 'chess'\n"
