"""Who a player is: the login name, or the SSH server's id and chosen name."""

from __future__ import annotations

import getpass

import pytest

from termsolitaire.match import BadName, MatchStore, Player, UnknownPlayer, current_player
from termsolitaire.match.identity import check_name


def test_a_local_player_is_their_login_name() -> None:
    me = current_player({})
    assert me == Player(getpass.getuser(), getpass.getuser())


def test_the_ssh_server_gives_an_id_and_a_name_which_stay_apart() -> None:
    env = {"TERMSOLITAIRE_PLAYER_ID": "SHA256:q1w2e3", "TERMSOLITAIRE_PLAYER": "  Ann B  "}
    assert current_player(env) == Player("SHA256:q1w2e3", "Ann B")
    # a name alone renames the login; an id alone is also the name
    assert current_player({"TERMSOLITAIRE_PLAYER": "Ann"}).id == getpass.getuser()
    assert current_player({"TERMSOLITAIRE_PLAYER_ID": "key:9"}) == Player("key:9", "key:9")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TERMSOLITAIRE_PLAYER_ID": "two words"}, "no spaces"),
        ({"TERMSOLITAIRE_PLAYER_ID": "x" * 129}, "at most 128"),
        ({"TERMSOLITAIRE_PLAYER": "a\x1b[2Jb"}, "no control characters"),
        ({"TERMSOLITAIRE_PLAYER": "n" * 33}, "at most 32"),
    ],
)
def test_bad_identities_are_refused_with_the_reason(env: dict[str, str], message: str) -> None:
    with pytest.raises(BadName, match=message):
        current_player(env)


def test_an_empty_name_is_refused() -> None:
    with pytest.raises(BadName, match="cannot be empty"):
        check_name("   ")


def test_players_are_found_by_id_or_by_unique_name(store) -> None:  # type: ignore[no-untyped-def]
    ann = store("SHA256:aaa", "Ann")
    store("SHA256:bbb", "Bob")
    assert ann.find_player("bob") == Player("SHA256:bbb", "Bob")
    assert ann.find_player("SHA256:bbb").name == "Bob"
    store("SHA256:ccc", "bob")
    with pytest.raises(UnknownPlayer, match=r"2 players are called 'Bob': use an id"):
        ann.find_player("Bob")
    with pytest.raises(UnknownPlayer, match=r"No player called 'zed'.*code instead"):
        ann.find_player("zed")


def test_a_new_name_replaces_the_old_one_under_the_same_id(store) -> None:  # type: ignore[no-untyped-def]
    ann = store("SHA256:aaa", "Ann")
    store("SHA256:bbb", "Bob")
    store("SHA256:bbb", "Robert")
    assert ann.find_player("SHA256:bbb").name == "Robert"
    with pytest.raises(UnknownPlayer):
        ann.find_player("Bob")


def test_the_match_dir_comes_from_the_option_the_environment_or_the_data_dir(
    tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from termsolitaire.match import match_dir

    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TERMSOLITAIRE_MATCH_DIR", raising=False)
    assert match_dir() == tmp_path / "home" / "match"
    monkeypatch.setenv("TERMSOLITAIRE_MATCH_DIR", str(tmp_path / "shared"))
    assert match_dir() == tmp_path / "shared"
    assert match_dir(tmp_path / "opt") == tmp_path / "opt"
    s = MatchStore(Player.make("ann"))
    assert s.path == tmp_path / "shared" / "match.sqlite3"
    s.close()
