"""``termsolitaire stats``: the statistics as plain text tables (no textual import)."""

from __future__ import annotations

import sys

from .session import clock_text
from .storage.files import StorageError
from .storage.paths import paths
from .storage.stats import Stats, Summary


def duration(seconds: float | None) -> str:
    """A time in the tables (``-`` when there is none)."""
    return "-" if seconds is None else clock_text(round(seconds))


def table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def summary_row(s: Summary) -> tuple[str, ...]:
    """One game and variant's figures as text, in the order of the column heads."""
    return (
        s.game,
        s.variant or "-",
        str(s.played),
        str(s.won),
        f"{100 * s.win_rate:.0f}",
        "-" if s.best_score is None else str(s.best_score),
        duration(s.best_time),
        "-" if s.fewest_moves is None else str(s.fewest_moves),
        str(s.current_streak),
        str(s.longest_streak),
    )


def print_stats(data_dir: str | None, recent: int) -> int:
    stats = Stats(paths(data_dir).stats_db)
    try:
        summaries = stats.summaries()
        finished = stats.finished(limit=max(recent, 0))
    except StorageError as e:
        sys.stderr.write(f"termsolitaire: {e}\n")
        return 1
    for message in stats.messages:
        sys.stderr.write(f"termsolitaire: {message}\n")
    if not summaries:
        print("No finished games yet.")
        return 0
    rows = [
        [
            "game",
            "variant",
            "played",
            "won",
            "win %",
            "best score",
            "best time",
            "fewest moves",
            "streak",
            "longest",
        ]
    ]
    rows.extend(list(summary_row(s)) for s in summaries)
    print(table(rows, right={2, 3, 4, 5, 6, 7, 8, 9}))
    if finished:
        print()
        rows = [["finished (UTC)", "game", "variant", "deal", "result", "score", "moves", "time"]]
        for f in finished:
            rows.append(
                [
                    f.finished_at.replace("T", " ").rstrip("Z"),
                    f.game,
                    f.variant or "-",
                    "-" if f.deal is None else str(f.deal),
                    f.result,
                    str(f.score),
                    str(f.moves),
                    duration(f.seconds),
                ]
            )
        print(table(rows, right={3, 5, 6, 7}))
    return 0
