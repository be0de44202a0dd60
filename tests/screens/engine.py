"""A stand-in engine for the computer's process in tests (it plays the first
transfer, else the first legal action, and takes 10 seconds per action): it
exercises the process, the pace and the protocol, not the opponent's play."""

from __future__ import annotations

from termsolitaire.rules import Game


class FirstMoves:
    def __init__(self, game: Game) -> None:
        self.game = game

    def next_action(self) -> tuple[str, float] | None:
        moves = self.game.legal_moves()
        if not moves:
            return None
        move = next((m for m in moves if m.kind == "move"), moves[0])
        self.game.play(move)
        return str(move), 10.0


def make(level: str, game: Game, seed: int) -> FirstMoves:
    return FirstMoves(game)


class Stops:
    """An engine with no move it would make: it ends its game at its first turn."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def next_action(self) -> tuple[str, float] | None:
        return None


def stops(level: str, game: Game, seed: int) -> Stops:
    return Stops(game)
