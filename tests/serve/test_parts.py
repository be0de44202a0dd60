"""The server's plain parts: the limits, the accounts, the name prompt, the app's
environment (their docstring examples run here too)."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

from termsolitaire.serve import config, limits, players, prompt
from termsolitaire.serve.config import ServeConfig
from termsolitaire.serve.players import Players


@pytest.mark.parametrize("module", [limits, players, prompt])
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_rate_limit_refills_and_counts_each_address_alone() -> None:
    now = [100.0]
    rate = limits.RateLimit(burst=3, per_minute=2, clock=lambda: now[0])
    assert [rate.admit("a") for _ in range(3)] == [None, None, None]
    refusal = rate.admit("a")
    assert refusal is not None
    assert refusal.line == "Too many connections from a: try again in 30 s (at most 2 a minute)."
    assert rate.admit("b") is None
    now[0] += 29.0
    assert rate.admit("a") is not None  # a refusal takes no token, and 29 s is not enough
    now[0] += 1.0
    assert rate.admit("a") is None
    assert limits.RateLimit(burst=0, per_minute=0).admit("a") is None  # 0: no limit


def test_names_are_checked_and_unique(tmp_path: Path) -> None:
    ps = Players(tmp_path)
    alice = ps.register("SHA256:aaaa", "Alice", "ssh-ed25519 AAAA")
    assert ps.find("SHA256:aaaa") == alice and alice.home == tmp_path / "players" / "sha256-aaaa"
    assert ps.find("SHA256:bbbb") is None
    with pytest.raises(ValueError, match="'alice' is taken"):
        ps.register("SHA256:bbbb", "alice", "ssh-ed25519 BBBB")
    with pytest.raises(ValueError, match="' ' is not one of them"):
        ps.register("SHA256:bbbb", "bad name", "ssh-ed25519 BBBB")
    with pytest.raises(ValueError, match="A name is 2 to 20"):
        ps.register("SHA256:bbbb", "x", "ssh-ed25519 BBBB")
    assert ps.find("SHA256:bbbb") is None  # nothing was written
    with pytest.raises(ValueError, match="not a key fingerprint"):
        players.safe_id("SHA256:../../etc")
    (alice.home / "player.json").write_text("{broken")
    assert ps.find("SHA256:aaaa") is None  # asked again rather than crashing


def test_guests_get_a_directory_that_goes(tmp_path: Path) -> None:
    ps = Players(tmp_path)
    g = ps.guest()
    assert g.guest and g.home.is_dir() and g.id.startswith("guest:")
    assert ps.guest().home != g.home
    ps.forget(g)
    assert not g.home.exists()
    ps.forget_all_guests()
    assert not (tmp_path / "guests").exists()


def test_prompt_edits_like_a_terminal_line() -> None:
    ed = prompt.LineEditor(limit=5)
    echo, line = ed.feed(b"abcdefg")  # past the limit nothing more is taken
    assert (echo, line) == (b"abcde", None)
    echo, line = ed.feed(b"\x15xy\r")  # Ctrl-U clears the line
    assert echo == b"\b \b" * 5 + b"xy" and line == "xy"


def test_a_lone_escape_at_the_end_of_a_read_is_the_escape_key() -> None:
    """A terminal sends a key's whole sequence in one write: an ESC that ends a read
    is the Escape key, and the next read's first letter is typed, not eaten; a
    sequence in one read is still dropped whole, and a control string still runs
    on across reads to its end."""
    ed = prompt.LineEditor()
    assert ed.feed(b"\x1b") == (b"", None)
    assert ed.feed(b"bob\x1b[D\x1bOA\x1bx\r") == (b"bob", "bob")
    ed = prompt.LineEditor()
    ed.feed(b"\x1b]0;a long title")
    assert ed.feed(b" goes on\x07ann\r") == (b"ann", "ann")


def test_a_half_sequence_at_the_end_of_a_read_eats_no_letter() -> None:
    """A CSI or SS3 cut off by the end of a read (``ESC [ 1 ;`` typed, or sent by
    a hostile client) is no key: the name typed next keeps its first letter,
    which is a CSI's final byte ('e') or SS3's (any)."""
    for half in (b"\x1b[1;", b"\x1b[", b"\x1bO", "\u009b2".encode()):
        ed = prompt.LineEditor()
        assert ed.feed(half) == (b"", None)
        assert ed.feed(b"erin\r") == (b"erin", "erin"), half
    ed = prompt.LineEditor()  # a title still runs on across reads
    ed.feed(b"\x1b]0;a long title")
    assert ed.feed(b" goes on\x07ann\r") == (b"ann", "ann")


def test_app_environment_is_clean_and_names_the_player(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("SECRET_TOKEN", "x")
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "0")  # the operator's choice passes on
    cfg = ServeConfig(data_dir=tmp_path)
    p = Players(tmp_path).register("SHA256:cccc", "cid", "k")
    env = cfg.environment(p, "screen", {"LANG": "de_DE.UTF-8", "EVIL": "1", "COLORTERM": "\x1b"})
    assert env["TERM"] == "screen" and env["LANG"] == "de_DE.UTF-8"
    assert env["TERMSOLITAIRE_HOME"] == env["HOME"] == str(p.home)
    assert (env["TERMSOLITAIRE_PLAYER"], env["TERMSOLITAIRE_PLAYER_ID"]) == ("cid", "SHA256:cccc")
    assert env["TERMSOLITAIRE_MATCH_DIR"] == str(tmp_path / "match")
    for absent in ("COLUMNS", "SECRET_TOKEN", "EVIL", "COLORTERM"):
        assert absent not in env
    assert env["PATH"] == os.environ["PATH"]
    assert env["TERMSOLITAIRE_SOLVER_HELP"] == "0"


def test_app_command_is_one_setting() -> None:
    cfg = ServeConfig(data_dir=Path(), app_command="{python} -m termsolitaire match")
    assert cfg.command()[1:] == ["-m", "termsolitaire", "match"]
    assert config.APP_COMMAND == "{python} -m termsolitaire match"
