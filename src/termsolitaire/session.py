"""What the app does with a game's save and statistics (no textual import).

- :func:`moves_of`, :func:`record`: a finished game into the statistics, once
  (its id makes it once);
- :func:`abandon`: a saved game, when another deal of that game starts,
  counts as lost if it had any action;
- :func:`describe`: the Resume line of a saved game.
"""

from __future__ import annotations

from .rules import Game
from .storage.files import StorageError
from .storage.saves import Saved
from .storage.stats import Stats


def moves_of(game: Game) -> int:
    """The moves figure of a game: Spider counts its own, the others the moves played."""
    moves = getattr(game, "moves", None) if game.name == "spider" else None
    return moves if isinstance(moves, int) else len(game.history)


def played(game: Game) -> bool:
    """Whether the player did anything in this game (a move, even one taken back)."""
    return bool(game.log)


def record(stats: Stats | None, game_id: str, game: Game, won: bool) -> list[str]:
    """Record ``game`` as won or lost under ``game_id``; messages for the player."""
    if stats is None:
        return []
    messages: list[str] = []
    try:
        stats.record(
            game_id,
            game.name,
            dict(game.variant),
            game.deal,
            won,
            game.score,
            moves_of(game),
            game.elapsed,
        )
    except StorageError as e:
        messages.append(f"Statistics not kept: {e}")
    messages[:0] = stats.messages
    stats.messages.clear()
    return messages


def abandon(stats: Stats | None, saved: Saved | None) -> list[str]:
    """A saved game gives way to another deal: lost, once, if it had an action."""
    if saved is not None and played(saved.game):
        return record(stats, saved.id, saved.game, won=False)
    return []


def clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60:d}:{s % 60:02d}"


def describe(saved: Saved) -> str:
    """``Penguin — deal 5, 12 moves, 3:04``; Spider adds its suits, and under a time
    limit shows the time left (``Spider 2 suits — deal 7, 30 moves, 4:10 left``)."""
    g = saved.game
    name, clock = g.title, clock_text(g.elapsed)
    if g.name == "spider":
        suits = g.variant.get("suits", 1)
        name += f" {suits} suit{'s' if suits > 1 else ''}"
        limit = saved.options.get("time_limit", 0)
        if isinstance(limit, int) and limit > 0:
            clock = f"{clock_text(max(0.0, limit * 60 - g.elapsed))} left"
    n = moves_of(g)
    return f"{name} — deal {g.deal}, {n} move{'' if n == 1 else 's'}, {clock}"
