"""Shorter winning lines: the moves a line can do without, taken out.

A search's line wins, but it is not tidy: a card goes into a cell and comes
back, a run steps onto a pile and moves on from there a few moves later. A
player following the hints sees the same cards go back and forth (issue 34;
Penguin deal 11: the line moved the same cards between the same piles ten moves
running). :func:`shorten_line` takes a winning line and returns one that is
never longer, works on the rules core only (any game, any line) and tries, in
this order, until nothing more comes out or its effort runs out:

- **round trips**: the line comes back to a position it passed through
  (the cards and their places, :func:`~.base.board`): the moves between go;
- for each transfer ``X->A`` and the next move of the same cards, ``A->B``:
  **undone**: when ``B`` is ``X``, both moves go; **postponed**: ``X->A``
  goes and ``A->B`` becomes ``X->B``; **brought forward**: ``X->A`` becomes
  ``X->B`` and ``A->B`` goes.

A candidate is played through the rules core from the position before its
first changed move (so every move of it must be legal there) up to the end
of the moves it changed, and kept only if it comes back to the very position
the line had there: the rest of the line, which won from that position, then
wins as it is. The line that comes out, if shorter, is replayed from the start to a
win once more; if it did not win, the line that came in would be returned.
The line that comes in is replayed first (the positions the pass starts
from): :func:`shortened` answers ``None`` when it does not win, so ``solve``
needs no replay of its own before the pass.

Effort is counted in moves played through the rules core (``plays``), not in
seconds, so the same line always comes out the same, on any machine and under
any load: each move a candidate tries counts, the one found illegal too (it
is asked about with ``is_legal`` before anything is copied), and so does each
move of a kept candidate's positions.

>>> from termsolitaire.rules import Move, new_game
>>> from termsolitaire.solver import solve
>>> g = new_game("penguin", deal=5)
>>> line = solve(g, 10).moves
>>> str(line[0])
't4-f2'
>>> through_a_cell = [Move.parse("t4-c1"), Move.parse("c1-f2"), *line[1:]]
>>> shorten_line(g, through_a_cell) == line
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from termsolitaire.rules import Game, Move

from .base import Budget, position_key, replayed

PLAYS_PER_SECOND = 500
"""The effort :func:`plays_for` allows per second of a search's budget. A play
costs some 20 µs of CPU here with the copies and keys around it (50-90 µs
before issue 33's session made the pass cheap; the effort is still counted
the same way, so the lines are the same), so the pass takes at most some 1-2%
of the budget; the lines measured needed far less (at most 1069 plays on
Penguin and Napoleon deals 1-50, 3038 on a 244-move Stjernen line)."""
MIN_PLAYS = 2000
"""The least effort :func:`plays_for` allows (a 1 s budget still gets it)."""


def plays_for(budget: Budget) -> int:
    """The effort (rules-core moves played) a won line of a search with
    ``budget`` gets: a small share of the budget, counted in moves so the
    answer does not depend on the clock."""
    return max(MIN_PLAYS, int(budget.seconds * PLAYS_PER_SECOND))


def shorten_line(game: Game, moves: Sequence[Move], plays: int = 10_000) -> tuple[Move, ...]:
    """``moves``, a winning line from ``game``'s position, without the moves it
    can do without (see the module's docstring); never longer, and the same
    line for the same line in. ``game`` is not changed. A line that does not win
    comes back as it came in."""
    out = shortened(game, moves, plays)
    return tuple(moves) if out is None else out


def shortened(game: Game, moves: Sequence[Move], plays: int = 10_000) -> tuple[Move, ...] | None:
    """:func:`shorten_line`, or ``None`` when ``moves`` do not win from
    ``game``'s position. The pass replays the line that comes in through the
    rules core before anything else, so this is also the check that it wins
    (what :func:`~.base.verify` answers): ``solve`` asks it once for both. A
    line that comes out shorter is replayed from the start once more."""
    line = _Line(game, moves, plays)
    if not line.won:
        return None
    while line.round_trips() | line.pairs():
        pass
    out = tuple(line.moves)
    if len(out) < len(moves) and _wins(game, out, at_least=line.score):
        return out
    return tuple(moves)


def _wins(game: Game, moves: Sequence[Move], at_least: int) -> bool:
    """Whether ``moves`` win from ``game``'s position with a score of ``at_least``."""
    end = replayed(game, moves)
    return end is not None and end.is_won and end.score >= at_least


class _Line:
    """A line being shortened, with the game after each of its moves
    (``games[k]``: after ``moves[:k]``), that position's key
    (:func:`~.base.position_key`: equal exactly when the boards are) and the
    pile heights asked of it so far."""

    def __init__(self, game: Game, moves: Sequence[Move], plays: int) -> None:
        self.plays = plays
        self.moves: list[Move] = list(moves)
        g = game.copy()
        self.games: list[Game] = [g]
        self.won = False
        self.score = 0
        for m in self.moves:
            if not g.is_legal(m):
                return
            g = g.copy()
            g.play(m)
            self.games.append(g)
        self.plays -= len(self.moves)
        self.keys: list[Hashable] = [position_key(g) for g in self.games]
        self.sizes: list[dict[str, int]] = [{} for _ in self.games]
        self.won = g.is_won
        self.score = g.score
        """The score at the end of the line that came in."""

    def height(self, k: int, pile: str) -> int:
        """How many cards ``pile`` holds after ``moves[:k]`` (kept: the pairs
        ask for the same ones again and again)."""
        sizes = self.sizes[k]
        n = sizes.get(pile)
        if n is None:
            n = sizes[pile] = len(self.games[k].pile(pile))
        return n

    # ---------------------------------------------------------------- cycles

    def round_trips(self) -> bool:
        """Take out every stretch of the line that comes back to a position it
        passed through: from each position kept, the line goes on from its
        last passage. Needs no new move: the positions are the line's own."""
        last = {b: k for k, b in enumerate(self.keys)}
        keep = [self.skip(0, last)]
        while keep[-1] < len(self.moves):
            keep.append(self.skip(keep[-1] + 1, last))
        if len(keep) == len(self.keys):
            return False
        self.moves = [self.moves[k] for k in keep[:-1]]
        self.games = [self.games[k] for k in keep]
        self.keys = [self.keys[k] for k in keep]
        self.sizes = [self.sizes[k] for k in keep]
        return True

    def skip(self, k: int, last: dict[Hashable, int]) -> int:
        """Where the line goes on from position ``k``: its last passage, unless
        the round trip between earns points (Spider's bonus: a shorter line
        must not earn less)."""
        to = last[self.keys[k]]
        return to if self.games[to].score <= self.games[k].score else k

    # ----------------------------------------------------------------- pairs

    def pairs(self) -> bool:
        """Try the undone / postponed / brought-forward rewrites of each move
        and the next move of its cards, in line order; whether any was kept."""
        changed = False
        i = 0
        while i < len(self.moves) and self.plays > 0:
            j = self.next_move_of(i)
            if j is not None and self.rewrite(i, j):
                changed = True
                continue  # the move now at i may pair with a later one again
            i += 1
        return changed

    def next_move_of(self, i: int) -> int | None:
        """The index of the next move of exactly the cards ``moves[i]`` put
        on its destination, or ``None`` (they never move again, other cards
        go with them, or they leave the pile some other way)."""
        m = self.moves[i]
        if m.kind != "move":
            return None
        height = self.height(i, m.dst)  # our cards lie from here up
        top = height + m.count
        for k in range(i + 1, len(self.moves)):
            mk = self.moves[k]
            if mk.kind == "move" and m.dst not in (mk.src, mk.dst):
                continue  # only a move from or onto the pile, or a deal, changes it
            after = self.height(k + 1, m.dst)
            if after >= top:
                continue
            moved_ours = (
                mk.kind == "move"
                and mk.src == m.dst
                and mk.count == m.count
                and self.height(k, m.dst) == top
                and after == height
            )
            return k if moved_ours else None
        return None

    def rewrite(self, i: int, j: int) -> bool:
        """Try the rewrites of ``moves[i]`` (X->A) and ``moves[j]`` (A->B), the
        next move of the same cards; keep the first that replays back to the
        position after ``moves[j]``."""
        x, b, n = self.moves[i].src, self.moves[j].dst, self.moves[i].count
        between = self.moves[i + 1 : j]
        if b == x:
            candidates = [between]  # undone: both go
        else:
            direct = Move.transfer(x, b, n)
            candidates = [[*between, direct], [direct, *between]]
        for segment in candidates:
            games = self.replay(i, segment, j + 1)
            if games is not None:
                # positions i+1 .. j give way to the segment's but its last,
                # the same as j+1's (or as i's, for an empty segment)
                end = j + 1 if segment else j + 2
                self.moves[i : j + 1] = segment
                self.games[i + 1 : end] = games
                self.keys[i + 1 : end] = [position_key(g) for g in games]
                self.sizes[i + 1 : end] = [{} for _ in games]
                return True
            if self.plays <= 0:
                break
        return False

    def replay(self, i: int, segment: Sequence[Move], end: int) -> list[Game] | None:
        """``segment`` played from ``games[i]``, if every move is legal and the
        last position is the one the line has after ``end`` moves, with a score
        as high (Spider's points: a shorter line must not earn less): the games
        after each of its moves but the last. Each move is asked about first
        (``is_legal``: most candidates fail at their first move, and then
        nothing is copied); the effort counts it as played, legal or not."""
        start = g = self.games[i]
        for m in segment:
            self.plays -= 1
            if not g.is_legal(m):
                return None
            if g is start:
                g = g.copy()
            g.play(m)
        if position_key(g) != self.keys[end] or g.score < self.games[end].score:
            return None
        out: list[Game] = []  # kept: the positions along it, for the passes to come
        for m in segment[:-1]:
            self.plays -= 1
            g = (out[-1] if out else start).copy()
            g.play(m)
            out.append(g)
        return out
