"""The examples in the UI modules' docstrings run (the suite's doctest path is rules/)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    ["termsolitaire.widgets.cards", "termsolitaire.widgets.fan", "termsolitaire.screens.selection"],
)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
