"""Accounts in the shared database (``serve --database``): a key registered on one
host is the same player on another, and names are taken across hosts."""

from __future__ import annotations

from pathlib import Path

import pytest

from termsolitaire.serve.players import Players, SharedPlayers, open_players


def test_a_key_is_the_same_player_on_every_host(postgres: str, tmp_path: Path) -> None:
    one = SharedPlayers(tmp_path / "one", postgres)
    two = SharedPlayers(tmp_path / "two", postgres)
    ann = one.register("SHA256:ann", "ann", "ssh-ed25519 AAAA ann")
    assert ann.home == tmp_path / "one" / "players" / "sha256-ann" and ann.home.is_dir()
    there = two.find("SHA256:ann")
    assert there is not None and (there.name, there.id) == ("ann", "SHA256:ann")
    assert there.home.is_dir()  # made on the host the player came to
    assert two.find("SHA256:bob") is None
    assert two.taken("ANN") and two.taken("arm") is False
    with pytest.raises(ValueError, match="is taken"):
        two.register("SHA256:bob", "Ann", "ssh-ed25519 AAAA bob")
    one.close()
    two.close()


def test_the_setting_chooses_the_accounts(
    postgres: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert type(open_players(tmp_path)) is Players
    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    shared = open_players(tmp_path)
    assert type(shared) is SharedPlayers
    shared.close()


def test_a_guests_rows_go_with_them(postgres: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from termsolitaire.rules import new_game
    from termsolitaire.storage.backend import open_storage

    players = SharedPlayers(tmp_path, postgres)
    guest = players.guest()
    monkeypatch.setenv("TERMSOLITAIRE_PLAYER_ID", guest.id)
    s = open_storage(guest.home, postgres)
    s.saves.save(new_game("penguin", deal=2), "g")
    s.stats.record("g", "penguin", {}, 2, False, 0, 0, 1.0)
    s.close()
    players.forget(guest)
    s = open_storage(tmp_path / "again", postgres)
    assert s.saves.all() == ([], []) and s.stats.finished() == []
    s.close()
    players.close()


@pytest.mark.asyncio
async def test_the_log_names_the_database(postgres: str, serve, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The "serving on" line said ``match=DATA/match`` with ``--database``, a
    directory the lobby did not use, and never named the database (its password
    left out: ``storage.url.shown_url``)."""
    from urllib.parse import urlsplit

    monkeypatch.setenv("TERMSOLITAIRE_DATABASE", postgres)
    async with serve() as h:
        (line,) = h.logged(r"^serving on ")
    assert " database=postgresql://" in line and "match=" not in line
    assert urlsplit(postgres).path in line
