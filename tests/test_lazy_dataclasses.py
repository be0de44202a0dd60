"""A dataclass made while :func:`termsolitaire.lazy_dataclasses.defer` is in effect
compiles its methods other than ``__init__`` at their first call (issue 33, the
local launch) and behaves exactly as one made without it."""

from __future__ import annotations

import copy
import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from termsolitaire import lazy_dataclasses
from termsolitaire.lazy_dataclasses import waiting


@pytest.fixture
def deferring() -> Iterator[None]:
    if not lazy_dataclasses.defer():
        pytest.skip("this Python's dataclasses compile a class's methods in one go")
    try:
        yield
    finally:
        lazy_dataclasses.stop()
    assert not lazy_dataclasses.deferring()


def make_classes() -> tuple[type, type]:
    @dataclass(frozen=True, slots=True, order=True)
    class Card:
        """A frozen value, as rules.cards.Card."""

        rank: int
        suit: str = "S"

    @dataclass
    class Hand:
        cards: list[Card] = field(default_factory=list)
        note: str = ""

        def __post_init__(self) -> None:
            self.note = self.note or f"{len(self.cards)} cards"

    return Card, Hand


def test_a_deferred_dataclass_behaves_as_one_compiled_at_once(deferring: None) -> None:
    Card, Hand = make_classes()
    lazy_dataclasses.stop()
    EagerCard, EagerHand = make_classes()
    for card, eager in ((Card, EagerCard), (Hand, EagerHand)):
        assert card.__doc__ == eager.__doc__  # read from __init__'s signature for Hand
        assert [f.name for f in dataclasses.fields(card)] == [
            f.name for f in dataclasses.fields(eager)
        ]
    a, b = Card(3), Card(3, "H")
    assert repr(a) == repr(EagerCard(3)) == "make_classes.<locals>.Card(rank=3, suit='S')"
    assert a == Card(3) and a != b and b < a and hash(a) == hash(Card(3))
    assert a.__eq__(EagerCard(3)) is NotImplemented
    with pytest.raises(FrozenInstanceError):
        a.rank = 4  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del a.rank  # type: ignore[misc]
    assert dataclasses.replace(a, suit="D") == Card(3, "D")
    assert copy.deepcopy(a) == a and not hasattr(a, "__dict__")
    hand = Hand([a, b])
    assert hand.note == "2 cards" and hand == Hand([a, b], "2 cards")
    assert repr(hand) == repr(EagerHand([EagerCard(3), EagerCard(3, "H")]))
    with pytest.raises(TypeError):
        hash(hand)  # eq without frozen: unhashable, as dataclasses makes it


def test_a_method_is_compiled_at_its_first_call_and_put_in_its_class(deferring: None) -> None:
    Card, _ = make_classes()
    assert not waiting(Card.__init__)  # compiled at once
    assert waiting(Card.__eq__) and waiting(Card.__hash__) and waiting(Card.__repr__)
    assert Card.__eq__.__module__ == __name__  # the class's, as a compiled method's
    assert Card(2) == Card(2)
    assert not waiting(Card.__eq__)  # the method itself, in the class
    assert Card.__eq__.__qualname__.endswith("Card.__eq__")
    assert waiting(Card.__hash__)
    repr(Card(2))
    assert not waiting(Card.__repr__) and repr(Card(2)).endswith("Card(rank=2, suit='S')")


def test_without_a_known_dataclasses_nothing_is_deferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazy_dataclasses, "_CREATE_FN", lambda *a, **kw: None)
    assert lazy_dataclasses.defer() is False
    assert not lazy_dataclasses.deferring()


WITHOUT = """
import dataclasses
del dataclasses._create_fn  # as on Python 3.13, which compiles a class's methods in one go
from termsolitaire import entry, lazy_dataclasses
entry.launching()
print(lazy_dataclasses.deferring())
"""


def test_the_console_script_starts_where_dataclasses_has_no_create_fn() -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-1000:]
    assert done.stdout.split() == ["False"]
