"""Every refusal a mode gives fits the status line at 80 columns (78 with its margins)."""

from __future__ import annotations

import pytest

from termsolitaire.play import modes

POLICIES = [p for p in vars(modes).values() if isinstance(p, modes.Policy)]


def test_every_mode_is_here() -> None:
    assert {p.kind for p in POLICIES} >= {"solo", "match", "daily", "replay", "watch", "view"}


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.kind)
def test_no_refusal_is_cut_on_the_status_line(policy: modes.Policy) -> None:
    for sentence in (policy.refusal, policy.no_help, policy.no_new, policy.no_pause):
        assert len(sentence) <= 78, sentence
