"""Host share codes: a finished game kept in the match store under a code of
seven characters, which anyone on the host opens (``termsolitaire replay CODE``).

The store keeps the game's self-contained code (:mod:`termsolitaire.rules.sharecode`)
as the ``body``, so a host code is only a short name for it: the same game
shared twice gets the same host code. Rows are only ever added (a code, once
given, always opens the same game); nobody changes or removes another's.

>>> import tempfile
>>> from termsolitaire.match import MatchStore, Player
>>> from termsolitaire.rules import new_game
>>> tmp = tempfile.TemporaryDirectory()
>>> ann = MatchStore(Player.make("ann"), tmp.name, keep_dir=None)
>>> g = new_game("penguin", deal=5)
>>> _ = g.play(g.legal_moves()[0])
>>> code = share(ann, g)
>>> len(code), share(ann, g) == code, open_code(ann, code.lower()).history == g.history
(7, True, True)
>>> ann.close(); tmp.cleanup()
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..rules import Game
from ..rules.sharecode import BadCode as BadShareCode
from ..rules.sharecode import decode, encode, is_host_code, normal
from .codes import ALPHABET
from .errors import BadCode, MatchError, NotAllowed

if TYPE_CHECKING:
    from .results import Reading
    from .social import Social

LENGTH = 7
"""Characters of a host code (from the join codes' 30 unmistakable ones): 30**7,
about 2.2e10 codes."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


@contextlib.contextmanager
def _in_words() -> Iterator[None]:
    """A code the rules cannot read (or a game they cannot encode) as the store's
    BadCode: one sentence for the player."""
    try:
        yield
    except BadShareCode as e:
        raise BadCode(str(e)) from None


def decoded(code: str) -> Game:
    """The game a self-contained code holds, replayed."""
    with _in_words():
        return decode(code)


def share(store: Social, game: Game) -> str:
    """The host code of ``game`` (made now, or the one it already has)."""
    with _in_words():
        body = encode(game)
    now = store.now()
    with store.db.write("share the game") as db:
        row = db.execute("SELECT code FROM shares WHERE body = ?", (body,)).fetchone()
        if row is not None:
            return str(row["code"])
        while True:
            code = new_code()
            try:
                db.execute(
                    "INSERT INTO shares (code, owner, game, body, made_at) VALUES (?, ?, ?, ?, ?)",
                    (code, store.me.id, game.name, body, now),
                )
                return code
            except sqlite3.IntegrityError:  # pragma: no cover - a code drawn twice
                continue


def check_match_over(store: Social, table_id: int) -> None:
    """A match game is shared once every game at its table has ended: a code opened
    by the opponent while they still play would show them the deal's cards."""
    table = getattr(store, "table", None)
    if table is None:
        return
    info = table(table_id)
    going = [s.player.name for s in info.seats if not s.finished]
    if going or info.state != "finished":
        who = f" ({' and '.join(going)} still playing)" if going else ""
        raise NotAllowed(f"You can share a match game once the match is over{who}")


def body_of(store: Social, code: str) -> str:
    """The self-contained code a host code names; BadCode with a sentence when none."""
    text = normal(code)
    with store.db.read("open the shared game") as db:
        row = db.execute("SELECT body FROM shares WHERE code = ?", (text,)).fetchone()
    if row is None:
        raise BadCode(f"No shared game has the code {text} on this host; check it")
    return str(row["body"])


def open_code(store: Social, code: str) -> Game:
    """The game a host code names, replayed."""
    return decoded(body_of(store, code))


@dataclass(frozen=True, slots=True)
class Shared:
    """A game's two codes: ``code`` for anywhere, ``host`` for this host's store
    (None, with ``problem`` saying why, when the store could not take it)."""

    code: str
    host: str | None
    problem: str | None = None


def share_game(game: Game, store: Social | None = None, directory: Path | None = None) -> Shared:
    """Both codes of ``game``; the host code through ``store``, else a store opened
    on ``directory`` (the match directory, :func:`~.db.match_dir`). BadCode when
    the game cannot be a code at all (no deal number)."""
    with _in_words():
        code = encode(game)
    opened = None
    try:
        if store is None:
            from .store import MatchStore

            store = opened = MatchStore(None, directory, keep_dir=None)
        return Shared(code, share(store, game))
    except MatchError as e:
        return Shared(code, None, e.reason)
    finally:
        if opened is not None:
            opened.close()


def shared_game_by(store: Social, text: str) -> tuple[Game, str | None]:
    """The game a share code names, through ``store`` for a host code, and the
    name of the player who shared it: a host code's; a self-contained code holds
    no name (None: its format is the rules core's, API.md). BadCode with one
    sentence. Only codes: never a file (what an SSH player types must not name
    the host's files, as ``replay``'s argument may)."""
    if not is_host_code(text):
        return decoded(text), None
    return open_code(store, text), sharer(store, text)


def sharer(store: Social, code: str) -> str | None:
    """The name of the player who shared the game of host code ``code`` (not always
    its player: a match's seats may share each other's game); None when unknown."""
    with store.db.read("read who shared the game") as db:
        row = db.execute(
            "SELECT p.name FROM shares s JOIN players p ON p.id = s.owner WHERE s.code = ?",
            (normal(code),),
        ).fetchone()
    return None if row is None else str(row["name"])


def open_shared(text: str, directory: Path | None = None) -> tuple[Game, str | None]:
    """The game a code names: a host code (at most eight characters, looked up in
    the store on ``directory``) or a self-contained one; and the name of the player who
    shared it: a host code's, from the store; a self-contained code holds no name
    (None: its format is the rules core's, API.md)."""
    if not is_host_code(text):
        return decoded(text), None
    from .store import MatchStore

    try:
        store = MatchStore(None, directory, keep_dir=None, create=False)
    except MatchError as e:
        raise BadCode(f"No match store on this host to look the code up in ({e.reason})") from None
    try:
        return shared_game_by(store, text)
    finally:
        store.close()


def past_daily(store: Reading, game: str, variant: dict[str, int], day: str) -> Game:
    """This player's attempt at the daily of ``game`` on ``day``, once that day is over
    (while it lasts, a code would show the others the deal and a way through it)."""
    from .daily import Attempt, Daily, check_variant, parse_day, title_of, variant_key

    check_variant(game, variant)
    daily = Daily(store)
    day = parse_day(day)
    if day >= daily.today():
        raise NotAllowed(
            f"A daily is shared once its day is over (today is {daily.today()}): "
            "the others may still play it"
        )
    key = (store.me.id, game, variant_key(variant), day)
    with store.db.read("read your daily") as db:
        row = db.execute(
            "SELECT deal, started_at FROM daily_attempts WHERE player = ? AND game = ? "
            "AND variant = ? AND day = ?",
            key,
        ).fetchone()
    if row is None:
        raise NotAllowed(f"You did not play the {title_of(game, variant)} daily of {day}")
    attempt = Attempt(daily, game, variant, day, int(row["deal"]), float(row["started_at"]))
    return attempt.game
