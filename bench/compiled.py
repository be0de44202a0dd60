"""The compiled solver against the pure-Python one: the same answers, and its speed.

    PYTHONPATH=src python bench/compiled.py digest        # one line per search, then a digest
    PYTHONPATH=src python bench/compiled.py speed         # positions per CPU second, per game

Run it once on the pure-Python sources and once where the modules of
``compiled-modules.txt`` are compiled (``TERMSOLITAIRE_COMPILE=1``: README,
"Faster solver"); ``.ci/run`` does that and fails when the two ``digest``
outputs differ. Every search here is a fixed amount of work (fixed-width
beams, searches of a fixed number of positions, relaxed proofs of fixed
positions), never a time budget, so its answer is the same on any machine and
at any load: the line (as a hash), its count of cards home and the positions
seen. What runs, compiled or pure Python, goes to standard error, not into the
digest.

- ``digest``: Stjernen's first beam (width 10, as ``solve`` runs it first) on
  deals :data:`STJERNEN_DEALS`, and one beam shared with a helper process
  (the pickles between the two processes carry the compiled classes);
  Napoleon's prover and first finder (:data:`NAPOLEON_NODES` positions each),
  the shuffled prover and the dives, ``blocked`` (the partial relaxed game at
  the start) on :data:`NAPOLEON_DEALS`, and ``relaxed_lost`` on the positions
  of seeded random walks; Spider's best-first finders and prover
  (:data:`SPIDER_NODES` positions each) on :data:`SPIDER_DEALS`, one and four
  suits; the computer opponent's first :data:`OPPONENT_ACTIONS` actions on
  :data:`OPPONENT_GAMES` (its planner, guesses and hindsight count positions,
  not seconds, and it is seeded, so its actions are fixed work too).
- ``speed``: the same Stjernen beams, Napoleon and Spider searches, timed in CPU
  seconds (``time.process_time``): positions per CPU second for each game,
  the best of ``--repeat`` runs; and the opponent's actions, actions per CPU
  second.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import itertools
import math
import random
import sys
import time
from collections.abc import Callable, Iterator

from termsolitaire.rules import new_game
from termsolitaire.solver import compiled_modules, solver_kind
from termsolitaire.solver.napoleon import SHUFFLED, STRATEGIES, Dives, NapoleonState, blocked
from termsolitaire.solver.napoleon.relax import relaxed_lost
from termsolitaire.solver.opponent import Opponent, play
from termsolitaire.solver.search import BestFirst, DepthFirst
from termsolitaire.solver.spider import NOISE
from termsolitaire.solver.spider import PORTFOLIO as SPIDER_PORTFOLIO
from termsolitaire.solver.spider.search import PLAIN
from termsolitaire.solver.spider.search import BestFirst as SpiderBestFirst
from termsolitaire.solver.spider.search import prove as spider_prove
from termsolitaire.solver.spider.state import SpiderState
from termsolitaire.solver.stjernen import FIRST_BEAM, PORTFOLIO, beam
from termsolitaire.solver.stjernen.pair import Helper
from termsolitaire.solver.stjernen.state import State

STJERNEN_DEALS = (1, 5, 9)
"""Deals of the fixed-width beam (about 1 to 1.5 s of CPU each, pure Python)."""
HELPER_DEAL = 5
HELPER_BEAM = dataclasses.replace(PORTFOLIO[0], width=6, look=10)
"""The beam shared with a helper process (tests/solver/test_stjernen_pair.py's)."""
NAPOLEON_DEALS = (1, 2, 3, 16, 25, 48)
"""Easy deals and some that were long unknown (bench/napoleon_fixed.py's)."""
NAPOLEON_NODES = 4000
SPIDER_DEALS = ((1, 1), (2, 1), (3, 1), (1, 4), (2, 4), (3, 4))
"""(deal, suits) of the Spider searches."""
SPIDER_NODES = 3000
OPPONENT_GAMES = (("good", 1, 1), ("good", 4, 1), ("expert", 1, 2), ("expert", 4, 2))
"""(level, suits, deal) of the opponent's games (seeded by the deal, as bench/opponent.py)."""
OPPONENT_ACTIONS = 12
WALKS = 20
"""Seeded random walks per Napoleon deal whose positions ``relaxed_lost`` judges."""


def _line(line: object) -> str:
    return hashlib.sha256(repr(line).encode()).hexdigest()[:16]


def stjernen(helper: bool = True) -> Iterator[tuple[str, int]]:
    """(a result line, positions seen) for each Stjernen search."""
    for deal in STJERNEN_DEALS:
        root = State.from_game(new_game("stjernen", deal))
        score, line, positions = beam(root, FIRST_BEAM, math.inf, time.process_time)
        yield f"stjernen {deal} beam home {score} moves {len(line)} line {_line(line)}", positions
    if helper:
        root = State.from_game(new_game("stjernen", HELPER_DEAL))
        with Helper() as pair:
            score, line, positions = beam(root, HELPER_BEAM, math.inf, helper=pair)
            alive = pair.alive
        text = f"home {score} moves {len(line)} line {_line(line)} helper alive {alive}"
        yield f"stjernen {HELPER_DEAL} pair {text}", positions


def _start(deal: int) -> tuple[NapoleonState, list[tuple[int, int]]]:
    state = NapoleonState.from_game(new_game("napoleon", deal))
    return state, state.autoplay()


def napoleon() -> Iterator[tuple[str, int]]:
    """(a result line, positions seen) for each Napoleon search."""
    for deal in NAPOLEON_DEALS:
        state, first = _start(deal)
        yield f"napoleon {deal} blocked {blocked(state)}", 0
        state.dead_cache = {}  # shared by the copies: each search starts afresh
        finder = state.copy(STRATEGIES[0])
        finder.dead_cache = {}
        shuffled = state.copy(jitter=deal, spread=SHUFFLED)
        shuffled.dead_cache = {}
        searches: list[tuple[str, DepthFirst | BestFirst | Dives]] = [
            ("prover", DepthFirst(state.copy(), first)),
            ("finder", BestFirst(finder, first)),
            ("shuffled", DepthFirst(shuffled, first)),
            ("dives", Dives(state, first, deal)),
        ]
        for label, s in searches:
            verdict = s.run(NAPOLEON_NODES)
            best = s.best_line()
            text = f"{verdict} positions {s.size} best {len(best)} line {_line(best)}"
            yield f"napoleon {deal} {label} {text}", s.size


def napoleon_relaxed() -> Iterator[tuple[str, int]]:
    """``relaxed_lost`` on the positions of seeded random walks, one line per deal."""
    for deal in NAPOLEON_DEALS:
        rng = random.Random(deal)
        answers = []
        for _ in range(WALKS):
            state, _ = _start(deal)
            while not state.won():
                position = (list(state.piles), list(state.found), state.loc[:], state.idx[:])
                answers.append(relaxed_lost(*position))
                moves = state.search_moves()
                if not moves:
                    break
                state.play(rng.choice(moves[-4:]))
        text = f"{len(answers)} positions, {sum(answers)} lost, {_line(answers)}"
        yield f"napoleon {deal} relaxed {text}", len(answers)


def spider() -> Iterator[tuple[str, int]]:
    """(a result line, positions seen) for each Spider search, :data:`SPIDER_NODES`
    positions each: best-first with the plain weights (one suit's) or the two of
    the portfolio (four suits'), then with seeded noise (as ``solve`` restarts),
    and the depth-first prover."""
    for deal, suits in SPIDER_DEALS:
        game = new_game("spider", deal, suits=suits)
        orders = (PLAIN,) if suits == 1 else SPIDER_PORTFOLIO
        noisy = orders[-1]._replace(noise=NOISE)
        finders = [(f"weights{i}", w) for i, w in enumerate(orders)] + [("noisy", noisy)]
        for label, weights in finders:
            s = SpiderBestFirst(
                SpiderState.from_game(game), math.inf, SPIDER_NODES, weights=weights, seed=deal
            )
            outcome, line = s.run()
            best = s.best_line
            text = f"{outcome} line {len(line)} {_line(line)} best {len(best)} {_line(best)}"
            yield f"spider {deal} suits {suits} {label} {text} positions {s.positions}", s.positions
        outcome, line, count = spider_prove(SpiderState.from_game(game), math.inf, SPIDER_NODES)
        yield f"spider {deal} suits {suits} prove {outcome} line {_line(line)}", count


def opponent() -> Iterator[tuple[str, int]]:
    """(a result line, actions played) for each of the opponent's games: its first
    :data:`OPPONENT_ACTIONS` actions (the line as a hash) and the score then."""
    for level, suits, deal in OPPONENT_GAMES:
        game = new_game("spider", deal=deal, suits=suits)
        actions = play(game, Opponent(level, suits, seed=deal), None)
        line = list(itertools.islice(actions, OPPONENT_ACTIONS))
        text = f"{len(line)} actions {_line(line)} score {game.score} runs {game.runs}"
        yield f"opponent {level} suits {suits} deal {deal} {text}", len(line)


def digest() -> None:
    h = hashlib.sha256()
    for part in (stjernen, napoleon, napoleon_relaxed, spider, opponent):
        for text, positions in part():
            line = f"{text} seen {positions}"
            print(line, flush=True)
            h.update(line.encode() + b"\n")
    print(f"digest {h.hexdigest()}")


def _timed(part: Callable[[], Iterator[tuple[str, int]]]) -> tuple[int, float]:
    t = time.process_time()
    positions = sum(n for _, n in part())
    return positions, time.process_time() - t


def speed(repeat: int, games: list[str]) -> None:
    parts: dict[str, tuple[Callable[[], Iterator[tuple[str, int]]], str]] = {
        "stjernen": (lambda: stjernen(helper=False), "positions"),
        "napoleon": (napoleon, "positions"),
        "spider": (spider, "positions"),
        "opponent": (opponent, "actions"),
    }
    for name in games:
        part, unit = parts[name]
        runs = [_timed(part) for _ in range(repeat)]
        count, cpu = min(runs, key=lambda r: r[1])
        times = " ".join(f"{c:.2f}" for _, c in runs)
        print(
            f"{name}: {count} {unit}, {cpu:.2f} CPU s (runs: {times}), "
            f"{count / cpu:,.{0 if unit == 'positions' else 2}f} {unit} per CPU s",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("digest", "speed"))
    ap.add_argument("--repeat", type=int, default=3, help="speed: runs of each game")
    ap.add_argument(
        "--games",
        default="stjernen,napoleon,spider,opponent",
        help="speed: the parts to time, comma-separated",
    )
    args = ap.parse_args()
    print(f"solver: {solver_kind()} {' '.join(compiled_modules())}".rstrip(), file=sys.stderr)
    if args.part == "digest":
        digest()
    else:
        speed(args.repeat, [g for g in args.games.split(",") if g])


if __name__ == "__main__":
    main()
