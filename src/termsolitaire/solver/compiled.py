"""Which of the solver's modules run compiled (mypyc), and how to say so.

The solver is pure Python; an install with ``TERMSOLITAIRE_COMPILE=1`` (README:
"Faster solver") compiles the modules listed in the checkout's
``compiled-modules.txt`` with mypyc. Each compiled module is an extension file
beside its ``.py`` source, and Python's import prefers the extension, so which
modules run compiled is read from the files, without importing the solver.
"""

from __future__ import annotations

import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = __name__.rpartition(".")[0]


def _extension_suffix(name: str) -> str | None:
    return next((s for s in EXTENSION_SUFFIXES if name.endswith(s)), None)


def compiled_modules(root: Path | None = None) -> list[str]:
    """The solver's modules that run compiled, sorted: each one already imported
    from an extension file, or not imported yet and with an extension file that
    an import would load (``root``: the solver package's directory, for tests)."""
    base = Path(__file__).resolve().parent if root is None else root
    found: list[str] = []
    for path in base.rglob("*"):
        suffix = _extension_suffix(path.name)
        if suffix is None or not path.is_file():
            continue
        parts = path.relative_to(base).with_name(path.name[: -len(suffix)]).parts
        name = ".".join((PACKAGE, *parts)).removesuffix(".__init__")
        module = sys.modules.get(name) if root is None else None
        if module is None or _extension_suffix(getattr(module, "__file__", None) or ""):
            found.append(name)
    return sorted(found)


def solver_kind(modules: list[str] | None = None) -> str:
    """``compiled (mypyc, N modules)`` or ``pure Python``: for ``--version`` and logs."""
    n = len(compiled_modules() if modules is None else modules)
    if n == 0:
        return "pure Python"
    return f"compiled (mypyc, {n} module{'s' if n != 1 else ''})"
