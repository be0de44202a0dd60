"""Status messages name piles as the board labels them (issue 9.8): the keys on the
piles (``d``, ``3``, ``w``), never the rules' internal names (``p4``, ``t3``, ``c2``)."""

from __future__ import annotations

import re

import pytest

from termsolitaire.app import SolitaireApp
from termsolitaire.rules import games

from .conftest import board, status

INTERNAL = re.compile(r"\b([tcfpiou]\d{1,2})\b")


@pytest.mark.parametrize("name", [g.name for g in games()])
async def test_status_never_shows_an_internal_pile_name(name: str) -> None:
    g = next(g for g in games() if g.name == name)
    app = SolitaireApp(name, 7, g.default_variant(), clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = board(app)
        keys = {p: place.key for p, place in screen.PLACES.items()}
        seen = []
        marked: list[tuple[str, set[str], set[str], set[str]]] = []
        for src in screen.PLACES:  # pick every pile up, then try every destination
            for dst in list(screen.PLACES)[:6]:
                screen.action_cancel()
                screen.pick(src, None)
                seen.append(status(app))
                if screen.hand.src is not None:
                    piles = screen.board.piles
                    shown = {name for name, view in piles.items() if view.target}
                    targets = set(screen.hand.targets())
                    empty = {t for t in targets if not screen.game.pile(t)}
                    marked.append((status(app), targets, shown, empty))
                if screen.hand.src is not None and dst != src:
                    screen.action_pile(dst)
                    seen.append(status(app))
        legal = [m for m in screen.game.legal_moves() if m.kind == "move"]
        if legal:
            screen.play(legal[0])
            seen.append(status(app))
            await pilot.press("z")
            seen.append(status(app))
        for text in seen:
            assert not INTERNAL.search(text), text
        # A pick-up's line says what is in hand; where it may go is marked on the
        # board (one cell by each key), every place the rules allow and no other.
        held = [(text, targets, shown, empty) for text, targets, shown, empty in marked if targets]
        assert held, seen  # some pile could be picked up with somewhere to go
        for text, targets, shown, empty in held:
            assert shown <= targets, text
            if text.endswith(" in hand"):
                assert shown == targets, text
            else:  # three or more empty cells all take it: the line names them once
                assert text.endswith(" in hand: to an empty cell") == (not shown), text
                assert text.endswith(" an empty cell"), text
                unmarked = targets - shown
                assert len(unmarked) >= 3 and unmarked <= empty, text
            assert all(keys[t] for t in targets)  # each marked place has a key


async def test_played_took_back_and_again_name_the_card() -> None:
    """A move's message names the card it moves, not only the pile keys: Penguin
    deal 5's 9♦ from column 7 onto the 10♦ of column 3."""
    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("7", "3")
        assert status(app) == "Played 9♦ 7→3"
        await pilot.press("z")
        assert status(app) == "Took back 9♦ 7→3"
        await pilot.press("Z")
        assert status(app) == "Played 9♦ 7→3 again"


async def test_a_note_said_again_while_its_toast_shows_is_not_stacked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """H pressed twice where the fair help cannot tell (Stjernen deal 3, round 3,
    played by fair hints at 120x40) stacked the same two-line toast twice over
    the upturned piles; a second note of the same words now shows nothing more,
    another note does."""
    from termsolitaire.play.helping import FAIR_SETTING
    from termsolitaire.play.outcome import Outcome

    app = SolitaireApp("stjernen", 3, {}, clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        shown: list[str] = []
        monkeypatch.setattr(app, "notify", lambda text, **kw: shown.append(text))
        screen = board(app)
        for _ in range(3):
            screen.do(Outcome(message="Cannot tell from the cards you can see", note=FAIR_SETTING))
            await pilot.pause()
        assert shown == [FAIR_SETTING]
        assert status(app) == "Cannot tell from the cards you can see"
        screen.do(Outcome(message="No win found", note="Another note"))
        assert shown == [FAIR_SETTING, "Another note"]


async def test_a_search_s_mark_gives_the_last_verdict_s_room_to_a_long_message() -> None:
    """Stjernen's fair hint at 80 columns: "Looking for a good move with the cards
    you see (keep…", cut, while the verdict's place was only "…" wide: a new
    search's mark kept the room the last verdict ("fair: a good move here") had.
    It keeps that room only where the message still fits beside it."""
    from termsolitaire.screens.boards.solving import SEARCHING
    from termsolitaire.widgets.line import TextLine

    app = SolitaireApp("penguin", 5, {}, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        solving = screen.solving  # type: ignore[attr-defined]

        def shown(name: str) -> str:
            return screen.query_one(f"#{name}", TextLine).render_line(0).text

        solving.show_verdict("fair: a good move here")
        screen.say("Played 9♦ 7→3")
        solving.show_verdict(SEARCHING)  # a short message: the mark keeps the room
        await pilot.pause()
        assert len(shown("verdict")) == len("fair: a good move here")
        said = "Looking for a good move with the cards you see (keep playing)…"
        screen.say(said)
        await pilot.pause()
        assert said in shown("status"), shown("status")
        assert shown("verdict").strip() == "…"
