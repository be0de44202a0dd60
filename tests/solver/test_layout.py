"""The solver's layout: one package per game, each declaring its facts once, and
the shared code deriving from the declarations; a game without a solver gets a
clean answer; no import circle inside the solver."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from termsolitaire.cli import main
from termsolitaire.rules import GAMES, new_game, register, registry
from termsolitaire.solver import SolverInfo, find_winnable_deal, has_solver, solve
from termsolitaire.solver.games import declaration
from termsolitaire.solver.plan import cards_home
from termsolitaire.solver.winnable import seconds_per_deal

from ..test_fifth_game import TwoPiles

SOLVER = Path(__file__).parents[2] / "src" / "termsolitaire" / "solver"


@pytest.fixture
def toy() -> Iterator[None]:
    """The fifth game of tests/test_fifth_game.py registered: rules, no solver."""
    register(TwoPiles)
    try:
        yield
    finally:
        registry._CLASSES.pop("toy", None)


@pytest.mark.parametrize("name", GAMES)
def test_every_built_in_game_declares_its_solver(name: str) -> None:
    found = declaration(name)
    assert isinstance(found, SolverInfo) and has_solver(name)
    assert found.bench, "the benchmark takes every game"


def test_what_is_not_a_game_has_no_solver() -> None:
    """The opponent's package sits beside the games' but is not a game's solver."""
    assert not has_solver("opponent")
    assert not has_solver("nosuchgame")


def test_cards_home_and_budgets_come_from_the_declarations() -> None:
    """Spider declares its done runs home (its score counts points); the others
    count what their score does."""
    spider = new_game("spider", deal=1, suits=1)
    for move in solve(spider, 10).moves:
        spider.play(move)
        if spider.pile("done"):
            break
    assert cards_home(spider) == len(spider.pile("done")) == 13 != spider.score
    napoleon = new_game("napoleon", deal=1)
    assert cards_home(napoleon) == napoleon.score == 4
    assert seconds_per_deal("stjernen") == declaration("stjernen").winnable_seconds  # type: ignore[union-attr]


def test_a_game_without_a_solver_gets_a_clean_answer(toy: None, capsys) -> None:
    game = new_game("toy", deal=3)
    assert not has_solver("toy")
    result = solve(game, 1)
    assert result.verdict == "unknown" and result.notes == ("There is no solver for Toy.",)
    assert find_winnable_deal("toy", {}, budget=1, tries=3, seed=1) is None
    assert seconds_per_deal("toy") == 2.0
    assert cards_home(game) == game.score
    assert main(["solve", "toy", "--deal", "3"]) == 2
    assert "no solver for toy" in capsys.readouterr().err


def _imports(path: Path) -> set[str]:
    """The modules of termsolitaire.solver that ``path`` imports, anywhere in it."""
    package = ".".join(path.relative_to(SOLVER.parents[1]).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.removesuffix(".__init__")
        here = package
    else:
        here = package.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = here
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = node.module or ""
            full = (f"{base}.{module}" if module else base) if node.level else module
            out.add(full)
            out.update(f"{full}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("termsolitaire.solver")}


def test_no_import_circle_inside_the_solver() -> None:
    modules = {}
    for path in SOLVER.rglob("*.py"):
        name = ".".join(path.relative_to(SOLVER.parents[1]).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph = {m: {i for i in _imports(p) if i in modules and i != m} for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                pytest.fail("import circle: " + " -> ".join([*trail[trail.index(d) :], d]))
            if d not in state:
                visit(d, [*trail, d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
