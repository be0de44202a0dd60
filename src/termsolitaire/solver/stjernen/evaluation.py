"""How promising a Stjernen position looks, for the solver's beam search.

Each foundation takes its suit K Q J ... A and then K ... A again, so every card
off the foundations has a turn: the place in its suit's sequence where it is
wanted (of two copies of a card, the one less in the way takes the earlier
turn). Each card also has a *burial*, the work before it can be played:

- in an upturned pile, the outer ring or the centre: the cards above it;
- in the stock: the deals before it turns up;
- in the inner ring: the cards above it (weighted, as each must go through the
  outer position in front), plus how long the outer position in front will stay
  busy (until the bottom card of the run there goes up). A copy behind a run of
  its own suit that must go up before the run's bottom card cannot serve that
  turn: for it, the copy counts as absent (a dead end if both copies are).

A card's *wait* counts the turns before its own and the burial of the cards
wanted in those turns (a run waiting for a buried card waits long). The score
is the foundation cards, less the burial of each card weighted by how soon it is
wanted, less the wait of what each outer position and the centre hold, plus a
bonus per empty outer position. Units: a foundation card is worth
``Weights.foundation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .state import CENTRE, FRONT, FULL, INNER_END, OUTER, OUTER_FIRST, UP, UP_END, UP_FIRST, State

BIG: Final = 50
"""Burial of a copy that is not there (on a foundation already)."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights (waits and horizons in tenths of a turn)."""

    foundation: int = 1000
    inner: int = 40
    """Burial per inner card above, in tenths."""
    stock: int = 10
    """Burial per deal still to come before a stock card turns up, in tenths."""
    burial: int = 20
    """Weight of burial times urgency, in tenths."""
    horizon: int = 150
    """Cards wanted later than this wait (tenths of a turn) do not count."""
    lam: int = 30
    """How much the burial of earlier cards adds to a card's wait, in tenths."""
    block: int = 20
    """Burial added to inner cards per tenth of the wait of the outer card in front."""
    cap: int = 300
    """The longest wait counted for a card in the outer ring or the centre."""
    occupied: int = 100
    """Cost per turn of wait of an outer position's top card."""
    empty: int = 300
    """Bonus per empty outer position."""
    centre: int = 100
    """Cost per turn of wait of the centre's top card."""
    bottom: bool = True
    """Block the inner pile behind an outer run by the wait of the run's bottom
    card (the last to leave), not its top."""
    late: bool = True
    """An inner card behind an outer run of its suit that must go up first counts
    as absent for the turns before the run's bottom card."""
    next_round: bool = False
    """An upturned card's burial is at most the deals before it turns up again
    in the next round (:func:`upturned_burials`), not only the cards above it."""
    hold: tuple[int, ...] = ()
    """A plan (issue 34, stjernen11): the suits whose first king must be the one
    in the inner ring (:func:`.moves.auto` holds the other back while it is
    there). Their first turn counts that king's burial, the second turn the
    other's."""


def _turns() -> list[list[list[tuple[int, bool, int]]]]:
    """For each suit and foundation height: the turns still to come, each as
    (card, whether it is the later copy's turn, turns before it in tenths)."""
    table = []
    for s in range(4):
        rows = []
        for n in range(FULL + 1):
            row = []
            for k in range(n, FULL):
                r = 12 - k % 13
                row.append((s * 13 + r, k >= 13 and n <= 12 - r, (k - n) * 10))
            rows.append(row)
        table.append(rows)
    return table


_TURNS: Final = _turns()
_CODED: Final = [
    [[e << 7 | later << 6 | c for c, later, e in row] for row in rows] for rows in _TURNS
]
""":data:`_TURNS` with each turn one int, ``e << 7 | later << 6 | card``: the
hot loops read it with shifts and masks instead of unpacking a tuple (when
compiled, each tuple item is a checked, boxed read)."""


def _turn(n: int, r: int) -> int:
    """The first turn at or after ``n`` of rank index ``r`` (0 ace, 12 king)."""
    k = 12 - r
    return k if k >= n else k + 13


_LATE: Final[list[list[int] | None]] = [None] * (52 * (FULL + 1))
""":func:`_late`'s answers, by ``bottom * (FULL + 1) + n`` (a list index costs less than
a dict look-up by a tuple key, which must be built first)."""


def _late(bottom: int, n: int) -> list[int]:
    """Per card code, behind an outer run whose bottom card is ``bottom`` with ``n``
    cards of its suit up: 0 free, 1 only for the later turn, 2 of no use."""
    got = _LATE[bottom * (FULL + 1) + n]
    if got is None:
        s = bottom // 13
        kb = _turn(n, bottom % 13)
        got = [0] * 52
        for r in range(13):
            k1 = _turn(n, r)
            if k1 < kb:
                k2 = k1 + 13
                got[s * 13 + r] = 1 if kb < k2 < 26 else 2
        _LATE[bottom * (FULL + 1) + n] = got
    return got


_STOCK_CACHE: Final[dict[tuple[int, int, tuple[int, ...]], tuple[list[int], list[int]]]] = {}


def _stock_burials(stock: list[int], round_: int, ws: int) -> tuple[list[int], list[int]]:
    """Fresh burial arrays holding the stock's cards (the stock changes only when
    dealt or collected, so the work is kept)."""
    key = (round_, ws, tuple(stock))
    got = _STOCK_CACHE.get(key)
    if got is None:
        b1 = [BIG] * 52
        b2 = [BIG] * 52
        top = len(stock) - 1
        width = 7 - round_
        for d, c in enumerate(stock):
            b = ((top - d) // width + 1) * ws // 10
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
        if len(_STOCK_CACHE) > 4096:
            _STOCK_CACHE.clear()
        got = _STOCK_CACHE[key] = (b1, b2)
    return got[0][:], got[1][:]


_STORAGE: Final = [CENTRE, *OUTER]
"""A list: when compiled, a loop over a ``Final`` tuple makes a tuple each time."""
_UP_CACHE: Final[dict[tuple[int, ...], list[list[int]]]] = {}


def upturned_burials(
    piles: list[list[int]], stock_size: int, round_: int, ws: int
) -> list[list[int]]:
    """Per upturned pile, the burial of each of its cards (bottom first): the
    cards above it, or, if fewer, the deals before it turns up again in the
    next round, each weighted as a deal of the stock (``ws`` tenths).

    The order of the next round is known already: the stock is dealt out
    (the cards still in it land on the first piles, row by row), the piles
    are gathered, the first at the bottom, and the packet is turned over, so
    the first pile's bottom card is dealt first. A card at the bottom of the
    first pile under ten others is not buried ten deep: it is the first card
    of the next round. (Cards taken off the piles meanwhile only bring the
    rest sooner; in the last round there is no next one.) The burials depend
    on the piles' heights alone, so they are kept."""
    lens = (round_, stock_size, ws, *(len(piles[u]) for u in UP))
    got = _UP_CACHE.get(lens)
    if got is not None:
        return got
    out: list[list[int]] = []
    width = 7 - round_
    nxt = width - 1
    deals = -(-stock_size // width)
    before = 0
    for j, n in enumerate(lens[3:]):
        row = []
        for k in range(n):
            b = n - 1 - k
            if nxt:
                again = (deals + (before + k) // nxt + 1) * ws // 10
                if again < b:
                    b = again
            row.append(b)
        out.append(row)
        dealt = (stock_size - j + width - 1) // width if j < min(width, stock_size) else 0
        before += n + dealt
    if len(_UP_CACHE) > 4096:
        _UP_CACHE.clear()
    _UP_CACHE[lens] = out
    return out


_Inner = tuple[list[int], list[int], list[list[int]]]
_INNER_CACHE: Final[dict[tuple[int, int], _Inner]] = {}
_BASE_CACHE: Final[dict[tuple[int, int, bool], tuple[list[int], list[int]]]] = {}


class _Last:
    """The last answer of :func:`_base_burials` and of :func:`_inner`, with their
    keys: the next position scored often shares them (a third of the time the
    stock's and the upturned piles', two thirds the inner ring's), and comparing
    the keys costs less than making the caches' tuple keys and looking them up.
    What it holds is what the caches hold for the same keys."""

    def __init__(self) -> None:
        self.base_ok = False
        self.uhash = 0
        self.ws = 0
        self.next_round = False
        self.base: tuple[list[int], list[int]] = ([], [])
        self.inner_ok = False
        self.ihash = 0
        self.wi = 0
        self.inner: _Inner = ([], [], [])


_LAST: Final = _Last()
_EXTRA: Final = [0, 0, 0, 0]
_STUCK: Final[list[list[int] | None]] = [None, None, None, None]
_STOP: Final = [0, 0, 0, 0]
_STOP_CUM: Final = [0, 0, 0, 0]
_WAITS: Final = [0] * (4 * FULL)
""":func:`evaluate`'s scratch lists, written before they are read in each call
(so not made and freed at every position; :func:`evaluate` is not re-entrant,
as :data:`_LAST` is not). ``_WAITS[s * FULL + j]``: the wait of suit ``s``'s
``j``-th turn to come, for the first ``_STOP[s]`` turns."""


def _base_burials(st: State, w: Weights) -> tuple[list[int], list[int]]:
    """Fresh burial arrays holding the stock's and the upturned piles' cards.
    They change only with a deal, a collect or a card taken off an upturned
    pile, and a look-around does few of these, so the work is kept, by the
    hash of just those places (:attr:`.State.uhash`)."""
    last = _LAST
    if (
        last.base_ok
        and last.uhash == st.uhash
        and last.ws == w.stock
        and last.next_round == w.next_round
    ):
        kept = last.base
        return kept[0][:], kept[1][:]
    key = (st.uhash, w.stock, w.next_round)
    got = _BASE_CACHE.get(key)
    if got is None:
        piles = st.piles
        b1, b2 = _stock_burials(st.stock, st.round, w.stock)
        if w.next_round:
            up_rows = upturned_burials(piles, len(st.stock), st.round, w.stock)
            for u, row in zip(UP, up_rows, strict=True):
                for c, b in zip(piles[u], row, strict=True):
                    if b < b1[c]:
                        b2[c] = b1[c]
                        b1[c] = b
                    elif b < b2[c]:
                        b2[c] = b
        else:
            for u in range(UP_FIRST, UP_END):
                q = piles[u]
                b = len(q)
                for c in q:
                    b -= 1
                    if b < b1[c]:
                        b2[c] = b1[c]
                        b1[c] = b
                    elif b < b2[c]:
                        b2[c] = b
        if len(_BASE_CACHE) > 4096:
            _BASE_CACHE.clear()
        got = _BASE_CACHE[key] = (b1, b2)
    last.base_ok = True
    last.uhash = st.uhash
    last.ws = w.stock
    last.next_round = w.next_round
    last.base = got
    return got[0][:], got[1][:]


def _inner(st: State, wi: int) -> _Inner:
    """The inner ring on its own: per card code the two least burials of its
    copies there by depth alone, and per pile its cards with that burial, the
    top first, each one int ``burial << 6 | card``, those at least :data:`BIG`
    deep left out (they never count); kept by the inner ring's hash, as it
    changes only when a card leaves it."""
    key = (st.ihash, wi)
    got = _INNER_CACHE.get(key)
    piles = st.piles
    if got is None:
        i1 = [BIG] * 52
        i2 = [BIG] * 52
        rows = []
        for i in range(INNER_END):
            row = []
            for k, c in enumerate(reversed(piles[i]), 1):
                b = k * wi // 10
                if b < i1[c]:
                    i2[c] = i1[c]
                    i1[c] = b
                elif b < i2[c]:
                    i2[c] = b
                if b < BIG:
                    row.append(b << 6 | c)
            rows.append(row)
        if len(_INNER_CACHE) > 4096:
            _INNER_CACHE.clear()
        got = _INNER_CACHE[key] = (i1, i2, rows)
    return got


def _wait_with(
    fcount: list[int],
    b1: list[int],
    b2: list[int],
    i1: list[int],
    i2: list[int],
    card: int,
    lam: int,
    cap: int,
) -> int:
    """The wait of ``card``'s first turn (the turns before it in its suit, and
    the burial of the cards wanted in them), at most ``cap``, with the burials
    of ``b1``/``b2`` and ``i1``/``i2`` together (the two least of each card's
    four)."""
    s = card // 13
    cum = 0
    for v in _CODED[s][fcount[s]]:
        e = (v >> 7) + lam * cum // 10
        if e >= cap:
            return cap
        c = v & 63
        later = v & 64
        if c == card and not later:
            return e
        x = b1[c]
        y = i1[c]
        if later:
            if x <= y:
                v = b2[c]
                cum += y if y < v else v
            else:
                v = i2[c]
                cum += x if x < v else v
        else:
            cum += x if x < y else y
    return cap


def evaluate(st: State, w: Weights) -> int:
    """The score of ``st`` (higher is better).

    It runs for every position the beam meets, so it is written for speed: the
    burials of the stock and the upturned piles, and the inner ring's own, are
    kept between calls; an inner pile's cards are merged from the top down
    only while their burial can still count; and the walk to the horizon notes
    the waits the outer ring and the centre need (the plain version it must
    agree with is in the tests)."""
    piles = st.piles
    fcount = st.fcount
    b1, b2 = _base_burials(st, w)
    for p in _STORAGE:
        q = piles[p]
        if q:
            b = len(q)
            for c in q:
                b -= 1
                if b < b1[c]:
                    b2[c] = b1[c]
                    b1[c] = b
                elif b < b2[c]:
                    b2[c] = b
    # How long each outer position stays busy: the wait of its run's bottom card,
    # with the inner ring counted by its own depth only; then the inner ring with
    # that, leaving out copies that a run of their suit in front makes too late.
    last = _LAST
    if last.inner_ok and last.ihash == st.ihash and last.wi == w.inner:
        i1, i2, rows = last.inner
    else:
        got = _INNER_CACHE.get((st.ihash, w.inner))
        inner = got if got is not None else _inner(st, w.inner)
        last.inner_ok = True
        last.ihash = st.ihash
        last.wi = w.inner
        last.inner = inner
        i1, i2, rows = inner
    lam = w.lam
    cap = w.cap
    block = w.block
    bottom = w.bottom
    check_late = w.late
    extra = _EXTRA
    stuck = _STUCK
    spare = (
        (not piles[OUTER_FIRST])
        + (not piles[OUTER_FIRST + 1])
        + (not piles[OUTER_FIRST + 2])
        + (not piles[OUTER_FIRST + 3])
    )
    for i in range(INNER_END):
        run = piles[i + FRONT]
        x = 0
        late = None
        if run and piles[i]:
            first_card = run[0]
            wait = _wait_with(fcount, b1, b2, i1, i2, first_card if bottom else run[-1], lam, cap)
            x = wait * block // 100
            if check_late and (len(run) > 1 or not spare):
                n = fcount[first_card // 13]
                late = _LATE[first_card * (FULL + 1) + n]
                if late is None:
                    late = _late(first_card, n)
        extra[i] = x
        stuck[i] = late
    # A plan's kings: the inner ring's copy takes the first turn, the best of
    # the others (merged above) the second.
    held: list[tuple[int, int]] = []
    if w.hold:
        for s in w.hold:
            k = s * 13 + 12
            if not fcount[s] and (k in piles[0] or k in piles[1] or k in piles[2] or k in piles[3]):
                held.append((k, b1[k]))
                b1[k] = b2[k] = BIG
    later: list[tuple[int, int]] = []
    for i in range(INNER_END):
        x = extra[i]
        late = stuck[i]
        if late is None:
            for v in rows[i]:
                b = (v >> 6) + x
                if b >= BIG:  # nor any below it: b1 and b2 are at most BIG
                    break
                c = v & 63
                if b < b1[c]:
                    b2[c] = b1[c]
                    b1[c] = b
                elif b < b2[c]:
                    b2[c] = b
            continue
        for v in rows[i]:
            b = (v >> 6) + x
            if b >= BIG:
                break
            c = v & 63
            t = late[c]
            if t:
                if t == 1:
                    later.append((c, b))
                continue
            if b < b1[c]:
                b2[c] = b1[c]
                b1[c] = b
            elif b < b2[c]:
                b2[c] = b
    # A copy that can serve only its suit's later turn: the first turn waits for
    # the other copy (absent if there is none).
    for c, b in later:
        if b < b2[c]:
            b2[c] = b
    for k, b in held:
        b2[k] = b
    # Burial times urgency up to the horizon, suit by suit, noting the wait of
    # each card's first turn on the way (for the outer ring and the centre).
    horizon = w.horizon
    pen = 0
    waits = _WAITS
    stop = _STOP
    stop_cum = _STOP_CUM
    for s in range(4):
        cum = 0
        j = 0
        at = s * FULL
        for v in _CODED[s][fcount[s]]:
            e = (v >> 7) + lam * cum // 10
            if e >= horizon:
                break
            c = v & 63
            b = b2[c] if v & 64 else b1[c]  # the later copy's turn, or the first
            waits[at + j] = e
            pen += b * (horizon - e)
            cum += b
            j += 1
        stop[s] = j
        stop_cum[s] = cum
    score = w.foundation * (fcount[0] + fcount[1] + fcount[2] + fcount[3]) - w.burial * pen // 10
    occupied = w.occupied
    for p in range(OUTER_FIRST, CENTRE + 1):
        q = piles[p]
        if not q:
            if p != CENTRE:
                score += w.empty
            continue
        card = q[-1]
        # The card's first turn is the suit's turn ``want`` to come (it is
        # never a later copy's turn).
        s = card // 13
        n = fcount[s]
        want = 12 - card % 13 - n
        if want < 0:
            want += 13
        at = s * FULL
        j = stop[s]
        if want < j:
            e = waits[at + want]
            if e > cap:
                e = cap
        else:
            # Walk on from where the horizon stopped, up to the cap.
            turns = _CODED[s][n]
            cum = stop_cum[s]
            e = cap
            while j <= want:
                v = turns[j]
                e0 = (v >> 7) + lam * cum // 10
                if e0 >= cap:
                    break
                waits[at + j] = e0
                c = v & 63
                cum += b2[c] if v & 64 else b1[c]
                j += 1
                if j > want:
                    e = e0
            stop[s] = j
            stop_cum[s] = cum
        score -= (w.centre if p == CENTRE else occupied) * e // 10
    return score
