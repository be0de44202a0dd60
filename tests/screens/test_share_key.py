"""``s`` on the results panel (issue 31): the finished game's two codes, which
give the game back (the host code through this host's match store), and the
finished game kept for ``termsolitaire share``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from termsolitaire.app import SolitaireApp
from termsolitaire.match.shares import open_shared
from termsolitaire.rules import new_game
from termsolitaire.screens.dialogs.results import ResultsScreen
from termsolitaire.screens.dialogs.share import ShareScreen
from termsolitaire.storage import lastgame
from termsolitaire.storage.paths import paths
from tests.screens.test_penguin import winning_line

from .matchkit import key_line, screen_text, shown_screen, until


async def won(pilot: Pilot[object], app: SolitaireApp) -> Any:
    """Penguin deal 5 (the app's board, returned) played to its win, and its results
    shown."""
    board = app.screen
    for move in winning_line(new_game("penguin", 5)):
        board.play(move)  # type: ignore[attr-defined]
    await shown_screen(pilot, ResultsScreen)
    return board


async def test_s_on_the_results_shows_both_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERMSOLITAIRE_MATCH_DIR", str(tmp_path / "match"))
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await won(pilot, app)
        await until(pilot, lambda: "s shares this game as a code" in screen_text(app), "hint")
        await pilot.press("s")
        share = await shown_screen(pilot, ShareScreen)
        assert share.shared is not None and share.shared.host is not None
        await until(pilot, lambda: share.shared.code[:20] in screen_text(app), "the code")
        assert "Share your game: Penguin, deal 5" in screen_text(app)
        assert f"c in the match lobby, then {share.shared.host}" in screen_text(app)  # over ssh
        for code in (share.shared.host, share.shared.code):
            back = open_shared(code)[0]
            assert back.is_won and back.history == screen.game.history  # type: ignore[attr-defined]
        await pilot.press("escape")
        await shown_screen(pilot, ResultsScreen)
    kept = lastgame.load(paths())  # for `termsolitaire share` with no argument
    assert kept.is_won and kept.log == screen.game.log  # type: ignore[attr-defined]


async def test_the_share_panel_shows_its_own_keys_over_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over SSH at 80x24, ``s`` on a won Stjernen's results: under the codes the
    results' key line showed through ("n New deal  q Menu  s Share  esc Look at
    the board"), where ``q`` closes the codes and ``n`` does nothing. The panel's
    own line says what its keys do."""

    monkeypatch.setenv("TERMSOLITAIRE_MATCH_DIR", str(tmp_path / "match"))
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await won(pilot, app)
        await pilot.press("s")
        await shown_screen(pilot, ShareScreen)
        await pilot.pause()
        assert key_line(app) == ["Close"]
        await pilot.press("q")  # closes the codes, as the line says (not the menu)
        await shown_screen(pilot, ResultsScreen)


def code_rows(text: str, code: str) -> list[str]:
    """The screen's rows the code is shown on, whole, from its first row on."""
    rows = text.splitlines()
    first = next(i for i, row in enumerate(rows) if code[:20] in row)
    taken: list[str] = []
    while len("".join(r.strip() for r in taken)) < len(code):
        taken.append(rows[first + len(taken)].rstrip())
    return taken


async def test_at_80_columns_the_code_s_rows_hold_the_code_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole game's code is longer than 80 columns: inside the panel's frame its
    two rows began with the frame's glyph and padding and ended with them, so a
    drag over them in the terminal took "█" and spaces into the middle of the
    code (lead27 left it). The code now runs on the screen's whole width, its
    rows holding the code alone; the rows taken as a terminal copies them (a
    newline between) replay the game."""
    monkeypatch.setenv("TERMSOLITAIRE_MATCH_DIR", str(tmp_path / "match"))
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await won(pilot, app)
        await pilot.press("s")
        share = await shown_screen(pilot, ShareScreen)
        assert share.shared is not None
        code = share.shared.code
        assert len(code) > 80
        await until(pilot, lambda: code[:20] in screen_text(app), "the code")
        rows = code_rows(screen_text(app), code)
        assert len(rows) == 2 and len(rows[0]) == 80, rows
        assert "".join(rows) == code, rows  # nothing but the code on its rows
        assert open_shared("\n".join(rows))[0].history == screen.game.history  # type: ignore[attr-defined]
        assert "termsolitaire replay 'CODE'" in screen_text(app)  # quoted: a paste of two rows
