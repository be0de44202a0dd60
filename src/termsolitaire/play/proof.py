"""A proof of loss kept with the saved game, and trusted again only where it fits.

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

Plain Python, no Textual; the solver's plain module of position keys loads
only to restore a proof.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..rules import Game, Move, from_json

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


def leads_on(won: tuple[Move, ...], line: tuple[Move, ...]) -> bool:
    """Whether the line to the last win found, ``won``, is the start of the line to
    the position proved lost (the way back ``H`` offers), and not all of it."""
    return len(won) < len(line) and line[: len(won)] == won


def parse(text: object) -> tuple[Move, ...] | None:
    """A line kept as move text (None: not one)."""
    if not isinstance(text, str):
        return None
    try:
        return tuple(Move.parse(word) for word in text.split())
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
