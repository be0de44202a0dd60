"""A proof of loss kept with the saved game (``play.proof``): the controller saves
it, a resumed controller trusts it only for the very position it was made for.

The proofs here are the solver's answers handed to the advice as the board
hands them (``Result("lost")`` where the solver proves it: Penguin deal 2 after
LOSING, tests/screens/test_solving.py; Stjernen's LOST_ROUND_5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from termsolitaire.play.controller import Controller
from termsolitaire.play.opening import resumed
from termsolitaire.play.session import GameSession, Services
from termsolitaire.rules import Move, from_text, new_game
from termsolitaire.solver.base import Result
from termsolitaire.storage.saves import decode, encode

from ..screens.test_solving import LOSING
from .test_advice import LOST_ROUND_5


def services(home: Path, fair: bool = True) -> Services:
    found = Services.open(str(home))
    found.settings.set("fair_hints", fair)
    return found


def lost_penguin(home: Path) -> Controller:
    """Penguin deal 2 as the board leaves it: a win found after five moves of
    LOSING, the loss proved after the sixth, saved."""
    c = Controller(GameSession(services(home), new_game("penguin", 2)))
    c.solver = True
    game = c.game
    for text in LOSING[:-1]:
        c.play(Move.parse(text))
    c.advice.take(game, Result("won", ()), game.history)
    c.play(Move.parse(LOSING[-1]))
    c.advice.take(game, Result("lost"), game.history)
    assert c.autosave() is None
    return c


def resume(home: Path, name: str, fair: bool = True) -> Controller:
    """The saved game ``name`` opened again, as the menu's Resume line opens it."""
    found = services(home, fair)
    saved, problem = found.saves.load(name)
    assert saved is not None and problem is None
    c = Controller(resumed(found, saved, None))
    c.solver = True
    return c


def way_back(c: Controller) -> str:
    outcome = c.hint()
    assert outcome.ask is not None, outcome.message
    return outcome.ask.text


def test_a_proof_of_loss_is_resumed_with_the_game(tmp_path: Path) -> None:
    """The verdict and H say after the resume what they said before it, and the
    verdict stands without a search (``keeps_line``: no search needed)."""
    before = lost_penguin(tmp_path)
    said = way_back(before)
    assert said == "No winning line from here.\nA win was found 1 move ago."
    c = resume(tmp_path, "penguin")
    assert [str(m) for m in c.game.history] == LOSING
    assert c.advice.keeps_line(c.game)
    assert c.advice.verdict == "no longer winnable"
    assert way_back(c) == said
    c.undo()  # before the proof: searched for as ever
    assert not c.advice.keeps_line(c.game)


def tampered(record: dict[str, Any], how: str) -> object:
    """The saved proof, changed as a hand (or another game's save) might change it."""
    changed = dict(record)
    if how == "another position":  # the proof of deal 2's start, not of this line
        changed["position"] = new_game("penguin", 2).to_text()
    elif how == "another line":
        changed["at"] = record["at"] - 1
    elif how == "past the log":
        changed["at"] = 99
    elif how == "another game":
        changed["position"] = new_game("penguin", 3).to_text()
    elif how == "not text":
        changed["position"] = 7
    elif how == "a count as text":
        changed["at"] = str(record["at"])
    elif how == "not a record":
        return ["lost"]
    return changed


@pytest.mark.parametrize(
    "how",
    [
        "another position",
        "another line",
        "past the log",
        "another game",
        "not text",
        "a count as text",
        "not a record",
    ],
)
def test_a_proof_that_does_not_fit_its_position_is_dropped(tmp_path: Path, how: str) -> None:
    """The saved proof names the position it proved lost (its text, and the actions
    of the log that led there): the resumed board trusts it only where the game
    reaches exactly that position, and otherwise searches as if there were none
    (and saves none). The proof as saved is trusted (the test would pass on a
    board that trusted none)."""
    lost_penguin(tmp_path)
    path = Services.open(str(tmp_path)).saves.path("penguin")
    saved = decode(path.read_bytes())
    record = saved.options["lost"]
    assert record["at"] == len(LOSING)
    assert resume(tmp_path, "penguin").advice.keeps_line(saved.game)
    options = {**saved.options, "lost": tampered(record, how)}
    path.write_text(encode(saved.game, saved.id, options))
    c = resume(tmp_path, "penguin")
    assert not c.advice.keeps_line(c.game) and not c.advice.is_proved_lost(c.game)
    assert c.advice.way_back(c.game) is None
    assert c.autosave() is None
    assert "lost" not in decode(path.read_bytes()).options


def test_a_proof_that_saw_face_down_cards_is_not_resumed_under_fair_hints(
    tmp_path: Path,
) -> None:
    """Stjernen at the deal, proved lost with the stock's order known (fair hints
    off: "with the cards known"). Resumed with fair hints off, it says so again;
    resumed with them on, it would be a peek the fair help must not give."""
    c = Controller(GameSession(services(tmp_path, fair=False), new_game("stjernen", 5)))
    game = c.game
    c.play(Move.parse("deal"))
    c.advice.take(game, Result("lost"), game.history)
    assert c.advice.verdict == "no longer winnable with the cards known"
    assert c.autosave() is None
    full = resume(tmp_path, "stjernen", fair=False)
    assert full.advice.keeps_line(full.game)
    assert full.advice.verdict == "no longer winnable with the cards known"
    fair = resume(tmp_path, "stjernen", fair=True)
    assert not fair.advice.keeps_line(fair.game)


def test_an_old_save_without_a_proof_loads_and_a_new_one_reads_as_before(
    tmp_path: Path,
) -> None:
    """A save written before proofs were kept (no ``lost`` option) resumes as it
    did, and the proof found afterwards goes into the next save; that save's
    ``lost`` is one option more, beside the time limit a reader of the old
    format reads as before."""
    game = new_game("penguin", 2)
    for text in LOSING:
        game.play(Move.parse(text))
    home = Services.open(str(tmp_path))
    old = encode(game, "g1", {"time_limit": 0})  # as main wrote it
    home.saves.path("penguin").parent.mkdir(parents=True, exist_ok=True)
    home.saves.path("penguin").write_text(old)
    c = resume(tmp_path, "penguin")
    assert c.session.id == "g1" and c.game.to_json() == game.to_json()
    assert not c.advice.keeps_line(c.game)
    c.advice.take(c.game, Result("lost"), c.game.history)
    assert c.autosave() is None
    raw = home.saves.path("penguin").read_bytes()
    payload = json.loads(json.loads(raw)["payload"])
    assert payload["options"]["time_limit"] == 0
    assert payload["options"]["lost"]["at"] == len(LOSING)
    assert resume(tmp_path, "penguin").advice.keeps_line(c.game)


def test_turning_fair_hints_on_keeps_a_proof_that_saw_every_card() -> None:
    """Round 5 of a lost Stjernen game, proved lost with every card in sight, then
    collected (the stock face down): the setting "fair hints" changed on the board
    used to forget the proof, and the fair search then said "fair: deal next". A
    proof that saw no face-down card holds for the fair help too; one that did
    is forgotten when the help turns fair."""
    c = Controller(GameSession(None, from_text(LOST_ROUND_5)))
    game = c.game
    c.play(Move.parse("o1-o2"))
    c.advice.take(game, Result("lost"), game.history)
    c.play(Move.parse("collect"))
    c.help_changed()
    assert c.advice.keeps_line(game) and c.advice.verdict == "no longer winnable"

    c = Controller(GameSession(None, new_game("stjernen", 5)))
    c.play(Move.parse("deal"))
    c.advice.take(c.game, Result("lost"), c.game.history)
    c.help_changed()  # to fair hints (a board without services has them)
    assert not c.advice.keeps_line(c.game)


def test_a_transposition_into_the_proved_position_is_lost_at_once_after_a_resume(
    tmp_path: Path,
) -> None:
    """The proof names its position, not only the line that reached it: the same
    position reached by another order of moves after the resume is lost at once,
    as it was before the quit (it searched again)."""
    lost_penguin(tmp_path)
    c = resume(tmp_path, "penguin")
    for _ in range(3):
        c.undo()
    for text in ("t1-c4", "t5-c6", "t5-c7"):  # LOSING's last three, two swapped
        c.play(Move.parse(text))
    assert [str(m) for m in c.game.history] != LOSING
    assert not c.advice.lost_on_line(c.game) and c.advice.is_proved_lost(c.game)
    outcome = c.hint()
    assert outcome.search is None
    assert outcome.message is not None
    assert outcome.message.startswith("No winning line from here"), outcome.message
