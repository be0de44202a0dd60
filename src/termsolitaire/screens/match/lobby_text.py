"""What the lobby says about a table: its row and the lines below the list.

Plain functions of a :class:`~termsolitaire.match.TableInfo` and the player's id,
so the wording is tested without a screen.

>>> from termsolitaire.match import Player, SeatInfo, TableInfo
>>> ann = SeatInfo(1, Player("ann", "ann"), 0.0, 5.0, None, None, 600.0, 0, 0, 0, 0, 1.0)
>>> t = TableInfo(3, ann.player, 2, 600.0, True, 42, 0.0, "started", (ann,), None, True, False)
>>> game_text(t), players_text(t), state_text(t, "bob")
('2 suits 10m', 'ann vs (free)', 'started, seat free')

A cell never cuts a name: a row whose players (or state) are longer than the
column takes a second line, broken at " vs " first:

>>> fit("★ann vs computer (beginner)", 25)
['★ann vs', 'computer (beginner)']
"""

from __future__ import annotations

import textwrap

from termsolitaire.match import TableInfo

COLUMNS = (("#", 3), ("Game", 11), ("Table", 7), ("Players", 25), ("State", 22))
STATE_WIDTH = COLUMNS[-1][1]
"""A state longer than its column would be cut (a name like "computer (casual)")."""


def game_text(t: TableInfo) -> str:
    return f"{t.suits} suit{'s' if t.suits > 1 else ''} {t.minutes}m"


def fit(text: str, width: int, joint: str = " vs ") -> list[str]:
    """``text`` in lines of at most ``width`` characters, every character kept: one
    line when it fits, else broken after each ``joint``, then between words or
    after a hyphen, and inside a word only when the word alone is wider than the
    column (a 32-character name in a 25-column cell)."""
    if len(text) <= width:
        return [text]
    parts = text.split(joint)
    pieces = [p + joint.rstrip() for p in parts[:-1]] + parts[-1:]
    lines: list[str] = []
    for piece in pieces:
        lines += textwrap.wrap(piece, width) or [""]
    return lines


def row_cells(t: TableInfo, me: str, guest: str | None = None) -> tuple[list[str], int]:
    """The table's row, one text a column (lines joined), and its height in lines.
    ``guest``: the hot-seat guest who plays second here and has not sat down yet."""
    star = "★" if t.friends else ""
    texts = [
        f"{t.id}",
        game_text(t),
        "public" if t.public else "private",
        star + players_text(t, guest),
        state_text(t, me, guest),
    ]
    cells = [fit(text, width) for text, (_, width) in zip(texts, COLUMNS, strict=True)]
    return ["\n".join(c) for c in cells], max(len(c) for c in cells)


def players_text(t: TableInfo, guest: str | None = None) -> str:
    """``ann vs bob``; ``ann vs (free)`` with a seat free (a hot-seat ``guest``
    still to sit down is named: the seat is theirs)."""
    names = [s.player.name for s in t.seats]
    if len(names) < 2:
        names.append(guest or "(free)")
    return " vs ".join(names)


def state_text(t: TableInfo, me: str, guest: str | None = None) -> str:
    """Where the table stands, from this player's side (``guest``: the hot-seat
    guest still to play here).

    >>> from termsolitaire.match import Player, SeatInfo, TableInfo
    >>> ann = SeatInfo(1, Player("ann", "ann"), 0.0, 5.0, 9.0, "end", 600.0, 0, 0, 0, 0, 1.0)
    >>> t = TableInfo(3, ann.player, 1, 600.0, False, 42, 0.0, "playing", (ann,), "C", True, False)
    >>> state_text(t, "ann"), state_text(t, "ann", "Bob"), players_text(t, "Bob")
    ('yours: done, seat free', 'yours: done; Bob plays', 'ann vs Bob')
    """
    mine = t.seat_of(me)
    other = t.opponent_of(me)
    if t.state == "finished":
        return "finished"
    if mine is not None:
        if not mine.started:
            return "yours: not started"
        if mine.playing:
            return "yours: playing"
        if other is None and guest:
            said = f"yours: done; {guest} plays"  # as once they have sat down
            return said if len(said) <= STATE_WIDTH else "yours: done; they play"
        if other is None:
            return "yours: done, seat free"
        said = f"yours: done; {other.player.name} plays"
        return said if len(said) <= STATE_WIDTH else "yours: done; they play"
    if t.invited and t.can_join:
        return f"invited by {t.host.name}"
    if t.can_join:
        return "seat free: join" if t.state == "waiting" else "started, seat free"
    return "playing" if t.state == "playing" else t.state


def detail_text(t: TableInfo, me: str, guest: str | None = None, playing: str | None = None) -> str:
    """Two lines on the highlighted table: its facts, and what Enter does
    (``guest``: the hot-seat guest still to play here; ``playing``: the hot-seat
    guest playing here now)."""
    # The deal number only once every game at the table has ended: shown before, a
    # player could deal it as a solo game first (the menu's deal number, `#`) and
    # learn it with the hints, then join, or start the clock as its host. The
    # daily hides its number so too (docs/daily.md).
    deal = [f"deal {t.deal}"] if t.state == "finished" else []
    parts = [f"Table {t.id}", *deal, "public" if t.public else "private"]
    if t.code and not guest:  # a hot-seat guest's seat takes nobody by the code
        parts.append(f"code {t.code}")
    mine = t.seat_of(me)
    if mine is not None and not mine.finished:
        if mine.started:
            enter = "Enter: back to your game (your clock is running)"
        elif t.full:  # nobody left to invite (the names are in the row above)
            enter = "Enter: start your game (the clock starts); both seats are taken"
        else:
            enter = "Enter: start your game (the clock starts); i: invite someone"
    elif guest and mine is not None and t.opponent_of(me) is None:
        enter = f"Enter: {guest} takes the keyboard (hot-seat)"
    elif playing:
        enter = f"Enter: back to {playing}'s game (their clock is running)"
    elif mine is not None or t.state == "finished":
        enter = "Enter: the results, Watch and the replays"
    elif t.can_join:
        enter = "Enter: take the free seat (same deal, a full clock of your own)"
    else:
        enter = "w: watch both players live, read only"
    return " · ".join(parts) + "\n" + enter
