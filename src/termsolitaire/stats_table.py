"""``termsolitaire stats``: the statistics as text tables (Rich; no textual import)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from .play.session import clock_text
from .rules import info
from .storage.backend import open_storage
from .storage.files import StorageError
from .storage.stats import Finished, Summary

EMPTY = (
    "No solo game finished yet.\n"
    "Dailies are on `termsolitaire board`, matches in `termsolitaire match`."
)
"""What ``stats`` prints with no solo game finished, as the statistics screen
says it: a player with only dailies and matches read "No finished games yet"
(playtest40)."""


def duration(seconds: float | None) -> str:
    """A time in the tables (``-`` when there is none), in whole seconds cut off
    as the board's clock and the results show it, so a game reads the same
    time in all three."""
    return "-" if seconds is None else clock_text(seconds)


def variant_dict(text: str) -> dict[str, int]:
    """``suits=2`` back to ``{"suits": 2}`` (the store keeps variants as text)."""
    out: dict[str, int] = {}
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if value.strip().isdigit():
            out[key.strip()] = int(value)
    return out


def game_title(game: str) -> str:
    """A stored game's name as the menu writes it (the stored name itself for a
    game this version does not know).

    >>> game_title("stjernen"), game_title("klondike")
    ('Stjernen', 'klondike')
    """
    try:
        return info(game).title
    except ValueError:
        return game


def variant_words(game: str, text: str) -> str:
    """A stored variant as a player reads it, ``-`` for a game without one.

    >>> variant_words("spider", "suits=1"), variant_words("penguin", "")
    ('1 suit', '-')
    """
    try:
        words = info(game).variant_text(variant_dict(text)) if text else ""
    except ValueError:  # a game this version does not know: the stored text
        words = text
    return words or "-"


def summary_row(s: Summary) -> tuple[str, ...]:
    """One game and variant's figures as text, in the order of the column heads."""
    return (
        game_title(s.game),
        variant_words(s.game, s.variant),
        str(s.played),
        str(s.won),
        f"{100 * s.win_rate:.0f}",
        "-" if s.best_score is None else str(s.best_score),
        duration(s.best_time),
        "-" if s.fewest_moves is None else str(s.fewest_moves),
        str(s.current_streak),
        str(s.longest_streak),
    )


def finished_row(f: Finished, seconds: bool = True) -> tuple[str, ...]:
    """One finished game as text, in the order of the column heads: when it
    ended (to the second, or ``seconds=False`` to the minute, as the screen
    shows it), game, variant (and the time limit it was played with), deal, result,
    score, moves, time."""
    when = f.finished_at.replace("T", " ").rstrip("Z")
    variant = variant_words(f.game, f.variant)
    if f.minutes:
        variant = f"{variant}, {f.minutes} min" if variant != "-" else f"{f.minutes} min"
    return (
        when if seconds else when[:16],
        game_title(f.game),
        variant,
        "-" if f.deal is None else str(f.deal),
        f.result,
        str(f.score),
        str(f.moves),
        duration(f.seconds),
    )


SUMMARY_HEAD = (
    "game",
    "variant",
    "played",
    "won",
    "win%",
    "best",
    "fastest",
    "fewest",
    "streak",
    "longest",
)
"""The heads of the figures per game, the statistics screen's too: short enough
that the table fits 80 columns on a terminal ("best score", "best time" and
"fewest moves" made Rich cut every column to "vari…", "pla…")."""
FINISHED_HEAD = ("finished (UTC)", "game", "variant", "deal", "result", "score", "moves", "time")
SUMMARY_RIGHT = frozenset(range(2, 10))
"""The columns of :data:`SUMMARY_HEAD` set to the right (the figures)."""
FINISHED_RIGHT = frozenset({3, 5, 6, 7})
"""The columns of :data:`FINISHED_HEAD` set to the right (deal, score, moves, time)."""


def _table(
    head: tuple[str, ...], rows: Sequence[tuple[str, ...]], right: frozenset[int], plain: bool
) -> Table:
    """A Rich table: a line under the heads on a terminal, no lines at all when piped;
    two spaces between columns either way (the line's box puts one of its own)."""
    padding = (0, 1) if plain else (0, 1, 0, 0)
    table = Table(
        box=None if plain else box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=padding
    )
    for i, name in enumerate(head):
        table.add_column(name, justify="right" if i in right else "left", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """The reader went away: let the command line end quietly with status 0
        (Rich's own way ends with status 1)."""
        raise BrokenPipeError


def print_stats(data_dir: str | None, recent: int) -> int:
    """Print the figures per game and variant and the last ``recent`` finished games.
    On a terminal the tables have a rule under their heads; piped, they are plain
    text columns with no colour."""
    try:
        stats = open_storage(data_dir).stats
        summaries = stats.summaries()
        finished = stats.finished(limit=max(recent, 0))
    except (StorageError, ValueError) as e:
        sys.stderr.write(f"termsolitaire: {e}\n")
        return 1
    for message in stats.messages:
        sys.stderr.write(f"termsolitaire: {message}\n")
    if not summaries:
        print(EMPTY)
        return 0
    plain = not sys.stdout.isatty()
    console = _Console(width=1000 if plain else None, highlight=False)
    for i, table in enumerate(stats_tables(summaries, finished, plain)):
        if i:
            console.print()
        console.print(table)
    return 0


def stats_tables(
    summaries: Sequence[Summary], finished: Sequence[Finished], plain: bool
) -> list[Table]:
    """The figures per game and variant, then the finished games (when there are any):
    piped, each game's end to the second; on a terminal to the minute, as the
    screen shows it, so that a ten-digit deal and an hour's game fit 80 columns."""
    rows = [summary_row(s) for s in summaries]
    tables = [_table(SUMMARY_HEAD, rows, SUMMARY_RIGHT, plain)]
    if finished:
        done = [finished_row(f, seconds=plain) for f in finished]
        tables.append(_table(FINISHED_HEAD, done, FINISHED_RIGHT, plain))
    return tables
