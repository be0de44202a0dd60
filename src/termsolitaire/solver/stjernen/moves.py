"""Stjernen moves for the solver: foundation moves played without a choice, the
card moves worth searching, and goal-directed "dig" steps.

A step is an int (one move of :mod:`.state`) or a tuple of them played
in order. Two families of move lists:

- *sound* (:func:`sound_steps`, :func:`sound_auto`): every legal move except ones
  proven not to matter, so a search over them that finds no win is a proof of
  loss;
- *heuristic* (:func:`search_steps`, :func:`auto`): foundation moves are always
  played at once, pointless shuffles between outer positions are dropped, and
  dig steps (clear the cards above a card a foundation wants, each to the best
  place free) let the search see a payoff several moves away in one step.
"""

from __future__ import annotations

from typing import Final

from .state import (
    CENTRE,
    COLLECT,
    DEAL,
    FND,
    FRONT,
    FULL,
    INNER,
    INNER_END,
    NEEDED,
    OUTER,
    OUTER_END,
    OUTER_FIRST,
    ROUNDS,
    UP,
    UP_END,
    UP_FIRST,
    State,
)

Step = int | tuple[int, ...]
_NONE: Final[frozenset[int]] = frozenset()
SOURCES: Final = [CENTRE, *OUTER, *UP]
"""The places a card goes home from, in :func:`auto`'s order. The loops over
the places are written over ranges and lists: when compiled, a loop over a
``Final`` tuple of ints makes a tuple and iterates it as an object each time."""
_OUTER_UP: Final = [*OUTER, *UP]
_NO_PLACES: Final[list[int]] = []
"""What :func:`_board` gives a card no place takes (never changed)."""


def wanted(st: State, ahead: int = 1) -> set[int]:
    """The cards the foundations take next, and up to ``ahead - 1`` after each."""
    fc = st.fcount
    out: set[int] = set()
    for s in range(4):
        n = fc[s]
        out.update(NEEDED[s][n : min(n + ahead, FULL)])
    return out


def play(st: State, step: Step, done: list[tuple[int, int]]) -> None:
    """Play ``step`` and record (move, undo info) pairs in ``done``."""
    if isinstance(step, int):
        done.append((step, st.make(step)))
    else:
        for m in step:
            done.append((m, st.make(m)))


def undo(st: State, done: list[tuple[int, int]]) -> None:
    for m, info in reversed(done):
        st.unmake(m, info)


def auto(st: State, done: list[tuple[int, int]], hold: tuple[int, ...] = ()) -> None:
    """Heuristic: play every foundation move there is, the outer ring and the centre
    first (that frees storage), then upturned piles, then inner cards through an
    empty outer position, until none is left.

    ``hold`` is a plan (:func:`held_kings`): the suits whose foundation a king
    may start only once no king of the suit is left in the inner ring, so that
    the inner ring's king takes the first turn and the other, outside it, is
    kept for the second."""
    _to_foundations(st, done, 0, hold)


def held_kings(st: State, hold: tuple[int, ...]) -> set[int]:
    """The kings that may not go home now under the plan ``hold`` (:func:`auto`):
    those of the suits in ``hold`` not started yet, while a king of the suit
    lies in the inner ring."""
    out: set[int] = set()
    piles = st.piles
    for s in hold:
        if st.fcount[s] == 0:
            k = s * 13 + 12
            if k in piles[0] or k in piles[1] or k in piles[2] or k in piles[3]:
                out.add(k)
    return out


def plan_suits(st: State) -> list[int]:
    """The suits not started whose kings lie one in the inner ring and one outside
    it: those where a plan (:func:`auto`'s ``hold``) can choose which king
    takes the first turn."""
    out = []
    for s in range(4):
        if st.fcount[s]:
            continue
        k = s * 13 + 12
        inner = sum(st.piles[i].count(k) for i in INNER)
        if inner == 1 and not any(k in st.piles[f] for f in FND):
            out.append(s)
    return out


def sound_auto(st: State, done: list[tuple[int, int]]) -> None:
    """Play the foundation moves that can never be wrong: a card of a foundation's
    second pass (its twin is up already, and so is every higher card of the suit,
    so nothing can ever be built on it and it blocks whatever lies under it)."""
    _to_foundations(st, done, 13)


def _to_foundations(
    st: State, done: list[tuple[int, int]], passed: int, hold: tuple[int, ...] = ()
) -> None:
    """Play foundation moves, in :func:`auto`'s order, to the foundations holding at
    least ``passed`` cards (0: all, 13: those on their second pass) until none is
    left; a king of a suit in ``hold`` only as :func:`auto` says."""
    piles = st.piles
    fc = st.fcount
    held: set[int] | frozenset[int] = _NONE
    # A card is wanted when it is the next of its own suit's foundation (-1 for
    # a full one: no card), on a foundation holding at least ``passed`` cards;
    # checked card by card, with no set of the wanted cards made each turn.
    while True:
        if passed:
            if not any(passed <= fc[s] < FULL for s in range(4)):
                return
        elif hold:
            held = held_kings(st, hold)
        for p in SOURCES:
            q = piles[p]
            if q:
                card = q[-1]
                s = card // 13
                n = fc[s]
                if NEEDED[s][n] == card and n >= passed and card not in held:
                    m = p << 5 | st.fnd_target(card)
                    done.append((m, st.make(m)))
                    break
        else:
            for i in range(INNER_END):
                q = piles[i]
                if not q or piles[i + FRONT]:
                    continue
                card = q[-1]
                s = card // 13
                n = fc[s]
                if NEEDED[s][n] == card and n >= passed:
                    if card in held and sum(piles[j].count(card) for j in INNER) > 1:
                        continue
                    m = i << 5 | (i + FRONT)
                    done.append((m, st.make(m)))
                    m = (i + FRONT) << 5 | st.fnd_target(card)
                    done.append((m, st.make(m)))
                    break
            else:
                return


def _board(st: State) -> tuple[dict[int, list[int]], list[int], list[int]]:
    """Where cards can be built: card -> places that take it (centre, outer runs);
    the empty outer positions with a card behind them; those without (all alike)."""
    piles = st.piles
    board: dict[int, list[int]] = {}
    c = piles[CENTRE]
    if not c:
        for a in range(0, 52, 13):  # the aces
            board[a] = [CENTRE]
    elif c[-1] % 13 != 12:
        board[c[-1] + 1] = [CENTRE]
    guarded: list[int] = []
    free: list[int] = []
    for o in range(OUTER_FIRST, OUTER_END):
        p = piles[o]
        if not p:
            (guarded if piles[o - FRONT] else free).append(o)
        elif p[-1] % 13 != 12:
            board.setdefault(p[-1] + 1, []).append(o)
    return board, guarded, free


def search_steps(st: State) -> list[Step]:
    """The card moves a heuristic search tries (no deal or collect; foundation
    moves are left to :func:`auto`).

    Of the empty outer positions with nothing behind them only the first is
    offered. An outer card moves on to another outer position only to free its
    own for the inner card behind it, or to uncover a card a foundation or the
    centre takes. An inner card with an empty outer position in front may go
    straight on in one step. (The beam adds the digs: :func:`dig_targets`, :func:`dig`.)
    """
    piles = st.piles
    board, guarded, free = _board(st)
    empty = guarded + free[:1]
    fc = st.fcount  # a card is wanted (:func:`wanted`) if its foundation takes it next
    out: list[Step] = []
    for i in range(INNER_END):
        p = piles[i]
        if not p:
            continue
        o = i + FRONT
        card = p[-1]
        if not piles[o]:
            out.append(i << 5 | o)
            for d in board.get(card, _NO_PLACES):
                out.append((i << 5 | o, o << 5 | d))
            for d in empty:
                if d != o:
                    out.append((i << 5 | o, o << 5 | d))
        elif o in board.get(card, _NO_PLACES):
            out.append(i << 5 | o)
    for src in range(OUTER_FIRST, OUTER_END):
        p = piles[src]
        if not p:
            continue
        card = p[-1]
        # Worth moving: to free the position for the inner card behind a lone
        # card, or to uncover a card that goes up or onto the centre at once.
        if len(p) == 1:
            ok = bool(piles[src - FRONT])
        else:
            under = p[-2]
            ok = NEEDED[under // 13][fc[under // 13]] == under or under in board
        for d in board.get(card, _NO_PLACES):
            if d == CENTRE or ok:
                out.append(src << 5 | d)
        if ok:
            for d in empty:
                if len(p) > 1 or not piles[d - FRONT]:
                    out.append(src << 5 | d)
    for src in range(UP_FIRST, UP_END):
        p = piles[src]
        if p:
            card = p[-1]
            for d in board.get(card, _NO_PLACES):
                out.append(src << 5 | d)
            for d in empty:
                out.append(src << 5 | d)
    return out


def sound_steps(st: State) -> list[int]:
    """Every legal action but those proven not to matter: a king starts only the
    first empty foundation, only the first of the empty outer positions with
    nothing behind them is offered, and a lone outer card does not move to an
    empty outer position when neither has an inner card behind it."""
    piles = st.piles
    board, guarded, free = _board(st)
    empty = guarded + free[:1]
    out: list[int] = []
    c = piles[CENTRE]
    if c:
        f = st.fnd_target(c[-1])
        if f >= 0:
            out.append(CENTRE << 5 | f)
    for i in range(INNER_END):
        p = piles[i]
        if p:
            o = i + FRONT
            if not piles[o] or o in board.get(p[-1], _NO_PLACES):
                out.append(i << 5 | o)
    for src in _OUTER_UP:
        p = piles[src]
        if not p:
            continue
        card = p[-1]
        f = st.fnd_target(card)
        if f >= 0:
            out.append(src << 5 | f)
        for d in board.get(card, _NO_PLACES):
            out.append(src << 5 | d)
        lone = src < OUTER_END and len(p) == 1 and not piles[src - FRONT]
        for d in empty:
            if not (lone and not piles[d - FRONT]):
                out.append(src << 5 | d)
    if st.stock:
        out.append(DEAL)
    elif st.round < ROUNDS:
        out.append(COLLECT)
    return out


# ------------------------------------------------------------------ digging


def _place(st: State, card: int, exclude: int) -> int:
    """Where a card taken off a pile goes best: its foundation, the centre, an outer
    run it extends, an empty outer position with nothing behind it, any empty
    outer position; -1 if nowhere (``exclude``: the place it comes from)."""
    piles = st.piles
    f = st.fnd_target(card)
    if f >= 0:
        return f
    c = piles[CENTRE]
    if (not c and card % 13 == 0) or (c and c[-1] % 13 != 12 and c[-1] + 1 == card):
        return CENTRE
    for o in range(OUTER_FIRST, OUTER_END):
        if o != exclude:
            q = piles[o]
            if q and q[-1] % 13 != 12 and q[-1] + 1 == card:
                return o
    spare = -1
    for o in range(OUTER_FIRST, OUTER_END):
        if o != exclude and not piles[o]:
            if not piles[o - FRONT]:
                return o
            if spare < 0:
                spare = o
    return spare


def dig_reach(st: State, p: int) -> int:
    """How many of the cards above some card of pile ``p`` :func:`dig` can take
    off, one by one, before one finds no place: the cards of the outer run in
    front first (for an inner pile), then the pile's from the top down. Worked
    out on the tops alone, without moving a card: most digs fail, and playing
    and taking back their moves cost more. A dig for the card with ``n`` cards
    above it (:func:`dig_size`) succeeds if and only if ``n`` is at most this.
    Which empty outer position a card takes does not matter here: each is then
    a run like any other."""
    return _reach(
        st.piles,
        p,
        len(st.piles[p]) + len(st.piles[p + FRONT]) if p < INNER_END else len(st.piles[p]),
        _base(st),
    )


def dig_size(st: State, p: int, k: int) -> int:
    """The cards :func:`dig` takes off to reach card ``k`` of pile ``p``."""
    n = len(st.piles[p]) - 1 - k
    return n + len(st.piles[p + FRONT]) if p < INNER_END else n


def dig(st: State, p: int, k: int, done: list[tuple[int, int]]) -> bool:
    """Play the moves that take the cards above card ``k`` of pile ``p`` each to its
    best place and then the card itself to its foundation (or, from the inner ring,
    to the outer position in front when no foundation takes it yet), recording them
    in ``done``. When some card has nowhere to go, undo them and return False."""
    piles = st.piles
    start = len(done)
    card = piles[p][k]
    ok = True

    if p < INNER_END:
        o = p + FRONT
        while ok and piles[o]:
            d = _place(st, piles[o][-1], o)
            ok = d >= 0
            if ok:
                mv = o << 5 | d
                done.append((mv, st.make(mv)))
        while ok and len(piles[p]) > k + 1:
            mv = p << 5 | o
            done.append((mv, st.make(mv)))
            d = _place(st, piles[o][-1], o)
            ok = d >= 0
            if ok:
                mv = o << 5 | d
                done.append((mv, st.make(mv)))
        if ok:
            f = st.fnd_target(card)
            mv = p << 5 | o
            done.append((mv, st.make(mv)))
            if f >= 0:
                mv = o << 5 | f
                done.append((mv, st.make(mv)))
    else:
        while ok and len(piles[p]) > k + 1:
            d = _place(st, piles[p][-1], p)
            ok = d >= 0
            if ok:
                mv = p << 5 | d
                done.append((mv, st.make(mv)))
        if ok:
            f = st.fnd_target(card)
            if f >= 0:
                mv = p << 5 | f
                done.append((mv, st.make(mv)))
    if not ok:
        undo(st, done[start:])
        del done[start:]
    return ok


def dig_targets(st: State, ahead: int, depth: int) -> list[tuple[int, int]]:
    """The cards worth digging for, as (pile, index): every copy of a card the
    foundations want within ``ahead`` cards that lies at most ``depth`` deep in the
    inner ring, an upturned pile or an outer run (or on top of an inner pile behind
    a busy outer position)."""
    piles = st.piles
    want = wanted(st, ahead)
    out: list[tuple[int, int]] = []
    for p in (*INNER, *UP, *OUTER):
        cards = piles[p]
        top = len(cards) - 1
        for k in range(max(0, top - depth), top + 1):
            if cards[k] in want and (k < top or (p < INNER_END and piles[p + FRONT])):
                out.append((p, k))
    return out


_DIG_PILES: Final = [*INNER, *UP, *OUTER]


def diggable(st: State, ahead: int, depth: int) -> list[tuple[int, int]]:
    """The targets of :func:`dig_targets` that :func:`dig` gets through, in the
    same order: those whose :func:`dig_size` is at most :func:`dig_reach`.

    Written for the beam, which asks it of every position it expands: what the
    reach of every pile starts from (the foundations, the centre, the outer
    ring) is worked out once, and a pile's walk stops as soon as it has got
    past its deepest target."""
    piles = st.piles
    fc = st.fcount
    out: list[tuple[int, int]] = []
    base: tuple[list[int], list[bool], int, int, list[int]] | None = None
    for p in _DIG_PILES:
        cards = piles[p]
        top = len(cards) - 1
        # A top card is a target only on an inner pile behind a busy outer position.
        last = top if p < INNER_END and piles[p + FRONT] else top - 1
        reach = -1
        for k in range(top - depth if top > depth else 0, last + 1):
            card = cards[k]
            # In :func:`wanted`: the card's turn in its suit (the first at or
            # after the foundation's height n) comes before n + ahead.
            n = fc[card // 13]
            turn = 12 - card % 13
            if turn < n:
                turn += 13
            if n <= turn < n + ahead and turn < FULL:
                size = top - k + (len(piles[p + FRONT]) if p < INNER_END else 0)
                if reach < 0:
                    if base is None:
                        base = _base(st)
                    # Sizes fall as k rises: the first target is the deepest.
                    reach = _reach(piles, p, size, base)
                if size <= reach:
                    out.append((p, k))
    return out


def _base(st: State) -> tuple[list[int], list[bool], int, int, list[int]]:
    """What every pile's :func:`_reach` starts from: the foundations' counts,
    which suits have started, the free foundations, the centre's top and the
    outer ring's tops (-1 for an empty place)."""
    piles = st.piles
    c = piles[CENTRE]
    return (
        st.fcount,
        [f >= 0 for f in st.suit_slot],
        st.slot_suit.count(-1),
        c[-1] if c else -1,
        [piles[o][-1] if piles[o] else -1 for o in OUTER],
    )


def _reach(
    piles: list[list[int]],
    p: int,
    need: int,
    base: tuple[list[int], list[bool], int, int, list[int]],
) -> int:
    """:func:`dig_reach` of pile ``p``, or ``need`` if it is at least that,
    from the parts of it that do not depend on the pile (``base``)."""
    fcount, started0, free_fnd, centre, tops0 = base
    # The cards in the order they come off: the outer run in front first (for
    # an inner pile), then the pile, each from the top (read in place).
    pile = piles[p]
    if p < INNER_END:
        exclude = p + FRONT
        front = piles[exclude]
    else:
        exclude = p
        front = _NO_PLACES
    nf = len(front)
    total = nf + len(pile)
    fc = fcount[:]
    started = started0[:]
    tops: list[int] = []
    empty = 0
    for k in range(4):  # tops0[k] is outer position OUTER_FIRST + k
        if k + OUTER_FIRST != exclude:
            t = tops0[k]
            if t >= 0:
                tops.append(t)
            else:
                empty += 1
    for n in range(total):
        if n >= need:
            return n
        card = front[nf - 1 - n] if n < nf else pile[total - 1 - n]
        s = card // 13
        r = card % 13
        if started[s]:
            if NEEDED[s][fc[s]] == card:
                fc[s] += 1
                continue
        elif r == 12 and free_fnd:
            started[s] = True
            free_fnd -= 1
            fc[s] += 1
            continue
        if (centre < 0 and r == 0) or (centre >= 0 and centre % 13 != 12 and centre + 1 == card):
            centre = card
            continue
        if r and card - 1 in tops:
            tops[tops.index(card - 1)] = card
            continue
        if not empty:
            return n
        empty -= 1
        tops.append(card)
    return total
