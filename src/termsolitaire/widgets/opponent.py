"""The opponent's side panel beside the match board: plain text, no rules.

Name, score, runs, moves, time left and how their game stands, from a
:class:`~termsolitaire.match.SeatInfo` (a snapshot the screen reads when the
table's revision moves) and ``now`` (the clock ticks between two reads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from termsolitaire.play.session import clock_text

if TYPE_CHECKING:  # plain values handed down by the screen: no match import at run time
    from termsolitaire.match.identity import Player
    from termsolitaire.match.model import SeatInfo

PANEL_WIDTH = 13
"""The side panel's columns: what 80 columns leave beside the narrowest Spider board."""
FINISH = {"cleared": "all cards out", "time": "time ran out", "end": "End pressed"}
"""How a game ended, in the panel and the results."""
COMPUTER_END = "no useful move"
"""The computer's ``end``: it presses no key, it stops when no move gains anything."""


def ended_text(reason: str, player: Player) -> str:
    """How ``player``'s game ended (``reason``), in the panel, the results and over a
    watched board: the computer's End is its having no useful move.

    >>> from termsolitaire.match import Player
    >>> ended_text("end", Player("bob", "bob")), ended_text("end", Player("computer:good", "c"))
    ('End pressed', 'no useful move')
    """
    if reason == "end" and player.is_computer:
        return COMPUTER_END
    return FINISH[reason]


def panel_text(
    info: SeatInfo | None, now: float, *, hidden: bool = False, waiting_for: Player | None = None
) -> str:
    """The side panel: the opponent's name, score, runs, moves, time left and state.

    >>> from termsolitaire.match import Player, SeatInfo
    >>> bob = SeatInfo(2, Player("bob", "bob"), 0.0, 10.0, None, None, 300.0, 12, 1, 30, 31, 0.0)
    >>> print(panel_text(bob, now=70.0))
    bob
    score    12
    runs      1
    moves    30
    left   4:00
    playing
    """
    if info is None:
        if waiting_for is not None:
            return f"{waiting_for.name}\n\nplays after\nyou, on this\nterminal"
        return "Opponent\n\nnobody yet:\nothers may\njoin, or\ninvite one\n(lobby: i)"
    name = info.player.name
    if hidden:
        return f"{name}\n\nresult\nhidden until\nyour game\nhas ended"
    rows = [
        ("score", str(info.score)),
        ("runs", str(info.runs)),
        ("moves", str(info.moves)),
        ("left", clock_text(info.remaining_at(now))),
    ]
    width = PANEL_WIDTH - 2
    lines = [name, *(f"{k}{v:>{width - len(k)}}" for k, v in rows)]
    if info.finished:
        lines += ["ended:", ended_text(info.reason or "end", info.player)]
    elif info.started:
        lines.append("playing")
    else:
        lines.append("not started")
    return "\n".join(lines)
