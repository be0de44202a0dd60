"""The daily deal: one deal a day per game and variant for every player of the
host, one attempt each, and the leaderboards (issue 31; docs/daily.md).

- The **day** is the date in UTC, or in the zone ``$TERMSOLITAIRE_DAILY_ZONE``
  names (``local``: the host's own zone; or a name such as ``Europe/Oslo``).
- The **deal** is an HMAC of the day, the game and the variant under the
  host's secret (:func:`deal_for`): random, made once by the first player who
  asks, kept in the store and never shown, so nobody can work out a day's deal
  before it comes.
- An **attempt** is a row written when the player starts the daily, before any
  card shows (:meth:`Daily.attempt`); every action is then appended in its own
  transaction, and the result is written in the transaction of the action that
  ends the game (won, or End). A resumed attempt is the same attempt, rebuilt
  from its actions; a finished one cannot be started again, whatever happens to
  the player's saves, and a game on the same deal number outside the daily is
  an ordinary solo game that counts for nothing here.
- Every row a player's process writes carries that player's id; nothing is
  updated once written except by appending (docs/daily.md, "Trust").

Plain Python: no textual or rich import.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import itertools
import os
import secrets
from collections.abc import Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..rules import Game, IllegalMove, Move, games, info, new_game
from ..rules.deal import MAX_RANDOM_DEAL
from .errors import GameOver, MatchError, SeatMoved, StoreDamaged
from .identity import is_guest
from .leaderboard import BOARDS, Board, Line, read_board, week_of
from .replay import END, apply, canonical
from .results import Reading

__all__ = ["BOARDS", "Attempt", "Board", "Daily", "DailyDone", "Line", "week_of"]

ENV_ZONE = "TERMSOLITAIRE_DAILY_ZONE"


class DailyDone(MatchError):
    """This player's attempt at the daily has ended: one a day."""


class BadZone(MatchError):
    """The daily's time zone is not one this host knows."""


def zone(name: str | None = None, env: Mapping[str, str] | None = None) -> dt.tzinfo:
    """The zone the day is counted in: ``name``, else ``$TERMSOLITAIRE_DAILY_ZONE``,
    else UTC. ``local`` is the host's own zone.

    >>> zone("UTC"), zone("Europe/Oslo")
    (datetime.timezone.utc, zoneinfo.ZoneInfo(key='Europe/Oslo'))
    >>> try:
    ...     zone("Mars/Olympus")
    ... except BadZone as e:
    ...     print(e)
    No time zone is called 'Mars/Olympus' (try UTC, local or a name such as Europe/Oslo)
    """
    env = os.environ if env is None else env
    text = (name or env.get(ENV_ZONE) or "UTC").strip()
    if text.upper() == "UTC":
        return dt.UTC
    if text.lower() == "local":
        return dt.datetime.now().astimezone().tzinfo or dt.UTC
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadZone(
            f"No time zone is called {text!r} (try UTC, local or a name such as Europe/Oslo)"
        ) from None


def day_of(t: float, tz: dt.tzinfo) -> str:
    """The day (``2026-12-03``) at time ``t`` in zone ``tz``."""
    return dt.datetime.fromtimestamp(t, tz).date().isoformat()


def parse_day(text: str) -> str:
    """``text`` as a day (``YYYY-MM-DD``), or :class:`~.errors.MatchError`.

    >>> parse_day(" 2026-12-03 ")
    '2026-12-03'
    >>> try:
    ...     parse_day("3 December")
    ... except MatchError as e:
    ...     print(e)
    A day is written YYYY-MM-DD (2026-12-03), not '3 December'
    """
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise MatchError(f"A day is written YYYY-MM-DD (2026-12-03), not {text!r}") from None


def variant_key(variant: Mapping[str, int]) -> str:
    """The variant as the store keys it: ``suits=2``; ``""`` for none."""
    return ",".join(f"{k}={int(v)}" for k, v in sorted(variant.items()))


def title_of(game: str, variant: Mapping[str, int]) -> str:
    """``Spider 2 suits``, ``Penguin``."""
    gi = info(game)
    return " ".join(filter(None, (gi.title, gi.variant_text(dict(variant)))))


def dailies(only: str | None = None) -> list[tuple[str, dict[str, int]]]:
    """Every daily: each game (or ``only``) with each of its variants, in menu order.

    >>> [(g, v) for g, v in dailies() if g in ("penguin", "spider")]
    [('penguin', {}), ('spider', {'suits': 1}), ('spider', {'suits': 2}), ('spider', {'suits': 4})]
    """
    out = []
    for g in games():
        if only is not None and g.name != only:
            continue
        keys = [c.key for c in g.variants]
        for values in itertools.product(*(c.values for c in g.variants)):
            out.append((g.name, dict(zip(keys, values, strict=True))))
    return out


def check_variant(game: str, variant: Mapping[str, int]) -> None:
    """:class:`~.errors.MatchError` unless ``game`` is a game and ``variant`` one of its
    variants (every key given, each to a value the game offers)."""
    try:
        gi = info(game)
    except (KeyError, ValueError):
        raise MatchError(f"There is no game called {game!r}") from None
    keys = {c.key: c.values for c in gi.variants}
    if set(variant) != set(keys):
        raise MatchError(f"{gi.title}'s daily needs {', '.join(keys) or 'no variant'}")
    for k, v in variant.items():
        if v not in keys[k]:
            raise MatchError(f"{gi.title} has no {k}={v}")


def deal_for(secret: str, game: str, variant: Mapping[str, int], day: str) -> int:
    """The daily deal number of ``game`` and ``variant`` on ``day`` under ``secret``.

    >>> deal_for("s", "penguin", {}, "2026-12-03") == deal_for("s", "penguin", {}, "2026-12-03")
    True
    >>> deal_for("s", "penguin", {}, "2026-12-03") != deal_for("t", "penguin", {}, "2026-12-03")
    True
    """
    text = f"{day}|{game}|{variant_key(variant)}".encode()
    digest = hmac.new(secret.encode(), text, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_RANDOM_DEAL + 1)


class Attempt:
    """This player's attempt at one daily: the game rebuilt from its stored actions,
    each new action appended to the store before the game changes."""

    def __init__(
        self,
        daily: Daily,
        game: str,
        variant: Mapping[str, int],
        day: str,
        deal: int,
        started_at: float,
    ) -> None:
        self.daily = daily
        self.name = game
        self.variant = dict(variant)
        self.day = day
        self.deal = deal
        self.started_at = started_at
        self.problem: str | None = None
        self._load()

    @property
    def _key(self) -> tuple[str, str, str, str]:
        return (self.daily.store.me.id, self.name, variant_key(self.variant), self.day)

    def _load(self) -> None:
        with self.daily.store.db.snapshot("read your daily") as db:
            rows = db.execute(
                "SELECT action FROM daily_actions WHERE player = ? AND game = ? AND variant = ? "
                "AND day = ? ORDER BY n",
                self._key,
            ).fetchall()
            done = db.execute(
                "SELECT won FROM daily_results WHERE player = ? AND game = ? AND variant = ? "
                "AND day = ?",
                self._key,
            ).fetchone()
        game = new_game(self.name, self.deal, **self.variant)
        for i, row in enumerate(rows):
            try:
                apply(game, row["action"])
            except IllegalMove as e:
                raise StoreDamaged(
                    f"Your daily does not replay: action {i + 1} ({row['action']!r}): {e.reason}"
                ) from None
        self.game: Game = game
        self.log: list[str] = [r["action"] for r in rows]
        self.finished = done is not None
        self.game.elapsed = self.seconds()

    def seconds(self, now: float | None = None) -> float:
        """Time used: the daily's clock runs from the start, like a match's."""
        now = self.daily.store.now() if now is None else now
        return max(0.0, now - self.started_at)

    def act(self, action: str) -> Move | None:
        """Play one action (API.md notation, ``undo``, ``redo``, ``end``): checked by the
        rules on a copy, appended to the store, then played here. The action that
        wins or ends the game writes the result in the same transaction.

        Refusals change nothing: IllegalMove, GameOver (the attempt has ended),
        SeatMoved (played on in another window: this attempt now shows that game),
        StoreError (the store did not take it: the daily needs the store)."""
        if self.finished:
            raise GameOver("Your daily attempt has ended: one a day", "end")
        text = canonical(action)
        trial = self.game.copy()
        move = apply(trial, text)
        ends = text == END or trial.is_won
        now = self.daily.store.now()
        moved = ended = False
        with self.daily.store.db.write("keep your daily move") as db:
            stored = db.execute(
                "SELECT count(*) FROM daily_actions WHERE player = ? AND game = ? "
                "AND variant = ? AND day = ?",
                self._key,
            ).fetchone()[0]
            over = db.execute(
                "SELECT 1 FROM daily_results WHERE player = ? AND game = ? AND variant = ? "
                "AND day = ?",
                self._key,
            ).fetchone()
            ended = over is not None
            if stored != len(self.log) or ended:
                moved = True
            else:
                db.execute(
                    "INSERT INTO daily_actions VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (*self._key, stored, text, now),
                )
                if ends:
                    db.execute(
                        "INSERT INTO daily_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            *self._key,
                            int(trial.is_won),
                            trial.score,
                            self.seconds(now),
                            trial.moves,
                            now,
                        ),
                    )
        if moved:
            self._load()
            if ended:
                raise GameOver("Your daily attempt has ended (in another window)", "end")
            raise SeatMoved("Your daily moved on in another window: this is that game now")
        apply(self.game, text)
        self.log.append(text)
        self.game.elapsed = self.seconds(now)
        self.finished = ends
        return move


class Daily:
    """The daily deals of the host, as ``store.me`` sees them."""

    def __init__(self, store: Reading, tz: dt.tzinfo | None = None) -> None:
        self.store = store
        self.tz = tz if tz is not None else zone()

    def today(self) -> str:
        return day_of(self.store.now(), self.tz)

    def _secret(self) -> str:
        """The host's secret: made once, at random, by the first process that needs it."""
        with self.store.db.read("read the daily") as db:
            row = db.execute("SELECT secret FROM host_secret WHERE id = 1").fetchone()
        if row is not None:
            return str(row["secret"])
        with self.store.db.write("set up the daily") as db:
            db.execute(
                "INSERT INTO host_secret VALUES (1, ?, ?) ON CONFLICT DO NOTHING",
                (secrets.token_hex(32), self.store.now()),
            )
            row = db.execute("SELECT secret FROM host_secret WHERE id = 1").fetchone()
        return str(row["secret"])

    def deal(self, game: str, variant: Mapping[str, int], day: str | None = None) -> int:
        """The daily deal number (not shown to players while its day lasts)."""
        return deal_for(self._secret(), game, variant, day or self.today())

    def summary(
        self, game: str, variant: Mapping[str, int], day: str | None = None
    ) -> tuple[int, int]:
        """``(won, players)`` of a day's daily so far."""
        day = day or self.today()
        with self.store.db.read("read the daily") as db:
            row = db.execute(
                "SELECT count(*) AS players, "
                "(SELECT count(*) FROM daily_results r WHERE r.game = ? AND r.variant = ? "
                "AND r.day = ? AND r.won = 1) AS won "
                "FROM daily_attempts WHERE game = ? AND variant = ? AND day = ?",
                (game, variant_key(variant), day) * 2,
            ).fetchone()
        return int(row["won"]), int(row["players"])

    def line(self, game: str, variant: Mapping[str, int]) -> str:
        """``Daily: Penguin · 3 of 41 players won so far``, and where this player stands."""
        won, players = self.summary(game, variant)
        state = self.state(game, variant)
        mine = {"playing": " · yours goes on", "won": " · you won", "lost": " · you played"}
        word = "player" if players == 1 else "players"
        so_far = f"{won} of {players} {word} won so far" if players else "nobody has played it yet"
        return f"Daily: {title_of(game, variant)} · {so_far}{mine.get(state or '', '')}"

    def state(self, game: str, variant: Mapping[str, int], day: str | None = None) -> str | None:
        """This player's daily: None (not started), ``playing``, ``won`` or ``lost``."""
        key = (self.store.me.id, game, variant_key(variant), day or self.today())
        with self.store.db.snapshot("read your daily") as db:
            started = db.execute(
                "SELECT 1 FROM daily_attempts WHERE player = ? AND game = ? AND variant = ? "
                "AND day = ?",
                key,
            ).fetchone()
            result = db.execute(
                "SELECT won FROM daily_results WHERE player = ? AND game = ? AND variant = ? "
                "AND day = ?",
                key,
            ).fetchone()
        if started is None:
            return None
        if result is None:
            return "playing"
        return "won" if result["won"] else "lost"

    def attempt(self, game: str, variant: Mapping[str, int]) -> Attempt:
        """Start today's attempt (written to the store before any card shows), or
        resume it; :class:`DailyDone` once it has ended."""
        check_variant(game, variant)
        if is_guest(self.store.me.id):  # serve's guests (hot-seat's too)
            # A guest of `serve --open` is a new id at each connection: one attempt a
            # day could not hold (any player could learn the daily as a guest first,
            # then play it with their key), and the rows would outlive the guest.
            raise MatchError(
                "Guests cannot play the daily: it is one attempt a day, kept by a "
                "player's SSH key. Connect with a key (ssh-keygen -t ed25519) to play it"
            )
        day = self.today()
        deal = self.deal(game, variant, day)
        key = (self.store.me.id, game, variant_key(variant), day)
        with self.store.db.write("start your daily") as db:
            db.execute(
                "INSERT INTO daily_attempts VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (*key, deal, self.store.now()),
            )
            row = db.execute(
                "SELECT deal, started_at FROM daily_attempts WHERE player = ? AND game = ? "
                "AND variant = ? AND day = ?",
                key,
            ).fetchone()
            done = db.execute(
                "SELECT won FROM daily_results WHERE player = ? AND game = ? AND variant = ? "
                "AND day = ?",
                key,
            ).fetchone()
        if done is not None:
            how = "won" if done["won"] else "played"
            raise DailyDone(
                f"You {how} today's {title_of(game, variant)} daily: one attempt a day; "
                "a new one comes tomorrow"
            )
        return Attempt(self, game, variant, day, int(row["deal"]), float(row["started_at"]))

    # ------------------------------------------------------------ leaderboards

    def board(
        self,
        game: str,
        variant: Mapping[str, int],
        which: Board = "day",
        day: str | None = None,
    ) -> list[Line]:
        """A leaderboard as this player sees it (:func:`~.leaderboard.read_board`)."""
        day = day or self.today()
        with self.store.db.snapshot("read the leaderboard") as db:
            return read_board(db, self.store.me.id, game, variant_key(variant), which, day)

    def played_today(self) -> dict[tuple[str, str], int]:
        """How many players started each daily today, by (game, variant key)."""
        with self.store.db.read("read the daily") as db:
            rows = db.execute(
                "SELECT game, variant, count(*) AS n FROM daily_attempts WHERE day = ? "
                "GROUP BY game, variant",
                (self.today(),),
            ).fetchall()
        return {(r["game"], r["variant"]): int(r["n"]) for r in rows}
