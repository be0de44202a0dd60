"""The computer's process and its driver: actions at the level's pace by the store's
clock, a child that dies is started again from the stored actions, an engine
that fails is one line for the player, and the child never outlives its input."""

from __future__ import annotations

import asyncio
import atexit
import os
import signal
import time
from collections.abc import Callable

import pytest

from termsolitaire.children import Child
from termsolitaire.match import MatchStore
from termsolitaire.match.computer import ComputerDriver, Engine, computer_player, level_of
from termsolitaire.match.replay import replay
from termsolitaire.match.services import MatchServices, NewGame
from termsolitaire.rules import Game
from termsolitaire.testing.terminal import alive

from ..screens.engine import make
from .conftest import Clock

ENGINE = "tests.screens.engine:make"  # 10 seconds per action


async def pump_until(driver: ComputerDriver, ok: Callable[[], bool], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < end, "timed out"
        driver.pump()
        await asyncio.sleep(0.02)


async def pump_for(driver: ComputerDriver, seconds: float) -> None:
    """Let the event loop (the driver's task) run for ``seconds``, pumping as a screen does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        driver.pump()
        await asyncio.sleep(0.02)


def computer_table(store: Callable[..., MatchStore], engine: str = ENGINE) -> MatchServices:
    match = MatchServices(store("ann"), engine=engine)
    seat = match.open(NewGame(kind="computer", level="beginner", minutes=5))
    seat.start()
    return match


async def test_actions_come_at_the_levels_pace(
    store: Callable[..., MatchStore], clock: Clock
) -> None:
    match = computer_table(store)
    driver = next(iter(match.drivers.values()))
    match.start_driver(driver)
    try:
        assert driver.seat.store.me == computer_player("beginner")
        assert level_of(driver.seat.store.me) == "beginner"
        await pump_for(driver, 2.0)  # the clock stands still: nothing is due
        assert driver.seat.log == []
        clock.advance(10)
        await pump_until(driver, lambda: len(driver.seat.log) == 1)
        clock.advance(9)
        await pump_for(driver, 1.0)
        assert len(driver.seat.log) == 1  # the next one is due 10 s after the first
        clock.advance(1)
        await pump_until(driver, lambda: len(driver.seat.log) == 2)
        info = match.store.table(driver.seat.table_id).seat_of("computer:beginner")
        assert info is not None and info.actions == 2
    finally:
        match.close()


async def test_a_killed_child_is_started_again_from_the_store(
    store: Callable[..., MatchStore], clock: Clock
) -> None:
    match = computer_table(store)
    driver = next(iter(match.drivers.values()))
    match.start_driver(driver)
    try:
        clock.advance(10)
        await pump_until(driver, lambda: len(driver.seat.log) == 1)
        first = driver.pid
        assert first is not None
        # A session of its own: a server's fair share does not count its thinking
        # against the player's app (tests/serve/test_fairshare.py).
        assert os.getsid(first) == first != os.getsid(0)
        os.kill(first, signal.SIGKILL)
        # Its death is seen at once, or once the action it had chosen is played.
        await pump_until(driver, lambda: driver.pid != first or driver.due is not None)
        if driver.pid == first:
            clock.advance(10)
            await pump_until(driver, lambda: driver.pid not in (None, first))
        played = len(driver.seat.log)
        clock.advance(10)
        await pump_until(driver, lambda: len(driver.seat.log) == played + 1)
        assert driver.pid != first and driver.problem is None
        for n in range(len(driver.seat.log)):  # it went on from the stored game
            before = replay(driver.seat.deal, driver.seat.suits, driver.seat.log[:n])
            chosen = make("beginner", before, 0).next_action()  # what the engine plays there
            assert chosen is not None and driver.seat.log[n] == chosen[0]
    finally:
        match.close()


async def test_an_engine_that_fails_is_one_line(
    store: Callable[..., MatchStore], clock: Clock
) -> None:
    match = computer_table(store, engine="tests.match.test_computer:no_such_engine")
    driver = next(iter(match.drivers.values()))
    match.start_driver(driver)
    try:
        await pump_until(driver, lambda: driver.problem is not None)
        assert driver.problem is not None and "\n" not in driver.problem
        assert driver.problem.startswith("The computer opponent could not start")
        assert not driver.running and driver.seat.log == []
    finally:
        match.close()


def test_the_child_ends_when_its_input_closes() -> None:
    child = Child.spawn("termsolitaire.match.computer:main")
    channel = child.lines()
    channel.send({"deal": 1, "suits": 1, "level": "beginner", "engine": ENGINE, "actions": []})
    channel.send("next")
    reply = channel.receive(timeout=30)
    assert set(reply) == {"action", "delay"} and reply["delay"] == 10.0
    child.stop(grace=30)  # its input closes; it ends by itself, well before the grace
    assert child.wait(timeout=40) == 0


@pytest.mark.parametrize("level", ["grandmaster", ""])
def test_unknown_levels_are_refused(level: str) -> None:
    from termsolitaire.match import MatchError

    with pytest.raises(MatchError, match="The computer plays at beginner"):
        computer_player(level)


def test_the_levels_offered_are_the_opponents() -> None:
    from termsolitaire.match.computer import LEVELS
    from termsolitaire.solver import opponent

    assert tuple(opponent.LEVELS) == LEVELS


def slow_to_exit(level: str, game: Game, seed: int) -> Engine:
    """The test engine, in a process that takes 3 s to end once its input closes."""
    atexit.register(time.sleep, 3.0)
    return make(level, game, seed)


async def test_start_and_stop_never_wait_for_the_process(
    store: Callable[..., MatchStore], clock: Clock
) -> None:
    """The event loop (the UI's) is never held by the computer's process: start
    returns before the process is even started, and stop returns while a process
    slow to exit is still running; it is ended (after the grace) and reaped in
    the background while the loop goes on."""
    match = computer_table(store, engine="tests.match.test_computer:slow_to_exit")
    driver = next(iter(match.drivers.values()))
    try:
        match.start_driver(driver)
        assert driver.running and driver.pid is None  # started by the task, not by start()
        clock.advance(10)
        await pump_until(driver, lambda: len(driver.seat.log) == 1)  # its engine is loaded
        pid = driver.pid
        assert pid is not None
        driver.stop()
        assert not driver.running and alive(pid)  # stop did not wait for it
        turns = 0
        end = time.monotonic() + 30
        while os.path.exists(f"/proc/{pid}"):  # until reaped (a zombie has a /proc entry)
            assert time.monotonic() < end, "the stopped process was never reaped"
            await asyncio.sleep(0.01)
            turns += 1
        assert turns > 0  # the loop went on while the process took its time
        assert driver.pid is None and driver.seat.log and driver.problem is None
    finally:
        match.close()
