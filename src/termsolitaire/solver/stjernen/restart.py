"""Restarts along the best line (issue 34, stjernen10): an iterated beam.

A beam that does not win mostly stops at the same count whatever its width
(docs/journal/solver-stjernen.md): its line walks into a dead end. Instead of one beam from the
root for the whole budget, :func:`restarts` takes the best line found so far,
goes back to the start of a round on it, and runs a new adaptive beam from
there, with a perturbed order (``jitter``, a new seed each time). From a
later position fewer deals are left, so the same time buys a wider beam
where the line went wrong. A restart that gets further becomes the line the
next one starts from (one round before its stop); one that does not makes
the next start a round earlier.

King plans (issue 34, stjernen11): for a suit whose kings lie one in the
inner ring and one outside it, a plan holds the outer king back until the
inner one has left the inner ring, so that the buried king takes the first
turn (:func:`.moves.auto`'s ``hold``, :attr:`.evaluation.Weights.hold`). The
beam left to itself starts each suit with the king that turns up first and
keeps the buried one for the second pass, when the storage is full: a choice
made in round 1 that no width later on undoes. :func:`probe` runs the first
beam again under the plan of all such suits; if that gets further, as far
(:data:`PROBE_TIES`) or at most a few cards less far (:data:`PROBE_MARGIN`),
the root's adaptive beam and the restarts follow the plan. On two processes
the single-suit plans are probed too, half of them in the helper, and one of
them is followed instead where its beam gets clearly further
(:data:`SINGLE_PROBES`, stjernen29).

Changing course on a stall (issue 34, stjernen24): on the deals a 60-s search
does not win, restart after restart stops at the count the root's beam
reached, whatever its round, jitter or seed, while on some of them (deal 28)
other weights or another plan from the root cross that wall
(docs/journal/2026-12-06-stjernen23.md). So once :data:`STALL` beams in a row
have got no further, the next restart starts from the root under the next
course of :func:`courses` (other weights, or a king plan alone), and the
restarts go on from its line while it gets further.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from .beams import FIRST_BEAM, PORTFOLIO, Pace, beam
from .layer import BeamConfig
from .moves import plan_suits
from .pair import Helper
from .pair import main as helper_loop
from .state import COLLECT, WON, State

RESTART_SHARE = 0.8
"""The share of the time left after the first beam that the first adaptive beam
(from the root) gets before the restarts take the rest; 0: no restarts. At
0.8 one process won 58 of deals 1-100 against 55 with none, at 0.5 52
(docs/journal/solver-stjernen.md, stjernen10): the root's beam needs most of the width."""
RESTART_JITTER = 300
"""The restarts' ``BeamConfig.jitter``."""
RESTART_BACK = 1
"""The first restart starts this many rounds before the round the line stops in."""
RESTART_WEIGHTS: tuple[int, ...] = (0,)
"""The weights of the restarts in turn, as indices into :data:`.beams.PORTFOLIO`
(0 the plain weights, 1 ``horizon=250``, 2 ``lam=60``, ...), each with
:data:`RESTART_JITTER`. The plain weights only: restarts of ``horizon=250``
(``(1,)``, which reaches more cards on the deals that stop early) won 62 of
deals 1-100 on one process against 63 for the plain ones run beside them
(docs/journal/solver-stjernen.md, stjernen12), so the switch stays for screens, off."""
STALL = 2
"""A stall: this many beams in a row (the root's adaptive beam, if it got no
further than the first beam and the probe, and the restarts after it) that
got no further than the best line. The restart after a stall starts from the
root under the next course of :func:`courses`; 0: never (the restarts of
stjernen10-23, the plain weights throughout)."""
PLAN_PROBE = True
"""After the first beam, run a beam of the same fixed width under the first of
:func:`plans`; if it gets further than the first beam, the first adaptive
beam and the restarts follow that plan (:func:`probe`). False: no plans
(docs/journal/solver-stjernen.md, stjernen11)."""
PROBE_TIES = True
"""Follow the probe's plan also when its beam gets exactly as far as the first
beam (a tie), not only when it gets further (issue 34, stjernen27). A tie at
width 10 says little either way, and the plan's first turns are what a wide
beam cannot undo later: deal 1040's plain beams stop at 29 at every width to
2000, the plan ``hold=(1, 2)`` that tied at 11 wins from the root (one
process: at 113 CPU-s on main, where only a change of course reaches it, and
at 9.7 s with this). The probe's width is fixed, so the choice is still the
same on every machine. False: a plan only where it gets further
(stjernen11-26)."""
PROBE_MARGIN = 3
"""Follow the probe's plan also when its beam stops at most this many cards
short of the first beam (with :data:`PROBE_TIES`); the first beam's line stays
the best line until a beam under the plan gets further. One card at width 10
says as little as a tie: deal 51's 10-s win is the plan (0, 1, 2) its probe
stopped one card short with (29 against 30). On the 11 deals of 1-200 a margin
of 3 touches (stjernen28), two processes at 10 CPU-s side by side with main,
three runs: 26 won of 33 against 21 (51 in every run, never by main; none
that main won lost); followed however far short (the 24 deals 4 to 60 cards
short), 2 lost and none gained in the first 14, so the margin stays small.
0: a tie at least (stjernen27)."""


SINGLE_PROBES = True
"""With a helper (two processes) and two plan suits or more, after the probe
of ``plans(root)[0]`` (its layers shared with the helper, as before) the
width-10 beams of the single-suit plans ``plans(root)[1:]`` run too, every
other one in the helper and the rest here, each alone (:func:`_alone`). The
plan judged by the probe's rule is then the single-suit plan that gets
furthest (the first of a tie), if it gets :data:`SINGLE_LEAD` cards further
than both the first beam and ``plans(root)[0]``; otherwise ``plans(root)[0]``
as before. Their widths are fixed and each runs in one process,
so the choice is the same on every machine. One process (the board's hint)
probes ``plans(root)[0]`` only, as before (stjernen17: probing the single-suit
plans up front was not kept there). If the helper fails to answer, the
single-suit plans are not judged at all (the choice of one process).
False: ``plans(root)[0]`` only (stjernen11-28)."""


SINGLE_LEAD = 5
"""With :data:`SINGLE_PROBES`, follow a single-suit plan only where its beam gets
at least this many cards further than both the first beam and the probe of
``plans(root)[0]``. Two processes at 10 CPU-s, side by side with main
(stjernen29): followed wherever best (the rule of :data:`PROBE_MARGIN` on
all the plans, 48 deals of 1-200 changed) 35 won against 34 in one run, +1
+68 +71 +163, -51 -113 -137 (1, 4 and 1 card ahead); at 4 cards ahead (23 deals
of 1-200 and 12 fresh ones of 201-300 changed), two runs, 29 against 28 and
30 against 29: +242 +257 in both (14 cards ahead, and a win at width 10),
-113 (4 ahead) in both and in the first run, and none of the gains on
1-200 again. At 5, set after those runs, the choice on 113 (and 218,
unknown either way) is main's again; on the 21 + 11 other deals it is the
same as at 4."""


COURSE_PROBES: tuple[int, ...] = ()
"""With a helper (two processes), after the king-plan probe: the width-10 beams
of these weights (indices into :data:`.beams.PORTFOLIO`) under the plan
followed, every other one in the helper and the rest here, each alone
(:func:`probe_courses`). The weights whose beam gets :data:`COURSE_LEAD` cards
further than the best line so far (the furthest; the first of a tie) are
followed: the root's adaptive beam and the restarts run under them (the plain
weights become one of the stall's courses, :func:`courses`). The widths are
fixed and each beam runs in one process, so the choice is the same on every
machine. One process (the board's hint) probes no course. Empty: no course
probed (other weights only after a stall, stjernen24), as now: ``(1, 2, 4, 6,
3, 7)`` (``horizon=250``, ``lam=60``, ``ahead=3``, ``bottom=False``,
``empty=600``, jitter) at :data:`COURSE_LEAD` 20 won 27 of 33 chosen deals
of 1-200 against main's 23 and 16 of the fresh 601-700 it changes against 14,
but on 1-87 as a whole 64 against 70 (+28 +70, -5 -11 -15 -41 -54 -56 -59
-68: deals main wins at 5-10 s, where the probes' fixed widths cost about 2
CPU-s a process on this session's machine, half its earlier speed;
docs/journal/2026-12-07-lead36.md). ``(1, 2)`` (one probe a process, 0.7-0.9
CPU-s in the search's process) follows 20 of the 29 on 1-200 but still
loses deals main wins at 8-10 s: side by side on 23 deals 9 won against 13
(+1 +183, -11 -15 -19 -56 -59 -83; docs/journal/2026-12-07-stj31.md)."""


COURSE_LEAD = 20
"""With :data:`COURSE_PROBES`, follow other weights only where their probe gets
at least this many cards further than the best line of the first beam and the
plan probes. At 5 (stj30) the deals won and lost in the screens came apart by
this lead: the gains from leads of 27 or more (28, 183, 189, 299), the losses
(115, 129, deals the plain weights win) from 6 and 15; following a weight that
is only a little ahead pays a course change for little (lead35, lead36)."""


COURSE_BELOW = WON
"""With :data:`COURSE_PROBES`, probe the courses only where the best line of the
first beam and the plan probes has fewer cards home than this (a count at a
fixed width, so the same choice on every machine); ``WON``: wherever
they did not win. At 52 with ``(1, 2)`` (stj31) the deals main wins at 8-10 s
lost to the probes' cost (11 15 19 56 59, 58-68 cards at width 10) are
main's again (the search is main's wherever the gate is shut), and the
gains from walls (28 183 612, 30-46 cards) stay; but on the 47 deals below 52
screened side by side 19 won against main's 18 (+1 +28 +183 +612, -83 -736
-753), within the noise: a switch, off."""


def _probe_config(plan: tuple[int, ...], weights: int = 0) -> BeamConfig:
    """A probe's beam: the weights ``PORTFOLIO[weights]`` under ``plan``, at the
    first beam's fixed width (with 0, the plain weights: the first beam's own)."""
    cfg = PORTFOLIO[weights]
    return dataclasses.replace(
        cfg,
        width=FIRST_BEAM.width,
        late_round=FIRST_BEAM.late_round,
        weights=dataclasses.replace(cfg.weights, hold=plan),
    )


def _alone(
    root: State,
    cfgs: list[BeamConfig],
    deadline: float,
    clock: Callable[[], float],
    helper: Helper,
) -> list[tuple[int, list[int], int]] | None:
    """The fixed-width beams of ``cfgs`` from ``root``, in order: every other one
    (the second, the fourth, ...) in the helper, the others here at the same
    time, each alone; None if the helper does not take them or answer."""
    theirs = cfgs[1::2]
    if not helper.probe(root.snapshot(), theirs, deadline - clock()):
        return None
    # Alone, and not timed into the search's pace: a beam whose layers are
    # shared costs about half as much a position.
    mine = [beam(root, cfg, deadline, clock, Pace()) for cfg in cfgs[0::2]]
    got = helper.probed(deadline - clock())
    if got is None or len(got) != len(theirs):
        return None
    out = []
    for k in range(len(cfgs)):
        out.append(mine[k // 2] if k % 2 == 0 else got[k // 2])
    return out


def _beams(
    snapshot: Any, cfgs: list[Any], seconds: float, cpu: bool
) -> list[tuple[int, list[int], int]]:
    """In the helper: each beam of ``cfgs`` from ``snapshot``, alone, in turn, all
    within ``seconds`` (:meth:`.pair.Helper.probe`)."""
    clock = time.process_time if cpu else time.monotonic
    root = State()
    root.restore(snapshot)
    deadline = clock() + seconds
    return [beam(root, cfg, deadline, clock) for cfg in cfgs]


def helper() -> None:
    """The helper process of :class:`.pair.Helper` (a child,
    :mod:`termsolitaire.children`): its loop, with whole beams for :func:`_alone`."""
    helper_loop(_beams)


def probe(
    root: State,
    best: int,
    line: list[int],
    deadline: float,
    clock: Callable[[], float],
    pace: Pace,
    helper: Helper | None,
) -> tuple[int, list[int], int, tuple[int, ...]]:
    """With :data:`PLAN_PROBE`, the first beam again under the first plan; return
    (best count, its line, positions seen, the plan to follow: ``()`` for
    none). The plan is followed if its beam gets further than ``best`` (the
    first beam's count), or as far with :data:`PROBE_TIES`, or at most
    :data:`PROBE_MARGIN` cards short (then with ``best`` and ``line`` as they
    came). With :data:`SINGLE_PROBES` and a ``helper``, the single-suit plans'
    beams run too, and the one that gets furthest takes the first plan's place
    where it gets :data:`SINGLE_LEAD` cards further than both. The probes'
    widths are fixed, so the choice is the same on every machine."""
    todo = plans(root) if PLAN_PROBE else []
    if not todo or best == WON:
        return best, line, 0, ()
    score, moves, seen = beam(root, _probe_config(todo[0]), deadline, clock, pace, helper)
    plan = todo[0]
    if SINGLE_PROBES and helper is not None and len(todo) > 2 and score < WON:
        got = _alone(root, [_probe_config(p) for p in todo[1:]], deadline, clock, helper)
        bar = max(score, best) + SINGLE_LEAD - 1 if SINGLE_LEAD else score
        for p, (s, m, n) in zip(todo[1:], got or [], strict=False):  # none: no answer
            seen += n
            if s > bar:  # strictly: the first plan of a tie
                score, moves, plan, bar = s, m, p, s
    if score > best or (PROBE_TIES and score == best):
        return score, moves, seen, plan
    if PROBE_TIES and score >= best - PROBE_MARGIN:
        return best, line, seen, plan
    return best, line, seen, ()


def probe_courses(
    root: State,
    best: int,
    line: list[int],
    hold: tuple[int, ...],
    deadline: float,
    clock: Callable[[], float],
    helper: Helper | None,
) -> tuple[int, list[int], int, int]:
    """With :data:`COURSE_PROBES` and a ``helper``, a width-10 beam of each of
    those weights under the plan ``hold``, half in the helper
    (:func:`_alone`); return (best count, its line, positions seen, the
    weights to follow: 0 for the plain ones). Other weights are followed where
    their beam gets :data:`COURSE_LEAD` cards further than ``best``."""
    if not COURSE_PROBES or helper is None or best >= COURSE_BELOW:  # a won line: WON
        return best, line, 0, 0
    cfgs = [_probe_config(hold, k) for k in COURSE_PROBES]
    got = _alone(root, cfgs, deadline, clock, helper)
    seen, weights = 0, 0
    bar = best + COURSE_LEAD - 1
    for k, (s, m, n) in zip(COURSE_PROBES, got or [], strict=False):  # none: no answer
        seen += n
        if s > bar:  # strictly: the first of a tie
            best, line, weights, bar = s, m, k, s
    return best, line, seen, weights


def plans(root: State) -> list[tuple[int, ...]]:
    """The plans tried from ``root``, in turn: of the suits whose kings lie one in
    the inner ring and one outside it (:func:`.moves.plan_suits`), all of them
    held (the outer king kept back until the inner one has left the inner
    ring), then each alone."""
    suits = tuple(plan_suits(root))
    out = [suits] if len(suits) > 1 else []
    return out + [(s,) for s in suits]


def courses(
    root: State, hold: tuple[int, ...], followed: int = 0
) -> list[tuple[int, tuple[int, ...]]]:
    """The courses a stalled search takes in turn, as (weights: an index into
    :data:`.beams.PORTFOLIO`, plan): the first is the one it has followed
    (the plain weights under ``hold``); then ``bottom=False`` (deal 28: 34 ->
    52 at widths 500 and 1000, where the plain weights stop at 34 at every
    width up to 8000, stjernen23), each plan of :func:`plans` other than
    ``hold`` (28: the clubs plan alone 51-52), and no plan if ``hold`` is one
    (since :data:`PROBE_TIES` the probe's plan is followed where it merely
    tied with the plain weights, which then still get their turn), then the
    other weights of the portfolio (51: ``horizon=250`` and ``lam=60`` 38
    against 31 at width 500). A fixed list for the position, so the same
    position takes the same courses. With ``followed`` (weights a course probe
    chose, :func:`probe_courses`) those come first and the plain weights under
    ``hold`` second."""
    out = [(0, hold), (6, hold)]
    out += [(0, p) for p in [*plans(root), ()] if p != hold]
    out += [(k, hold) for k in (1, 2, 3, 5, 4)]
    if followed:
        out = [x for x in out if x != (followed, hold)]
        out.insert(0, (followed, hold))
    return out


def _config(
    late_round: int,
    seed: int,
    hold: tuple[int, ...],
    jitter: int,
    weights: tuple[int, ...] | None = None,
    seed_base: int = 0,
) -> BeamConfig:
    """The adaptive beam of restart ``seed`` (1 the first) under the plan ``hold``:
    the weights of ``weights`` (:data:`RESTART_WEIGHTS` if None) in turn, its
    jitter seeded by ``seed_base + seed``."""
    weights = RESTART_WEIGHTS if weights is None else weights
    plain = PORTFOLIO[weights[(seed - 1) % len(weights)]]
    return dataclasses.replace(
        plain,
        adaptive=True,
        late_round=late_round,
        jitter=jitter,
        seed=seed_base + seed,
        weights=dataclasses.replace(plain.weights, hold=hold),
    )


def round_starts(root: State, line: list[int]) -> list[tuple[int, int, State]]:
    """The positions on ``line`` (from ``root``) just after each collect: (round,
    moves played, the position), the root first."""
    st = root.copy()
    out = [(st.round, 0, st.copy())]
    for k, m in enumerate(line):
        st.make(m)
        if m == COLLECT:
            out.append((st.round, k + 1, st.copy()))
    return out


def restarts(
    root: State,
    best: int,
    line: list[int],
    deadline: float,
    clock: Callable[[], float],
    pace: Pace,
    helper: Helper | None,
    min_left: float,
    late_round: int,
    hold: tuple[int, ...] = (),
    weights: tuple[int, ...] | None = None,
    seed_base: int = 0,
    stalled: int = 0,
    followed: int = 0,
) -> tuple[int, list[int], int]:
    """Restart beams along the best line, under the plan ``hold``, until a win or
    less than ``min_left`` of time is left; return (best count, its line,
    positions seen). ``weights`` and ``seed_base``: as :func:`_config`'s;
    ``stalled``: the beams in a row before these that got no further (1 if
    the root's beam did not). After :data:`STALL` of them the next restart
    starts from the root on the next of :func:`courses` (``followed``: the
    weights a course probe chose, as the list's first)."""
    positions = 0
    back = RESTART_BACK
    seed = 0
    todo = courses(root, hold, followed) if STALL else []
    course = 0
    fresh = False
    while best < WON and deadline - clock() >= min_left:
        starts = round_starts(root, line)
        stop = starts[-1][0]
        if STALL and stalled >= STALL:
            course, fresh, stalled = (course + 1) % len(todo), True, 0
        at = starts[0][0] if fresh else max(stop - back, starts[0][0])
        r, k, st = next(x for x in starts if x[0] == at)
        seed += 1
        w, plan = todo[course] if course else (None, hold)
        cfg = _config(
            late_round if r < late_round else 0,
            seed,
            plan,
            RESTART_JITTER,
            weights if w is None else (w,),
            seed_base,
        )
        now = clock()
        # Half of what is left, the last restart all of it.
        end = deadline if deadline - now < 2 * min_left else now + (deadline - now) / 2
        score, moves, seen = beam(st, cfg, end, clock, pace, helper)
        positions += seen
        if score > best:
            best, line = score, line[:k] + moves
            back, stalled = RESTART_BACK, 0
        else:
            stalled += 1
            back = RESTART_BACK if at == starts[0][0] else back + 1
        fresh = False
    return best, line, positions


__all__ = ["BeamConfig", "restarts", "round_starts"]
