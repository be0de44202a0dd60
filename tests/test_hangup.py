"""Acceptance 4: a real terminal hangs up mid-game; the game comes back exactly.

``termsolitaire spider --suits 2 --deal 7`` runs in a pseudo-terminal (80x24,
xterm-256color) with its own TERMSOLITAIRE_HOME. Keys make two moves and a
deal (an undo barrier); SIGHUP must save and end the process within seconds.
The save then holds the position, the history, the barrier and a running
clock. Started again with the bare game command it resumes (docs/ui.md): one
more move lands on the identical game, and SIGTERM saves and ends it too.
Every wait polls the save file with a generous deadline (a loaded 2-core
machine takes seconds to start Textual).
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from termsolitaire.rules import Game, Move, new_game
from termsolitaire.rules.moves import DEAL
from termsolitaire.storage.paths import paths
from termsolitaire.storage.saves import Saved, SaveStore
from termsolitaire.testing.terminal import PtyTerminal, app_command

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

KEYS = {f"t{i}": k for i, k in enumerate("1234567890", 1)}
START = 60.0
"""Seconds a start may take on a busy machine."""


def terminal(args: list[str], home: Path) -> PtyTerminal:
    """``termsolitaire ARGS`` on an 80x24 pty with its own home; everything it draws is
    read away."""
    env = {"TERMSOLITAIRE_HOME": str(home), "COLUMNS": "80", "LINES": "24"}
    return PtyTerminal(app_command(*args), env=env)


def type_keys(term: PtyTerminal, keys: str) -> None:
    term.send(*keys, pace=0.15)


def wait_for(what: str, check: Callable[[], Any], timeout: float, term: PtyTerminal) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        if term.proc.poll() is not None:
            break
        time.sleep(0.1)
    tail = bytes(term.output[-2000:]).decode(errors="replace")
    raise AssertionError(f"gave up waiting for {what}; exit {term.proc.poll()}; output: {tail!r}")


def load(store: SaveStore) -> Saved | None:
    try:
        saved, problem = store.load("spider", {"suits": 2})
    except OSError:
        return None
    assert problem is None, problem
    return saved


def saved_with(store: SaveStore, log_length: int, after: float = 0.0) -> Callable[[], Any]:
    def check() -> Saved | None:
        saved = load(store)
        if saved and len(saved.game.log) == log_length and saved.saved_at > after:
            return saved
        return None

    return check


def chord_move(game: Game) -> Move:
    """A turn when a pile shows only face-down cards, else a move a key chord plays
    exactly: the largest count from its source to its destination (a chord moves
    the largest run that fits)."""
    legal = game.legal_moves()
    turns = [m for m in legal if m.kind == "turn"]
    if turns:
        return turns[0]
    moves = [m for m in legal if m.kind == "move"]
    for m in moves:
        if all(o.count <= m.count for o in moves if (o.src, o.dst) == (m.src, m.dst)):
            return m
    raise AssertionError("no move")


def keys_of(move: Move) -> str:
    if move == DEAL:
        return "d"
    if move.kind == "turn":
        return "t" + KEYS[move.src]
    return KEYS[move.src] + KEYS[move.dst]


def test_hang_up_saves_and_resume_continues_exactly(tmp_path: Path) -> None:
    home = tmp_path / "home"
    store = SaveStore(paths(home))
    game = new_game("spider", 7, suits=2)

    term = terminal(["spider", "--suits", "2", "--deal", "7"], home)
    try:
        first = wait_for("the first frame", saved_with(store, 0), START, term)
        wait_for("drawing", lambda: b"deal 7" in term.output, START, term)
        for n in range(4):
            move = chord_move(game) if n < 3 else DEAL
            game.play(move)
            type_keys(term, keys_of(move))
            wait_for(f"the save after {move}", saved_with(store, len(game.log)), 30, term)
        type_keys(term, "z")  # refused at the deal's barrier: nothing changes
        wait_for("the refusal", lambda: term.shows("A deal cannot be taken back"), 30, term)
        term.proc.send_signal(signal.SIGHUP)
        assert term.proc.wait(timeout=15) == 0
    finally:
        term.close()

    saved = load(store)
    assert saved is not None and saved.id == first.id
    assert saved.game.to_text() == game.to_text()
    assert saved.game.history == game.history and saved.game.history[-1] == DEAL
    assert saved.game.log == game.log  # the refused undo left no trace
    assert not saved.game.can_undo  # the barrier came back
    assert saved.game.elapsed > 0
    assert saved.options == {"time_limit": 0}

    # The bare game command resumes (no --deal given): one more move, then SIGTERM.
    term = terminal(["spider", "--suits", "2"], home)
    try:
        resumed = wait_for(
            "the resumed board", saved_with(store, len(game.log), saved.saved_at), START, term
        )
        assert resumed.id == saved.id
        assert resumed.game.to_json() != "" and resumed.game.history == game.history
        move = chord_move(game)
        game.play(move)
        type_keys(term, keys_of(move))
        after = wait_for("the save after one more move", saved_with(store, len(game.log)), 30, term)
        term.proc.send_signal(signal.SIGTERM)
        assert term.proc.wait(timeout=15) == 0
    finally:
        term.close()

    assert after.id == saved.id
    assert after.game.to_text() == game.to_text()
    assert after.game.history == game.history
    assert after.game.history[:-1] == saved.game.history
    assert after.game.elapsed >= saved.game.elapsed
    final = load(store)
    assert final is not None and final.game.log == game.log
    assert final.game.elapsed >= after.game.elapsed
