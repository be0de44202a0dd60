"""Napoleon: a relaxed game that counts the room on the hosts.

:func:`termsolitaire.solver.napoleon.relax.relaxed_lost` lets a card that
leaves its pile rest for good, and lets a host take every guest, even after the
host has gone home. On the positions deep in a lost deal's search, where that
relaxation still finds a win, the real trouble is usually room: the two red
fives have only the two black sixes to wait on, and a six with a five on it can
neither move nor go home. :func:`capacity_lost` plays a relaxed game that keeps
exactly that much.

**The relaxed game.** Each pile is taken down from its top. A card leaves its
place by going home (its suit is one below it) or by being *parked* (it is then
somewhere off its pile, not home); a king that is not at the bottom of its pile
parks only in an empty pile, one pile each, as in the real game. A parked card
may go home at any time its suit allows. Where a card is parked is forgotten,
but two counts are kept for each pair of *twins* (the two cards of one rank and
colour) and their two hosts:

- parking a card needs room: the parked twins of its pair may not outnumber
  its hosts that are *free* (not home, and every card above them in the
  position's piles gone from its place);
- a card moves (leaves its place, or goes home) only if its own parked guests
  fit on its twin: none, or one and the twin is free.

**Why it is sound.** Map a real line onto it: a card leaves its place in the
relaxed game when it first moves in the real one, and goes home when it does.
In the real game a card off its place and not home lies on a host (or is a
king in a pile of its own); each host holds one card, and a host is on top
when that card arrives, so every card above its place has left. So the parked
twins of a pair lie on distinct free hosts, which is the first count; and a
card that moves is on top, so its parked guests lie on its twin, which is the
second. Every real move is allowed in the relaxed game, so a real win is a
relaxed win, and no relaxed win proves the position lost.

The relaxed game has choices (park a card now or later; send a host home now
or keep it for a guest), so it is searched, depth-first with a table of the
relaxed positions found lost; moves that cannot hurt are made without a choice
(a card goes home when both its guests are home). The search stops after
``nodes`` relaxed positions and then proves nothing. It is :mod:`.partial`'s
game with room counted for every card, and :mod:`.partial`'s search plays it.
"""

from __future__ import annotations

from .partial import Partial

NODES = 300
"""Relaxed positions :func:`capacity_lost` looks at before giving up (about
10 ms): deep in a lost deal's search most positions are proved in fewer."""

EVERY_CARD = frozenset(range(52))


def capacity_lost(
    piles: list[bytes], found: list[int], loc: bytearray, idx: bytearray, nodes: int = NODES
) -> bool:
    """Whether the relaxed game of the module notes has no win from this
    position (``True`` proves the position lost); ``False`` when it has one or
    when ``nodes`` relaxed positions were not enough to tell."""
    return Partial(piles, found, loc, idx, EVERY_CARD).lost(nodes) is True
