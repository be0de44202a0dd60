"""SVG snapshots of the statistics, settings and replay screens at 80x24.

Each docstring says what to look for. Update a snapshot only after looking at it
(``pytest tests/snapshots --snapshot-update``, then open the SVG).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from termsolitaire.app import SolitaireApp
from termsolitaire.replay import parse_replay

GAMES = [  # id, game, variant, deal, won, score, moves, seconds (oldest first)
    ("a", "penguin", {}, 5, True, 52, 80, 200.0),
    ("b", "penguin", {}, 6, False, 20, 40, 100.0),
    ("c", "penguin", {}, 7, False, 31, 55, 130.0),
    ("d", "penguin", {}, 8, True, 52, 70, 150.0),
    ("e", "spider", {"suits": 2}, 123, False, 480, 60, 300.0),
    ("f", "spider", {"suits": 2}, 124, True, 1190, 110, 745.0),
    ("g", "napoleon", {}, 3, False, 17, 61, 95.0),
]


def stats_app() -> SolitaireApp:
    app = SolitaireApp(clock=False)
    for n, row in enumerate(GAMES):
        app.services.stats.record(*row)
        db = app.services.stats._connect()  # a fixed date, so the snapshot does not age
        db.execute(
            "UPDATE games SET finished_at = ? WHERE id = ?", (f"2026-11-2{n}T10:0{n}:00Z", row[0])
        )
    return app


def test_stats_screen(snap_compare: Any) -> None:
    """The statistics of three games: penguin 4 played 2 won 50%, best 52, fastest
    2:30, fewest 70, streak 1, longest 1; spider suits=2 2 played 1 won; napoleon
    1 played; a sparkline of recent scores per game with its wins and best score;
    the finished games newest first (napoleon deal 3 on top, highlighted)."""
    assert snap_compare(stats_app(), terminal_size=(80, 24), press=["s"])


def test_stats_screen_empty(snap_compare: Any) -> None:
    """No games yet: two lines in the middle say so, how to get some, and where a
    daily's and a match's results are kept instead."""
    assert snap_compare(SolitaireApp(clock=False), terminal_size=(80, 24), press=["s"])


def test_settings_screen(snap_compare: Any) -> None:
    """Nine settings, each with its choices and the current one marked; the card
    style was switched to ASCII (marked), and the screen is drawn in it at once
    (frames of ``+ - |``, ``< >`` round the theme, "Left" and "Right" in the key
    line); the help line says what the highlighted setting does and the note says
    it was saved."""

    async def ascii_now(pilot: Any) -> None:
        await pilot.press("o", "enter")
        settings = pilot.app.screen
        for _ in range(1200):  # redrawn after the setting is saved (a minute at most)
            if settings.query_one("#settings").styles.border_top[0] == "ascii":
                break
            await pilot.pause(0.05)

    assert snap_compare(SolitaireApp(clock=False), terminal_size=(80, 24), run_before=ascii_now)


MOVES = b"game: penguin\ndeal: 5\nt7-t3 t4-f2 t6-c1 t2-c2 t4-f1\n"


def test_replay_mid_way(snap_compare: Any, tmp_path: Path) -> None:
    """Penguin deal 5 after 3 of 5 moves: the header reads 'Replay · Penguin · deal
    5 · beak A' and 'move 3 of 5: t6-c1'; K♠ is in cell q, 2♥ on its foundation;
    the footer lists Next, Previous, Start, End, Help, Quit; no clock."""
    app = SolitaireApp(clock=False, replay=parse_replay(MOVES))
    assert snap_compare(app, terminal_size=(80, 24), press=["right", "end", "left", "left"])
