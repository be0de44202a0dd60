"""The leaderboards as Rich tables: ``termsolitaire board`` prints them, the daily
screen shows them (no textual import here)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.table import Table

from .match.daily import Board, Line, title_of, week_of
from .play.session import clock_text
from .widgets.cards import CardLook

HEADINGS = {"day": "today's daily", "week": "this week", "all": "all-time records"}
# box.SIMPLE_HEAD drawn in ASCII: a rule under the headings and nothing else, so
# a table looks the same with either card style (box.ASCII would box it in and
# take four columns more at 80)
SIMPLE_HEAD_ASCII = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
EMPTY = {
    "day": "Nobody has played this daily yet",
    "week": "No daily finished this week yet",
    "all": "No daily finished yet",
}


def result_text(line: Line, which: Board) -> str:
    """``won``, ``lost``, ``playing`` (a day's attempt still going on), or a week's
    ``2 of 3`` (dailies won of those played)."""
    if which == "week":
        return f"{line.wins} of {line.days}"
    if line.won is None:
        return "playing"
    return "won" if line.won else "lost"


def board_table(
    lines: Sequence[Line],
    which: Board,
    game: str,
    variant: dict[str, int],
    day: str,
    *,
    ascii_only: bool = False,
) -> Table:
    """One leaderboard: rank, player (this player's line marked), result, score,
    time, moves, and the player's match rating with its deviation (``?``:
    provisional)."""
    look = CardLook(ascii=ascii_only)
    heading = HEADINGS[which] if which != "day" else f"daily of {day}"
    if which == "week":  # the days it spans: "week of" a Sunday read as a week from then
        heading = "week {} to {}".format(*week_of(day))
    table = Table(
        title=look.words(f"{title_of(game, variant)} · {heading}"),
        box=SIMPLE_HEAD_ASCII if ascii_only else box.SIMPLE_HEAD,
        title_justify="left",
        pad_edge=False,
    )
    table.add_column("#", justify="right")
    table.add_column("player")
    if which == "all":
        table.add_column("day")
    table.add_column("won" if which == "week" else "result")
    for name in ("score", "time", "moves"):
        table.add_column(name, justify="right")
    table.add_column("rating", justify="right")
    mark = ">" if ascii_only else "▶"
    for line in lines:
        playing = line.won is None and which != "week"
        cells = [
            f"{mark}{line.rank}" if line.mine else str(line.rank),
            line.player.name,
            *([line.day] if which == "all" else []),
            result_text(line, which),
            "" if playing else str(line.score),
            "" if playing else clock_text(line.seconds),
            "" if playing else str(line.moves),
            look.words(line.rating.text()),
        ]
        table.add_row(*cells, style="bold" if line.mine else None)
    if not lines:
        table.caption = EMPTY[which]
    return table
