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


WIN_FROM_5 = (
    "c5-t5 t4-c1 t4-c5 t4-c7 c6-t4 c4-t4 t3-c4 t1-t3 t6-c6 c1-t6 t2-c1 t2-t6 t2-f2 c6-f2 "
    "t2-c6 t4-t2:3 c5-t4 t4-t2:2 t4-t6 t1-t4 t1-c5 t1-f2 t3-f2 t3-f2 t1-f2 t1-f4 t7-f4 "
    "t6-t7:4 c7-t6 c5-t6 t7-t3:5 t2-t7:6 c2-t2 t2-t1:2 c3-t2 t5-t2:2 t5-f2 c4-f2 t5-c2 "
    "t5-f2 t5-f4 t5-t1 t7-t1:7 c2-t7 t7-t2:2 t7-f3 t7-f2 c6-f2 t3-t5:6 t3-t4 t3-f3 t1-f3 "
    "t1-f3 t1-f3 t1-f3 t1-f3 t1-f3 t1-f3 t1-f3 t1-f3 t1-f3 t2-t4:6 t6-c4 t6-c5 t6-c2 t6-f4 "
    "t4-f4 t6-f1 c4-f1 c5-f1 t4-f4 t6-f2 c2-f1 t4-f4 c1-f1 t4-f4 t6-f1 t4-f4 t5-f1 t4-f4 "
    "t5-f1 t4-f4 t5-f1 t4-f4 t5-f1 t4-f4 t5-f1 t5-f1"
)
"""Penguin deal 2: the solver's winning line after the first five moves of LOSING
(pinned, as LOSING is), as the save writes it."""


def line(text: str) -> tuple[Move, ...]:
    return tuple(Move.parse(word) for word in text.split())


def winning_penguin(home: Path, followed: int = 2) -> Controller:
    """Penguin deal 2 after five moves of LOSING: a hint's search found WIN_FROM_5
    there, and the player followed its first ``followed`` moves; saved."""
    c = Controller(GameSession(services(home), new_game("penguin", 2)))
    c.solver = True
    game = c.game
    for text in LOSING[:-1]:
        c.play(Move.parse(text))
    c.advice.take(game, Result("won", line(WIN_FROM_5)), game.history)
    for move in line(WIN_FROM_5)[:followed]:
        c.play(move)
    assert c.autosave() is None
    return c


def test_a_winning_line_is_resumed_with_the_game_and_h_needs_no_search(
    tmp_path: Path,
) -> None:
    """A player who quit while following the hints used to wait for a new search
    after the resume: the line is kept with the save, checked, and the verdict and
    the next hint come at once (no ``search`` in H's outcome)."""
    winning_penguin(tmp_path)
    c = resume(tmp_path, "penguin")
    assert c.advice.keeps_line(c.game) and c.advice.verdict == "winnable"
    outcome = c.hint()
    assert outcome.search is None
    assert outcome.message is not None and outcome.message.startswith("Hint: ")
    assert c.hinted == line(WIN_FROM_5)[2]
    c.play(c.hinted)  # followed on: the next one at once too
    assert c.hint().search is None and c.hinted == line(WIN_FROM_5)[3]
    assert c.advice.rest(c.game) == line(WIN_FROM_5)[3:]


def test_a_verdict_s_rough_line_is_resumed_rough() -> None:
    """The verdict's line (not shortened) keeps "winnable" after the resume as it
    did before; H searches for a shortened line, as it did before the quit."""
    from termsolitaire.play import proof
    from termsolitaire.play.advice import Advice

    c = Controller(GameSession(None, new_game("penguin", 2)))
    game = c.game
    for text in LOSING[:-1]:
        c.play(Move.parse(text))
    c.advice.take(game, Result("won", line(WIN_FROM_5)), (), rough=True)
    record = proof.kept_line(c.advice)
    assert record is not None and record["rough"] is True
    advice = Advice()
    assert proof.restore_line(advice, game, json.loads(json.dumps(record)), fair=True)
    assert advice.keeps_line(game) and advice.verdict == "winnable"
    assert advice.rough_here(game) and advice.next_move(game) is None


def changed_line(record: dict[str, Any], how: str) -> object:
    """The saved winning line, changed as a hand (or another game's save) might."""
    changed = dict(record)
    moves = record["moves"].split()
    if how == "one move changed":  # every move still legal, and the game not won
        assert moves[50] == "t3-f3"
        moves[50] = "t3-t1"
        changed["moves"] = " ".join(moves)
    elif how == "a line that no longer wins":  # its last move left out
        changed["moves"] = " ".join(moves[:-1])
    elif how == "a move that is no move":
        changed["moves"] = " ".join([*moves[:3], "t9-x1", *moves[3:]])
    elif how == "another start":
        changed["at"] = record["at"] - 1
    elif how == "past the log":
        changed["at"] = 99
    elif how == "a count as text":
        changed["at"] = str(record["at"])
    elif how == "not text":
        changed["moves"] = moves
    elif how == "rough not said":
        del changed["rough"]
    elif how == "not a record":
        return "won"
    return changed


@pytest.mark.parametrize(
    "how",
    [
        "one move changed",
        "a line that no longer wins",
        "a move that is no move",
        "another start",
        "past the log",
        "a count as text",
        "not text",
        "rough not said",
        "not a record",
    ],
)
def test_a_winning_line_that_does_not_win_is_dropped(tmp_path: Path, how: str) -> None:
    """A winning line checks itself on resume: played through the rules from the
    position it starts at, it must end in a won game. Changed, it is dropped
    without a word: H searches as if there were none, and the next save holds
    none. The line as saved is trusted (the test would pass on a board that
    trusted none)."""
    winning_penguin(tmp_path)
    path = Services.open(str(tmp_path)).saves.path("penguin")
    saved = decode(path.read_bytes())
    record = saved.options["won_line"]
    assert record == {"at": len(LOSING) - 1, "moves": WIN_FROM_5, "rough": False}
    assert resume(tmp_path, "penguin").hint().search is None
    options = {**saved.options, "won_line": changed_line(record, how)}
    path.write_text(encode(saved.game, saved.id, options))
    c = resume(tmp_path, "penguin")
    assert not c.advice.keeps_line(c.game)
    assert c.hint().search == "hint"
    assert c.autosave() is None
    assert "won_line" not in decode(path.read_bytes()).options


def test_a_line_off_the_board_s_position_is_not_resumed(tmp_path: Path) -> None:
    """The player left the winning line before the save: a line that no longer
    passes the board's position is no help there, and is not restored."""
    c = winning_penguin(tmp_path, followed=0)
    assert c.play(Move.parse("t4-c1")).moved  # the line's second move, played first
    assert c.advice.rest(c.game) is None
    assert c.autosave() is None
    path = Services.open(str(tmp_path)).saves.path("penguin")
    assert decode(path.read_bytes()).options["won_line"]["at"] == len(LOSING) - 1
    resumed_c = resume(tmp_path, "penguin")
    assert resumed_c.advice.plan is None and resumed_c.hint().search == "hint"


STJERNEN_WIN = "deal u1-f4 o4-f4 o4-f4 o4-f4 u2-f2 u2-f2 o2-f2 o2-f2 o2-f2 c-f2 c-f2"
"""The solver's winning line from NEAR_THE_END (its stock face down)."""


def test_a_winning_line_that_saw_face_down_cards_is_kept_only_without_fair_hints(
    tmp_path: Path,
) -> None:
    """Stjernen near its end, the last stock face down: a line found with fair
    hints off saw those cards. Resumed with them off it is "winnable with the
    cards known" and H's deal comes at once; with them on it would be a peek, and
    the fair search is asked instead."""
    from .test_controller import NEAR_THE_END

    c = Controller(GameSession(services(tmp_path, fair=False), from_text(NEAR_THE_END)))
    game = c.game
    c.advice.take(game, Result("won", line(STJERNEN_WIN)), ())
    assert c.advice.plan_peeked
    assert c.autosave() is None
    full = resume(tmp_path, "stjernen", fair=False)
    assert full.advice.keeps_line(full.game)
    assert full.advice.verdict == "winnable with the cards known"
    assert full.hint().search is None and full.hinted == Move.parse("deal")
    fair = resume(tmp_path, "stjernen", fair=True)
    assert not fair.advice.keeps_line(fair.game)
    assert fair.hint().search == "hint"


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


SPIDER_TURNING = ["t2-t5", "t5-t1:2", "t6-t9", "turn t2"]
"""1-suit Spider deal 3: the start of the solver's winning line, a turn among it."""


def spider_after(home: Path, moves: list[str]) -> Controller:
    """1-suit Spider deal 3 with fair hints off, ``moves`` played."""
    c = Controller(GameSession(services(home, fair=False), new_game("spider", 3, suits=1)))
    c.solver = True
    for text in moves:
        assert c.play(Move.parse(text)).moved, text
    return c


def test_a_spider_line_with_turns_in_it_is_resumed(tmp_path: Path) -> None:
    """Spider's ``turn t2`` is one move with a blank inside: the line is read back
    as a move list, not word by word (which dropped every line with a turn). Found
    with face-down cards, it is kept with fair hints off only."""
    from termsolitaire.solver import Budget, solve

    c = spider_after(tmp_path, [])
    found = solve(c.game, Budget(seconds=20))
    assert found.verdict == "won" and Move.parse("turn t2") in found.moves
    c.advice.take(c.game, found, ())
    for move in found.moves[:4]:
        c.play(move)
    assert c.autosave() is None
    full = resume(tmp_path, "spider", fair=False)
    assert full.advice.keeps_line(full.game)
    assert full.advice.verdict == "winnable with the cards known"
    assert full.hint().search is None and full.hinted == found.moves[4]
    fair = resume(tmp_path, "spider", fair=True)
    assert not fair.advice.keeps_line(fair.game) and fair.hint().search == "hint"


def test_a_spider_proof_keeps_its_way_back_across_a_turn(tmp_path: Path) -> None:
    """The way back H offers from a proved loss (the line to the last win found,
    kept as ``won``) was read word by word too: in Spider, where a line has a
    turn in it, the resumed H lost "A win was found 1 move ago"."""
    c = spider_after(tmp_path, SPIDER_TURNING)
    game = c.game
    c.advice.take(game, Result("won", ()), game.history)
    c.play(Move.parse("t2-t7"))
    c.advice.take(game, Result("lost"), game.history)
    said = way_back(c)
    assert said.endswith("\nA win was found 1 move ago."), said
    assert c.autosave() is None
    assert way_back(resume(tmp_path, "spider", fair=False)) == said
