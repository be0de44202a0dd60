"""Small helpers shared by the rules tests."""

from __future__ import annotations

from collections import Counter

from termsolitaire.rules import Game, IllegalMove


def refused(game: Game, move: str, *fragments: str) -> str:
    """Assert ``move`` is refused with a reason containing each fragment, changing nothing."""
    before_text, before_json = game.to_text(), game.to_json()
    try:
        game.play(move)
    except IllegalMove as e:
        reason = e.reason
    else:  # pragma: no cover - the assertion below reports it
        raise AssertionError(f"{move} was played but should be refused\n{before_text}")
    for f in fragments:
        assert f in reason, f"{move}: reason {reason!r} lacks {f!r}"
    assert game.to_text() == before_text
    assert game.to_json() == before_json
    assert game.why_illegal(move) == reason
    return reason


def played(game: Game, move: str) -> None:
    """Play ``move`` and check it was listed as legal beforehand."""
    assert move in [str(m) for m in game.legal_moves()], f"{move} not legal in\n{game.to_text()}"
    game.play(move)


def board_text(game: Game) -> str:
    """Position text without the score and move count (what undo restores in Spider)."""
    return "".join(
        line
        for line in game.to_text().splitlines(keepends=True)
        if not line.startswith(("score:", "moves:"))
    )


def all_cards(game: Game) -> Counter[str]:
    return Counter(str(c) for name in game.pile_names for c, _ in game.pile(name))
