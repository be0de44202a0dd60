"""The solver's compact Spider state against the rules core, side by side.

Random play (hypothesis draws the deal, the suits and each action among the
legal ones, with unmake steps mixed in): after every step both must list the
same legal actions and hold the same position (piles, faces, stock, done), and
unmaking must give back the exact earlier state, hash included. CI takes a
small sample; TERMSOLITAIRE_FULL=1 runs the full size (conftest's profiles).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from termsolitaire.rules import from_text, new_game
from termsolitaire.solver.spider.state import SpiderState, from_move, to_move

PROPS = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


def _agree(game, state: SpiderState) -> None:
    rules = {str(m) for m in game.legal_moves()}
    compact = {str(to_move(m)) for m in state.legal()}
    assert compact == rules, game.to_text()
    assert state.position() == SpiderState.from_game(game).position(), game.to_text()
    assert state.key == SpiderState.from_game(game).key, game.to_text()
    # The summaries made move by move are those a fresh pass over each pile makes.
    fresh = SpiderState.from_game(game).info
    assert [f.fields() for f in state.info] == [f.fields() for f in fresh], game.to_text()


@PROPS
@given(
    deal=st.integers(min_value=0, max_value=2**32),
    suits=st.sampled_from([1, 2, 4]),
    data=st.data(),
)
def test_random_play_agrees_with_the_rules(deal: int, suits: int, data) -> None:
    game = new_game("spider", deal=deal, suits=suits)
    state = SpiderState.from_game(game)
    stack = []  # (move, token, position before, key before, rules game before)
    _agree(game, state)
    for _ in range(120):
        moves = state.legal()
        back = stack and data.draw(st.integers(0, 5)) == 0
        if back or not moves:
            if not stack:
                break
            m, token, position, key, before = stack.pop()
            state.unmake(m, token)
            assert state.position() == position
            assert state.key == key
            game = before
        else:
            # Transfers and turns are most of a real game; a deal now and then.
            pool = [m for m in moves if m[0] >= 0]
            if not pool or data.draw(st.integers(0, 9)) == 0:
                pool = moves
            m = data.draw(st.sampled_from(pool))
            before = (state.position(), state.key, game.copy())
            stack.append((m, state.make(m), *before))
            game.play(to_move(m))
            assert from_move(to_move(m)) == m
        _agree(game, state)


def _position(piles: dict[str, str], stock_top: str, done: str) -> str:
    """A 2-suit position: the given piles and top of stock, every other card face
    down on t3-t10 or at the bottom of the stock."""
    from collections import Counter

    from termsolitaire.rules.cards import pack
    from termsolitaire.rules.spider import PACKS

    left = Counter(str(c) for c in pack(PACKS[2]))
    for s in done.split():
        left.subtract(f"{r}{s}" for r in "A23456789TJQK")
    for text in [*piles.values(), stock_top]:
        left.subtract(w.upper() for w in text.split())
    rest = [c.lower() for c, n in sorted(left.items()) for _ in range(n)]
    assert all(n >= 0 for n in left.values())
    stock = rest[: 10 - len(stock_top.split())]
    rest = rest[len(stock) :]
    lines = ["game: spider", "variant: suits=2", "score: 0", "moves: 0"]
    free = [t for t in (f"t{i}" for i in range(1, 11)) if t not in piles]
    shares = {t: rest[i :: len(free)] for i, t in enumerate(free)}
    for t in (f"t{i}" for i in range(1, 11)):
        lines.append(f"{t}: {piles[t] if t in piles else ' '.join(shares[t]) or '-'}")
    lines += [f"stock: {' '.join(stock)} {stock_top}", f"done: {done}"]
    return "\n".join(lines) + "\n"


def test_a_deal_that_completes_runs_clears_them_left_to_right() -> None:
    """Two runs completed by one deal go to done pile by pile, as in the rules,
    and unmaking the deal puts them back."""
    text = _position(
        {
            "t1": " ".join(f"{r}H" for r in "KQJT98765432"),
            "t2": " ".join(f"{r}S" for r in "KQJT98765432"),
        },
        stock_top="as ah",
        done="H S",
    )
    game = from_text(text)
    state = SpiderState.from_game(game)
    before = state.position(), state.key
    token = state.make((-1, -1, 0))
    game.play("deal")
    assert state.position() == SpiderState.from_game(game).position()
    assert state.done == [1, 0, 1, 0]  # t1's hearts, then t2's spades
    state.unmake((-1, -1, 0), token)
    assert (state.position(), state.key) == before


@PROPS
@given(
    deal=st.integers(min_value=0, max_value=2**32),
    suits=st.sampled_from([2, 4]),
    data=st.data(),
)
def test_a_deal_weighed_without_playing_it_is_the_deal_played(deal: int, suits: int, data) -> None:
    """The finders weigh a deal (its key and value) without playing it
    (``dealt_key``): on random positions that must be exactly the key and the
    evaluation of the position the deal makes, for every weight set, or
    ``None`` where the deal is the last or completes a run."""
    from termsolitaire.solver.spider import PORTFOLIO
    from termsolitaire.solver.spider.search import PLAIN, dealt_key, evaluate

    state = SpiderState.from_game(new_game("spider", deal=deal, suits=suits))
    for _ in range(data.draw(st.integers(0, 80))):
        moves = [m for m in state.legal() if m[0] >= 0] or state.legal()
        if not moves:
            break
        state.make(data.draw(st.sampled_from(moves)))
    if not state.stock:
        return
    for w in (PLAIN, *PORTFOLIO):
        weighed = dealt_key(state, w)
        done = len(state.done)
        token = state.make((-1, -1, 0))
        if weighed is not None:
            assert weighed == (state.key, evaluate(state, w))
        else:
            assert not state.stock or len(state.done) > done
        state.unmake((-1, -1, 0), token)


@PROPS
@given(
    deal=st.integers(min_value=0, max_value=2**32),
    suits=st.sampled_from([1, 2, 4]),
    data=st.data(),
)
def test_a_transfer_keyed_without_making_it_is_the_transfer_made(
    deal: int, suits: int, data
) -> None:
    """The searches read a transfer's key from the moved cards and make only
    the moves whose key is new (``child_key``): on random positions, with the
    stock and after it is dealt out (when the key forgets the piles' order),
    the key read must be the key of the position the move makes, for every
    legal transfer; ``None`` only where the move may complete a run."""
    state = SpiderState.from_game(new_game("spider", deal=deal, suits=suits))
    for _ in range(data.draw(st.integers(20, 160))):
        moves = state.legal()
        if not moves:
            break
        here = state.key
        for m in moves:
            if m[0] < 0 or m[1] < 0:
                assert state.child_key(m, here) is None
                continue
            read = state.child_key(m, here)
            if read is None:  # only a run moved down to its ace may complete a suit
                assert state.piles[m[0]][-1] & 15 == 1
                continue
            token = state.make(m)
            assert read == state.key
            state.unmake(m, token)
            assert state.key == here
        pool = [m for m in moves if m[0] >= 0]
        if not pool or data.draw(st.integers(0, 4)) == 0:
            pool = moves
        state.make(data.draw(st.sampled_from(pool)))
