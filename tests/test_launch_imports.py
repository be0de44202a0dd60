"""What a board started from the command line imports (issue 33: the local launch).

``termsolitaire GAME --deal N`` runs in a fresh Python, through the command
line's own path (:func:`termsolitaire.cli.main`), with the app made headless at
80x24; once the board's first frame is drawn, the process lists the modules it
has loaded. The first frame needs the chosen game's rules, board and widgets:
not the other games', not the match, not the server, not the menu or the
dialogs, not the statistics (nor SQLite), and (with the solver's help off) not
the solver. With the help on, the game's own solver declaration is loaded for
the footer's Hint key, no other game's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from termsolitaire.rules import GAMES

FIRST_FRAME = """
import json, sys
{imports}
from termsolitaire import cli
from termsolitaire.app import SolitaireApp

def run(self, **kw):
    return super(SolitaireApp, self).run(headless=True, size=(80, 24))

mount = SolitaireApp.on_mount

def on_mount(self):
    mount(self)

    def first_frame():
        screen = self.screen
        if {ready}:
{report}
            self.exit(0)

    self.set_interval(0.01, first_frame)

SolitaireApp.run = run
SolitaireApp.on_mount = on_mount
sys.exit(cli.main(sys.argv[1:]))
"""


def at_first_frame(ready: str, report: str, imports: str = "") -> str:
    """A program that launches the app headless as ``cli.main`` does and, at the first
    frame where ``ready`` holds (an expression of ``screen``), runs ``report``
    (which prints one JSON line) and exits."""
    body = textwrap.indent(textwrap.dedent(report).strip(), " " * 12)
    return FIRST_FRAME.format(imports=imports, ready=ready, report=body)


PROBE = at_first_frame(
    'screen.query("KeyLine") and screen.query("#title")',
    """
    title = str(screen.query_one("#title").text)
    ours = ("termsolitaire", "asyncssh", "textual_serve", "sqlite3")
    mods = sorted(m for m in sys.modules if m.startswith(ours))
    print(json.dumps({"title": title, "modules": mods}))
    """,
)


def first_frame_modules(tmp_path: Path, *argv: str, solver_help: bool = False) -> dict[str, object]:
    return probed(PROBE, tmp_path, *argv, solver_help=solver_help)


NO_TERMINAL_HERE = """
import termsolitaire.commands.play as play
play.no_terminal = lambda: False  # stdin and stdout are pipes; the app runs headless
"""


def probed(
    program: str, tmp_path: Path, *argv: str, solver_help: bool = False, first: str = ""
) -> dict[str, Any]:
    """What ``program`` printed (a JSON line) when it launched the app with ``argv``
    (headless, on pipes: the check for a terminal is let pass; ``first``: lines run
    before anything is imported)."""
    program = first + NO_TERMINAL_HERE + program
    env = {
        "TERMSOLITAIRE_HOME": str(tmp_path),
        "TERMSOLITAIRE_SOLVER_HELP": "1" if solver_help else "0",
        "PATH": "/usr/bin:/bin",
        # the tree under test, as here (not an editable install's elsewhere)
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    done = subprocess.run(
        [sys.executable, "-c", program, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    line = [x for x in done.stdout.splitlines() if x.startswith("{")][-1]
    result: dict[str, Any] = json.loads(line)
    return result


def not_needed(game: str, modules: list[str], solver: bool) -> list[str]:
    """The modules of ``modules`` that a board of ``game`` does not need to draw."""
    others = [g for g in GAMES if g != game]
    unwanted = (
        "termsolitaire.match",
        "termsolitaire.serve",
        "termsolitaire.screens.match",
        "termsolitaire.screens.menu",
        "termsolitaire.screens.dialogs",
        "termsolitaire.screens.settings",
        "termsolitaire.screens.stats",
        "termsolitaire.storage.stats",  # opened when a game ends, not to draw one
        "sqlite3",
        "termsolitaire.screens.boards.replay",
        "termsolitaire.replay",
        "termsolitaire.commands.serve",
        "termsolitaire.commands.match",
        "termsolitaire.commands.web",
        "termsolitaire.commands.solve",
        "termsolitaire.commands.opponent",
        "termsolitaire.commands.db",
        "asyncssh",
        "textual_serve",
        *(f"termsolitaire.rules.{g}" for g in others),
        *(f"termsolitaire.screens.boards.{g}" for g in others),
        *(f"termsolitaire.solver.{g}" for g in others),
        *(() if solver else ("termsolitaire.solver",)),
    )
    return [m for m in modules if any(m == u or m.startswith(u + ".") for u in unwanted)]


@pytest.mark.parametrize("game", GAMES)
def test_a_board_from_the_command_line_loads_only_its_own_game(tmp_path: Path, game: str) -> None:
    got = first_frame_modules(tmp_path, game, "--deal", "5")
    modules = got["modules"]
    assert isinstance(modules, list)
    assert "deal 5" in str(got["title"])  # the board's own first frame was drawn
    assert f"termsolitaire.rules.{game}" in modules
    assert f"termsolitaire.screens.boards.{game}" in modules
    assert not_needed(game, modules, solver=False) == []


def test_with_the_solver_help_on_only_the_games_own_solver_loads(tmp_path: Path) -> None:
    got = first_frame_modules(tmp_path, "--ascii", "spider", "--deal", "5", solver_help=True)
    modules = got["modules"]
    assert isinstance(modules, list)
    assert "termsolitaire.solver.spider" in modules  # the footer offers Hint
    assert not_needed("spider", modules, solver=True) == []


QUIET = """
import gc, sys
from termsolitaire import cli
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
cli._quietly(cli.PLAY)
print(len(collections), gc.isenabled(), gc.get_freeze_count(), "textual" in sys.modules)
"""


def test_the_app_is_imported_without_the_collector_which_then_runs_again() -> None:
    """The launch imports the app (Textual, the screens) with the cyclic collector
    off, then freezes what the imports made: no collection walks them meanwhile
    (some 14 ms of a board's launch), and the collector is on again after."""
    out = subprocess.run([sys.executable, "-c", QUIET], capture_output=True, text=True, check=True)
    during, enabled, frozen, textual = out.stdout.split()
    assert textual == "True"  # the app was imported
    assert during == "0" and enabled == "True"
    assert int(frozen) > 10_000  # what the imports made, out of the collector's way


LAUNCH = """
import gc, json, sys
from termsolitaire import cli, collector
from termsolitaire.app import SolitaireApp

seen = {"collections": 0, "resumed": None}
def counted(phase, info):
    if phase == "start":
        seen["collections"] += 1

gc.callbacks.append(counted)
resume = collector.resume
app = []

def resumed():
    if collector.paused() and seen["resumed"] is None:
        seen["resumed"] = seen["collections"]
        screen = app[0].screen
        seen["painted"] = [type(screen).__name__, getattr(screen, "_painted_at", None) is not None]
    resume()

collector.resume = resumed

def run(self, **kw):
    return super(SolitaireApp, self).run(headless=True, size=(80, 24))

mount = SolitaireApp.on_mount

def on_mount(self):
    app.append(self)
    seen["off at mount"] = not gc.isenabled()
    mount(self)

    def first_frame():
        if seen["resumed"] is not None:
            seen["on after"] = gc.isenabled()
            print(json.dumps(seen))
            self.exit(0)

    self.set_interval(0.01, first_frame)

SolitaireApp.run = run
SolitaireApp.on_mount = on_mount
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_board_launches_with_no_collection_and_the_collector_runs_after(tmp_path: Path) -> None:
    """From the command line to the board's first frame the cyclic collector is off
    (some 6 ms of young collections of what the launch keeps: issue 33), and on
    again once the board is painted."""
    seen = probed(LAUNCH, tmp_path, "penguin", "--deal", "5")
    assert seen["off at mount"] is True
    assert seen["resumed"] == 0  # not one collection before the collector came back
    assert seen["painted"] == ["PenguinScreen", True]  # it came back at the board's paint
    assert seen["on after"] is True


def test_a_command_of_its_own_runs_with_the_collector_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the app's launch waits for its first frame: a subcommand (a long solve,
    the server) runs with the collector on, and it is on after any command."""
    import gc

    from termsolitaire import cli
    from termsolitaire.commands import solve

    during: list[bool] = []
    monkeypatch.setattr(solve, "run", lambda args: during.append(gc.isenabled()) or 0)
    assert cli.main(["solve", "penguin", "--deal", "1"]) == 0
    assert during == [True]
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        cli.main(["no-such-game"])
    assert gc.isenabled()


ENTRY = """
import gc, sys
seen = []

def heard(event, args):
    if event == "import" and args[0] in ("dataclasses", "termsolitaire.cli"):
        seen.append(f"{args[0]}:{gc.isenabled()}")

sys.addaudithook(heard)
sys.argv = ["termsolitaire", "show", "penguin", "--deal", "1"]
from termsolitaire import entry
status = entry.main()
print(status, ",".join(seen), gc.isenabled(), file=sys.stderr)
"""


def test_the_console_script_pauses_the_collector_before_the_command_line_imports() -> None:
    """``termsolitaire`` starts at :func:`termsolitaire.entry.main`: the command line is
    imported with the collector off (its imports set off some fifteen young
    collections), and so are ``dataclasses`` and what it imports (``inspect``,
    ``typing``: some twenty more, for the deferred dataclass methods), and the
    collector is on after the command."""
    import tomllib

    scripts = tomllib.loads(Path("pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["termsolitaire"] == "termsolitaire.entry:main"
    done = subprocess.run(
        [sys.executable, "-c", ENTRY], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("game: penguin\n")  # the position was printed
    imports = "dataclasses:False,termsolitaire.cli:False"
    assert done.stderr.split() == ["0", imports, "True"]


DEFERRED = at_first_frame(
    'screen.query("KeyLine")',
    """
    seen = {"waiting": [], "compiled": []}
    for name, module in list(sys.modules.items()):
        if not name.startswith(("termsolitaire", "textual", "rich")):
            continue
        for kind in list(vars(module).values()):
            if not dataclasses.is_dataclass(kind) or not isinstance(kind, type):
                continue
            if kind.__module__ != name:
                continue
            for method in ("__repr__", "__eq__", "__hash__", "__setattr__"):
                found = vars(kind).get(method)
                at = f"{name}.{kind.__qualname__}.{method}"
                if lazy_dataclasses.waiting(found):
                    seen["waiting"].append(at)
                else:  # compiled by dataclasses from its source
                    code = getattr(getattr(found, "__wrapped__", found), "__code__", None)
                    if code is not None and code.co_filename == "<string>":
                        seen["compiled"].append(at)
    print(json.dumps(seen))
    """,
    imports="import dataclasses\nfrom termsolitaire import lazy_dataclasses",
)


def test_the_console_script_compiles_only_the_dataclass_methods_the_first_frame_calls(
    tmp_path: Path,
) -> None:
    """Started as the console script starts (:func:`termsolitaire.entry.launching`
    before the first import), a board reaches its first frame with the methods
    ``@dataclass`` gave Textual's, Rich's and our classes still waiting for their
    first call (:mod:`termsolitaire.lazy_dataclasses`): compiled at once, they
    were some 7% of the launch's instructions (issue 33)."""
    import dataclasses

    if not hasattr(dataclasses, "_create_fn"):
        pytest.skip("this Python's dataclasses compile a class's methods in one go")
    first = "from termsolitaire import entry\nentry.launching()\n"
    seen = probed(DEFERRED, tmp_path, "penguin", "--deal", "5", first=first)
    waiting, compiled = seen["waiting"], seen["compiled"]
    for method in (
        "termsolitaire.rules.cards.Card.__repr__",
        "termsolitaire.rules.cards.Card.__hash__",
        "termsolitaire.rules.moves.Move.__eq__",
        "termsolitaire.play.modes.Policy.__setattr__",
        "textual.binding.Binding.__repr__",
    ):
        assert method in waiting
    assert len(waiting) > 10 * len(compiled)  # 147 and 1 (CardLook.__eq__) at 80x24
