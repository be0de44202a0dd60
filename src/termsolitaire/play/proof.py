"""What the solver found, kept with the saved game and trusted again only where it fits.

The solver's proof that a position is lost (:class:`~.advice.Advice`'s
``lost_line``) used to live only as long as the board: a game quit and
resumed showed the fair search's "fair: deal next" again on a Stjernen round
already proved lost, until a search proved it once more (lead36). The save
keeps it now, in its ``options`` under ``lost`` (readers that know
nothing of it ignore it, as they ignore every option they do not use)::

    "lost": {"at": 37, "position": "<position text>", "won": "t3-c2 t7-c3 ..."}

``at`` is how many actions of the game's log (undos and redos included) led to
the position proved lost, ``position`` that position's text (API.md), ``won``
(when known) the line of play to the last position a win was found from, for
the way back ``H`` offers.

A proof is trusted again only for the very position it was made for:
:func:`restore` plays the first ``at`` actions of the saved game's own log
from its start and keeps the proof only when the position reached is exactly
``position`` (Spider's score and moves, which count undos, included), not won,
and,
with fair hints on, one with no card face down (a proof that saw face-down
cards is a peek the fair help must not give). Anything else (a save edited by
hand, a proof from another game, moves the rules no longer allow) drops it
silently: the board searches as it would have without it. ``won`` is kept
only as a line of play that leads on to the lost position. The proved
position's key is restored too: reached again by another line of play (a
transposition), ``H`` says it is lost at once, as it did before the quit.

A winning line found (:class:`~.advice.Advice`'s ``plan``) is kept the same
way, under ``won_line``, so a player who quits while following the hints (or
with "winnable" on the status line) gets the verdict and ``H`` at once on
resume, not after a new search::

    "won_line": {"at": 12, "moves": "c5-t5 t4-c1 ...", "rough": false}

``at`` is how many actions of the log led to the position the line starts
from, ``moves`` the line, ``rough`` whether it is a verdict's line, not
shortened (``H`` searches again for a shortened one, as before the quit). A
winning line checks itself: :func:`restore_line` plays it through the rules
core on a copy of the position the first ``at`` actions reach, and keeps it
only when it ends in a won game and still passes the position on the board
(the player may have left it). Whether it saw face-down cards is read from
that start position, not from the file: with fair hints on, a line found
from a position with any card face down is dropped (the fair help must not
use what the player cannot see); with them off it is kept, "winnable with the
cards known" as before. Anything else drops it silently.

Plain Python, no Textual; the solver's plain modules (a position's key, a
:class:`~termsolitaire.solver.Plan`) load only to restore a record.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..rules import Game, Move, from_json, parse_move_list

if TYPE_CHECKING:
    from .advice import Advice


def kept(advice: Advice) -> dict[str, object] | None:
    """What the save keeps of ``advice``'s proof of loss (None: no proof)."""
    line, position = advice.lost_line, advice.lost_text
    if line is None or position is None:
        return None
    record: dict[str, object] = {"at": advice.lost_at, "position": position}
    won = advice.won_from
    if won is not None and leads_on(won, line):
        record["won"] = " ".join(map(str, won))
    return record


def restore(advice: Advice, game: Game, record: object, fair: bool) -> bool:
    """Put the proof ``record`` (read from the save of ``game``) into ``advice``,
    if it is the proof of a position of this game (see the module's notes);
    ``fair``: the help sees only the cards the player sees. Whether it was kept."""
    from .advice import peeks, solver_note

    if not isinstance(record, dict):
        return False
    at, position = record.get("at"), record.get("position")
    if not isinstance(at, int) or isinstance(at, bool) or not isinstance(position, str):
        return False
    proved = reached(game, at)
    if proved is None or proved.to_text() != position or proved.is_won:
        return False
    if fair and peeks(proved):
        return False
    from ..solver.base import position_key

    line = proved.history
    advice.lost_line, advice.lost_text, advice.lost_at = line, position, at
    advice.proved_lost = position_key(proved)  # the same position by another line
    advice.lost_verdict = solver_note(proved, "no longer winnable" if line else "not winnable")
    won = parse(record.get("won"))
    if won is not None and leads_on(won, line):
        advice.won_from = won
    return True


def kept_line(advice: Advice) -> dict[str, object] | None:
    """What the save keeps of ``advice``'s winning line (None: none known)."""
    plan = advice.plan
    if plan is None:
        return None
    return {"at": advice.plan_at, "moves": " ".join(map(str, plan.moves)), "rough": advice.rough}


def restore_line(advice: Advice, game: Game, record: object, fair: bool) -> bool:
    """Put the winning line ``record`` (read from the save of ``game``) into
    ``advice`` if it wins from where it starts and passes the position on the
    board (see the module's notes); ``fair``: the help sees only the cards the
    player sees. Whether it was kept."""
    from ..solver.base import verify
    from .advice import peeks

    if not isinstance(record, dict):
        return False
    at, rough = record.get("at"), record.get("rough")
    if not isinstance(at, int) or isinstance(at, bool) or not isinstance(rough, bool):
        return False
    moves = parse(record.get("moves"))
    start = reached(game, at)
    if moves is None or start is None or not verify(start, moves):
        return False
    peeked = peeks(start)
    if fair and peeked:
        return False
    from ..solver.plan import Plan

    plan = Plan.of(start, moves)
    if plan.remaining(game) is None:
        return False
    advice.plan, advice.rough, advice.plan_peeked, advice.plan_at = plan, rough, peeked, at
    advice.won_from = game.history
    return True


def leads_on(won: tuple[Move, ...], line: tuple[Move, ...]) -> bool:
    """Whether the line to the last win found, ``won``, is the start of the line to
    the position proved lost (the way back ``H`` offers), and not all of it."""
    return len(won) < len(line) and line[: len(won)] == won


def parse(text: object) -> tuple[Move, ...] | None:
    """A line kept as move text (None: not one). Read as a move list, where Spider's
    ``turn t2`` is one move with a blank inside: read word by word, every line
    with a turn in it was dropped."""
    if not isinstance(text, str):
        return None
    try:
        return tuple(parse_move_list(text))
    except ValueError:
        return None


def reached(game: Game, at: int) -> Game | None:
    """The position the first ``at`` actions of ``game``'s log lead to from its
    start (None: the log has fewer). Read back through the game's own JSON, as
    the save is; the game itself when that is all of its log (it is only read)."""
    if not 0 <= at <= len(game.log):
        return None
    if at == len(game.log):
        return game  # quit where the proof was found: no replay
    data = json.loads(game.to_json())
    data["log"] = data["log"][:at]
    try:
        return from_json(json.dumps(data))
    except ValueError:
        return None
