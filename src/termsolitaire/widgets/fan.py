"""Which rows a pile draws in a given height: fanning and compressing, no rules.

A pile is a label row, then its cards bottom to top. A fanned pile shows one
row per card (its top edge with rank and suit) and the whole top card. When the
height runs short it saves rows in this order, never hiding a face-up card
that is not implied by its neighbours:

1. face-down cards next to each other become one row with their number;
2. the top card shrinks to its edge row;
3. the middle of a sequence (cards the rules say continue a built sequence,
   given as ``links``) becomes one ``⋮`` row: its first and last cards stay
   visible; when the folds leave room for it, the top card is whole again;
4. last resort: the lowest rows become one ``+N`` row.

Each row also says how many cards from the top a click on it takes (``count``).

>>> from termsolitaire.rules import Card
>>> from termsolitaire.widgets.cards import CardLook
>>> pile = [(Card(5, "S"), False), (Card(9, "H"), True), (Card(8, "H"), True)]
>>> [r.text for r in fan_rows(pile, 6, CardLook())]
['┌▒▒▒┐', '┌9♥─┐', '┌8♥─┐', '│ ♥ │', '└─8♥┘']
>>> [r.count for r in fan_rows(pile, 3, CardLook())]
[3, 2, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

from termsolitaire.rules import Card

from .cards import CardLook

Pile = tuple[tuple[Card, bool], ...] | list[tuple[Card, bool]]


@dataclass(frozen=True, slots=True)
class Row:
    """One drawn row: its text, what it shows and the count a click there takes."""

    text: str
    kind: str  # "edge" "middle" "bottom" "back" "empty" "more"
    count: int
    card: Card | None = None


def fan_rows(
    pile: Pile, height: int, look: CardLook, placeholder: str = "", links: tuple[bool, ...] = ()
) -> list[Row]:
    """The rows of a fanned pile in ``height`` rows (label row not included).

    ``links[i]`` says card ``i`` continues a sequence on card ``i - 1`` (the
    rules' :meth:`~termsolitaire.rules.Game.sequence_links`); such runs fold
    first when rows run short.
    """
    n = len(pile)
    if n == 0:
        return empty_rows(look, placeholder)[:height]
    # Items: ("card", i) / ("down", i, j) a group i..j-1 / ("fold", i, j) / ("more", 0, j)
    items: list[tuple[str, int, int]] = [("card", i, i + 1) for i in range(n)]
    big_top = True

    def size() -> int:
        return len(items) + (2 if big_top else 0)

    if size() > height:
        items = _fold_down(pile)
    if size() > height:
        big_top = False
    while size() > height and _fold_longest(pile, items, links):
        pass
    if not big_top and size() + 2 <= height:  # a fold saved rows enough for it too
        big_top = True
    if size() > height:
        cut = size() - height + 1
        hidden_to = items[cut - 1][2]
        items = [("more", 0, hidden_to), *items[cut:]]
    # Room to spare (a big window): two rows for each face-up card below the top one.
    roomy = look.roomy and len(items) == n and size() + sum(up for _, up in pile[:-1]) <= height
    rows: list[Row] = []
    for kind, i, j in items:
        count = n - i
        if kind == "more":
            rows.append(Row(f"+{j}".center(look.width, "." if look.ascii else "·"), "more", n))
        elif kind == "fold":
            rows.append(
                Row(
                    f"⋮{j - i}".center(look.width)
                    if not look.ascii
                    else f":{j - i}".center(look.width),
                    "more",
                    count,
                )
            )
        elif kind == "down":
            text = str(j - i) if j - i > 1 else ""
            rows.append(Row(look.back("top", text), "back", count))
        else:
            card, up = pile[i]
            if up:
                rows.append(Row(look.edge(card), "edge", count, card))
                if roomy and i < n - 1:
                    rows.append(Row(look.side(), "side", count, card))
            else:
                rows.append(Row(look.back("top"), "back", count))
    if big_top:
        card, up = pile[-1]
        if up:
            rows.append(Row(look.middle(card), "middle", 1, card))
            rows.append(Row(look.edge(card, bottom=True), "bottom", 1, card))
        else:
            rows.append(Row(look.back("middle"), "back", 1))
            rows.append(Row(look.back("bottom"), "back", 1))
    return rows


def _fold_down(pile: Pile) -> list[tuple[str, int, int]]:
    items: list[tuple[str, int, int]] = []
    i, n = 0, len(pile)
    while i < n:
        if not pile[i][1] and i < n - 1:
            j = i
            while j < n - 1 and not pile[j][1]:
                j += 1
            items.append(("down", i, j))
            i = j
        else:
            items.append(("card", i, i + 1))
            i += 1
    return items


def _fold_longest(pile: Pile, items: list[tuple[str, int, int]], links: tuple[bool, ...]) -> bool:
    """Fold the interior of the longest face-up sequence shown card by card."""
    best: tuple[int, int, int] | None = None  # (length, first item, last item)
    k = 0
    while k < len(items):
        if items[k][0] != "card" or not pile[items[k][1]][1]:
            k += 1
            continue
        m = k
        while (
            m + 1 < len(items) - 1  # the top card never folds
            and items[m + 1][0] == "card"
            and pile[items[m + 1][1]][1]
            and items[m + 1][1] == items[m][1] + 1
            and items[m + 1][1] < len(links)
            and links[items[m + 1][1]]
        ):
            m += 1
        if m - k + 1 >= 4 and (best is None or m - k + 1 > best[0]):
            best = (m - k + 1, k, m)
        k = m + 1
    if best is None:
        return False
    _, k, m = best
    items[k + 1 : m] = [("fold", items[k + 1][1], items[m - 1][2])]
    return True


def stack_rows(pile: Pile, look: CardLook, placeholder: str = "", badge: str = "") -> list[Row]:
    """A pile that shows only its top card (cells, foundations, the stock)."""
    if not pile:
        return empty_rows(look, placeholder)
    card, up = pile[-1]
    if not up:
        return [
            Row(look.back("top"), "back", 1),
            Row(look.back("middle", badge), "back", 1),
            Row(look.back("bottom"), "back", 1),
        ]
    return [
        Row(look.edge(card), "edge", 1, card),
        Row(look.middle(card), "middle", 1, card),
        Row(look.edge(card, bottom=True), "bottom", 1, card),
    ]


def empty_rows(look: CardLook, placeholder: str = "") -> list[Row]:
    return [
        Row(look.empty("top"), "empty", 0),
        Row(look.empty("middle", placeholder), "empty", 0),
        Row(look.empty("bottom"), "empty", 0),
    ]
