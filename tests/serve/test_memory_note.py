"""The server's log tells a host on Python 3.11 why a session costs more, and what to run."""

from __future__ import annotations

import pytest

from termsolitaire.serve import immortal, prestart


def test_where_objects_stay_mortal_the_log_names_the_cost_and_the_cure(monkeypatch) -> None:
    monkeypatch.setattr(immortal, "supported", lambda: False)
    monkeypatch.delenv(immortal.IMMORTAL_ENV, raising=False)
    note = prestart.memory_note({"ready": 1, "immortal": 0})
    assert "24 MiB" in note and "3.12 or 3.13" in note and "docs/scaling.md" in note


def test_where_objects_were_made_immortal_the_log_counts_them(monkeypatch) -> None:
    monkeypatch.setattr(immortal, "supported", lambda: True)
    assert prestart.memory_note({"ready": 1, "immortal": 4321}) == "; 4321 objects made immortal"


@pytest.mark.parametrize("supported", [True, False])
def test_a_host_who_turned_immortality_off_is_not_told_to_change_python(
    monkeypatch, supported
) -> None:
    monkeypatch.setattr(immortal, "supported", lambda: supported)
    monkeypatch.setenv(immortal.IMMORTAL_ENV, "0")
    assert prestart.memory_note({"ready": 1, "immortal": 0}) == ""
