"""Who is playing: a stable id and a display name, kept apart.

On a shared host a player is their login name (:func:`getpass.getuser`), as id
and as name. The SSH server sets ``TERMSOLITAIRE_PLAYER_ID`` (a stable id such
as the key's fingerprint, ``SHA256:...``) and ``TERMSOLITAIRE_PLAYER`` (the name
the player chose); either may be given alone. Ids key everything in the store;
names are only shown, and may change.

>>> current_player({"TERMSOLITAIRE_PLAYER_ID": "SHA256:abc", "TERMSOLITAIRE_PLAYER": "Ann"})
Player(id='SHA256:abc', name='Ann')
>>> Player.make("bob")
Player(id='bob', name='bob')
"""

from __future__ import annotations

import getpass
import os
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import BadName

ENV_ID = "TERMSOLITAIRE_PLAYER_ID"
ENV_NAME = "TERMSOLITAIRE_PLAYER"
MAX_ID = 128
MAX_NAME = 32
GUEST = "guest:"
"""How a guest's id begins: a guest of ``serve --open`` (a new id at every
connection) or a hot-seat guest (:mod:`.hotseat`)."""
COMPUTER = "computer:"
"""How the computer opponent's ids begin (:mod:`.computer`: ``computer:<level>``)."""


def guests_of(host_id: str) -> str:
    """How the ids of ``host_id``'s hot-seat guests begin (:mod:`.hotseat`).

    >>> guests_of("ann")
    'guest:ann:'
    """
    return f"{GUEST}{host_id}:"


def is_guest(player_id: str) -> bool:
    """Whether ``player_id`` is a guest's: what the store keeps by id (one daily
    attempt, the deal a spectator has seen) does not hold for a guest, who comes
    back under another id."""
    return player_id.startswith(GUEST)


def check_id(text: str) -> str:
    """``text`` as a player id, or :class:`BadName`: 1-128 printable characters, no spaces."""
    if not text:
        raise BadName("A player id cannot be empty")
    if len(text) > MAX_ID:
        raise BadName(f"A player id has at most {MAX_ID} characters")
    if any(c.isspace() or not c.isprintable() for c in text):
        raise BadName(f"A player id has no spaces or control characters: {text!r}")
    return text


def check_name(text: str) -> str:
    """``text`` stripped, as a display name, or :class:`BadName`: 1-32 printable characters."""
    name = text.strip()
    if not name:
        raise BadName("A player name cannot be empty")
    if len(name) > MAX_NAME:
        raise BadName(f"A player name has at most {MAX_NAME} characters")
    if not name.isprintable():
        raise BadName(f"A player name has no control characters: {name!r}")
    return name


CONFUSABLE_CHARS = str.maketrans({"0": "O", "1": "l", "I": "l", "|": "l", "!": "l"})
"""Characters that look like others (UTS #39, confusables.txt: ``I`` and ``1``
look like ``l``, ``0`` like ``O``)."""
CONFUSABLE_RUNS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
"""Pairs of letters that look like one (``rn`` and ``m``)."""


def _skeleton(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(CONFUSABLE_CHARS)
    for two, one in CONFUSABLE_RUNS:
        text = text.replace(two, one)
    return unicodedata.normalize("NFD", text)


def skeletons(name: str) -> frozenset[str]:
    """What ``name`` looks like, as written and with letter case aside (UTS #39's
    skeleton of the name and of its case-folded form): two names that share one
    could be taken for each other (:func:`looks_alike`)."""
    return frozenset({_skeleton(name), _skeleton(name.casefold()).casefold()})


def looks_alike(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` could be taken for each other.

    >>> looks_alike("alice", "aIice"), looks_alike("alice", "ALICE")
    (True, True)
    >>> looks_alike("b0b", "bob"), looks_alike("rnary", "mary"), looks_alike("bob", "rob")
    (True, True, False)
    """
    return bool(skeletons(a) & skeletons(b))


def is_local(player_id: str) -> bool:
    """Whether ``player_id`` is a local account's (a login name), not an SSH key's
    (``SHA256:...``) or a guest's (``guest:...``).

    >>> is_local("bob"), is_local("SHA256:abc"), is_local("guest:1f2e")
    (True, False, False)
    """
    return ":" not in player_id


LOCAL_MARK = " (local)"
"""Added to a local player's name that looks like an SSH player's who came first."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player: ``id`` keys their seats, invitations, lists and record; ``name`` is shown."""

    id: str
    name: str

    @classmethod
    def make(cls, id: str, name: str | None = None) -> Player:
        """A checked player; the name defaults to the id."""
        pid = check_id(id)
        return cls(pid, check_name(name if name is not None else pid))

    def __str__(self) -> str:
        return self.name

    @property
    def is_computer(self) -> bool:
        """Whether this is the computer opponent (:mod:`.computer`), who presses no
        key: its game ends when it has no useful move, not by End."""
        return self.id.startswith(COMPUTER)


def login_name() -> str:
    """The login name of this process's user (``uidN`` when it has none)."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return f"uid{os.getuid()}"


def current_player(env: Mapping[str, str] | None = None) -> Player:
    """The player of this process: the login name unless the environment says otherwise.

    Raises :class:`BadName` when the environment's id or name cannot be used.
    """
    env = os.environ if env is None else env
    pid = env.get(ENV_ID) or None
    name = env.get(ENV_NAME) or None
    if pid is None:
        pid = login_name()
    return Player.make(pid, name)
