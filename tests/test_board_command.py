"""``termsolitaire board``: the daily leaderboards printed as tables (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from termsolitaire.cli import main
from termsolitaire.match import MatchStore, Player
from termsolitaire.match.daily import Daily


def played(shared: Path, who: str, moves: int) -> None:
    store = MatchStore(Player.make(who), shared, keep_dir=False)
    a = Daily(store).attempt("penguin", {})
    for _ in range(moves):
        a.act(str(a.game.legal_moves()[0]))
    a.act("end")
    store.close()


def test_the_board_marks_ones_own_line_and_hides_the_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = tmp_path / "m"
    played(shared, "ann", 2)
    played(shared, "bob", 0)
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", "bob")
    assert main(["board", "penguin", "--match-dir", str(shared)]) == 0
    out = capsys.readouterr().out
    assert "Penguin · daily of" in out
    rows = {r[1]: r for r in (line.split() for line in out.splitlines()) if len(r) > 2}
    assert rows["bob"][0].startswith("▶") and not rows["ann"][0].startswith("▶")
    assert rows["ann"][2] == rows["bob"][2] == "lost"  # (the order: tests/match/test_daily.py)
    MatchStore(Player.make("bob"), shared, keep_dir=False).ignore("ann")
    assert main(["board", "--match-dir", str(shared), "--ascii"]) == 0
    out = capsys.readouterr().out
    assert " ann " not in out and ">1" in out  # all games: only Penguin was played
    assert "Penguin | daily of" in out and not {"·", "±", "─"} & set(out)  # ASCII only
    assert main(["board", "spider", "--all", "--match-dir", str(shared)]) == 0
    assert "No daily finished yet" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["board", "chess"], "no game is called 'chess'"),
        (["board", "--day", "yesterday"], "A day is written YYYY-MM-DD"),
        (["board", "--zone", "Mars/Olympus"], "No time zone is called"),
        (["board", "spider", "--suits", "3"], "no daily has --suits 3"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*args, "--match-dir", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "m").exists()


def test_no_store_yet_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "--match-dir", str(tmp_path / "m")]) == 0
    assert "No daily has been played on this host yet" in capsys.readouterr().out
    assert not (tmp_path / "m").exists()
