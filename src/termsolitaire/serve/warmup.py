"""The warm process's rehearsal: one headless login before any session is known.

A forked session inherits what its warm process has built. Imports alone leave
every session to parse the same CSS (each screen's ``.tcss``, each widget's
``DEFAULT_CSS``: :class:`~termsolitaire.textual_hooks.SharedStylesheet` keeps
it per process), and to fill the same caches (Rich's styles and cell widths,
Textual's colours and layouts) from empty. :func:`rehearse` runs the app once,
headless, in a scratch data directory, through what a login shows (the match
lobby, the menu, a board of every game) and closes it; its parsed rules and
caches are then in the warm process, frozen with the rest of its heap
(``gc.freeze()``), shared by every child. The code the rehearsal ran is then
copied into pages of its own (:func:`gather_code`): a session writes to the code
it runs, and copies every page it writes to.

The rehearsal leaves no thread, event loop, file or environment variable
behind (the warm process forks only with one thread), and nothing a player's
session would see: it plays no move and its data directory is removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import CodeType, FrameType, FunctionType

from termsolitaire import textual_hooks

SIZE = (80, 24)
"""The rehearsal's terminal (the size a session's first frame is most often)."""
SCRATCH = {
    "TERMSOLITAIRE_SOLVER_HELP": "0",  # no solver worker is started
    "TERMSOLITAIRE_PLAYER_ID": "warm-up",
    "TERMSOLITAIRE_PLAYER": "warm-up",
}


PREFIX = "termsolitaire-warm-"
"""The scratch directories' names: this, the warm process's pid, a dash."""


@contextmanager
def scratch_environment() -> Iterator[str]:
    """A data directory of its own, removed after, and the environment as before.
    Those left by warm processes killed in their rehearsal (a server stopped at
    once) are removed first."""
    sweep_scratch()
    saved = dict(os.environ)
    home = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
    os.environ.update(SCRATCH)
    os.environ["TERMSOLITAIRE_HOME"] = home
    os.environ["TERMSOLITAIRE_MATCH_DIR"] = os.path.join(home, "match")
    os.environ.pop("TERMSOLITAIRE_DATABASE", None)
    try:
        yield home
    finally:
        os.environ.clear()
        os.environ.update(saved)
        shutil.rmtree(home, ignore_errors=True)


def sweep_scratch() -> None:
    """Remove the scratch directories of warm processes that are gone."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(tempfile.gettempdir()):
            owner = entry.name.removeprefix(PREFIX).split("-", 1)[0]
            if entry.name.startswith(PREFIX) and owner.isdigit() and not _alive(int(owner)):
                shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: alive
        return True
    return True


SPECIALIZE = True
"""Whether the rehearsal runs its login a second time, in the gathered code (off:
once, as before issue 33's perf15)."""


def rehearse() -> list[str]:
    """Show the lobby, the menu and every game's board once, headless; what went
    wrong (for the log: a session then builds it itself, as without this). The
    code the rehearsal ran is then gathered in pages of its own
    (:func:`gather_code`), and the login shown once more in that code
    (:data:`SPECIALIZE`): Python 3.11 specializes a function's bytecode after its
    first calls (its inline caches, the versions of the functions it calls) and
    the copies :func:`gather_code` makes start afresh; run once more here, they
    are specialized in the warm process, once, rather than in every session (a
    forked login ran 1% fewer instructions and wrote 0.2 MiB fewer of the warm
    process's pages; the warm process itself grew by 3 MiB, shared)."""
    problems: list[str] = []
    ran: dict[int, CodeType] = {}

    def note(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            ran[id(frame.f_code)] = frame.f_code

    def login(profile: Callable[[FrameType, str, object], None] | None) -> None:
        """The login once, in a scratch home, ``profile`` seeing every call."""
        with scratch_environment() as home:
            sys.setprofile(profile)
            try:
                asyncio.run(_login(home))
            except Exception as e:  # a rehearsal never stops the warm process
                problems.append(f"{type(e).__name__}: {e}")
            finally:
                sys.setprofile(None)
        forget_rendered_screens()

    login(note)
    gather_code(ran.values())
    ran.clear()
    if SPECIALIZE and not problems:
        login(None)
    if threading.active_count() != 1:
        problems.append("threads left running")
    return problems


def forget_rendered_screens() -> None:
    """Let the rehearsal's widgets go. Textual's ``StylesCache.get_inner_outer`` is
    an ``lru_cache`` on a method: it keeps the styles caches it was called on, and
    each of them the lines it drew (some 5,000 strips, 13 MiB). Kept in the warm
    process, they would be no use to a session (its own widgets draw their own
    lines) and a cost: each child's own calls push them out of the cache, and
    freeing them there writes to the pages the child shares with the warm process
    (copied, they count in every session's memory)."""
    cache = getattr(textual_hooks.styles_cache_class(), "get_inner_outer", None)
    clear = getattr(cache, "cache_clear", None)
    if clear is not None:
        clear()


KEPT: list[CodeType] = []
"""The code objects :func:`gather_code` copied, kept where they were."""


def gather_code(ran: Iterable[object]) -> int:
    """Give every function whose code ran in the rehearsal a copy of that code,
    the copies made one after the other, so that they share pages with each other
    rather than with the code of the rest of the program; how many functions.

    A session writes to the code objects it runs (their reference counts at each
    call, the specializing interpreter's counters in their bytecode), and each
    write copies the page it falls on. Where imports left them, the 2,000 code
    objects a login runs (850 KiB) lie spread over 1,200 pages among 13,000 that
    it never runs; gathered, they take 600. The originals are kept: freed, they
    would leave holes in pages the sessions otherwise only read, and a session's
    new objects, put in those holes, would copy those pages.

    A code object that a hot one makes functions from (a closure, a
    comprehension) is copied with it, its copy in the copy's constants."""
    hot = [code for code in ran if isinstance(code, CodeType)]
    wanted = {id(code) for code in hot}
    copies: dict[int, CodeType] = {}

    def copy(code: CodeType) -> CodeType:
        done = copies.get(id(code))
        if done is not None:
            return done
        consts = tuple(
            copy(c) if isinstance(c, CodeType) and id(c) in wanted else c for c in code.co_consts
        )
        copies[id(code)] = made = code.replace(co_consts=consts)
        return made

    for code in hot:
        copy(code)
    moved = 0
    for obj in gc.get_objects():
        if type(obj) is FunctionType:
            made = copies.get(id(obj.__code__))
            if made is not None:
                obj.__code__ = made
                moved += 1
    KEPT.extend(hot)
    return moved


async def _login(home: str) -> None:
    from termsolitaire.app import SolitaireApp
    from termsolitaire.match import MatchStore, current_player
    from termsolitaire.match.services import MatchServices
    from termsolitaire.rules import games
    from termsolitaire.screens.boards import has_board
    from termsolitaire.screens.match.lobby import LobbyScreen

    store = MatchStore(current_player(), None)
    match = MatchServices(store)
    try:
        app = SolitaireApp(
            data_dir=home,
            clock=False,
            first_screen=lambda services, look: LobbyScreen(services, match, look),
        )
        async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
            await pilot.pause()
            await pilot.press("g")
            await pilot.pause()
            await pilot.press("down", "enter")
            await pilot.pause()
    finally:
        match.close()
        store.close()
    for game in games():
        if not has_board(game.name):
            continue
        board = SolitaireApp(game.name, deal=1, data_dir=home, clock=False)
        async with board.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
            await pilot.pause()
