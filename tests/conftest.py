"""Shared test setup.

NO_COLOR and TEXTUAL_THEME change how Textual draws, so snapshots would differ
from machine to machine: clear both before anything imports textual.
"""

import os

os.environ.pop("NO_COLOR", None)
os.environ.pop("TEXTUAL_THEME", None)

from hypothesis import settings

# Long property and fuzz runs: TERMSOLITAIRE_FULL=1 asks for the full size;
# CI takes a smaller sample so the whole suite stays within minutes.
settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("full", max_examples=1000, deadline=None)
settings.load_profile("full" if os.environ.get("TERMSOLITAIRE_FULL") else "ci")

FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory, monkeypatch):
    """Every test gets its own TERMSOLITAIRE_HOME: no test touches the real data
    directory or sees another test's saves."""
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path_factory.mktemp("home")))
    # No background searches unless a test asks (tests/screens/test_solving.py):
    # they would make snapshots depend on timing and load the machine.
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "0")
