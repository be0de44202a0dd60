"""The questions the UI asks the rules (issue 10): the screens ask these instead of
keeping a copy of a rule. Each is played and checked against the rule it answers."""

from __future__ import annotations

import pytest

from termsolitaire.rules import Choice, GameInfo, Move, from_text, games, info, new_game, register
from termsolitaire.rules.penguin import Penguin

from .test_spider import position
from .test_stjernen import position as stjernen_position

PENGUIN_5 = new_game("penguin", deal=5).to_text()


def penguin(**piles: str) -> Penguin:
    """Deal 5 (beak A) with the given columns; the other layout cards are dealt
    round the other columns."""
    named = [w for text in piles.values() for w in text.split()]
    layout: list[str] = []
    lines = PENGUIN_5.splitlines()
    for line in lines:
        key, _, value = line.partition(": ")
        if key.startswith("t"):
            layout += [w for w in value.split() if w not in named]
    others = [f"t{i}" for i in range(1, 8) if f"t{i}" not in piles]
    fill = {t: " ".join(layout[k :: len(others)]) for k, t in enumerate(others)}
    out = []
    for line in lines:
        key, _, value = line.partition(": ")
        out.append(f"{key}: {piles.get(key) or fill.get(key) or value}")
    g = from_text("\n".join(out) + "\n")
    assert isinstance(g, Penguin)
    return g


# --------------------------------------------------------------- declarations


def test_every_game_declares_itself_once() -> None:
    names = [g.name for g in games()]
    assert sorted(names) == ["napoleon", "penguin", "spider", "stjernen"]
    assert names == ["stjernen", "penguin", "spider", "napoleon"]  # the menu's order
    assert len({g.stream for g in games()}) == 4
    spider = info("spider")
    assert spider.variants == (Choice("suits", "suit", (1, 2, 4), 1, "1, 2 or 4 suits"),)
    assert spider.time_limits == (0, 5, 10, 15, 20)
    assert all(not g.variants and not g.time_limits for g in games() if g.name != "spider")


def test_a_name_or_stream_is_registered_once() -> None:
    class Twin(Penguin):
        info = GameInfo(name="penguin", title="Twin", blurb="", stream=77)

    with pytest.raises(ValueError, match="already registered"):
        register(Twin)

    class Stream(Penguin):
        info = GameInfo(name="stream", title="Stream", blurb="", stream=2)

    with pytest.raises(ValueError, match="stream 2"):
        register(Stream)


def test_variants_come_from_the_declaration() -> None:
    assert new_game("spider", deal=1).variant == {"suits": 1}
    with pytest.raises(ValueError, match="Penguin has no variants"):
        new_game("penguin", deal=1, suits=2)
    with pytest.raises(ValueError, match=r"Spider is played with suits=1, 2 or 4, not 3"):
        new_game("spider", deal=1, suits=3)


# ----------------------------------------------------------- foundation_move


def test_foundation_move_finds_the_legal_one_or_the_one_meant() -> None:
    g = new_game("penguin", deal=5)
    assert str(g.foundation_move("t4")) == "t4-f2"  # 2♥ on A♥
    # 7♥ cannot go yet: the move meant is to the hearts foundation, refused with its reason.
    assert str(g.foundation_move("t1")) == "t1-f2"
    assert g.why_illegal(g.foundation_move("t1")) == "Next on the ♥ foundation is the 2♥"
    # A named foundation is played there, or refused there (never another one).
    assert str(g.foundation_move("t4", "f1")) == "t4-f1"
    assert "same suit only" in (g.why_illegal(g.foundation_move("t4", "f1")) or "")


def test_stjernen_foundation_move_names_the_foundation_of_the_suit() -> None:
    g = stjernen_position(f1="KC", o4="QC", o1="KD")
    assert str(g.foundation_move("o4")) == "o4-f1"  # clubs are on f1
    assert str(g.foundation_move("o1")) in {"o1-f2", "o1-f3", "o1-f4"}  # K♦ starts one
    # K♦ to the clubs foundation, named: refused there, not played elsewhere.
    move = g.foundation_move("o1", "f1")
    assert str(move) == "o1-f1" and "same suit only" in (g.why_illegal(move) or "")


def test_a_game_without_foundations_has_no_foundation_move() -> None:
    g = new_game("spider", deal=1)
    assert g.foundations == ()
    assert g.why_illegal(g.foundation_move("t1")) is not None


# ------------------------------------------------------ clicks and pick-ups


def test_what_a_click_means() -> None:
    spider = new_game("spider", deal=1)
    assert spider.click_action("stock") == Move.parse("deal")
    assert spider.click_action("t1") is None  # a face-up card: picked up
    down = from_text(
        spider.to_text().replace("t1: ", "t1: ", 1).lower().replace("game: spider", "game: spider")
    )
    assert down.click_action("t1") == Move.turn("t1")  # only face-down cards: turn
    stj = new_game("stjernen", deal=1)
    assert stj.click_action("stock") == Move.parse("deal")
    for _ in range(10):
        stj.play("deal")
    assert stj.click_action("stock") == Move.parse("collect")  # empty stock: collect
    assert new_game("penguin", deal=5).click_action("t1") is None


def test_why_a_pile_cannot_be_picked_up() -> None:
    g = new_game("penguin", deal=5)
    assert g.pick_refusal("f1") == "Cards on the foundations never move"
    assert g.pick_refusal("c1") == "c1 is empty"
    assert g.pick_refusal("t1") is None
    assert new_game("spider", deal=1).pick_refusal("done") == "Completed runs never move"


# ------------------------------------------------------------ runs and ranks


def test_movable_is_the_run_the_build_rule_lets_move() -> None:
    # Penguin wraps: K♦ on A♦ continues a sequence (the beak here is the ace).
    g = penguin(t1="9S AD KD QD")
    assert g.movable("t1") == 3 and g.movable("c1") == 0 and g.movable("f1") == 0
    assert g.sequence_links("t1") == (False, False, True, True)
    # Spider does not wrap, and face-down cards never count.
    s = from_text(new_game("spider", deal=1, suits=1).to_text())
    assert s.movable("t1") == 1
    assert new_game("napoleon", deal=1).movable("p1") == 1


def test_spider_run_stops_at_the_ace() -> None:
    g = position({"t1": "ks as KS QS", "t2": "2S AS KS"})
    assert g.movable("t1") == 2
    assert g.movable("t2") == 1  # K on A is no run in Spider
    assert g.sequence_links("t2") == (False, True, False)


def test_what_an_empty_pile_takes_first() -> None:
    assert new_game("penguin", deal=5).starts_with("t1") == 13  # beak A: a king
    assert new_game("penguin", deal=5).starts_with("f3") == 1
    assert new_game("napoleon", deal=1).starts_with("p1") == 13
    stj = new_game("stjernen", deal=1)
    assert (stj.starts_with("c"), stj.starts_with("f1"), stj.starts_with("o1")) == (1, 13, None)
    assert new_game("spider", deal=1).starts_with("t1") is None


def test_figures_and_moves() -> None:
    g = new_game("napoleon", deal=1)
    assert g.figures() == [("score", "4/52"), ("moves", "0")]
    stj = new_game("stjernen", deal=1)
    stj.play("deal")
    assert stj.figures() == [("score", "0"), ("moves", "1"), ("round", "1/6")]
    s = new_game("spider", deal=1)
    s.play("t2-t5")
    s.undo()
    assert (s.moves, len(s.history)) == (1, 0)  # Spider counts undone moves
