"""Only for the optional compiled solver; everything else is in pyproject.toml.

With ``TERMSOLITAIRE_COMPILE=1`` set, the modules listed in
``compiled-modules.txt`` are compiled by mypyc (which needs a C compiler and
Python's headers); without it this adds nothing and the package is pure
Python. A compilation that was asked for and fails stops the install with a
message saying so: it never falls back to pure Python silently.

An editable install (``TERMSOLITAIRE_COMPILE=1 pip install -e .``) compiles in
place: the ``.so`` files land beside the sources in ``src/`` and are imported
in their place, and they do not follow later edits of those sources;
``find src -name '*.so' -delete`` makes the checkout pure Python again
(README, "Faster solver").
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
LIST = HERE / "compiled-modules.txt"
COMPILE_ENV = "TERMSOLITAIRE_COMPILE"
HELP = (
    f"{COMPILE_ENV} is set, so the solver was to be compiled with mypyc, and that failed"
    " ({}). It needs mypy>=1.10, a C compiler and Python's headers (Debian: apt-get install"
    " gcc python3-dev). Unset {} to install the pure-Python solver, which gives the same"
    " answers more slowly."
)


def wanted() -> bool:
    """Asked for, and not just the build backend asking what the build needs (mypy
    is installed after that question: build_backend/termsolitaire_build.py)."""
    asked = os.environ.get(COMPILE_ENV, "").strip() not in ("", "0")
    return asked and not os.environ.get("TERMSOLITAIRE_BUILD_ASKING")


def listed() -> list[str]:
    """The dotted modules of ``compiled-modules.txt``, comments and blanks left out."""
    lines = (line.split("#", 1)[0].strip() for line in LIST.read_text().splitlines())
    return [line for line in lines if line]


def fail(why: object) -> SystemExit:
    return SystemExit(HELP.format(why, COMPILE_ENV))


def module_path(module: str) -> str:
    """``src/...py`` of a dotted module, relative to this directory (as mypyc wants)."""
    rel = Path("src", *module.split("."))
    package = rel / "__init__.py"
    path = package if (HERE / package).is_file() else rel.with_suffix(".py")
    if not (HERE / path).is_file():
        raise fail(f"{LIST.name} names {module}, which has no source")
    return path.as_posix()


class BuildCompiled(build_ext):
    """``build_ext`` whose failures say what was asked and how to do without."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # a missing compiler or header: distutils' errors
            said = str(e).split("\n", 1)[0]  # its command line can be long: the log has it
            said = said if len(said) <= 100 else said[:100] + "..."
            raise fail(f"{type(e).__name__}: {said}; the compiler's messages are above") from e


def ext_modules() -> list[object]:
    if not wanted():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        raise fail(f"cannot import mypyc: {e}") from e
    os.chdir(HERE)  # mypyc reads pyproject's [tool.mypy] and writes build/ here
    # The sources here, not a termsolitaire installed in this Python (a developer's venv).
    os.environ["MYPYPATH"] = str(HERE / "src")
    try:
        return list(mypycify([module_path(m) for m in listed()], group_name="termsolitaire"))
    except SystemExit as e:  # mypyc's own errors (a module that does not type-check)
        if isinstance(e.code, str) and COMPILE_ENV in e.code:
            raise
        raise fail(f"mypyc stopped with {e.code!r}; its messages are above") from e


setup(
    ext_modules=ext_modules(),
    cmdclass={"build_ext": BuildCompiled},
)
