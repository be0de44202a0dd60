"""Players, friends and ignore lists.

These are the parts of :class:`~termsolitaire.match.store.MatchStore` that are
about people rather than tables; the store inherits them (the record, results
and Watch come from :class:`~termsolitaire.match.results.Reading`, above this).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Literal

from .db import MatchDatabase
from .errors import NotAllowed, UnknownPlayer
from .identity import Player

ListName = Literal["friends", "ignores"]


class Social:
    """Players, friends and ignore lists (mixed into MatchStore)."""

    db: MatchDatabase
    me: Player
    now: Callable[[], float]

    # ------------------------------------------------------------ players

    def find_player(self, who: str) -> Player:
        """The player whose id is ``who``, else whose name is ``who`` (any case).

        UnknownPlayer when nobody has that id or name on this host, or when two
        players share the name (then the id must be used).
        """
        text = who.strip()
        if not text:
            raise UnknownPlayer("Type a player's name")
        with self.db.read("look the player up") as db:
            row = db.execute("SELECT id, name FROM players WHERE id = ?", (text,)).fetchone()
            if row is not None:
                return Player(row["id"], row["name"])
            rows = db.execute(
                "SELECT id, name FROM players WHERE lower(name) = lower(?) ORDER BY id", (text,)
            ).fetchall()
        if len(rows) == 1:
            return Player(rows[0]["id"], rows[0]["name"])
        if rows:
            ids = ", ".join(r["id"] for r in rows)
            raise UnknownPlayer(f"{len(rows)} players are called {text!r}: use an id ({ids})")
        raise UnknownPlayer(
            f"No player called {text!r} has been to the match lobby on this host; "
            "give them the table's code instead"
        )

    def _list(self, db: sqlite3.Connection, which: ListName) -> list[str]:
        rows = db.execute(
            f"SELECT other FROM {which} WHERE player = ? ORDER BY since", (self.me.id,)
        ).fetchall()
        return [r["other"] for r in rows]

    def _players_of(self, which: ListName) -> list[Player]:
        with self.db.read("read your lists") as db:
            rows = db.execute(
                f"SELECT l.other AS id, coalesce(p.name, l.other) AS name FROM {which} l "
                "LEFT JOIN players p ON p.id = l.other WHERE l.player = ? ORDER BY name",
                (self.me.id,),
            ).fetchall()
        return [Player(r["id"], r["name"]) for r in rows]

    def friends(self) -> list[Player]:
        """This player's friends, by name."""
        return self._players_of("friends")

    def ignored(self) -> list[Player]:
        """The players this player ignores, by name."""
        return self._players_of("ignores")

    def _put(self, which: ListName, who: str, add: bool) -> Player:
        other = self.find_player(who)
        if other.id == self.me.id:
            raise NotAllowed(
                "You cannot befriend yourself"
                if which == "friends"
                else "You cannot ignore yourself"
            )
        opposite = "ignores" if which == "friends" else "friends"
        with self.db.write("change your lists") as db:
            if add:
                db.execute(
                    f"INSERT INTO {which} VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (self.me.id, other.id, self.now()),
                )
                db.execute(
                    f"DELETE FROM {opposite} WHERE player = ? AND other = ?", (self.me.id, other.id)
                )
            else:
                cur = db.execute(
                    f"DELETE FROM {which} WHERE player = ? AND other = ?", (self.me.id, other.id)
                )
                if cur.rowcount == 0:
                    where = "friends" if which == "friends" else "ignore list"
                    raise NotAllowed(f"{other.name} is not on your {where}")
        return other

    def add_friend(self, who: str) -> Player:
        """Put a player on the friends list (taking them off the ignore list)."""
        return self._put("friends", who, True)

    def remove_friend(self, who: str) -> Player:
        return self._put("friends", who, False)

    def ignore(self, who: str) -> Player:
        """Ignore a player: their invitations and the tables where they sit are no
        longer shown to this player (and they leave the friends list)."""
        return self._put("ignores", who, True)

    def unignore(self, who: str) -> Player:
        return self._put("ignores", who, False)
