"""The optional compiled solver (README, "Faster solver"): what tells which modules
run compiled, the list of modules to compile, and the build that compiles them
only when asked and says so when it cannot."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import re
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

import termsolitaire.solver
from termsolitaire.children import Frames
from termsolitaire.solver import compiled_modules, solver_kind

ROOT = Path(__file__).resolve().parents[2]
SOLVER = Path(termsolitaire.solver.__file__).parent
SUFFIX = EXTENSION_SUFFIXES[0]


def _listed() -> list[str]:
    text = (ROOT / "compiled-modules.txt").read_text()
    return [s for line in text.splitlines() if (s := line.split("#", 1)[0].strip())]


def test_extension_files_are_the_compiled_modules(tmp_path: Path) -> None:
    for rel in ("stjernen/state.py", "stjernen/__init__.py", "napoleon/relax.py"):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text("")
    (tmp_path / f"stjernen/state{SUFFIX}").write_bytes(b"")
    (tmp_path / f"napoleon/relax{SUFFIX}").write_bytes(b"")
    (tmp_path / f"napoleon/__init__{SUFFIX}").write_bytes(b"")
    (tmp_path / "napoleon/cards.c").write_text("")  # a build's leftover, not a module
    found = compiled_modules(tmp_path)
    assert found == [
        "termsolitaire.solver.napoleon",
        "termsolitaire.solver.napoleon.relax",
        "termsolitaire.solver.stjernen.state",
    ]
    assert solver_kind(found) == "compiled (mypyc, 3 modules)"
    assert solver_kind(found[:1]) == "compiled (mypyc, 1 module)"
    assert solver_kind([]) == "pure Python"


def test_a_loaded_module_counts_as_what_it_was_loaded_from() -> None:
    import termsolitaire.solver.napoleon.state
    import termsolitaire.solver.stjernen.state  # noqa: F401

    found = compiled_modules()
    for name, module in list(sys.modules.items()):
        if name.startswith("termsolitaire.solver.") and module is not None:
            compiled = (module.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
            assert (name in found) == compiled, name
    assert solver_kind() == solver_kind(found)


def test_every_listed_module_is_a_solver_module_with_its_source() -> None:
    listed = _listed()
    assert listed and len(set(listed)) == len(listed)
    for name in listed:
        assert name.startswith("termsolitaire.solver."), name
        path = ROOT / "src" / Path(*name.split("."))
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), name


def _backend() -> Any:
    spec = importlib.util.spec_from_file_location(
        "termsolitaire_build", ROOT / "build_backend" / "termsolitaire_build.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_asks_for_mypy_only_when_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    asking = []

    def setuptools_hook(config_settings: object) -> list[str]:
        asking.append(os.environ.get("TERMSOLITAIRE_BUILD_ASKING"))
        return ["wheel"]

    monkeypatch.setattr(backend._setuptools, "get_requires_for_build_wheel", setuptools_hook)
    monkeypatch.setattr(backend._setuptools, "get_requires_for_build_editable", setuptools_hook)
    monkeypatch.delenv("TERMSOLITAIRE_COMPILE", raising=False)
    assert backend.get_requires_for_build_wheel() == ["wheel"]
    monkeypatch.setenv("TERMSOLITAIRE_COMPILE", "0")
    assert backend.get_requires_for_build_editable() == ["wheel"]
    monkeypatch.setenv("TERMSOLITAIRE_COMPILE", "1")
    assert backend.get_requires_for_build_wheel() == ["wheel", "mypy>=1.10"]
    assert backend.get_requires_for_build_editable() == ["wheel", "mypy>=1.10"]

    def metadata_hook(directory: str, config_settings: object = None) -> str:
        asking.append(os.environ.get("TERMSOLITAIRE_BUILD_ASKING"))
        return "termsolitaire.dist-info"

    monkeypatch.setattr(backend._setuptools, "prepare_metadata_for_build_wheel", metadata_hook)
    assert backend.prepare_metadata_for_build_wheel("out") == "termsolitaire.dist-info"
    # setup.py runs for these questions (before mypy is there, or for metadata
    # alone): it must not compile then.
    assert asking == ["1"] * 5 and "TERMSOLITAIRE_BUILD_ASKING" not in os.environ


def test_a_compilation_asked_for_that_cannot_run_stops_the_install_and_says_why() -> None:
    setup = (
        "import sys; sys.modules['mypyc.build'] = None; sys.argv = ['setup.py', '--name'];"
        " exec(compile(open('setup.py').read(), 'setup.py', 'exec'),"
        " {'__file__': 'setup.py', '__name__': '__main__'})"
    )
    env = {**os.environ, "TERMSOLITAIRE_COMPILE": "1"}
    env.pop("TERMSOLITAIRE_BUILD_ASKING", None)
    out = subprocess.run(
        [sys.executable, "-c", setup], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode != 0
    said = " ".join(out.stderr.split())
    assert re.search(r"TERMSOLITAIRE_COMPILE is set, so the solver was to be compiled", said)
    assert "cannot import mypyc" in said and "C compiler" in said, said
    assert "Unset TERMSOLITAIRE_COMPILE to install the pure-Python solver" in said


@dataclasses.dataclass(frozen=True)
class LikeCompiled:
    """A frozen dataclass as mypyc compiles one (Stjernen's ``BeamConfig``): its way
    back from a pickle sets one attribute at a time, which a frozen class refuses."""

    width: int
    name: str
    __mypyc_attrs__ = ("width", "name")

    def __getstate__(self) -> dict[str, object]:
        return {"width": self.width, "name": self.name}

    def __setstate__(self, state: dict[str, object]) -> None:
        for k, v in state.items():
            setattr(self, k, v)


def test_a_compiled_frozen_dataclass_crosses_the_helpers_channel() -> None:
    """Stjernen's search sends its beam's settings to its helper process
    (solver/stjernen/pair.py): compiled, they must arrive as sent."""
    r, w = os.pipe()
    try:
        channel = Frames(r, w)
        sent = (LikeCompiled(10, "first"), [((1, 2), 3)])
        channel.send(sent)
        assert channel.receive(timeout=5) == sent
    finally:
        os.close(r)
        os.close(w)
