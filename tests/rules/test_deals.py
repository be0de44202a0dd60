"""Deals are the same on every machine: pinned texts, and no dependence on hashing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from termsolitaire.rules import GAMES, info, new_game
from termsolitaire.rules.deal import Pcg32, shuffled

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.txt"))
VARIANTS = {"spider": {"suits": 2}}


def test_pcg32_matches_the_reference_generator():
    # pcg32-global demo of the reference C implementation: seed 42, stream 54.
    rng = Pcg32(42, 54)
    assert [rng.next() for _ in range(6)] == [
        0xA15C02B7,
        0x7B47F409,
        0xBA1D3330,
        0x83D2F293,
        0xBFA4784B,
        0xCBED606E,
    ]


def test_below_is_in_range_and_shuffle_is_a_permutation():
    rng = Pcg32(1, 1)
    assert all(0 <= rng.below(n) < n for n in range(1, 200))
    assert sorted(shuffled(list(range(104)), info("spider").stream, 99)) == list(range(104))
    penguin = info("penguin").stream
    assert shuffled(list(range(52)), penguin, 3) != shuffled(list(range(52)), penguin, 4)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_pinned_deal(path):
    name, deal = path.stem.rsplit("-", 1)
    variant = {}
    if "+" in name:
        name, suits = name.split("+")
        variant = {"suits": int(suits)}
    assert new_game(name, deal=int(deal), **variant).to_text() == path.read_text()


def test_five_deals_pinned_per_open_game():
    stems = [p.stem for p in GOLDEN]
    for name in ("napoleon", "penguin"):
        assert sum(s.startswith(name + "-") for s in stems) >= 5


_SCRIPT = """
import sys
from termsolitaire.rules import new_game
for name in sys.argv[1:]:
    variant = {"suits": 2} if name == "spider" else {}
    for deal in range(10):
        sys.stdout.write(new_game(name, deal=deal, **variant).to_text())
"""


def test_deals_do_not_depend_on_hash_seed():
    games = list(GAMES)
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run(
            [sys.executable, "-c", _SCRIPT, *games],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert outs[0].count("game: ") == 10 * len(games)


@pytest.mark.parametrize("deal", [-1, 1 << 64, "7", True])
def test_a_deal_out_of_range_names_the_range_in_digits(deal):
    """Issue 30: the range a player reads is "0 to 18446744073709551615", never
    ``2**64 - 1``, whichever way the bad deal came in."""
    with pytest.raises(ValueError, match="a whole number from 0 to 18446744073709551615, no") as e:
        new_game("penguin", deal)
    assert "**" not in str(e.value)
    if isinstance(deal, int) and not isinstance(deal, bool):
        with pytest.raises(ValueError, match="18446744073709551615") as e:
            shuffled([1, 2], 0, deal)
        assert "**" not in str(e.value)
